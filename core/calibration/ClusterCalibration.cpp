#include "calibration/ClusterCalibration.h"

#include "base/Error.h"
#include "calibration/LinearizedFit.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

namespace tapestry {

namespace {

// The grid the fit searches: 1 % steps of a figure's logarithm, finer than the few per
// cent by which measured step times of one configuration vary from run to run.
const double kGridStep = std::log(1.01);
// The compass search's first step in grid points (a factor 1.89); halved down to 1.
constexpr int kFirstStep = 64;
// A move must lower the mean |log error| by more than rounding to be taken.
constexpr double kImprovement = 1e-12;

// Thrown from deep inside a fit when the request is cancelled; caught by calibrateCluster.
struct Cancelled {};

using GridPoint = std::vector<int>;

std::string percent(double share)
{
    std::ostringstream text;
    text.precision(share < 0.1 ? 2 : 3);
    text << 100 * share << " %";
    return text.str();
}

std::string figureText(CalibrationFigure figure)
{
    return std::string(calibrationFigureName(figure)) + " (" + calibrationFigureField(figure) + ")";
}

// What runs exercise a figure, for the refusal's advice.
const char* exercisedBy(CalibrationFigure figure)
{
    switch (figure) {
    case CalibrationFigure::Gemm: return "runs whose steps are mostly matrix multiplications";
    case CalibrationFigure::Attention:
        return "runs with fused attention (model.attention other than unfused), at several sequence lengths";
    case CalibrationFigure::Fp8Gemm: return "runs in fp8 or mxfp8";
    case CalibrationFigure::IntraNode:
        return "runs whose collectives inside a node are not hidden by compute (tensor parallelism, small "
               "per-GPU batches)";
    case CalibrationFigure::InterNode: return "runs across nodes whose collectives there are not hidden by compute";
    }
    return "";
}

std::string caseName(const std::vector<PublishedRun>& runs, std::size_t i)
{
    return "cases[" + std::to_string(i) + "] (" + runs[i].name + ")";
}

// Why a run of other hardware than the cluster's cannot calibrate it; empty when it can.
std::string otherHardware(const Cluster& cluster, const PublishedRun& run)
{
    const PublishedRun::Hardware& hardware = run.hardware;
    std::ostringstream text;
    if (hardware.gpusPerNode != cluster.gpusPerNode) {
        text << "hardware.gpus_per_node " << hardware.gpusPerNode << ", but the cluster " << cluster.name << " has "
             << cluster.gpusPerNode;
    } else if (std::abs(hardware.peakTflops * 1e12 / cluster.gpu.peakFlopsPerSecond - 1) > 0.01) {
        // Datasheets round the peak (989 or 989.4 TFLOP/s): within 1 % it is the same GPU.
        text << "hardware.peak_tflops_bf16 " << hardware.peakTflops << ", but the cluster " << cluster.name
             << "'s GPU (" << cluster.gpu.name << ") peaks at " << cluster.gpu.peakFlopsPerSecond / 1e12;
    } else {
        const int domain = cluster.gpusPerNvlinkDomain > 0 ? cluster.gpusPerNvlinkDomain : cluster.gpusPerNode;
        if (hardware.gpusPerNvlinkDomain > 0 && hardware.gpusPerNvlinkDomain != domain)
            text << "hardware.gpus_per_nvlink_domain " << hardware.gpusPerNvlinkDomain << ", but the cluster "
                 << cluster.name << " joins " << domain << " GPUs by NVLink";
    }
    return text.str().empty() ? std::string() : text.str() + ": a run on other hardware";
}

// Step times of the runs on the cluster with the fitted figures at grid points,
// each priced once: the fits on every run and without each run visit mostly the same
// points.
class PriceTable {
public:
    PriceTable(const Cluster& cluster, const std::vector<PreparedRun>& runs, std::vector<CalibrationFigure> figures,
               const std::function<bool()>& cancelled)
        : cluster_(cluster), runs_(runs), figures_(std::move(figures)), cancelled_(cancelled)
    {
        for (const CalibrationFigure figure : figures_) {
            const double value = figureValue(cluster, figure);
            const FigureRange range = figureRange(cluster, figure);
            // Inside the range: a grid point rounded outward would leave it.
            low_.push_back(static_cast<int>(std::ceil(std::log(range.low / value) / kGridStep - 1e-9)));
            high_.push_back(static_cast<int>(std::floor(std::log(range.high / value) / kGridStep + 1e-9)));
        }
    }

