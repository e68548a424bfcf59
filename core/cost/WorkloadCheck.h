#pragma once

#include "base/Error.h"
#include "cost/Workload.h"

#include <cstdint>
#include <string>

namespace tapestry {

class CostModel;
class ShapeBinder;
struct FoldedModel;
struct Plan;

// The parallel sizes a step's workload must agree with (training.md). 0 or 1: not used
// or not known, and the rules that need the size are not checked.
struct WorkloadDegrees {
    std::int64_t dataParallel = 1;  // ranks that split the global batch
    int pipelineStages = 1;
    int virtualStages = 1;
    int contextParallel = 1;  // ranks that split each sequence
    // Sequence chunks per context-parallel rank: 2 where the stack balances causal
    // attention by giving each rank one chunk from each end (Megatron-LM, torchtitan);
    // without context parallelism (contextParallel 1) no chunks are cut.
    int chunksPerContextRank = 1;
    int expertParallel = 1;  // ranks the experts of a layer spread over
    int experts = 0;         // experts of a mixture-of-experts layer (0: no such layer)
    int topK = 0;            // experts each token is routed to
    // Tokens of one micro-step over all data-parallel ranks (0: not known): with
    // experts and topK, what a capacity factor leaves each expert.
    double tokensPerMicroStep = 0;
    std::int64_t accumulation = 0;  // micro-steps per step as the input states them (0: not said)
};

// What the input calls each field: "--batch", "workload.batch", "--global-batch-size".
struct WorkloadFieldNames {
    std::string batch;
    std::string sequence;
    std::string microBatch;
    std::string capacityFactor;
    std::string accumulation;
    std::string virtualStages;
    std::string contextParallel;
    std::string expertParallel;
    std::string zeroReplicas;
    // Inputs that never set Workload::fp8Parameters need not name it.
    std::string fp8Parameters = "FP8 weights";
    // Nor Workload::optimizerStep.
    std::string optimizerStep = "the optimizer step";
};

// The names of tapestry-cli's options and of the plan file's fields.
[[nodiscard]] WorkloadFieldNames commandLineFieldNames();
[[nodiscard]] WorkloadFieldNames planFileFieldNames();

// Refuses a workload that contradicts itself or its parallel sizes, throwing
// Error(code, source, "FIELD: RULE"), for example
// "--batch: global batch 17 is not a multiple of micro-batch 1 x data-parallel 2". A batch,
// sequence or micro-batch of 0 (not given: the model's or the search's) is not checked.
// The rules, as Megatron-LM and torchtitan enforce them (neither rounds):
// - the global batch, micro-batch and sequence are at most kMaxWorkloadSize;
// - the global batch is a multiple of micro-batch x data-parallel size (of the
//   data-parallel size without a micro-batch: every rank gets whole sequences), and
//   equals micro-batch x data-parallel x accumulation where the input states the
//   accumulation;
// - virtual pipeline stages need a pipeline of 2 or more stages;
// - the sequence divides into context-parallel x chunks-per-rank pieces;
// - the experts of a layer divide over the expert-parallel ranks;
// - ZeRO replicas (HSDP) above 1 come with ZeRO 2 or 3 and divide the data-parallel ranks;
// - FP8 weights without a 16-bit copy (fp8Parameters) come with an FP8 recipe;
// - masters kept as 16-bit remainders (OptimizerStep::FusedRemainders) come with Adam on
//   bf16 weights (not FP8 ones);
// - the capacity factor is a number above 0 and up to kMaxCapacityFactor that leaves each
//   expert at least one token of a micro-step.
void checkWorkload(const Workload& workload, const WorkloadDegrees& degrees, const WorkloadFieldNames& names,
                   const std::string& source, ErrorCode code = ErrorCode::InvalidArgument);

// Sets `degrees`' experts and top-k from `model`'s first mixture-of-experts layer as
// `binder` binds its router (left 0 without one).
void addModelExperts(WorkloadDegrees& degrees, const FoldedModel& model, const ShapeBinder& binder);

// The sizes `plan` runs `costs`' workload with on `model`: its data-parallel degree and
// micro-step tokens (CostModel::steppingOf), the plan's pipeline, context- and
// expert-parallel degrees, and the model's first mixture-of-experts layer.
[[nodiscard]] WorkloadDegrees workloadDegrees(const CostModel& costs, const FoldedModel& model, const Plan& plan);

}  // namespace tapestry
