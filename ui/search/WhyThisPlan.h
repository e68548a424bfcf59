#pragma once

#include <QCoreApplication>
#include <QString>

#include <memory>

namespace tapestry {

struct PlanCandidate;
struct SearchOutcome;

// Why a search's best plan over the best expert layout it priced beside it (Megatron-LM,
// with sequence parallelism, data parallel, ...): the step time difference split into
// compute, exposed communication and pipeline bubble, and the memory difference. A
// difference smaller than the cost model's validated error is said to be one: the two
// plans are not told apart by the model.
class WhyThisPlan {
    Q_DECLARE_TR_FUNCTIONS(WhyThisPlan)

public:
    // The median absolute step-time error of the 65 validation runs priced held out, each
    // source on figures fitted to the other sources (bench/fidelity.sh, bench_fidelity;
    // README, "How far to trust the numbers"). Held-out, and over both validation files,
    // because the shared file's in-sample 3.7 % prices no run with FlashAttention-2 or
    // cuDNN, the kernels the plans compared here are priced with.
    static constexpr double kValidatedMedianError = 0.052;

    // The fastest expert reference of `results` that fits its memory limit (else the
    // smallest); null when the search priced none.
    [[nodiscard]] static std::shared_ptr<const PlanCandidate> bestExpert(const SearchOutcome& results);
    // "Why this plan: 304.6 ms against 313.4 ms for Megatron-LM + sequence parallel on
    // [2, 8] (dp, tp): 2.8 % faster (compute −1.2 ms, exposed communication −7.6 ms),
    // 3.10 GB less memory per device. Within the cost model's validated error (median
    // 5.2 %): measure both before choosing."
    // When the two price alike: "Why this plan: it prices exactly as Megatron-LM on ...: the
    // search found no faster plan than this expert layout."
    [[nodiscard]] static QString text(const PlanCandidate& best, const PlanCandidate& expert);
    // The same step time and memory (to rounding): the search found the expert's layout.
    [[nodiscard]] static bool pricedAlike(const PlanCandidate& best, const PlanCandidate& expert);
    // Whether the difference between the two step times is below kValidatedMedianError.
    [[nodiscard]] static bool withinModelError(const PlanCandidate& best, const PlanCandidate& expert);
};

}  // namespace tapestry