    [[nodiscard]] const std::vector<CalibrationFigure>& figures() const { return figures_; }
    [[nodiscard]] int low(std::size_t d) const { return low_[d]; }
    [[nodiscard]] int high(std::size_t d) const { return high_[d]; }

    [[nodiscard]] Cluster clusterAt(const GridPoint& point) const
    {
        Cluster cluster = cluster_;
        for (std::size_t d = 0; d < figures_.size(); ++d)
            setFigureValue(cluster, figures_[d], figureValue(cluster_, figures_[d]) * std::exp(point[d] * kGridStep));
        return cluster;
    }

    double seconds(std::size_t run, const GridPoint& point)
    {
        std::vector<double>& row = table_[point];
        if (row.empty())
            row.assign(runs_.size(), std::numeric_limits<double>::quiet_NaN());
        if (std::isnan(row[run])) {
            if (cancelled_ && cancelled_())
                throw Cancelled{};
            row[run] = runs_[run].price(clusterAt(point)).stepSeconds;
        }
        return row[run];
    }

    // The mean over `runs` of |ln(predicted / measured step)|.
    double meanLogError(const std::vector<std::size_t>& runs, const GridPoint& point)
    {
        double sum = 0;
        for (const std::size_t run : runs)
            sum += std::abs(std::log(seconds(run, point) / runs_[run].run().measured.stepSeconds));
        return sum / static_cast<double>(runs.size());
    }

private:
    const Cluster& cluster_;
    const std::vector<PreparedRun>& runs_;
    std::vector<CalibrationFigure> figures_;
    const std::function<bool()>& cancelled_;
    std::vector<int> low_;
    std::vector<int> high_;
    std::map<GridPoint, std::vector<double>> table_;
};

// The compass search of the header over `runs`, from the cluster's own figures.
GridPoint compassSearch(PriceTable& table, const std::vector<std::size_t>& runs)
{
    const std::size_t dimensions = table.figures().size();
    GridPoint best(dimensions, 0);
    double bestError = table.meanLogError(runs, best);
    for (int step = kFirstStep; step >= 1; step /= 2) {
        for (bool moved = true; moved;) {
            moved = false;
            for (std::size_t d = 0; d < dimensions; ++d) {
                for (const int direction : {1, -1}) {
                    GridPoint trial = best;
                    trial[d] = std::clamp(best[d] + direction * step, table.low(d), table.high(d));
                    if (trial[d] == best[d])
                        continue;
                    const double error = table.meanLogError(runs, trial);
                    if (error < bestError - kImprovement) {
                        best = std::move(trial);
                        bestError = error;
                        moved = true;
                    }
                }
            }
        }
    }
    return best;
}

ValidationSummary summaryOf(const std::vector<CalibratedRun>& runs, double CalibratedRun::*seconds)
{
    std::vector<double> errors;
    std::size_t skipped = 0;
    for (const CalibratedRun& run : runs) {
        if (run.skipped.empty())
            errors.push_back(std::abs(relativeError(run.*seconds, run.measuredSeconds)));
        else
            ++skipped;
    }
    return summarizeErrors(std::move(errors), skipped);
}

std::string shortNumber(double value)
{
    std::ostringstream text;
    text.precision(4);
    text << value;
    return text.str();
}

// The note the calibrated cluster carries: what was fitted from which runs, how well.
std::string calibrationNote(const CalibrationResult& result, const std::string& runsFile)
{
    std::string note = "Calibrated to " + std::to_string(result.before.priced) +
                       " measured runs of " + runsFile + ":";
    for (const FittedFigure& figure : result.fitted)
        note += std::string(" ") + calibrationFigureField(figure.figure) + " " + shortNumber(figure.before) + " -> " +
                shortNumber(figure.after) + " (+/-" + percent(figure.standardError) + ", " +
                std::to_string(figure.runsExercising) + " runs exercise it);";
    for (const KeptFigure& kept : result.kept)
        note += std::string(" ") + calibrationFigureField(kept.figure) + " kept: " + kept.reason + ";";
    note += " |step error| over the runs, each priced on the figures fitted to the others: median " +
            percent(result.before.medianAbsoluteError) + " -> " + percent(result.leftOut.medianAbsoluteError) +
            ", max " + percent(result.before.maximumAbsoluteError) + " -> " +
            percent(result.leftOut.maximumAbsoluteError) + ". Runs:";
    std::string separator = " ";
    for (const CalibratedRun& run : result.runs) {
        if (run.skipped.empty()) {
            note += separator + run.name;
            separator = ", ";
        }
    }
    return note + ".";
}

// One calibration's steps (header), sharing the prepared runs and their prices.
class Calibration {
public:
    Calibration(const Cluster& cluster, const std::vector<PublishedRun>& runs, const std::string& file,
                const CalibrationRequest& request)
        : cluster_(cluster), runs_(runs), file_(file), request_(request)
    {
        result_.cluster = cluster;
    }

