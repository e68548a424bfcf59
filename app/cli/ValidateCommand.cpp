// `tapestry-cli validate CASES.json [--json]`: the cost model against measured runs.
#include "cli/Commands.h"
#include "cli/ModelContext.h"

#include "base/Error.h"
#include "base/JsonWriter.h"
#include "validation/RunValidation.h"

#include <cstdio>
#include <memory>

namespace tapestry::cli {

namespace {

constexpr double kGib = 1024.0 * 1024.0 * 1024.0;

void printText(const std::vector<PublishedRun>& runs, const std::vector<RunPrediction>& predictions,
               const ValidationSummary& summary)
{
    std::printf("%-40s %10s %10s %8s %10s %10s %8s\n", "case", "predicted", "measured", "error", "memory", "p+o GiB",
                "meas.");
    std::printf("%-40s %10s %10s %8s %10s %10s %8s\n", "", "step s", "step s", "", "GiB/GPU", "pred.", "GiB");
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const PublishedRun& run = runs[i];
        const RunPrediction& p = predictions[i];
        if (!p.skipped.empty()) {
            std::printf("%-40s %10s %10.3f   skipped: %s\n", run.name.c_str(), "-", run.measured.stepSeconds,
                        p.skipped.c_str());
            continue;
        }
        char measuredMemory[32] = "-";
        if (run.measured.memoryGibParametersAndOptimizer)
            std::snprintf(measuredMemory, sizeof measuredMemory, "%.1f", *run.measured.memoryGibParametersAndOptimizer);
        std::printf("%-40s %10.3f %10.3f %+7.1f%% %10.1f %10.1f %8s\n", run.name.c_str(), p.stepSeconds,
                    run.measured.stepSeconds, 100 * relativeError(p.stepSeconds, run.measured.stepSeconds),
                    p.memoryBytes / kGib, p.parameterAndOptimizerBytes / kGib, measuredMemory);
    }
    std::printf("\n%zu cases priced, %zu skipped; |step-time error| median %.1f %%, max %.1f %%\n", summary.priced,
                summary.skipped, 100 * summary.medianAbsoluteError, 100 * summary.maximumAbsoluteError);
}

void printJson(const std::vector<PublishedRun>& runs, const std::vector<RunPrediction>& predictions,
               const ValidationSummary& summary)
{
    JsonWriter json;
    json.beginObject();
    json.key("cases").beginArray();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const PublishedRun& run = runs[i];
        const RunPrediction& p = predictions[i];
        json.beginObject().key("name").value(run.name);
        if (p.skipped.empty()) {
            json.key("predicted").beginObject();
            json.key("step_seconds").value(p.stepSeconds);
            json.key("memory_bytes").value(p.memoryBytes);
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
    }
    json.endArray();
    json.key("summary").beginObject();
    json.key("priced").value(static_cast<std::uint64_t>(summary.priced));
    json.key("skipped").value(static_cast<std::uint64_t>(summary.skipped));
    json.key("median_absolute_error").value(summary.medianAbsoluteError);
    json.key("maximum_absolute_error").value(summary.maximumAbsoluteError);
    json.endObject();
    json.endObject();
    std::fputs(json.text().c_str(), stdout);
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
                    "model: predicted vs measured step time and memory, median and maximum error");
    command->add_option("CASES.json", options->file, "the measured runs")->required();
    command->add_flag("--json", options->json, "print JSON");
    return {command, [options, argv0] {
                const std::vector<PublishedRun> runs = readPublishedRuns(options->file);
                const std::filesystem::path presets = clusterPresetFolder(argv0);
                std::vector<RunPrediction> predictions;
                for (const PublishedRun& run : runs) {
                    try {
                        predictions.push_back(predictRun(run, presets));
                    } catch (Error& error) {
                        error.addContext("while pricing case '" + run.name + "'");
                        throw;
                    }
                }
                const ValidationSummary summary = summarizeValidation(runs, predictions);
                if (options->json)
                    printJson(runs, predictions, summary);
                else
                    printText(runs, predictions, summary);
                return 0;
            }};
}

}  // namespace tapestry::cli
