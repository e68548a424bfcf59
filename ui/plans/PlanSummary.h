#pragma once

#include <QCoreApplication>
#include <QString>

#include "target/TrainingStack.h"

namespace tapestry {

struct Cluster;
struct CoarseGraph;
struct FoldedModel;
struct PlanCandidate;
struct SearchSetup;

// A plan as an engineer says it: per part of the model (embedding, attention, MLP,
// experts, head) the parallelism each mesh axis carries and where that axis lies on
// the cluster, then the pipeline, ZeRO and recomputation:
//   "attention and MLP: TP 8 in a node, DP 2 across nodes; ZeRO 1; no recomputation".
// Read from the strategies, not the axis names (an axis named dp may split heads).
class PlanSummary {
    Q_DECLARE_TR_FUNCTIONS(PlanSummary)

public:
    // The parts are told apart by the nodes' module names (q_proj, self_attn, mlp,
    // experts, ...) and kinds (embeddings; attention's batched matmuls); linear layers of
    // no known part after the last known one are the head. Parts that read alike are
    // named together. Empty when the plan's mesh does not fit `cluster`.
    [[nodiscard]] static QString text(const PlanCandidate& candidate, const CoarseGraph& coarse,
                                      const Cluster& cluster);
    // "runs as is on Megatron-LM and torchtitan", or "not runnable as is" (StackRules'
    // stacksRunning of the plan priced with `setup`), after "priced with Megatron-LM's
    // implementations, " where the plan carries another stack's than `setup` targets
    // (PlanCandidate::implementations: an `any` search's plan that is a stack's own layout).
    [[nodiscard]] static QString runsOnText(const PlanCandidate& candidate, const FoldedModel& folded,
                                            const SearchSetup& setup);
    // "PyTorch", "Megatron-LM", "torchtitan", "any (study)".
    [[nodiscard]] static QString stackName(TrainingStack stack);
};

}  // namespace tapestry
