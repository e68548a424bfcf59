#pragma once

#include "cluster/Cluster.h"

#include <optional>
#include <span>
#include <string_view>

namespace tapestry {

// The efficiency figures of a cluster that measured runs can calibrate: the shares of
// the peak that GEMMs, fused attention and FP8 GEMMs reach, and the achievable bandwidths
// of the two link classes (cost/KernelTime.h and cluster/CollectiveCost.h say where each
// enters a price). The rest of a cluster file (peaks, HBM, counts, latencies) is read off
// a datasheet, not fitted.
enum class CalibrationFigure { Gemm, Attention, Fp8Gemm, IntraNode, InterNode };

// In the order calibration considers them: the figures that move most runs' steps first.
[[nodiscard]] std::span<const CalibrationFigure> allCalibrationFigures();

// "gemm", "attention", "fp8", "intra", "inter": as `calibrate --fit` names them.
[[nodiscard]] const char* calibrationFigureName(CalibrationFigure figure);
[[nodiscard]] std::optional<CalibrationFigure> calibrationFigureFromName(std::string_view name);
// The cluster file's field: "gpu.achievableFraction", "interNode.bytesPerSecond", ...
[[nodiscard]] const char* calibrationFigureField(CalibrationFigure figure);

[[nodiscard]] double figureValue(const Cluster& cluster, CalibrationFigure figure);
void setFigureValue(Cluster& cluster, CalibrationFigure figure, double value);

// Where a fit may move a figure from its value in `cluster`: a factor 4 either way, a
// share of the peak no higher than 1. Beyond a factor 4 the figure no longer describes
// the hardware the file names: runs that ask for more are mispriced for another reason.
struct FigureRange {
    double low = 0;
    double high = 0;
};
[[nodiscard]] FigureRange figureRange(const Cluster& cluster, CalibrationFigure figure);

}  // namespace tapestry
