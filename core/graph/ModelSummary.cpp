#include "graph/ModelSummary.h"

#include "graph/Graph.h"
#include "graph/ScopeTree.h"

#include <algorithm>
#include <map>

namespace tapestry {

namespace {

ValueSummary summarizeValue(const Tensor& tensor)
{
    return {tensor.name, tensor.dtype, tensor.shape};
}

void collectScopes(const ScopeTree& tree, ScopeNodeId id, std::size_t depth, std::size_t maxDepth,
                   std::vector<ScopeSummary>& out)
{
    if (depth > maxDepth)
        return;
    for (const ScopeNodeId child : tree.node(id).children) {
        const ScopeNode& node = tree.node(child);
        out.push_back({node.path, depth, node.totalOpCount});
        collectScopes(tree, child, depth + 1, maxDepth, out);
    }
}

}  // namespace

ModelSummary summarizeModel(const Graph& graph, std::size_t maxScopeDepth)
{
    ModelSummary summary;
    summary.info = graph.info();
    summary.opCount = graph.opCount();
    summary.tensorCount = graph.tensors().size();
    summary.initializerCount = graph.initializers().size();

    std::map<std::string, std::uint64_t> histogram;
    for (const Op& op : graph.ops())
        ++histogram[op.domain.empty() ? op.type : op.domain + "::" + op.type];
    for (const auto& [type, count] : histogram)
        summary.opHistogram.push_back({type, count});
    std::stable_sort(summary.opHistogram.begin(), summary.opHistogram.end(),
                     [](const OpTypeCount& a, const OpTypeCount& b) { return a.count > b.count; });

    summary.parameters = countParameters(graph);
    for (const TensorId id : graph.inputs())
        summary.inputs.push_back(summarizeValue(graph.tensor(id)));
    for (const TensorId id : graph.outputs())
        summary.outputs.push_back(summarizeValue(graph.tensor(id)));

    const ScopeTree tree = ScopeTree::build(graph);
    collectScopes(tree, tree.root(), 1, maxScopeDepth, summary.scopes);
    return summary;
}

}  // namespace tapestry
