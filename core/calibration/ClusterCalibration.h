#pragma once

#include "calibration/CalibrationFigure.h"
#include "cluster/Cluster.h"
#include "validation/PublishedRun.h"
#include "validation/RunValidation.h"

#include <functional>
#include <string>
#include <vector>

namespace tapestry {

// Fitting a cluster's efficiency figures (CalibrationFigure) to a user's own measured
// runs (tapestry-cli calibrate). Every price is validate's (PreparedRun), on the cluster
// as given with only the fitted figures changed.
//
// Which figures the runs can constrain, decided before any fit, in the order of
// allCalibrationFigures (a figure is taken when the runs constrain it together with the
// figures taken before it):
// - a run exercises a figure when halving the figure lengthens the run's predicted step
//   by kExercisedShare or more; a figure needs kRunsPerFigure runs that exercise it, so
//   that every leave-one-out fit still has one;
// - n runs fit at most n - 2 figures, so that a fit without any one run stays
//   over-determined;
// - the runs must pin every figure taken within kStandardErrorLimit: one standard error
//   of the least-squares fit linearized at the cluster's figures (LinearizedFit, with
//   each run's elasticity measured by the halving above). It is large when two figures
//   move the runs' steps in the same proportions (GEMM and attention shares over runs of
//   one model shape) or when the runs scatter more than the figures can explain.
// - a figure the fit on every run pushes to the edge of its range (figureRange) is not
//   a property of the hardware but stands in for something mispriced: it is kept (or
//   refused when asked for) and the rest fitted again.
//
// The fit: a compass search (Kolda, Lewis and Torczon, SIAM Review 45(3), 2003) on a
// grid of 1 % steps of each figure's logarithm, from the cluster's values, steps of 64
// grid points halved down to 1, within figureRange; it minimizes the mean over the runs
// of |ln(predicted / measured step)|, which one run far off cannot drag as a square
// would. Deterministic: fixed order of figures and moves, a move taken only when it
// lowers the mean. Each leave-one-out fit runs the same search from the same start
// without its run, which is then priced on what that fit found.
inline constexpr double kExercisedShare = 0.05;
inline constexpr int kRunsPerFigure = 2;
// A fit that pins a figure no closer than the presets' own sources do (their figures are
// borrowed measurements, good to about 10 %) adds nothing but the runs' noise.
inline constexpr double kStandardErrorLimit = 0.1;

struct CalibrationRequest {
    // The figures to fit. Empty: every figure the runs constrain; the others are kept
    // with the reason (CalibrationResult::kept). A figure named here that the runs cannot
    // constrain refuses the whole calibration.
    std::vector<CalibrationFigure> figures;
    // Polled between prices: a cancelled calibration returns at once with `cancelled` set.
    std::function<bool()> cancelled;
    // After each fit: fits done and fits in all (one on every run, one per run left out).
    std::function<void(int done, int total)> progress;
};

struct FittedFigure {
    CalibrationFigure figure = CalibrationFigure::Gemm;
    double before = 0;
    double after = 0;  // fitted on every run
    int runsExercising = 0;
    double standardError = 0;  // relative, of the linearized fit over every run (header)
};

struct KeptFigure {
    CalibrationFigure figure = CalibrationFigure::Gemm;
    std::string reason;  // why the runs cannot constrain it
};

struct CalibratedRun {
    std::string name;
    double measuredSeconds = 0;
    std::string skipped;        // why the run cannot be priced (and is not fitted to)
    double beforeSeconds = 0;   // on the cluster as given
    double fittedSeconds = 0;   // on the figures fitted to every run
    double leftOutSeconds = 0;  // on the figures fitted to every other run
};

struct CalibrationResult {
    // The cluster as given with the fitted figures and a note that says what was fitted
    // from which runs, and the errors before and after.
    Cluster cluster;
    std::vector<FittedFigure> fitted;
    std::vector<KeptFigure> kept;
    std::vector<CalibratedRun> runs;
    ValidationSummary before;   // |step error| on the cluster as given
    ValidationSummary fittedIn; // on the figures fitted to every run (in sample)
    ValidationSummary leftOut;  // each run on the figures fitted to the others
    bool cancelled = false;
    // Some run says plain "flash", read as FlashAttention 1.x: tell the user (plainFlashNote).
    bool readsPlainFlash = false;
};

// Throws Error(CalibrationRefused, runsFile, why) when the runs cannot constrain a figure
// asked for, when no figure can be fitted, and when fewer than 3 runs can be priced. A
// run the plan space cannot express, or of other hardware than the cluster's (its GPUs
// per node, peak or NVLink domain differ), is skipped with the reason. `runs` are the
// cases of `runsFile` in order.
[[nodiscard]] CalibrationResult calibrateCluster(const Cluster& cluster, const std::vector<PublishedRun>& runs,
                                                 const std::string& runsFile, const CalibrationRequest& request);

}  // namespace tapestry
