#include "plan/ExpertPlans.h"

#include "base/Error.h"

#include <algorithm>
#include <array>

namespace tapestry {

namespace {

bool endsWith(const std::vector<std::string>& parts, std::initializer_list<std::string_view> suffix)
{
    if (parts.size() < suffix.size())
        return false;
    return std::equal(suffix.begin(), suffix.end(), parts.end() - static_cast<std::ptrdiff_t>(suffix.size()));
}

}  // namespace

const char* expertPlanName(ExpertPlanKind kind)
{
    switch (kind) {
    case ExpertPlanKind::DataParallel: return "dp";
    case ExpertPlanKind::Megatron: return "megatron";
    case ExpertPlanKind::MegatronSequenceParallel: return "megatron-sp";
    case ExpertPlanKind::RingAttention: return "cp-ring";
    case ExpertPlanKind::Ulysses: return "cp-ulysses";
    }
    return "dp";
}

std::optional<ExpertPlanKind> expertPlanFromName(std::string_view name)
{
    for (const ExpertPlanKind kind : {ExpertPlanKind::DataParallel, ExpertPlanKind::Megatron,
                                      ExpertPlanKind::MegatronSequenceParallel, ExpertPlanKind::RingAttention,
                                      ExpertPlanKind::Ulysses}) {
        if (name == expertPlanName(kind))
            return kind;
    }
    return std::nullopt;
}

// Reads the scope's last two names only: makeExpertPlan keeps a split per pair of them.
std::optional<AxisSplit> megatronLinearRule(const ScopePath& scope)
{
    const std::vector<std::string>& parts = scope.components();
    if (parts.empty())
        return std::nullopt;
    static constexpr std::array<std::string_view, 20> column = {
        "q_proj", "k_proj", "v_proj", "qkv_proj", "query", "key",  "value", "c_attn", "qkv", "in_proj",
        "fc1",    "c_fc",   "gate_proj", "up_proj", "w1",  "w3",   "wi",    "wi_0",   "wi_1", "lm_head"};
    static constexpr std::array<std::string_view, 8> row = {"o_proj", "out_proj", "fc2", "down_proj",
                                                            "w2",     "wo",       "o",   "dense_4h_to_h"};
    const std::string& last = parts.back();
    if (last == "q" || last == "k" || last == "v")  // T5 attention
        return AxisSplit::Column;
    if (std::find(column.begin(), column.end(), last) != column.end())
        return AxisSplit::Column;
    if (std::find(row.begin(), row.end(), last) != row.end())
        return AxisSplit::Row;
    // GPT-2 names both fan-in projections c_proj; BERT/ViT name them output.dense.
    if (last == "c_proj")
        return AxisSplit::Row;
    if (endsWith(parts, {"intermediate", "dense"}) || last == "dense_h_to_4h")
        return AxisSplit::Column;
    if (endsWith(parts, {"output", "dense"}))
        return AxisSplit::Row;
    return std::nullopt;
}

Plan makeExpertPlan(ExpertPlanKind kind, const CoarseGraph& coarse, const std::vector<MeshAxis>& mesh)
{
    if (kind == ExpertPlanKind::DataParallel || mesh.empty()) {
        Plan plan;
        plan.mesh = mesh;
        plan.strategies.assign(coarse.nodes.size(), NodeStrategy{AxisSplits(mesh.size(), AxisSplit::Batch)});
        plan.name = expertPlanName(kind);
        return plan;
    }
    if (kind == ExpertPlanKind::RingAttention || kind == ExpertPlanKind::Ulysses) {
        Plan plan;
        plan.mesh = mesh;
        plan.name = expertPlanName(kind);
        plan.strategies.assign(coarse.nodes.size(), NodeStrategy{AxisSplits(mesh.size(), AxisSplit::Batch)});
        for (const CoarseNode& node : coarse.nodes) {
            AxisSplit& split = plan.strategies[node.id.index()].axes.back();
            if (node.kind == CoarseNodeKind::BatchedMatMul && kind == ExpertPlanKind::Ulysses)
                split = AxisSplit::Head;
            else if (isLegalSplit(node.kind, AxisSplit::Sequence))
                split = AxisSplit::Sequence;
        }
        return plan;
    }
    // megatronLinearRule reads a scope's last two names (no more), which a deep model's
    // layers repeat: each pair is matched once (a plan is built for every layout a search tries).
    struct Matched {
        const std::string* last;
        const std::string* before;  // null for a one-name scope
        std::optional<AxisSplit> split;
    };
    std::vector<Matched> matched;
    const auto sameName = [](const std::string* a, const std::string* b) { return a == b || (a && b && *a == *b); };
    std::vector<std::optional<AxisSplit>> anchorSplits(coarse.nodes.size());
    for (const CoarseNode& node : coarse.nodes) {
        if (node.kind == CoarseNodeKind::Linear) {
            const std::vector<std::string>& parts = node.scope.components();
            if (parts.empty())
                continue;
            const std::string* last = &parts.back();
            const std::string* before = parts.size() > 1 ? &parts[parts.size() - 2] : nullptr;
            auto known = std::find_if(matched.begin(), matched.end(), [&](const Matched& m) {
                return sameName(m.last, last) && sameName(m.before, before);
            });
            if (known == matched.end())
                known = matched.insert(matched.end(), Matched{last, before, megatronLinearRule(node.scope)});
            anchorSplits[node.id.index()] = known->split;
        } else if (node.kind == CoarseNodeKind::Embedding) {
            anchorSplits[node.id.index()] = AxisSplit::Row;
        }
    }
    Plan plan = makeTensorParallelPlan(coarse, mesh, anchorSplits, kind == ExpertPlanKind::MegatronSequenceParallel);
    plan.name = expertPlanName(kind);
    return plan;
}

Plan makeTensorParallelPlan(const CoarseGraph& coarse, const std::vector<MeshAxis>& mesh,
                            const std::vector<std::optional<AxisSplit>>& anchorSplits, bool sequenceParallel)
{
    Plan plan;
    plan.origin = PlanOrigin::Expert;
    plan.mesh = mesh;
    const std::size_t axes = mesh.size();
    plan.strategies.assign(coarse.nodes.size(), NodeStrategy{AxisSplits(axes, AxisSplit::Batch)});
    if (axes == 0)
        return plan;

    const std::size_t tp = axes - 1;
    // Each node's producers, all in one array (node by node: producers[first[n], first[n + 1])):
    // a plan of a deep model is built for every layout a search tries.
    std::vector<std::size_t> first(coarse.nodes.size() + 1, 0);
    for (const CoarseEdge& edge : coarse.edges)
        ++first[edge.to.index() + 1];
    for (std::size_t n = 0; n < coarse.nodes.size(); ++n)
        first[n + 1] += first[n];
    std::vector<CoarseNodeId> producers(coarse.edges.size());
    std::vector<std::size_t> filled(first.begin(), first.end() - 1);
    for (const CoarseEdge& edge : coarse.edges)
        producers[filled[edge.to.index()]++] = edge.from;
    // One pass in node order (a topological order): each node sees its producers' splits.
    for (const CoarseNode& node : coarse.nodes) {
        bool hiddenInput = false;
        bool partialInput = false;
        bool streamInput = false;  // partial or sequence-sharded: the residual stream under SP
        const std::size_t n = node.id.index();
        for (std::size_t p = first[n]; p < first[n + 1]; ++p) {
            const CoarseNodeId from = producers[p];
            const AxisLayout layout = outputLayout(plan.strategies[from.index()].axes[tp]);
            hiddenInput = hiddenInput || layout == AxisLayout::Hidden;
            partialInput = partialInput || layout == AxisLayout::Partial;
            streamInput = streamInput || layout == AxisLayout::Partial || layout == AxisLayout::Sequence;
        }
        AxisSplit split = AxisSplit::None;
        switch (node.kind) {
        case CoarseNodeKind::Linear:
        case CoarseNodeKind::Embedding:
        case CoarseNodeKind::Conv: split = anchorSplits.at(node.id.index()).value_or(AxisSplit::None); break;
        case CoarseNodeKind::BatchedMatMul: split = hiddenInput ? AxisSplit::Head : AxisSplit::None; break;
        // Replicated inputs slice for free, so a hidden-sharded input decides, unless a
        // partial sum has to be reduced first.
        case CoarseNodeKind::Elementwise: split = hiddenInput && !partialInput ? AxisSplit::Hidden : AxisSplit::None; break;
        case CoarseNodeKind::Normalization: split = AxisSplit::None; break;
        }
        if (!isLegalSplit(node.kind, split))
            throw Error(ErrorCode::InvalidPlan, {},
                        std::string("coarse node '") + node.name + "' (" + coarseNodeKindName(node.kind) +
                            ") cannot be split '" + axisSplitName(split) + "'");
        const bool onStream = streamInput || (node.kind == CoarseNodeKind::Normalization && first[n + 1] > first[n]);
        if (sequenceParallel && !isAnchorKind(node.kind) && split == AxisSplit::None && onStream)
            split = AxisSplit::Sequence;
        plan.strategies[node.id.index()].axes[tp] = split;
    }
    return plan;
}

}  // namespace tapestry
