#include "history/RecordsOf.h"

#include "cluster/Cluster.h"
#include "graph/Graph.h"
#include "graph/ModelFingerprint.h"
#include "graph/ParameterCount.h"
#include "history/ClusterDescription.h"
#include "plan/PlanFile.h"

#include <filesystem>

namespace tapestry {

ModelRecord modelRecordOf(const Graph& graph)
{
    const ModelInfo& info = graph.info();
    std::error_code ec;
    const std::filesystem::path absolute = std::filesystem::absolute(info.sourcePath, ec);
    std::string producer = info.producerName;
    if (!info.producerVersion.empty())
        producer += " " + info.producerVersion;
    return {{}, modelFingerprint(graph), ec ? info.sourcePath : absolute.lexically_normal().string(), graph.opCount(),
            countParameters(graph).parameters, producer};
}

ClusterRecord clusterRecordOf(const Cluster& cluster)
{
    return {{}, cluster.name, describeCluster(cluster)};
}

PlanRecord planRecordOf(const PlanDocument& document, const CoarseGraph& coarse, const FamilyTable& families)
{
    PlanRecord record;
    record.name = document.plan.name;
    record.origin = document.plan.origin;
    record.pins = document.plan.pins;
    record.meshAxes = planMeshAxes(document.plan);  // with "pp": the devices the plan runs on
    record.cost = document.cost;
    record.json = planToJson(document, coarse, families);
    return record;
}

}  // namespace tapestry
