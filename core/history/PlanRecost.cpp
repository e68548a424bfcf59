#include "history/PlanRecost.h"

#include "fold/FoldedModel.h"
#include "history/HistoryStore.h"
#include "history/PlanOfRecord.h"
#include "history/RecordsOf.h"
#include "search/PlanPricing.h"

namespace tapestry {

PlanRecordId recostPlan(HistoryStore& store, PlanRecordId stale, const std::shared_ptr<const FoldedModel>& model,
                        const Cluster& cluster)
{
    const PlanRecord old = store.plan(stale);
    const PlanDocument stored = planOfRecord(old, store.file(), *model);
    SearchSetup setup;
    setup.cluster = cluster;
    setup.workload = stored.workload;
    const PlanPricing pricing(model, setup, planMeshAxes(stored.plan));
    const PlanDocument document =
        pricing.document(*pricing.price(stored.plan, PlanCandidate::Role::Opened, stored.implementations));
    const ModelRecord current = modelRecordOf(model->graph());

    PlanRecord recosted = planRecordOf(document, model->coarse, model->families);
    recosted.parent = stale;
    recosted.name = old.name;
    recosted.origin = old.origin;
    recosted.pins = old.pins;
    recosted.notes.push_back("re-costed plan " + std::to_string(stale.value()) + " (model " + old.modelFingerprint +
                             " on " + old.clusterName + ") for model " + current.fingerprint + " on " + cluster.name);
    return store.addPlan(current, clusterRecordOf(cluster), recosted);
}

}  // namespace tapestry