    CalibrationResult run()
    {
        try {
            priceAsGiven();
            chooseFigures();
            fit();
        } catch (const Cancelled&) {
            result_.cancelled = true;
            return std::move(result_);
        }
        result_.before = summaryOf(result_.runs, &CalibratedRun::beforeSeconds);
        result_.fittedIn = summaryOf(result_.runs, &CalibratedRun::fittedSeconds);
        result_.leftOut = summaryOf(result_.runs, &CalibratedRun::leftOutSeconds);
        result_.cluster.notes.push_back(calibrationNote(result_, file_));
        return std::move(result_);
    }

private:
    void checkCancelled() const
    {
        if (request_.cancelled && request_.cancelled())
            throw Cancelled{};
    }

    [[noreturn]] void refuse(const std::string& why) const
    {
        throw Error(ErrorCode::CalibrationRefused, file_, why);
    }

    // Why a figure the fit pushed to the edge of its range is kept.
    std::string edgeReason(CalibrationFigure figure, bool low) const
    {
        const FigureRange range = figureRange(cluster_, figure);
        const double value = figureValue(cluster_, figure);
        const std::string asked = low ? "a quarter of its value (" + shortNumber(value) + ") or less"
                                  : range.high < 4 * value ? "all of the peak or more"
                                                           : "four times its value (" + shortNumber(value) + ") or more";
        return "the runs ask for " + asked +
               ": something the figures do not describe is mispriced for these runs, and fitting it would hide that";
    }

    bool chosenByUs() const { return request_.figures.empty(); }

    // A figure the runs cannot constrain: refused when asked for, else kept with why.
    void keep(CalibrationFigure figure, const std::string& reason)
    {
        if (!chosenByUs())
            refuse("the runs cannot constrain " + figureText(figure) + ": " + reason);
        result_.kept.push_back({figure, reason});
    }

    void priceAsGiven()
    {
        for (std::size_t i = 0; i < runs_.size(); ++i) {
            checkCancelled();
            CalibratedRun row;
            row.name = runs_[i].name;
            row.measuredSeconds = runs_[i].measured.stepSeconds;
            row.skipped = otherHardware(cluster_, runs_[i]);
            prepared_.emplace_back(runs_[i]);
            if (row.skipped.empty()) {
                const RunPrediction before = prepared_.back().price(cluster_);
                row.skipped = before.skipped;
                row.beforeSeconds = before.stepSeconds;
            }
            if (row.skipped.empty() && !std::isfinite(row.beforeSeconds))
                row.skipped = "its step prices to a number that is not finite";
            if (row.skipped.empty()) {
                priced_.push_back(i);
                logErrors_.push_back(std::log(row.beforeSeconds / row.measuredSeconds));
            }
            result_.runs.push_back(std::move(row));
        }
        if (priced_.size() >= 3)
            return;
        std::string first;
        for (std::size_t i = 0; i < runs_.size() && first.empty(); ++i) {
            if (!result_.runs[i].skipped.empty())
                first = " (" + caseName(runs_, i) + ": " + result_.runs[i].skipped + ")";
        }
        refuse(std::to_string(priced_.size()) + " of " + std::to_string(runs_.size()) +
               " runs can be priced on the cluster" + first +
               ": a fit of even one figure needs 3 (the fit without any one run must still have more runs than "
               "figures)");
    }

