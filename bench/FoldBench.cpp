// bench_fold: coarsen + prune time for GPT-3-175B-shaped models at 12, 24, 48 and 96
// layers (synthesized in memory), and import + coarsen + prune of the 96-layer model
// from its ONNX file (the overview's "under 1 s" target). Folding should be
// near-linear in ops while the family count stays constant. Prints min/median/max.
#include "fold/CoarsenPass.h"
#include "fold/PrunePass.h"
#include "graph/Graph.h"
#include "onnx/OnnxExporter.h"
#include "onnx/OnnxImporter.h"
#include "synth/ModelSynthesizer.h"
#include "synth/SynthPresets.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Timing {
    double minMs = 0;
    double medianMs = 0;
    double maxMs = 0;
};

template <class Work>
Timing measure(int runs, Work&& work)
{
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        const auto start = Clock::now();
        work();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    return {ms.front(), ms[ms.size() / 2], ms.back()};
}

}  // namespace

int main(int argc, char** argv)
{
    using namespace tapestry;
    const int runs = argc > 2 && std::string(argv[1]) == "--runs" ? std::max(1, std::atoi(argv[2])) : 9;
    const SynthPreset* preset = findSynthPreset("gpt3-175b");
    if (!preset) {
        std::fprintf(stderr, "bench_fold: preset gpt3-175b missing\n");
        return 1;
    }

    std::printf("coarsen + prune, GPT-3 175B shape (h = 12288), %d runs each\n\n", runs);
    std::printf("%7s %8s %8s %9s %11s %11s %11s %12s\n", "layers", "ops", "coarse", "families", "min ms",
                "median ms", "max ms", "us per op");
    double medianAt12 = 0;
    double medianAt96 = 0;
    double opsAt12 = 0;
    double opsAt96 = 0;
    for (const std::int64_t layers : {12, 24, 48, 96}) {
        ModelSpec spec = preset->spec;
        spec.layers = layers;
        const Graph graph = synthesizeModel(spec, "gpt3-175b");
        std::size_t coarseNodes = 0;
        std::size_t families = 0;
        const Timing t = measure(runs, [&] {
            const CoarseGraph coarse = CoarsenPass{}.apply(graph);
            const FamilyTable table = PrunePass{}.apply(graph, coarse);
            coarseNodes = coarse.nodes.size();
            families = table.families.size();
        });
        std::printf("%7lld %8zu %8zu %9zu %11.2f %11.2f %11.2f %12.2f\n", static_cast<long long>(layers),
                    graph.opCount(), coarseNodes, families, t.minMs, t.medianMs, t.maxMs,
                    1000.0 * t.medianMs / static_cast<double>(graph.opCount()));
        if (layers == 12) {
            medianAt12 = t.medianMs;
            opsAt12 = static_cast<double>(graph.opCount());
        }
        if (layers == 96) {
            medianAt96 = t.medianMs;
            opsAt96 = static_cast<double>(graph.opCount());
        }
    }
    std::printf("\nmedian time at 96 layers / at 12 layers: %.2f (ops ratio %.2f)\n", medianAt96 / medianAt12,
                opsAt96 / opsAt12);

    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "tapestry-bench-fold";
    std::filesystem::create_directories(dir);
    const std::filesystem::path file = dir / "gpt3-175b.onnx";
    writeOnnxModel(synthesizeModel(preset->spec, "gpt3-175b"), file, {});
    const Timing whole = measure(runs, [&] {
        const Graph graph = importOnnxModel(file);
        const CoarseGraph coarse = CoarsenPass{}.apply(graph);
        const FamilyTable table = PrunePass{}.apply(graph, coarse);
        if (table.families.empty())
            std::abort();
    });
    std::printf("\nimport + coarsen + prune of %s: min %.1f ms, median %.1f ms, max %.1f ms (target: under 1000 ms)\n",
                file.c_str(), whole.minMs, whole.medianMs, whole.maxMs);
    std::filesystem::remove_all(dir);
    return 0;
}
