// `tapestry-cli calibrate RUNS.json --cluster NAME|FILE -o CLUSTER.json [--fit LIST]`: a
// cluster's efficiency figures fitted to measured runs (core/calibration).
#include "cli/Commands.h"
#include "cli/ModelContext.h"

#include "base/AtomicFile.h"
#include "base/Error.h"
#include "base/TextFile.h"
#include "calibration/ClusterCalibration.h"
#include "cluster/ClusterFile.h"
#include "validation/PublishedRun.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>
#include <unistd.h>

namespace tapestry::cli {

namespace {

// Each name of the comma-separated `list`, checked.
std::vector<CalibrationFigure> figuresFromList(const std::string& list)
{
    std::vector<CalibrationFigure> figures;
    std::stringstream in(list);
    for (std::string name; std::getline(in, name, ',');) {
        const std::optional<CalibrationFigure> figure = calibrationFigureFromName(name);
        if (!figure) {
            std::vector<std::string> names;
            for (const CalibrationFigure known : allCalibrationFigures())
                names.emplace_back(calibrationFigureName(known));
            throw Error(ErrorCode::InvalidArgument, {}, "--fit: " + choiceError(name, names));
        }
        if (std::find(figures.begin(), figures.end(), *figure) == figures.end())
            figures.push_back(*figure);
    }
    return figures;
}

double errorPercent(double predicted, double measured)
{
    return 100 * relativeError(predicted, measured);
}

void printRuns(const CalibrationResult& result)
{
    std::printf("%-40s %10s %10s %8s %8s %10s\n", "case", "measured", "before", "error", "fitted", "left-out");
    std::printf("%-40s %10s %10s %8s %8s %10s\n", "", "step s", "step s", "", "error", "error");
    for (const CalibratedRun& run : result.runs) {
        if (!run.skipped.empty()) {
            std::printf("%-40s %10.3f   skipped: %s\n", run.name.c_str(), run.measuredSeconds, run.skipped.c_str());
            continue;
        }
        std::printf("%-40s %10.3f %10.3f %+7.1f%% %+7.1f%% %+9.1f%%\n", run.name.c_str(), run.measuredSeconds,
                    run.beforeSeconds, errorPercent(run.beforeSeconds, run.measuredSeconds),
                    errorPercent(run.fittedSeconds, run.measuredSeconds),
                    errorPercent(run.leftOutSeconds, run.measuredSeconds));
    }
}

void printFigures(const CalibrationResult& result)
{
    std::printf("\n");
    for (const FittedFigure& figure : result.fitted)
        std::printf("fitted %-28s %.4g -> %.4g (x%.3f, +/-%.1f %%; %d runs exercise it)\n",
                    calibrationFigureField(figure.figure), figure.before, figure.after, figure.after / figure.before,
                    100 * figure.standardError, figure.runsExercising);
    for (const KeptFigure& kept : result.kept)
        std::printf("kept   %-28s %s\n", calibrationFigureField(kept.figure), kept.reason.c_str());
}

void printSummary(const CalibrationResult& result)
{
    std::printf("\n%zu runs priced, %zu skipped; |step-time error| median %.1f %% -> %.1f %%, max %.1f %% -> %.1f %% "
                "(each run priced on the figures fitted to the others; fitted to all: median %.1f %%, max %.1f %%)\n",
                result.before.priced, result.before.skipped, 100 * result.before.medianAbsoluteError,
                100 * result.leftOut.medianAbsoluteError, 100 * result.before.maximumAbsoluteError,
                100 * result.leftOut.maximumAbsoluteError, 100 * result.fittedIn.medianAbsoluteError,
                100 * result.fittedIn.maximumAbsoluteError);
}

struct Options {
    std::string runs;
    std::string cluster;
    int nodes = 0;
    std::string output;
    std::string fit;
};

int calibrate(const Options& options, const char* argv0)
{
    const Cluster cluster = loadCluster(options.cluster, options.nodes, argv0);
    const std::vector<PublishedRun> runs = parsePublishedRuns(readTextFile(options.runs), options.runs);
    CalibrationRequest request;
    if (!options.fit.empty())
        request.figures = figuresFromList(options.fit);
    if (isatty(STDERR_FILENO)) {
        const auto started = std::chrono::steady_clock::now();
        request.progress = [started](int done, int total) {
            std::fprintf(stderr, "\rcalibrate: %d of %d fits (%.0f s)", done, total,
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
        };
    }
    CalibrationResult result = calibrateCluster(cluster, runs, options.runs, request);
    if (request.progress)
        std::fputs("\r\033[K", stderr);
    if (result.readsPlainFlash)
        std::fprintf(stderr, "%s\n", plainFlashNote(options.runs).c_str());
    // Named as the file is, so that the file dropped into resources/clusters is that preset.
    result.cluster.name = std::filesystem::path(options.output).stem().string();
    writeFileAtomically(options.output, clusterToJson(result.cluster));
    printRuns(result);
    printFigures(result);
    printSummary(result);
    std::printf("wrote %s (cluster %s)\n", options.output.c_str(), result.cluster.name.c_str());
    return 0;
}

}  // namespace

Command declareCalibrate(CLI::App& app, const char* argv0)
{
    auto options = std::make_shared<Options>();
    CLI::App* command = app.add_subcommand(
        "calibrate",
        "fit a cluster's efficiency figures (GEMM and attention shares of the peak, FP8 GEMM share, intra- and "
        "inter-node bandwidth) to your own measured runs (validate's format), print each run's error before and "
        "after (each run priced on the figures fitted to the others) and write the calibrated cluster file; "
        "refuses figures the runs cannot constrain");
    command->add_option("RUNS.json", options->runs, "the measured runs, on the cluster's machines")->required();
    addClusterOptions(*command, options->cluster, options->nodes,
                      "the cluster the runs ran on: a preset (resources/clusters) or a cluster FILE.json");
    command->get_option("--cluster")->required();
    command->add_option("-o,--output", options->output, "the calibrated cluster file to write")
        ->type_name("CLUSTER.json")
        ->required();
    command
        ->add_option("--fit", options->fit,
                     "the figures to fit, comma-separated: gemm, attention, fp8, intra, inter (default: every "
                     "figure the runs constrain; a figure named that they cannot constrain is refused)")
        ->type_name("LIST");
    return {command, [options, argv0] { return calibrate(*options, argv0); }};
}

}  // namespace tapestry::cli
