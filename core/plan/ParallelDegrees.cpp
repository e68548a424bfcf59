#include "plan/ParallelDegrees.h"

#include <algorithm>

namespace tapestry {

namespace {

// Whether a node of `kind` among `nodes` (all when null) splits `split` on `axis`.
bool anyNodeSplits(const Plan& plan, const CoarseGraph& coarse, const std::vector<CoarseNodeId>* nodes,
                   std::size_t axis, CoarseNodeKind kind, AxisSplit split)
{
    const auto splits = [&](const CoarseNode& node) {
        return node.kind == kind && plan.strategy(node.id).axes.at(axis) == split;
    };
    if (!nodes)
        return std::any_of(coarse.nodes.begin(), coarse.nodes.end(), splits);
    return std::any_of(nodes->begin(), nodes->end(), [&](CoarseNodeId id) { return splits(coarse.node(id)); });
}

ContextParallelVariant variantOver(const Plan& plan, const CoarseGraph& coarse, std::size_t axis,
                                   const std::vector<CoarseNodeId>* nodes)
{
    if (axis >= plan.mesh.size() || plan.mesh[axis].size <= 1)
        return ContextParallelVariant::None;
    if (anyNodeSplits(plan, coarse, nodes, axis, CoarseNodeKind::BatchedMatMul, AxisSplit::Sequence))
        return ContextParallelVariant::Ring;
    if (anyNodeSplits(plan, coarse, nodes, axis, CoarseNodeKind::BatchedMatMul, AxisSplit::Head) &&
        anyNodeSplits(plan, coarse, nodes, axis, CoarseNodeKind::Linear, AxisSplit::Sequence))
        return ContextParallelVariant::Ulysses;
    return ContextParallelVariant::None;
}

}  // namespace

const char* contextParallelVariantName(ContextParallelVariant variant)
{
    switch (variant) {
    case ContextParallelVariant::None: return "none";
    case ContextParallelVariant::Ring: return "ring";
    case ContextParallelVariant::Ulysses: return "ulysses";
    }
    return "none";
}

ContextParallelVariant contextParallelVariant(const Plan& plan, const CoarseGraph& coarse, std::size_t axis)
{
    return variantOver(plan, coarse, axis, nullptr);
}

ContextParallelVariant contextParallelVariant(const Plan& plan, const CoarseGraph& coarse, std::size_t axis,
                                              const std::vector<CoarseNodeId>& nodes)
{
    return variantOver(plan, coarse, axis, &nodes);
}

int contextParallelDegree(const Plan& plan, const CoarseGraph& coarse)
{
    int degree = 1;
    for (std::size_t a = 0; a < plan.mesh.size(); ++a) {
        if (contextParallelVariant(plan, coarse, a) != ContextParallelVariant::None)
            degree *= plan.mesh[a].size;
    }
    return degree;
}

int expertParallelDegree(const Plan& plan)
{
    int degree = 1;
    for (std::size_t a = 0; a < plan.mesh.size(); ++a) {
        const bool spread = std::any_of(plan.strategies.begin(), plan.strategies.end(),
                                        [&](const NodeStrategy& s) { return s.axes.at(a) == AxisSplit::Expert; });
        if (spread)
            degree *= plan.mesh[a].size;
    }
    return degree;
}

int groupWidth(const NodeStrategy& strategy, const std::vector<int>& axisSizes)
{
    int width = 1;
    for (std::size_t a = 0; a < strategy.axes.size() && a < axisSizes.size(); ++a) {
        if (strategy.axes[a] != AxisSplit::None && strategy.axes[a] != AxisSplit::Batch)
            width *= axisSizes[a];
    }
    return width;
}

int widestGroup(const Plan& plan)
{
    std::vector<int> sizes;
    for (const MeshAxis& axis : plan.mesh)
        sizes.push_back(axis.size);
    int widest = 1;
    for (const NodeStrategy& strategy : plan.strategies)
        widest = std::max(widest, groupWidth(strategy, sizes));
    return widest;
}

const char* parallelTechniqueName(ParallelTechnique technique)
{
    switch (technique) {
    case ParallelTechnique::Context: return "context parallelism";
    case ParallelTechnique::Expert: return "expert parallelism";
    }
    return "?";
}

int parallelDegree(const Plan& plan, const CoarseGraph& coarse, ParallelTechnique technique)
{
    switch (technique) {
    case ParallelTechnique::Context: return contextParallelDegree(plan, coarse);
    case ParallelTechnique::Expert: return expertParallelDegree(plan);
    }
    return 1;
}

bool usesTechnique(CoarseNodeKind kind, const NodeStrategy& strategy, ParallelTechnique technique)
{
    const AxisSplit split = technique == ParallelTechnique::Expert ? AxisSplit::Expert : AxisSplit::Sequence;
    if (technique == ParallelTechnique::Context && !isAnchorKind(kind))
        return false;
    return std::find(strategy.axes.begin(), strategy.axes.end(), split) != strategy.axes.end();
}

}  // namespace tapestry
