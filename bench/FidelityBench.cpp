// bench_fidelity: leave-one-source-out (core/validation/SourceHoldout.h). Reads the
// measured runs of every file named (validate's format), and for each source prints the
// figures fitted to the other sources of its GPU and the errors of its runs priced on
// them, beside the errors on the preset as shipped; then the median over every held-out
// run. Sources that cannot be held back say why. Deterministic: figures, not timings.
#include "base/Error.h"
#include "base/TextFile.h"
#include "validation/SourceHoldout.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace {

void printSource(const tapestry::HeldOutSource& held)
{
    using namespace tapestry;
    std::printf("\n%s, %s: %zu runs\n", held.source.c_str(), held.gpu.c_str(), held.runNames.size());
    std::printf("  preset as shipped: median %.1f %%, max %.1f %%\n", 100 * held.preset.medianAbsoluteError,
                100 * held.preset.maximumAbsoluteError);
    if (!held.notHeldOut.empty()) {
        std::printf("  not held out: %s\n", held.notHeldOut.c_str());
        return;
    }
    std::printf("  fitted to %zu runs of:", held.fittedRuns);
    for (const std::string& source : held.fittedOn)
        std::printf(" [%s]", source.c_str());
    std::printf("\n");
    for (const FittedFigure& figure : held.fitted)
        std::printf("  fitted %-28s %.4g -> %.4g (+/-%.1f %%)\n", calibrationFigureField(figure.figure), figure.before,
                    figure.after, 100 * figure.standardError);
    for (const KeptFigure& kept : held.kept)
        std::printf("  kept   %s\n", calibrationFigureField(kept.figure));
    std::printf("  held out: median %.1f %%, max %.1f %%\n", 100 * held.heldOut.medianAbsoluteError,
                100 * held.heldOut.maximumAbsoluteError);
    for (std::size_t i = 0; i < held.runNames.size() && i < held.heldOutErrors.size(); ++i)
        std::printf("    %-44s %+7.1f %% -> %+7.1f %%\n", held.runNames[i].c_str(), 100 * held.presetErrors[i],
                    100 * held.heldOutErrors[i]);
}

}  // namespace

int main(int argc, char** argv)
{
    using namespace tapestry;
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_fidelity RUNS.json [MORE.json ...]\n");
        return 2;
    }
    try {
        std::vector<PublishedRun> runs;
        for (int i = 1; i < argc; ++i) {
            std::vector<PublishedRun> more = parsePublishedRuns(readTextFile(argv[i]), argv[i]);
            runs.insert(runs.end(), more.begin(), more.end());
        }
        const std::filesystem::path presets = std::filesystem::path(TAPESTRY_SOURCE_DIR) / "resources" / "clusters";
        const std::vector<HeldOutSource> sources = holdOutEachSource(runs, presets);
        std::printf("leave-one-source-out: each source's runs priced on its GPU's preset with the figures fitted "
                    "(calibrate) to the other sources' runs of that GPU\n");
        for (const HeldOutSource& held : sources)
            printSource(held);
        const ValidationSummary pooled = pooledHeldOutErrors(sources);
        std::printf("\nover the %zu held-out runs: |step error| median %.1f %%, max %.1f %%\n", pooled.priced,
                    100 * pooled.medianAbsoluteError, 100 * pooled.maximumAbsoluteError);
    } catch (const Error& error) {
        std::fprintf(stderr, "bench_fidelity: %s\n", error.what());
        return 1;
    }
    return 0;
}