    // d ln step / d ln figure of each priced run, measured by halving the figure.
    std::vector<double> elasticities(CalibrationFigure figure)
    {
        Cluster halved = cluster_;
        setFigureValue(halved, figure, figureValue(cluster_, figure) / 2);
        std::vector<double> column;
        for (std::size_t k = 0; k < priced_.size(); ++k) {
            checkCancelled();
            const std::size_t run = priced_[k];
            const double before = result_.runs[run].beforeSeconds;
            column.push_back(-std::log(prepared_[run].price(halved).stepSeconds / before) / std::log(2.0));
        }
        return column;
    }

    // The linearized fit of `figures` (header), from their elasticity columns.
    LinearizedFit linearized(const std::vector<CalibrationFigure>& figures) const
    {
        std::vector<std::vector<double>> rows(priced_.size());
        for (const CalibrationFigure figure : figures) {
            const std::vector<double>& column = elasticity_.at(figure);
            for (std::size_t k = 0; k < rows.size(); ++k)
                rows[k].push_back(column[k]);
        }
        return linearizedFit(rows, logErrors_);
    }

    // Which figures the runs constrain (header), in the order of allCalibrationFigures.
    void chooseFigures()
    {
        const std::size_t n = priced_.size();
        // Halving lengthens a step by kExercisedShare: its elasticity is at least this.
        const double exercised = std::log1p(kExercisedShare) / std::log(2.0);
        for (const CalibrationFigure figure : allCalibrationFigures()) {
            if (!chosenByUs() &&
                std::find(request_.figures.begin(), request_.figures.end(), figure) == request_.figures.end())
                continue;
            if (figure == CalibrationFigure::Fp8Gemm && !cluster_.gpu.fp8.supported()) {
                keep(figure, "the cluster's GPU has no FP8 rate");
                continue;
            }
            const std::vector<double>& column = elasticity_[figure] = elasticities(figure);
            exercising_[figure] = static_cast<int>(
                std::count_if(column.begin(), column.end(), [&](double e) { return -e >= exercised; }));
            if (exercising_[figure] < kRunsPerFigure) {
                keep(figure, std::to_string(exercising_[figure]) + " of " + std::to_string(n) +
                                 " runs' steps lengthen by " + percent(kExercisedShare) +
                                 " or more when it halves; " + std::to_string(kRunsPerFigure) +
                                 " are needed, so that every fit without one run keeps one (" + exercisedBy(figure) +
                                 " exercise it)");
                continue;
            }
            if (fitted_.size() + 1 > n - 2) {
                keep(figure, std::to_string(n) + " runs fit at most " + std::to_string(n - 2) +
                                 " figures (the fit without any one run must stay over-determined)");
                continue;
            }
            std::vector<CalibrationFigure> trial = fitted_;
            trial.push_back(figure);
            const LinearizedFit fit = linearized(trial);
            const double worst = *std::max_element(fit.standardError.begin(), fit.standardError.end());
            if (!(worst <= std::log1p(kStandardErrorLimit))) {
                std::string with;
                for (const CalibrationFigure taken : fitted_)
                    with += (with.empty() ? "fitted with " : ", ") + std::string(calibrationFigureName(taken));
                const std::string pinned = std::isfinite(worst) ? "pin " + std::string(fitted_.empty() ? "it" : "the figures") +
                                                                      " only to +/-" + percent(std::expm1(worst))
                                                                : "leave " + std::string(fitted_.empty() ? "it" : "the figures") + " free";
                keep(figure, (with.empty() ? "these runs " : with + ", these runs would ") + pinned +
                                 " (one standard error of a least-squares fit linearized at the cluster's figures; "
                                 "+/-" + percent(kStandardErrorLimit) + " is needed): " +
                                 (fitted_.empty() ? "they scatter more than it explains"
                                                  : "the figures move the steps in like proportions, or the runs scatter "
                                                    "more than they explain") +
                                 " (" + exercisedBy(figure) + " constrain it)");
                continue;
            }
            fitted_.push_back(figure);
        }
        refuseWhenNoneFitted();
    }

