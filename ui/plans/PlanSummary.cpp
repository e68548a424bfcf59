#include "plans/PlanSummary.h"

#include "cluster/DeviceMesh.h"
#include "cost/PipelineCost.h"
#include "search/PlanCandidate.h"
#include "search/PlanPricing.h"
#include "target/StackRules.h"
#include "base/Error.h"

#include <QStringList>

#include <array>
#include <map>
#include <optional>
#include <set>

namespace tapestry {

namespace {

enum class Part { Embedding, Attention, Mlp, Experts, Convolutions, Head, Other, Count };

enum class Technique { Tensor, Context, Expert, Data, Count };  // in the order they are named

QString partName(Part part)
{
    switch (part) {
    case Part::Embedding: return PlanSummary::tr("embedding");
    case Part::Attention: return PlanSummary::tr("attention");
    case Part::Mlp: return PlanSummary::tr("MLP");
    case Part::Experts: return PlanSummary::tr("experts");
    case Part::Convolutions: return PlanSummary::tr("convolutions");
    case Part::Head: return PlanSummary::tr("head");
    case Part::Other: return PlanSummary::tr("other layers");
    case Part::Count: break;
    }
    return {};
}

const char* techniqueName(Technique technique)
{
    switch (technique) {
    case Technique::Tensor: return "TP";
    case Technique::Context: return "CP";
    case Technique::Expert: return "EP";
    case Technique::Data: return "DP";
    case Technique::Count: break;
    }
    return "";
}

bool nameHas(const QString& name, std::initializer_list<const char*> words)
{
    return std::any_of(words.begin(), words.end(), [&](const char* word) { return name.contains(QLatin1String(word)); });
}

// The part a node belongs to by its kind and module path; nullopt for normalizations
// and elementwise nodes, which follow their anchors.
std::optional<Part> knownPart(const CoarseNode& node)
{
    if (!isAnchorKind(node.kind))
        return std::nullopt;
    const QString name = QString::fromStdString(node.name).toLower();
    if (node.kind == CoarseNodeKind::Embedding)
        return Part::Embedding;
    if (nameHas(name, {"expert"}))
        return Part::Experts;
    if (node.kind == CoarseNodeKind::BatchedMatMul || nameHas(name, {"attn", "attention", "q_proj", "k_proj", "v_proj",
                                                                     "o_proj", "qkv"}))
        return Part::Attention;
    if (nameHas(name, {"mlp", "ffn", "feed_forward", "feedforward", "c_fc", "fc1", "fc2", "gate_proj", "up_proj",
                       "down_proj", "intermediate", "dense_h_to_4h", "dense_4h_to_h"}))
        return Part::Mlp;
    if (node.kind == CoarseNodeKind::Conv)
        return Part::Convolutions;
    return Part::Other;
}

std::optional<Technique> techniqueOf(AxisSplit split)
{
    switch (split) {
    case AxisSplit::Column:
    case AxisSplit::Row:
    case AxisSplit::Head: return Technique::Tensor;
    case AxisSplit::Sequence: return Technique::Context;
    case AxisSplit::Expert: return Technique::Expert;
    case AxisSplit::Batch: return Technique::Data;
    case AxisSplit::None:
    case AxisSplit::Hidden: return std::nullopt;
    }
    return std::nullopt;
}

QString spanText(const AxisGroup& group)
{
    switch (group.span) {
    case GroupSpan::IntraNode: return PlanSummary::tr("in a node");
    case GroupSpan::InterNode: return PlanSummary::tr("across nodes");
    case GroupSpan::Mixed: return PlanSummary::tr("over %1 nodes").arg(group.nodes);
    }
    return {};
}

// What one part does on each axis of the stage mesh: the techniques its anchors use there.
using AxisTechniques = std::vector<std::set<Technique>>;

// "TP 8 in a node, DP 2 across nodes": a technique on several axes multiplies their
// sizes; an axis where anchors disagree reads "TP/DP 2".
QString partText(const AxisTechniques& axes, const DeviceMesh& mesh, std::size_t firstStageAxis)
{
    struct Entry {
        int degree = 1;
        QStringList spans;
    };
    std::map<std::pair<Technique, QString>, Entry> entries;  // by the first technique, then the name
    for (std::size_t axis = 0; axis < axes.size(); ++axis) {
        // A split over one GPU divides nothing ("TP 1" is no tensor parallelism).
        if (axes[axis].empty() || mesh.group(firstStageAxis + axis).size == 1)
            continue;
        QStringList names;
        for (const Technique technique : axes[axis])
            names << QLatin1String(techniqueName(technique));
        Entry& entry = entries[{*axes[axis].begin(), names.join(QLatin1Char('/'))}];
        const AxisGroup& group = mesh.group(firstStageAxis + axis);
        entry.degree *= group.size;
        const QString span = spanText(group);
        if (!entry.spans.contains(span))
            entry.spans << span;
    }
    QStringList parts;
    for (const auto& [key, entry] : entries) {
        // Axes in a node and across nodes together: the group reaches across nodes.
        const QString span = entry.spans.size() == 1 ? entry.spans.front() : PlanSummary::tr("across nodes");
        parts << QStringLiteral("%1 %2 %3").arg(key.second).arg(entry.degree).arg(span);
    }
    return parts.isEmpty() ? PlanSummary::tr("replicated") : parts.join(QStringLiteral(", "));
}

QString recomputationText(Recomputation recompute)
{
    switch (recompute) {
    case Recomputation::None: return PlanSummary::tr("no recomputation");
    case Recomputation::Selective: return PlanSummary::tr("selective recomputation");
    case Recomputation::Full: return PlanSummary::tr("full recomputation");
    }
    return {};
}

// "attention and MLP", "embedding, attention and MLP"
QString joinedNames(const QStringList& names)
{
    if (names.size() == 1)
        return names.front();
    return PlanSummary::tr("%1 and %2").arg(names.mid(0, names.size() - 1).join(QStringLiteral(", ")), names.back());
}

}  // namespace

QString PlanSummary::stackName(TrainingStack stack)
{
    switch (stack) {
    case TrainingStack::Any: return tr("any (study)");
    case TrainingStack::PyTorch: return QStringLiteral("PyTorch");
    case TrainingStack::Megatron: return QStringLiteral("Megatron-LM");
    case TrainingStack::TorchTitan: return QStringLiteral("torchtitan");
    }
    return {};
}

QString PlanSummary::runsOnText(const PlanCandidate& candidate, const FoldedModel& folded, const SearchSetup& setup)
{
    QStringList names;
    try {
        for (const TrainingStack stack : stacksRunning(folded, planDocument(candidate, {}, setup)))
            names << stackName(stack);
    } catch (const Error&) {
        return tr("not runnable as is");
    }
    const QString runs = names.isEmpty() ? tr("not runnable as is") : tr("runs as is on %1").arg(joinedNames(names));
    // An `any` search's plan that is a stack's own layout, priced as that stack runs it.
    const TrainingStack implementations = candidate.implementations;
    if (implementations == TrainingStack::Any || implementations == setup.options.stack)
        return runs;
    return tr("priced with %1's implementations, %2").arg(stackName(implementations), runs);
}

QString PlanSummary::text(const PlanCandidate& candidate, const CoarseGraph& coarse, const Cluster& cluster)
{
    const Plan& plan = candidate.plan;
    const std::vector<MeshAxis> axes = planMeshAxes(plan);
    std::optional<DeviceMesh> mesh;
    try {
        mesh.emplace(axes, cluster);
    } catch (const Error&) {
        return {};
    }
    const std::size_t firstStageAxis = axes.size() - plan.mesh.size();  // after "pp"

    // Linear layers of no known part after the last known one are the head (lm_head,
    // a classifier); before it they are other layers.
    std::size_t lastKnown = 0;
    for (const CoarseNode& node : coarse.nodes) {
        const std::optional<Part> part = knownPart(node);
        if (part && *part != Part::Other)
            lastKnown = node.id.index();
    }
    std::array<std::optional<AxisTechniques>, static_cast<std::size_t>(Part::Count)> parts;
    for (const CoarseNode& node : coarse.nodes) {
        std::optional<Part> part = knownPart(node);
        if (!part)
            continue;
        if (*part == Part::Other && node.id.index() > lastKnown)
            part = Part::Head;
        std::optional<AxisTechniques>& techniques = parts[static_cast<std::size_t>(*part)];
        if (!techniques)
            techniques.emplace(plan.mesh.size());
        const NodeStrategy& strategy = plan.strategy(node.id);
        for (std::size_t axis = 0; axis < strategy.axes.size() && axis < plan.mesh.size(); ++axis) {
            if (const std::optional<Technique> technique = techniqueOf(strategy.axes[axis]))
                (*techniques)[axis].insert(*technique);
        }
    }

    // Parts that read alike are named together, in model order.
    std::vector<std::pair<QStringList, QString>> lines;
    for (std::size_t index = 0; index < parts.size(); ++index) {
        if (!parts[index])
            continue;
        const QString text = partText(*parts[index], *mesh, firstStageAxis);
        const auto same = std::find_if(lines.begin(), lines.end(), [&](const auto& line) { return line.second == text; });
        if (same != lines.end())
            same->first << partName(static_cast<Part>(index));
        else
            lines.push_back({{partName(static_cast<Part>(index))}, text});
    }
    QStringList sentences;
    if (plan.pipeline.active()) {
        const QString span = spanText(mesh->group(0));
        sentences << (plan.pipeline.virtualStages > 1
                          ? tr("PP %1 %2 (interleaved, %3 chunks per stage)")
                                .arg(plan.pipeline.stages)
                                .arg(span)
                                .arg(plan.pipeline.virtualStages)
                          : tr("PP %1 %2").arg(plan.pipeline.stages).arg(span));
        if (pipelineSendsOverlapped(plan.pipeline, candidate.workload.pipelineSendOverlap))
            sentences << tr("sends overlapped with the other chunks' compute");
    }
    for (const auto& [names, text] : lines)
        sentences << QStringLiteral("%1: %2").arg(joinedNames(names), text);
    sentences << (candidate.workload.zeroStage > 0 ? tr("ZeRO %1").arg(candidate.workload.zeroStage) : tr("no ZeRO"));
    sentences << recomputationText(candidate.workload.recompute);
    return sentences.join(QStringLiteral("; "));
}

}  // namespace tapestry
