// `tapestry-cli validate CASES.json [--json]`: the cost model against measured runs.
#include "cli/Commands.h"
#include "cli/ModelContext.h"

#include "base/Error.h"
#include "base/JsonWriter.h"
#include "base/TextFile.h"
#include "validation/ErrorRegimes.h"
#include "validation/PublishedRun.h"
#include "validation/RunValidation.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <unistd.h>

namespace tapestry::cli {

namespace {

constexpr double kGib = 1024.0 * 1024.0 * 1024.0;

void printTextHeader()
{
    std::printf("%-40s %10s %10s %8s %10s %10s %8s\n", "case", "predicted", "measured", "error", "memory", "p+o GiB",
                "meas.");
    std::printf("%-40s %10s %10s %8s %10s %10s %8s\n", "", "step s", "step s", "", "GiB/GPU", "pred.", "GiB");
}

void printTextCase(const PublishedRun& run, const RunPrediction& p)
{
    if (!p.skipped.empty()) {
        std::printf("%-40s %10s %10.3f   skipped: %s\n", run.name.c_str(), "-", run.measured.stepSeconds,
                    p.skipped.c_str());
        return;
    }
    char measuredMemory[32] = "-";
    if (run.measured.memoryGibParametersAndOptimizer)
        std::snprintf(measuredMemory, sizeof measuredMemory, "%.1f", *run.measured.memoryGibParametersAndOptimizer);
    std::printf("%-40s %10.3f %10.3f %+7.1f%% %10.1f %10.1f %8s", run.name.c_str(), p.stepSeconds,
                run.measured.stepSeconds, 100 * relativeError(p.stepSeconds, run.measured.stepSeconds),
                p.memoryBytes / kGib, p.parameterAndOptimizerBytes / kGib, measuredMemory);
    if (p.memoryBytes > p.deviceMemoryBytes)
        std::printf("   above the %.1f GiB the cluster plans with (gpu.hbmBytes, under the card's own): cannot run "
                    "as priced",
                    p.deviceMemoryBytes / kGib);
    std::printf("\n");
}

void printTextSummary(const ValidationSummary& summary, const std::vector<RegimeError>& regimes)
{
    std::printf("\n%zu cases priced, %zu skipped; |step-time error| median %.1f %%, max %.1f %%\n", summary.priced,
                summary.skipped, 100 * summary.medianAbsoluteError, 100 * summary.maximumAbsoluteError);
    if (regimes.empty())
        return;
    std::printf("\n%-10s %-21s %6s %10s %10s %10s\n", "by", "regime", "cases", "median", "max", "mean");
    for (const RegimeError& r : regimes)
        std::printf("%-10s %-21s %6zu %9.1f%% %9.1f%% %+9.1f%%\n", r.dimension.c_str(), r.regime.c_str(), r.cases,
                    100 * r.medianAbsoluteError, 100 * r.maximumAbsoluteError, 100 * r.meanSignedError);
}

// One element of the "cases" array.
std::string caseJson(const PublishedRun& run, const RunPrediction& p)
{
    JsonWriter json;
    json.beginObject().key("name").value(run.name);
    if (p.skipped.empty()) {
        json.key("predicted").beginObject();
        json.key("step_seconds").value(p.stepSeconds);
        json.key("memory_bytes").value(p.memoryBytes);
        json.key("device_memory_bytes").value(p.deviceMemoryBytes);
        json.key("memory_bytes_parameters_and_optimizer").value(p.parameterAndOptimizerBytes);
        json.key("memory_bytes_activations").value(p.activationBytes);
        json.key("micro_steps").value(static_cast<std::int64_t>(p.microSteps));
        json.endObject();
        json.key("relative_error").value(relativeError(p.stepSeconds, run.measured.stepSeconds));
    } else {
        json.key("skipped").value(p.skipped);
    }
    json.key("measured").beginObject();
    json.key("step_seconds").value(run.measured.stepSeconds);
    if (run.measured.memoryGibParametersAndOptimizer)
        json.key("memory_bytes_parameters_and_optimizer").value(*run.measured.memoryGibParametersAndOptimizer * kGib);
    if (run.measured.memoryGibActivationsFirstStage)
        json.key("memory_bytes_activations_first_stage").value(*run.measured.memoryGibActivationsFirstStage * kGib);
    json.endObject();
    json.endObject();
    return json.text();
}

std::string summaryJson(const ValidationSummary& summary, const std::vector<RegimeError>& regimes)
{
    JsonWriter json;
    json.beginObject();
    json.key("priced").value(static_cast<std::uint64_t>(summary.priced));
    json.key("skipped").value(static_cast<std::uint64_t>(summary.skipped));
    json.key("median_absolute_error").value(summary.medianAbsoluteError);
    json.key("maximum_absolute_error").value(summary.maximumAbsoluteError);
    json.key("regimes").beginArray();
    for (const RegimeError& r : regimes) {
        json.beginObject().key("dimension").value(r.dimension).key("regime").value(r.regime);
        json.key("cases").value(static_cast<std::uint64_t>(r.cases));
        json.key("median_absolute_error").value(r.medianAbsoluteError);
        json.key("maximum_absolute_error").value(r.maximumAbsoluteError);
        json.key("mean_signed_error").value(r.meanSignedError);
        json.endObject();
    }
    json.endArray();
    json.endObject();
    return json.text();
}

// Reads every case first, so that a bad one is refused (naming the file and the run)
// before anything is printed; then prices the cases as they are read again and prints each
// at once: memory stays that of the file's text and one case, however many cases it holds.
int validate(const std::string& file, bool asJson, const char* argv0)
{
    const std::filesystem::path presets = clusterPresetFolder(argv0);
    const std::string text = readTextFile(file);
    bool plainFlash = false;
    forEachPublishedRun(text, file, [&](const PublishedRun& run) { plainFlash = plainFlash || namesPlainFlash(run); });
    if (plainFlash)
        std::fprintf(stderr, "%s\n", plainFlashNote(file).c_str());
    // Progress on a terminal that does not show the rows themselves.
    const bool progress = isatty(STDERR_FILENO) && (asJson || !isatty(STDOUT_FILENO));
    const auto started = std::chrono::steady_clock::now();
    auto lastProgress = started;
    std::vector<double> errors;
    ErrorRegimes regimes;
    std::size_t cases = 0;
    std::size_t skipped = 0;
    if (asJson)
        std::fputs("{\n\"cases\": [\n", stdout);
    else
        printTextHeader();
    forEachPublishedRun(text, file, [&](const PublishedRun& run) {
        RunPrediction prediction;
        try {
            prediction = predictRun(run, presets);
        } catch (Error& error) {
            error.addContext("while pricing case '" + run.name + "'");
            throw;
        }
        if (prediction.skipped.empty() && !std::isfinite(prediction.stepSeconds))
            throw Error(ErrorCode::InvalidPublishedRun, file,
                        "cases[" + std::to_string(cases) + "] (" + run.name +
                            "): its step prices to a number that is not finite: the hardware's figures are out of range");
        if (prediction.skipped.empty()) {
            const double error = relativeError(prediction.stepSeconds, run.measured.stepSeconds);
            errors.push_back(std::abs(error));
            regimes.add(run, error);
        } else
            ++skipped;
        if (asJson)
            std::fputs(((cases > 0 ? ",\n" : "") + caseJson(run, prediction)).c_str(), stdout);
        else
            printTextCase(run, prediction);
        ++cases;
        const auto now = std::chrono::steady_clock::now();
        if (progress && now - lastProgress > std::chrono::milliseconds(500)) {
            lastProgress = now;
            std::fprintf(stderr, "\rvalidate: %zu cases priced (%.0f s)", cases,
                         std::chrono::duration<double>(now - started).count());
        }
    });
    if (progress)
        std::fputs("\r\033[K", stderr);
    const ValidationSummary summary = summarizeErrors(std::move(errors), skipped);
    if (asJson)
        std::fputs(("\n],\n\"summary\": " + summaryJson(summary, regimes.summary()) + "}\n").c_str(), stdout);
    else
        printTextSummary(summary, regimes.summary());
    return 0;
}

}  // namespace

Command declareValidate(CLI::App& app, const char* argv0)
{
    struct Options {
        std::string file;
        bool json = false;
    };
    auto options = std::make_shared<Options>();
    CLI::App* command = app.add_subcommand(
        "validate", "price measured training runs (../shared/validation/published-runs.json's format) with the cost "
                    "model: predicted vs measured step time and memory, median and maximum error, overall and by "
                    "regime (GPU, sequence length, GPU count, technique); each case is printed as it is priced "
                    "(progress on a terminal)");
    command->add_option("CASES.json", options->file, "the measured runs")->required();
    command->add_flag("--json", options->json, "print JSON");
    return {command, [options, argv0] { return validate(options->file, options->json, argv0); }};
}

}  // namespace tapestry::cli