    void refuseWhenNoneFitted() const
    {
        if (!fitted_.empty())
            return;
        std::string reasons;
        for (const KeptFigure& kept : result_.kept)
            reasons += std::string("; ") + figureText(kept.figure) + ": " + kept.reason;
        refuse("the runs constrain no figure" + reasons);
    }

    // The fit on every run, without the figures it pushes to the edge of their range, and
    // the fit without each run.
    void fit()
    {
        GridPoint all;
        std::unique_ptr<PriceTable> table;
        for (bool atEdge = true; atEdge;) {
            table = std::make_unique<PriceTable>(cluster_, prepared_, fitted_, request_.cancelled);
            all = compassSearch(*table, priced_);
            atEdge = false;
            for (std::size_t d = fitted_.size(); d-- > 0;) {
                if (all[d] != table->low(d) && all[d] != table->high(d))
                    continue;
                const CalibrationFigure figure = fitted_[d];
                const bool low = all[d] == table->low(d);
                keep(figure, edgeReason(figure, low));
                fitted_.erase(fitted_.begin() + static_cast<std::ptrdiff_t>(d));
                atEdge = true;
            }
            refuseWhenNoneFitted();
        }
        const int fits = static_cast<int>(priced_.size()) + 1;
        if (request_.progress)
            request_.progress(1, fits);
        const LinearizedFit linear = linearized(fitted_);
        const Cluster calibrated = table->clusterAt(all);
        for (std::size_t d = 0; d < fitted_.size(); ++d)
            result_.fitted.push_back({fitted_[d], figureValue(cluster_, fitted_[d]),
                                      figureValue(calibrated, fitted_[d]), exercising_[fitted_[d]],
                                      std::expm1(linear.standardError[d])});
        for (std::size_t k = 0; k < priced_.size(); ++k) {
            std::vector<std::size_t> others = priced_;
            others.erase(others.begin() + static_cast<std::ptrdiff_t>(k));
            const GridPoint without = compassSearch(*table, others);
            CalibratedRun& row = result_.runs[priced_[k]];
            row.fittedSeconds = table->seconds(priced_[k], all);
            row.leftOutSeconds = table->seconds(priced_[k], without);
            if (request_.progress)
                request_.progress(static_cast<int>(k) + 2, fits);
        }
        result_.cluster = calibrated;
    }

    const Cluster& cluster_;
    const std::vector<PublishedRun>& runs_;
    const std::string& file_;
    const CalibrationRequest& request_;
    CalibrationResult result_;
    std::vector<PreparedRun> prepared_;
    std::vector<std::size_t> priced_;  // the runs that can be priced, by index
    std::vector<double> logErrors_;    // ln(predicted / measured) of each priced run as given
    std::map<CalibrationFigure, std::vector<double>> elasticity_;  // per priced run
    std::map<CalibrationFigure, int> exercising_;
    std::vector<CalibrationFigure> fitted_;
};

}  // namespace

CalibrationResult calibrateCluster(const Cluster& cluster, const std::vector<PublishedRun>& runs,
                                   const std::string& runsFile, const CalibrationRequest& request)
{
    CalibrationResult result = Calibration(cluster, runs, runsFile, request).run();
    result.readsPlainFlash = std::any_of(runs.begin(), runs.end(), namesPlainFlash);
    return result;
}

}  // namespace tapestry
