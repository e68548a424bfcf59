#include "layout/ScopeLayoutGraph.h"

#include "graph/Graph.h"

#include <utility>

namespace tapestry {

namespace {

constexpr const char* kScopeColor = "#dde7f3";
constexpr const char* kOpColor = "#ffffff";

std::string opsText(std::uint32_t count)
{
    return std::to_string(count) + (count == 1 ? " op" : " ops");
}

// "/model/layers.0/self_attn/Softmax" -> "Softmax"
std::string lastComponent(const std::string& name)
{
    const std::size_t slash = name.rfind('/');
    return slash == std::string::npos ? name : name.substr(slash + 1);
}

class ScopeViewBuilder {
public:
    ScopeViewBuilder(const Graph& graph, const ScopeTree& scopes, const std::set<ScopeNodeId>& expanded)
        : graph_(graph), scopes_(scopes), expanded_(expanded), boxOfOp_(graph.opCount())
    {
    }

    ScopeLayoutGraph run()
    {
        out_.graph.name = "scopes";
        open(scopes_.root(), -1);
        std::set<std::pair<std::size_t, std::size_t>> seen;
        for (const OpId op : graph_.topologicalOrder()) {
            const std::size_t from = boxOfOp_[op.index()];
            for (const TensorId output : graph_.op(op).outputs) {
                if (!output.isValid())
                    continue;
                for (const OpId consumer : graph_.tensor(output).consumers) {
                    const std::size_t to = boxOfOp_[consumer.index()];
                    if (from != to && seen.insert({from, to}).second)
                        out_.graph.edges.push_back({from, to});
                }
            }
        }
        return std::move(out_);
    }

private:
    // Shows the children and direct ops of an open scope inside `cluster`.
    void open(ScopeNodeId id, int cluster)
    {
        const ScopeNode& scope = scopes_.node(id);
        for (const ScopeNodeId child : scope.children) {
            if (expanded_.contains(child)) {
                const ScopeNode& inner = scopes_.node(child);
                out_.graph.clusters.push_back({inner.path + " (" + opsText(inner.totalOpCount) + ")"});
                open(child, static_cast<int>(out_.graph.clusters.size() - 1));
            } else {
                collapse(child, cluster);
            }
        }
        for (const OpId op : scope.ops) {
            const Op& o = graph_.op(op);
            LayoutNode box;
            const std::string name = lastComponent(o.name);
            box.label = name.empty() || name == o.type ? o.type : name + "\n" + o.type;
            box.tooltip = o.name;
            box.fillColor = kOpColor;
            box.cluster = cluster;
            boxOfOp_[op.index()] = add(std::move(box), {ScopeNodeId{}, op});
        }
    }

    void collapse(ScopeNodeId id, int cluster)
    {
        const ScopeNode& scope = scopes_.node(id);
        LayoutNode box;
        box.label = scope.name + " (" + opsText(scope.totalOpCount) + ")";
        box.tooltip = scope.path;
        box.fillColor = kScopeColor;
        box.cluster = cluster;
        assignBox(id, add(std::move(box), {id, OpId{}}));
    }

    void assignBox(ScopeNodeId id, std::size_t box)
    {
        for (const OpId op : scopes_.node(id).ops)
            boxOfOp_[op.index()] = box;
        for (const ScopeNodeId child : scopes_.node(id).children)
            assignBox(child, box);
    }

    std::size_t add(LayoutNode box, ScopeViewItem item)
    {
        out_.graph.nodes.push_back(std::move(box));
        out_.items.push_back(item);
        return out_.graph.nodes.size() - 1;
    }

    const Graph& graph_;
    const ScopeTree& scopes_;
    const std::set<ScopeNodeId>& expanded_;
    std::vector<std::size_t> boxOfOp_;
    ScopeLayoutGraph out_;
};

}  // namespace

ScopeLayoutGraph scopeLayoutGraph(const Graph& graph, const ScopeTree& scopes, const std::set<ScopeNodeId>& expanded)
{
    return ScopeViewBuilder(graph, scopes, expanded).run();
}

}  // namespace tapestry
