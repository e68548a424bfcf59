#include "fold/CoarsenPass.h"

#include "graph/Graph.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace tapestry {

namespace {

bool isPrefix(const ScopePath& prefix, const ScopePath& path)
{
    const auto& a = prefix.components();
    const auto& b = path.components();
    return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}

bool nested(const ScopePath& a, const ScopePath& b)
{
    return isPrefix(a, b) || isPrefix(b, a);
}

// Whether `path` less its last component is a non-empty prefix of `other`: `path`'s
// parent module encloses `other`.
bool parentEncloses(const ScopePath& path, const ScopePath& other)
{
    const auto& a = path.components();
    const auto& b = other.components();
    return a.size() > 1 && a.size() - 1 <= b.size() && std::equal(a.begin(), a.end() - 1, b.begin());
}

// `path` as ScopePath::toString writes it, into `text` (whose storage a caller reuses:
// every op of a deep model is looked up by its scope's text).
void joinScope(const ScopePath& path, std::string& text)
{
    const std::vector<std::string>& parts = path.components();
    text.clear();
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i > 0)
            text += '/';
        text += parts[i];
    }
}

bool isNormalizationOp(const Op& op)
{
    static const std::set<std::string> types = {"LayerNormalization",  "BatchNormalization",
                                                "InstanceNormalization", "GroupNormalization",
                                                "SimplifiedLayerNormalization", "RMSNormalization",
                                                "ReduceMean"};
    return types.contains(op.type);
}

CoarseNodeKind kindOf(OpRole role)
{
    switch (role) {
    case OpRole::Linear: return CoarseNodeKind::Linear;
    case OpRole::Conv: return CoarseNodeKind::Conv;
    case OpRole::Embedding: return CoarseNodeKind::Embedding;
    case OpRole::BatchedMatMul: return CoarseNodeKind::BatchedMatMul;
    default: return CoarseNodeKind::Elementwise;
    }
}

class Coarsening {
public:
    explicit Coarsening(const Graph& graph) : graph_(graph)
    {
        result_.roles = classifyOps(graph);
        result_.nodeOf.assign(graph.opCount(), CoarseNodeId{});
        std::string prefix;
        for (const Op& op : graph.ops()) {
            const OpRole role = result_.roles[op.id.index()];
            if (role == OpRole::Auxiliary)
                continue;
            const bool normalization = isNormalizationOp(op) && !op.scope.isEmpty();
            const bool anchor = isAnchorRole(role);
            if (!normalization && !anchor)
                continue;
            joinScope(op.scope, scopeText_);
            if (normalization && !normalizationScopes_.contains(scopeText_))
                normalizationScopes_.insert(scopeText_);
            if (anchor) {
                // The anchor's module and every enclosing module contain an anchor: the
                // texts of the path's first k components, k = depth down to 1.
                std::size_t length = scopeText_.size();
                const std::vector<std::string>& parts = op.scope.components();
                for (std::size_t k = parts.size(); k > 0; --k) {
                    prefix.assign(scopeText_, 0, length);
                    if (!scopesWithAnchors_.contains(prefix))
                        scopesWithAnchors_.insert(prefix);
                    length -= parts[k - 1].size() + (k > 1 ? 1 : 0);
                }
            }
        }
    }

    CoarseGraph run()
    {
        for (const OpId id : graph_.topologicalOrder()) {
            const OpRole role = result_.roles[id.index()];
            if (role == OpRole::Auxiliary)
                continue;
            const Op& op = graph_.op(id);
            if (isAnchorRole(role)) {
                addTo(startNode(kindOf(role), op), op);
                continue;
            }
            joinScope(op.scope, scopeText_);
            const bool inNormalization = normalizationScopes_.contains(scopeText_);
            const auto [newest, readNodes] = producerNodes(op);
            if (newest.isValid() &&
                follows(op, result_.nodes[newest.index()], inNormalization, readNodes, scopeText_))
                addTo(newest, op);
            else
                addTo(startNode(inNormalization ? CoarseNodeKind::Normalization : CoarseNodeKind::Elementwise, op), op);
        }
        assignAuxiliaryOps();
        collectEdges();
        return std::move(result_);
    }

private:
    // `scopeText`: op.scope as ScopePath::toString writes it.
    bool follows(const Op& op, const CoarseNode& node, bool inNormalization, std::size_t producerNodes,
                 const std::string& scopeText) const
    {
        if (node.scope == op.scope)
            return true;
        if (inNormalization || node.kind == CoarseNodeKind::Normalization)
            return false;
        // An enclosing module combining several nodes (a residual Add, the sum over
        // MoE experts) belongs to none of them.
        if (producerNodes > 1 && isPrefix(op.scope, node.scope))
            return false;
        if (nested(node.scope, op.scope))
            return true;
        // An anchor-less sibling module (an activation's `act_fn`) follows its anchor;
        // a top-level module (`avgpool`) has no parent to share and stands alone.
        return parentEncloses(op.scope, node.scope) && !scopesWithAnchors_.contains(scopeText);
    }

