#pragma once

#include "cluster/Cluster.h"
#include "cost/PlanEvaluation.h"
#include "fold/FamilyTable.h"
#include "plan/Plan.h"

#include <vector>

namespace tapestry {

// The pipeline a cost model's mesh is one stage of (training.md, "Pipeline parallelism").
struct PipelineSetting {
    // Its stages; the virtual stages and schedule are what the search assumes when it
    // prices strategies one by one (a plan brings its own).
    PipelineLayout layout;
    LinkSpec boundaryLink;  // what a stage boundary's sends cross
};

// Micro-batches of activations kept on stage `stage` of `layout` with m micro-batches
// (Megatron-LM's count): GPipe m; 1F1B min(m, p - s); interleaved min(m, p - s) x
// (1 + (p - 1)/(p v)).
[[nodiscard]] double microBatchesInFlight(const PipelineLayout& layout, int stage, double microBatches);

// Whether a pipeline run with Megatron-Core's overlap_p2p_comm (`sendOverlap`,
// Workload::pipelineSendOverlap) overlaps its sends: Megatron-LM does so in the
// interleaved schedule only and turns the flag off for the others.
[[nodiscard]] bool pipelineSendsOverlapped(const PipelineLayout& layout, bool sendOverlap);

// Prices a pipelined plan from its per-node evaluation (each node's costs over the step
// on the devices of its stage) into `evaluation.stages` and `evaluation.total`.
// Per stage and micro-batch: its nodes' compute and tensor-parallel traffic, plus one
// micro-batch's block input sent forward and its gradient back at every chunk boundary
// it owns; once per step: the optimizer and the exposed
// data-parallel traffic. The step is m x the bottleneck's (slowest stage's) micro-batch
// time + the fill and drain, every other stage's micro-batch time once (over v under the
// interleaved schedule; Narayanan et al.'s (p - 1)/v slots when stages are equal;
// PipelineCost.cpp says why) + the slowest per-step part; each stage waits the rest of the
// step (its bubbleSeconds). With `sendsOverlap` (Megatron-Core's overlap_p2p_comm) a
// steady-state micro-batch waits only for max(0, sends - compute); a fill slot still pays
// compute and every send, as each hop of the fill waits for the stage before
// (pipelineSendsOverlapped).
// Memory: each stage's
// parameters, gradients and optimizer states, its activations times the micro-batches
// in flight, the largest transient buffer. The total is the slowest stage's time and
// the fullest stage's memory. `boundarySeconds[b]`: the time of sending one micro-batch's
// input of block b from the stage before (its gradient back takes as long).
// Throws Error(InvalidPlan) when the layout does not fit the blocks.
void pricePipelineStages(PlanEvaluation& evaluation, const Plan& plan, const CoarseGraph& coarse,
                         const FamilyTable& families, int microBatches, const std::vector<double>& boundarySeconds,
                         bool sendsOverlap);

// What pricePipelineStages adds up over one stage's nodes.
struct StageNodes {
    TimeBreakdown time;
    double microBatchSeconds = 0;  // compute and tensor-parallel traffic of one micro-batch
    double perStepSeconds = 0;     // the optimizer and the exposed data-parallel traffic
    MemoryBreakdown memory;        // activations for one micro-batch; no transient
    // Adds `count` nodes of costs `cost` (over the step of `microBatches` micro-batches).
    void add(const CostBreakdown& cost, double microBatches, double count = 1);
};
// pricePipelineStages from each stage's sums over its nodes (`stages`, one per stage,
// their time's byAxis sized) and the largest transient buffer of any node.
void priceStageNodes(PlanEvaluation& evaluation, const PipelineLayout& layout, std::size_t blockCount,
                     std::vector<StageNodes> stages, double transient, int microBatches,
                     const std::vector<double>& boundarySeconds, bool sendsOverlap);

}  // namespace tapestry
