#include "layout/FoldViews.h"

#include "graph/Graph.h"

#include <map>
#include <set>

namespace tapestry {

namespace {

// "model/layers.0/self_attn/q_proj/MatMul" -> "q_proj/MatMul"
std::string shortName(const std::string& name)
{
    const std::size_t last = name.rfind('/');
    if (last == std::string::npos || last == 0)
        return name;
    const std::size_t previous = name.rfind('/', last - 1);
    return previous == std::string::npos ? name : name.substr(previous + 1);
}

std::string weightShape(const Graph& graph, const CoarseNode& node)
{
    if (!node.anchor.isValid())
        return {};
    for (const TensorId input : graph.op(node.anchor).inputs) {
        if (input.isValid() && graph.tensor(input).role == TensorRole::Initializer)
            return graph.tensor(input).shape.toString();
    }
    // Weights folded by the exporter (Transpose of an initializer) are auxiliary tensors.
    if (node.kind == CoarseNodeKind::Linear || node.kind == CoarseNodeKind::Conv) {
        const auto& inputs = graph.op(node.anchor).inputs;
        if (inputs.size() > 1 && inputs[1].isValid())
            return graph.tensor(inputs[1]).shape.toString();
    }
    return {};
}

LayoutNode coarseBox(const Graph& graph, const CoarseNode& node)
{
    LayoutNode box;
    const std::string shape = weightShape(graph, node);
    box.label = shortName(node.name) + "\n" + coarseNodeKindName(node.kind) + (shape.empty() ? "" : " " + shape);
    box.tooltip = node.name + " (" + std::to_string(node.ops.size()) + " ops)";
    box.fillColor = kindColor(node.kind);
    return box;
}

}  // namespace

const char* kindColor(CoarseNodeKind kind)
{
    switch (kind) {
    case CoarseNodeKind::Linear: return "#cfe2ff";
    case CoarseNodeKind::Conv: return "#d1e7dd";
    case CoarseNodeKind::Embedding: return "#fff3cd";
    case CoarseNodeKind::BatchedMatMul: return "#e2d9f3";
    case CoarseNodeKind::Normalization: return "#f8d7da";
    case CoarseNodeKind::Elementwise: return "#eef0f2";
    }
    return "#ffffff";
}

LayoutGraph coarseLayoutGraph(const Graph& graph, const CoarseGraph& coarse)
{
    LayoutGraph out;
    out.name = "coarse";
    for (const CoarseNode& node : coarse.nodes)
        out.nodes.push_back(coarseBox(graph, node));
    std::set<std::pair<std::size_t, std::size_t>> seen;
    for (const CoarseEdge& edge : coarse.edges) {
        if (seen.insert({edge.from.index(), edge.to.index()}).second)
            out.edges.push_back({edge.from.index(), edge.to.index()});
    }
    return out;
}

LayoutGraph foldedLayoutGraph(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                              const FoldedGraph& folded)
{
    LayoutGraph out;
    out.name = "folded";
    std::map<FamilyId, int> clusterOf;
    for (const FoldedNode& node : folded.nodes) {
        LayoutNode box;
        if (node.kind == FoldedNode::Kind::Family) {
            const Family& family = families.family(node.family);
            std::size_t ops = 0;
            for (const CoarseNodeId id : family.representative().nodes)
                ops += coarse.node(id).ops.size();
            box.label = family.name + "  \u00d7" + std::to_string(family.multiplicity()) + "\n" +
                        std::to_string(family.anchors.size()) + " anchors, " + std::to_string(ops) + " ops each";
            box.tooltip = "instances: " + family.instances.front().scope + " ... " + family.instances.back().scope;
            box.fillColor = kFamilyColor;
            box.emphasized = true;
        } else {
            box = coarseBox(graph, coarse.node(node.coarse));
        }
        if (node.enclosing.isValid()) {
            const auto [it, inserted] = clusterOf.try_emplace(node.enclosing, static_cast<int>(out.clusters.size()));
            if (inserted) {
                const Family& family = families.family(node.enclosing);
                out.clusters.push_back({family.name + "  \u00d7" + std::to_string(family.multiplicity())});
            }
            box.cluster = it->second;
        }
        out.nodes.push_back(std::move(box));
    }
    for (const FoldedEdge& edge : folded.edges)
        out.edges.push_back({edge.from, edge.to});
    return out;
}

}  // namespace tapestry