    // The newest coarse node `op` reads from, and how many activation sources it
    // combines (distinct nodes, plus the graph's inputs as one more).
    std::pair<CoarseNodeId, std::size_t> producerNodes(const Op& op) const
    {
        CoarseNodeId newest;
        std::set<CoarseNodeId> distinct;
        bool readsGraphInput = false;
        for (const TensorId input : op.inputs) {
            if (!input.isValid())
                continue;
            const Tensor& tensor = graph_.tensor(input);
            readsGraphInput = readsGraphInput || tensor.role == TensorRole::GraphInput;
            const OpId producer = tensor.producer;
            if (!producer.isValid() || result_.roles[producer.index()] == OpRole::Auxiliary)
                continue;
            const CoarseNodeId node = result_.nodeOf[producer.index()];
            distinct.insert(node);
            if (!newest.isValid() || node > newest)
                newest = node;
        }
        return {newest, distinct.size() + (readsGraphInput ? 1 : 0)};
    }

    CoarseNodeId startNode(CoarseNodeKind kind, const Op& first)
    {
        CoarseNode node;
        node.id = CoarseNodeId{result_.nodes.size()};
        node.kind = kind;
        node.scope = first.scope;
        if (isAnchorKind(kind))
            node.anchor = first.id;
        std::string base = first.scope.toString();
        if (isAnchorKind(kind) || base.empty())
            base += (base.empty() ? "" : "/") + first.type;
        const int seen = nameCounts_[base]++;
        node.name = seen == 0 ? base : base + "#" + std::to_string(seen + 1);
        result_.nodes.push_back(std::move(node));
        return result_.nodes.back().id;
    }

    void addTo(CoarseNodeId node, const Op& op)
    {
        result_.nodes[node.index()].ops.push_back(op.id);
        result_.nodeOf[op.id.index()] = node;
    }

    // Reverse topological order: each auxiliary op joins its first consumer's node.
    void assignAuxiliaryOps()
    {
        const auto order = graph_.topologicalOrder();
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const Op& op = graph_.op(*it);
            if (result_.roles[op.id.index()] != OpRole::Auxiliary)
                continue;
            CoarseNodeId home;
            for (const TensorId output : op.outputs) {
                if (!output.isValid())
                    continue;
                for (const OpId consumer : graph_.tensor(output).consumers) {
                    if (result_.nodeOf[consumer.index()].isValid()) {
                        home = result_.nodeOf[consumer.index()];
                        break;
                    }
                }
                if (home.isValid())
                    break;
            }
            if (!home.isValid()) {
                // Dead constant code, or a graph of constants only.
                if (result_.nodes.empty())
                    startNode(CoarseNodeKind::Elementwise, op);
                home = result_.nodes.back().id;
            }
            result_.nodeOf[op.id.index()] = home;
        }
        for (CoarseNode& node : result_.nodes)
            node.auxiliaryOps.clear();
        for (const OpId id : order) {
            if (result_.roles[id.index()] == OpRole::Auxiliary)
                result_.nodes[result_.nodeOf[id.index()].index()].auxiliaryOps.push_back(id);
        }
    }

    void collectEdges()
    {
        for (const CoarseNode& node : result_.nodes) {
            std::set<std::pair<CoarseNodeId, TensorId>> seen;
            for (const OpId id : node.ops) {
                for (const TensorId input : graph_.op(id).inputs) {
                    if (!input.isValid())
                        continue;
                    const OpId producer = graph_.tensor(input).producer;
                    if (!producer.isValid() || result_.roles[producer.index()] == OpRole::Auxiliary)
                        continue;
                    const CoarseNodeId from = result_.nodeOf[producer.index()];
                    if (from != node.id && seen.insert({from, input}).second)
                        result_.edges.push_back({from, node.id, input});
                }
            }
        }
    }

    const Graph& graph_;
    CoarseGraph result_;
    std::unordered_set<std::string> normalizationScopes_;
    std::unordered_set<std::string> scopesWithAnchors_;
    std::unordered_map<std::string, int> nameCounts_;
    std::string scopeText_;  // the scope of the op in hand as text (joinScope)
};

}  // namespace

CoarseGraph CoarsenPass::apply(const Graph& graph) const
{
    return Coarsening(graph).run();
}

}  // namespace tapestry
