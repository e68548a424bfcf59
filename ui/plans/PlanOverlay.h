#pragma once

#include "graphview/GraphLegend.h"
#include "cluster/CollectiveKind.h"
#include "plan/ParallelDegrees.h"
#include "plan/Plan.h"

#include <QColor>
#include <QCoreApplication>
#include <QList>
#include <QString>

#include <array>
#include <memory>

namespace tapestry {

struct FoldedModel;
struct PlanCandidate;
struct ViewNodeRef;

// What a node does with its tensors under a plan, in the words of the Megatron and ATP
// papers; one colour each in the graph views. Sequence is a sequence split outside
// attention's core (Megatron's sequence parallelism of norms, or the projections around
// context-parallel attention); ContextParallel is attention's core itself under ring
// attention or DeepSpeed-Ulysses.
enum class StrategyClass { Replicated, DataParallel, Column, Row, TwoD, Sequence, ContextParallel, Head, Hidden, Expert };

// A plan drawn over the coarse and folded graph views: each box coloured by its
// strategy (a folded block by the strategies inside it), a badge naming the collectives
// that run at the node, a band in its pipeline stage's colour (a folded block: one per
// stage its instances run on) and a hover-card section with its splits and costs.
class PlanOverlay {
    Q_DECLARE_TR_FUNCTIONS(PlanOverlay)

public:
    PlanOverlay(std::shared_ptr<const FoldedModel> folded, std::shared_ptr<const PlanCandidate> candidate);

    // Attention's core that runs context parallel on some axis (sequence split: ring
    // attention; head split on an axis whose variant is Ulysses) is ContextParallel;
    // otherwise two or more axes that split the model (not the batch or the sequence) make
    // a 2D split; one names the split; else a sequence split is Sequence, only batch
    // splits are data parallel, and nothing split is replicated.
    // `contextVariants`: the plan's context-parallel variant per axis of `strategy`.
    [[nodiscard]] static StrategyClass classify(CoarseNodeKind kind, const NodeStrategy& strategy,
                                                const std::vector<ContextParallelVariant>& contextVariants);
    // contextParallelVariant of every mesh axis of the plan.
    [[nodiscard]] static std::vector<ContextParallelVariant> contextVariants(const Plan& plan,
                                                                            const CoarseGraph& coarse);
    [[nodiscard]] static QColor color(StrategyClass strategy);
    [[nodiscard]] static QString name(StrategyClass strategy);
    [[nodiscard]] static QList<GraphLegend::Entry> legend();
    [[nodiscard]] static QString collectiveName(CollectiveKind kind);
    // "AR", "AG", "RS", "A2A" joined by "·" for the collectives with time at the node.
    [[nodiscard]] static QString collectiveBadge(const std::array<double, 4>& byCollective);

    // Stage `stage` of `stages`: hues around the colour wheel, saturated against the
    // strategies' pastels.
    [[nodiscard]] static QColor stageColor(int stage, int stages);
    // One entry per pipeline stage; empty without a pipeline.
    [[nodiscard]] QList<GraphLegend::Entry> stageLegend() const;
    // The colours of the stages a box runs on, in stage order; empty without a pipeline.
    [[nodiscard]] QList<QColor> stageColors(const ViewNodeRef& ref) const;

    // The distinct strategy colours of a box, in node order (one for a coarse node).
    [[nodiscard]] QList<QColor> colors(const ViewNodeRef& ref) const;
    // The collectives of a box (a folded block: one instance's); empty when none.
    [[nodiscard]] QString badge(const ViewNodeRef& ref) const;
    // Rich text for the top of the hover card: the plan's splits per mesh axis and the costs.
    [[nodiscard]] QString html(const ViewNodeRef& ref) const;

    [[nodiscard]] const PlanCandidate& candidate() const { return *candidate_; }

private:
    [[nodiscard]] std::vector<CoarseNodeId> nodesOf(const ViewNodeRef& ref) const;
    [[nodiscard]] QString splitsText(CoarseNodeId node) const;
    [[nodiscard]] StrategyClass classOf(CoarseNodeId node) const;
    // Hover-card lines for the ring attention and expert all-to-alls of `nodes`.
    [[nodiscard]] QString transfersHtml(const std::vector<CoarseNodeId>& nodes) const;

    std::shared_ptr<const FoldedModel> folded_;
    std::shared_ptr<const PlanCandidate> candidate_;
    std::vector<int> stageOfNode_;  // by CoarseNodeId; empty without a pipeline
    std::vector<ContextParallelVariant> contextVariants_;  // by mesh axis
};

}  // namespace tapestry
