#pragma once

#include "calibration/ClusterCalibration.h"
#include "validation/PublishedRun.h"
#include "validation/RunValidation.h"

#include <filesystem>
#include <string>
#include <vector>

namespace tapestry {

// Leave-one-source-out (issue 25, "honest generalization figures"): how the cost model
// prices the runs of one source when no figure was fitted to them. For each source, the
// figures of its GPU's preset are fitted (calibrateCluster, every figure the runs
// constrain) to the runs of the other sources on the same GPU, and the held-back source's
// runs are priced on that fit. A source that is the only one of its GPU, or whose GPU's
// other sources constrain no figure, cannot be held back; the reason says why.
//
// Runs are priced as calibrate prices them: on the cluster as given (PreparedRun::price).

// The publication a run comes from: its `source` up to the first " (" (which starts the
// details: table, commit, container), so that one source's runs group together:
// "Narayanan et al., SC'21", "MosaicML llm-foundry benchmarking README".
[[nodiscard]] std::string publicationOf(const PublishedRun& run);

struct HeldOutSource {
    std::string source;  // publicationOf its runs
    std::string gpu;     // hardware.gpu
    std::vector<std::string> fittedOn;  // the other sources of the GPU, in order of first run
    std::size_t fittedRuns = 0;
    // Empty when the source was held back; else why it could not be (its errors are then
    // those of the preset alone).
    std::string notHeldOut;
    std::vector<FittedFigure> fitted;
    std::vector<KeptFigure> kept;
    std::vector<std::string> runNames;
    std::vector<double> presetErrors;   // each run's relative step error on the preset
    std::vector<double> heldOutErrors;  // on the figures fitted to the other sources (empty when not held out)
    ValidationSummary preset;
    ValidationSummary heldOut;
};

// One entry per (GPU, source) in order of first run. Runs the plan space cannot express
// are left out of fits and summaries. `progress` (may be empty) is told each source
// before it is fitted.
[[nodiscard]] std::vector<HeldOutSource> holdOutEachSource(
    const std::vector<PublishedRun>& runs, const std::filesystem::path& clusterPresets,
    const std::function<void(const std::string& source, const std::string& gpu)>& progress = {});

// Over every held-out run of every source held out (pooled): the figure the issue's
// "leave-one-source-out median" names.
[[nodiscard]] ValidationSummary pooledHeldOutErrors(const std::vector<HeldOutSource>& sources);

}  // namespace tapestry
