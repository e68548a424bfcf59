#include "cost/ExpertRouting.h"

#include "cost/ShapeBinder.h"
#include "graph/Graph.h"

#include <algorithm>

namespace tapestry {

namespace {

struct Router {
    std::vector<std::string> scope;
    int experts = 0;
    int topK = 0;
};

bool indexed(const std::string& name)
{
    const std::size_t dot = name.rfind('.');
    return dot != std::string::npos && dot + 1 < name.size() &&
           std::all_of(name.begin() + static_cast<std::ptrdiff_t>(dot) + 1, name.end(),
                       [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::vector<ExpertMembership> expertMembership(const Graph& graph, const CoarseGraph& coarse, const ShapeBinder& binder)
{
    std::vector<Router> routers;
    for (const Op& op : graph.ops()) {
        if (op.type != "TopK" || op.inputs.empty() || op.outputs.empty() || !op.inputs[0].isValid() ||
            !op.outputs[0].isValid() || coarse.roles[op.id.index()] == OpRole::Auxiliary)
            continue;
        const TensorShape& in = graph.tensor(op.inputs[0]).shape;
        const TensorShape& out = graph.tensor(op.outputs[0]).shape;
        if (!in.isRankKnown() || !out.isRankKnown() || in.rank() == 0 || out.rank() == 0)
            continue;
        const std::int64_t experts = binder.extents(in).back();
        const std::int64_t topK = binder.extents(out).back();
        if (experts > 1 && topK >= 1 && topK <= experts)
            routers.push_back({op.scope.components(), static_cast<int>(experts), static_cast<int>(topK)});
    }
    std::vector<ExpertMembership> membership(coarse.nodes.size());
    for (const CoarseNode& node : coarse.nodes) {
        const std::vector<std::string>& parts = node.scope.components();
        for (const Router& router : routers) {
            const std::size_t depth = router.scope.size();
            if (parts.size() <= depth || !std::equal(router.scope.begin(), router.scope.end(), parts.begin()) ||
                !indexed(parts[depth]))
                continue;
            ExpertMembership& m = membership[node.id.index()];
            m.experts = router.experts;
            m.topK = router.topK;
            for (std::size_t i = 0; i <= depth; ++i)
                m.expertScope += parts[i] + '/';
            break;
        }
    }
    return membership;
}

}  // namespace tapestry
