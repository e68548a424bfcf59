#include "history/PlanRecost.h"

#include "cost/CostModel.h"
#include "history/ClusterDescription.h"
#include "history/HistoryStore.h"

namespace tapestry {

PlanRecordId recostPlan(HistoryStore& store, PlanRecordId stale, const RecostInputs& inputs)
{
    const PlanRecord old = store.plan(stale);
    PlanDocument document =
        planFromJson(old.json, store.file().string() + " plan " + std::to_string(stale.value()), inputs.coarse,
                     inputs.families);
    const DeviceMesh mesh(document.plan.mesh, inputs.cluster);
    const CostModel costs(inputs.graph, inputs.coarse, inputs.families, inputs.cluster, mesh, document.workload);
    const PlanEvaluation evaluation = costs.evaluate(document.plan);
    const CostBreakdown& t = evaluation.total;
    document.modelFingerprint = inputs.model.fingerprint;
    document.clusterName = inputs.cluster.name;
    document.cost = PlanCostSummary{t.time.stepSeconds(), t.time.computeSeconds, t.time.communicationSeconds(),
                                    t.memory.total(), evaluation.hbmBytes};

    PlanRecord recosted;
    recosted.parent = stale;
    recosted.name = old.name;
    recosted.origin = old.origin;
    recosted.pins = old.pins;
    recosted.meshAxes = document.plan.mesh;
    recosted.cost = document.cost;
    recosted.json = planToJson(document, inputs.coarse, inputs.families);
    recosted.notes.push_back("re-costed plan " + std::to_string(stale.value()) + " (model " + old.modelFingerprint +
                             " on " + old.clusterName + ") for model " + inputs.model.fingerprint + " on " +
                             inputs.cluster.name);
    return store.addPlan(inputs.model, {{}, inputs.cluster.name, describeCluster(inputs.cluster)}, recosted);
}

}  // namespace tapestry
