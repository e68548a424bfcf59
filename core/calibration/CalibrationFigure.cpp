#include "calibration/CalibrationFigure.h"

#include <algorithm>
#include <array>

namespace tapestry {

namespace {

constexpr std::array kFigures{CalibrationFigure::Gemm, CalibrationFigure::Attention, CalibrationFigure::Fp8Gemm,
                              CalibrationFigure::IntraNode, CalibrationFigure::InterNode};

// How far a fit may move a figure either way (header).
constexpr double kRangeFactor = 4;

bool isShareOfPeak(CalibrationFigure figure)
{
    return figure == CalibrationFigure::Gemm || figure == CalibrationFigure::Attention ||
           figure == CalibrationFigure::Fp8Gemm;
}

}  // namespace

std::span<const CalibrationFigure> allCalibrationFigures()
{
    return kFigures;
}

const char* calibrationFigureName(CalibrationFigure figure)
{
    switch (figure) {
    case CalibrationFigure::Gemm: return "gemm";
    case CalibrationFigure::Attention: return "attention";
    case CalibrationFigure::Fp8Gemm: return "fp8";
    case CalibrationFigure::IntraNode: return "intra";
    case CalibrationFigure::InterNode: return "inter";
    }
    return "";
}

std::optional<CalibrationFigure> calibrationFigureFromName(std::string_view name)
{
    for (const CalibrationFigure figure : kFigures) {
        if (name == calibrationFigureName(figure))
            return figure;
    }
    return std::nullopt;
}

const char* calibrationFigureField(CalibrationFigure figure)
{
    switch (figure) {
    case CalibrationFigure::Gemm: return "gpu.achievableFraction";
    case CalibrationFigure::Attention: return "gpu.attentionFraction";
    case CalibrationFigure::Fp8Gemm: return "gpu.fp8.achievableFraction";
    case CalibrationFigure::IntraNode: return "intraNode.bytesPerSecond";
    case CalibrationFigure::InterNode: return "interNode.bytesPerSecond";
    }
    return "";
}

double figureValue(const Cluster& cluster, CalibrationFigure figure)
{
    switch (figure) {
    case CalibrationFigure::Gemm: return cluster.gpu.achievableFraction;
    case CalibrationFigure::Attention: return cluster.gpu.attentionFraction;
    case CalibrationFigure::Fp8Gemm: return cluster.gpu.fp8.achievableFraction;
    case CalibrationFigure::IntraNode: return cluster.intraNode.bytesPerSecond;
    case CalibrationFigure::InterNode: return cluster.interNode.bytesPerSecond;
    }
    return 0;
}

void setFigureValue(Cluster& cluster, CalibrationFigure figure, double value)
{
    switch (figure) {
    case CalibrationFigure::Gemm: cluster.gpu.achievableFraction = value; break;
    case CalibrationFigure::Attention: cluster.gpu.attentionFraction = value; break;
    case CalibrationFigure::Fp8Gemm: cluster.gpu.fp8.achievableFraction = value; break;
    case CalibrationFigure::IntraNode: cluster.intraNode.bytesPerSecond = value; break;
    case CalibrationFigure::InterNode: cluster.interNode.bytesPerSecond = value; break;
    }
}

FigureRange figureRange(const Cluster& cluster, CalibrationFigure figure)
{
    const double value = figureValue(cluster, figure);
    FigureRange range{value / kRangeFactor, value * kRangeFactor};
    if (isShareOfPeak(figure))
        range.high = std::min(range.high, 1.0);
    return range;
}

}  // namespace tapestry
