#include "plans/PlanThroughput.h"

#include "fold/FoldedModel.h"
#include "search/PlanCandidate.h"
#include "search/PlanPricing.h"
#include "base/Error.h"

namespace tapestry {

PlanThroughput::PlanThroughput(std::shared_ptr<const FoldedModel> folded, SearchSetup setup)
    : folded_(std::move(folded)), setup_(std::move(setup))
{
}

std::optional<Throughput> PlanThroughput::of(const PlanCandidate& candidate)
{
    if (!folded_)
        return std::nullopt;
    const Workload& workload = candidate.workload;
    // The FLOPs and tokens depend on the shapes, the GPU count on the mesh: nothing else.
    const std::string key = candidate.meshText + '|' + std::to_string(workload.batch) + '|' +
                            std::to_string(workload.sequence) + '|' + std::to_string(workload.microBatch);
    auto found = pricings_.find(key);
    if (found == pricings_.end()) {
        try {
            auto pricing = std::make_shared<const PlanPricing>(folded_, withChosenTechniques(setup_, workload),
                                                               planMeshAxes(candidate.plan));
            found = pricings_.emplace(key, std::move(pricing)).first;
        } catch (const Error&) {
            return std::nullopt;
        }
    }
    return throughputOf(found->second->costs(), folded_->coarse, peakFlopsPerSecond(), candidate.stepSeconds());
}

QString PlanThroughput::text(const Throughput& throughput)
{
    QString text = tr("MFU %L1 %, %L2 tokens/s per GPU")
                       .arg(throughput.modelFlopsUtilization * 100, 0, 'f', 1)
                       .arg(throughput.tokensPerSecondPerGpu, 0, 'f', 0);
    if (abovePeak(throughput))
        text += tr(" — above the GPU's peak: a pricing defect");
    return text;
}

}  // namespace tapestry
