#pragma once

#include "cost/Throughput.h"
#include "search/SearchSetup.h"

#include <QCoreApplication>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tapestry {

class PlanPricing;
struct FoldedModel;
struct PlanCandidate;

// MFU and tokens per second per GPU beside a plan's step time (core's throughputOf, as
// the CLI prints them). Prices each plan's mesh and workload once (a cost model is a few
// milliseconds to build) and keeps it for the plans that share them.
class PlanThroughput {
    Q_DECLARE_TR_FUNCTIONS(PlanThroughput)

public:
    // `setup`: the cluster (its peak) and workload the plans were priced with; a plan's
    // own workload (batch, sequence, micro-batch) replaces the setup's.
    PlanThroughput(std::shared_ptr<const FoldedModel> folded, SearchSetup setup);

    // Unset when the plan's mesh does not fit the setup's cluster.
    [[nodiscard]] std::optional<Throughput> of(const PlanCandidate& candidate);
    [[nodiscard]] double peakFlopsPerSecond() const { return setup_.cluster.gpu.peakFlopsPerSecond; }

    // Above 100 % MFU a plan prices faster than the hardware can run: a defect of the
    // cost model, never a result.
    [[nodiscard]] static bool abovePeak(const Throughput& throughput) { return throughput.modelFlopsUtilization > 1; }
    // "MFU 41.3 %, 3,412 tokens/s per GPU"; above the peak it says so.
    [[nodiscard]] static QString text(const Throughput& throughput);

private:
    std::shared_ptr<const FoldedModel> folded_;
    SearchSetup setup_;
    std::map<std::string, std::shared_ptr<const PlanPricing>> pricings_;  // by mesh and workload shape
};

}  // namespace tapestry
