#include "cost/WorkloadCheck.h"

#include "cost/CostModel.h"
#include "cost/ExpertRouting.h"
#include "fold/FoldedModel.h"
#include "plan/ParallelDegrees.h"

#include <tuple>

namespace tapestry {

namespace {

std::string count(std::int64_t n)
{
    return std::to_string(n);
}

}  // namespace

WorkloadFieldNames commandLineFieldNames()
{
    return {"--batch", "--seq", "--micro-batch", "--capacity-factor", "gradient accumulation", "--virtual-stages",
            "the context-parallel size", "the expert-parallel size", "--zero-replicas", "--fp8-parameters",
            "--optimizer-step"};
}

WorkloadFieldNames planFileFieldNames()
{
    return {"workload.batch", "workload.sequence", "workload.micro_batch", "workload.capacity_factor",
            "gradient accumulation", "pipeline.virtual_stages", "the context-parallel axes", "the expert-parallel axes",
            "workload.zero_replicas", "workload.fp8_parameters", "workload.optimizer_step"};
}

void checkWorkload(const Workload& workload, const WorkloadDegrees& degrees, const WorkloadFieldNames& names,
                   const std::string& source, ErrorCode code)
{
    const auto fail = [&](const std::string& field, const std::string& rule) {
        throw Error(code, source, field + ": " + rule);
    };
    for (const auto& [field, size, what] : {std::tuple{&names.batch, workload.batch, "global batch"},
                                            std::tuple{&names.sequence, workload.sequence, "sequence"},
                                            std::tuple{&names.microBatch, workload.microBatch, "micro-batch"}})
        if (size < 0 || size > kMaxWorkloadSize)
            fail(*field, std::string(what) + " " + count(size) + " is not 1 to " + count(kMaxWorkloadSize));
    const std::int64_t batch = workload.batch;
    const std::int64_t micro = workload.microBatch;
    const std::int64_t dp = std::max<std::int64_t>(1, degrees.dataParallel);
    const std::string ranks = dp > 1 ? " x data-parallel " + count(dp) : std::string();
    // Products in floating point: inputs allow sizes whose product passes 2^63.
    const auto product = [](double n) { return n < 9e18 ? count(static_cast<std::int64_t>(n)) : "over 2^63"; };
    const double perMicroStep = static_cast<double>(micro) * static_cast<double>(dp);
    if (batch > 0 && micro > 0 && (perMicroStep > static_cast<double>(batch) || batch % (micro * dp) != 0))
        fail(names.batch, "global batch " + count(batch) + " is not a multiple of micro-batch " + count(micro) + ranks +
                              (perMicroStep > static_cast<double>(batch)
                                   ? " (a micro-step alone takes " + product(perMicroStep) + " sequences)"
                                   : std::string()));
    if (batch > 0 && micro == 0 && batch % dp != 0)
        fail(names.batch, "global batch " + count(batch) + " is not a multiple of data-parallel " + count(dp) +
                              ": every data-parallel rank takes whole sequences");
    const double stated = perMicroStep * static_cast<double>(degrees.accumulation);
    if (degrees.accumulation > 0 && batch > 0 && micro > 0 && stated != static_cast<double>(batch))
        fail(names.accumulation, count(degrees.accumulation) + " x micro-batch " + count(micro) + ranks + " = " +
                                     product(stated) + ", not the global batch " + count(batch));
    if (degrees.virtualStages > 1 && degrees.pipelineStages < 2)
        fail(names.virtualStages, std::to_string(degrees.virtualStages) +
                                      " virtual stages need a pipeline of 2 or more stages");
    // Without context parallelism the stacks cut nothing (ViT's 197 tokens run whole).
    const std::int64_t pieces = degrees.contextParallel > 1
                                    ? std::int64_t{degrees.contextParallel} * std::max(1, degrees.chunksPerContextRank)
                                    : 1;
    if (workload.sequence > 0 && pieces > 1 && workload.sequence % pieces != 0)
        fail(names.sequence, "sequence " + count(workload.sequence) + " does not split into " +
                                 (degrees.chunksPerContextRank > 1
                                      ? std::to_string(degrees.chunksPerContextRank) + " chunks x context-parallel " +
                                            std::to_string(degrees.contextParallel)
                                      : "context-parallel " + std::to_string(degrees.contextParallel)) +
                                 " equal pieces");
    if (degrees.experts > 0 && degrees.expertParallel > 1 && degrees.experts % degrees.expertParallel != 0)
        fail(names.expertParallel, std::to_string(degrees.experts) + " experts per layer do not split over " +
                                       std::to_string(degrees.expertParallel) + " expert-parallel ranks");
    if (workload.zeroReplicas < 1)
        fail(names.zeroReplicas, std::to_string(workload.zeroReplicas) + " replicas: at least 1");
    if (workload.zeroReplicas > 1 && workload.zeroStage < 2)
        fail(names.zeroReplicas, std::to_string(workload.zeroReplicas) + " replicas of a shard group (HSDP) need ZeRO 2 "
                                 "or 3; ZeRO " + std::to_string(workload.zeroStage) + " shards no gradients");
    if (workload.zeroReplicas > 1 && dp > 1 && dp % workload.zeroReplicas != 0)
        fail(names.zeroReplicas, std::to_string(workload.zeroReplicas) + " replicas do not divide data-parallel " +
                                     count(dp));
    if (workload.fp8Parameters && workload.fp8 == Fp8Recipe::None)
        fail(names.fp8Parameters, "FP8 weights without a 16-bit copy need FP8 training (precision fp8 or mxfp8), not " +
                                      precisionName(workload));
    if (workload.optimizerStep == OptimizerStep::FusedRemainders &&
        (workload.optimizer != OptimizerKind::AdamMixedPrecision || workload.computeType != DataType::BFloat16 ||
         workload.fp8Parameters))
        fail(names.optimizerStep, std::string("masters kept as 16-bit remainders (fused-remainders) need Adam on bf16 "
                                              "weights, not ") +
                                      optimizerName(workload.optimizer) + " on " +
                                      (workload.fp8Parameters ? "FP8" : precisionName(workload)) + " weights");
    if (!isCapacityFactor(workload.capacityFactor))
        fail(names.capacityFactor, "capacity factor " + capacityFactorText(workload.capacityFactor) +
                                       " is not a number above 0 and up to " + capacityFactorText(kMaxCapacityFactor));
    // Below 1 the factor drops tokens; so far below that nothing is left is a typo.
    if (workload.capacityFactor < 1 && degrees.experts > 0 && degrees.topK > 0 && degrees.tokensPerMicroStep > 0) {
        const double perExpert = workload.capacityFactor * degrees.tokensPerMicroStep * degrees.topK / degrees.experts;
        if (perExpert < 1)
            fail(names.capacityFactor, "capacity factor " + capacityFactorText(workload.capacityFactor) +
                                           " leaves each of " + std::to_string(degrees.experts) +
                                           " experts less than one of the " +
                                           capacityFactorText(degrees.tokensPerMicroStep) +
                                           " tokens of a micro-step (top-" + std::to_string(degrees.topK) + ")");
    }
}

WorkloadDegrees workloadDegrees(const CostModel& costs, const FoldedModel& model, const Plan& plan)
{
    WorkloadDegrees degrees;
    const CostModel::Stepping steps = costs.steppingOf(plan);
    degrees.dataParallel = steps.dataParallel;
    degrees.pipelineStages = plan.pipeline.stages;
    degrees.virtualStages = plan.pipeline.virtualStages;
    degrees.contextParallel = contextParallelDegree(plan, model.coarse);
    degrees.expertParallel = expertParallelDegree(plan);
    const Workload& bound = costs.workload();
    degrees.tokensPerMicroStep =
        static_cast<double>(bound.batch) * static_cast<double>(bound.sequence) / std::max(1, steps.microSteps);
    addModelExperts(degrees, model, costs.shapes());
    return degrees;
}

void addModelExperts(WorkloadDegrees& degrees, const FoldedModel& model, const ShapeBinder& binder)
{
    for (const ExpertMembership& m : expertMembership(model.graph(), model.coarse, binder)) {
        if (m.experts > 0) {
            degrees.experts = m.experts;
            degrees.topK = m.topK;
            return;
        }
    }
}

}  // namespace tapestry
