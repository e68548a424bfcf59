#include "export/TrainingStackImport.h"

#include "cost/ShapeBinder.h"
#include "cost/WorkloadCheck.h"
#include "export/MegatronArguments.h"
#include "export/PyTorchPlanExport.h"
#include "export/TorchTitanConfig.h"
#include "export/TorchTitanTrainerConfig.h"
#include "fold/FoldedModel.h"

namespace tapestry {

namespace {

WorkloadFieldNames megatronFieldNames()
{
    return {"--global-batch-size",
            "--seq-length",
            "--micro-batch-size",
            "--moe-expert-capacity-factor",
            "gradient accumulation",
            "--virtual-pipeline-model-parallel-size",
            "--context-parallel-size",
            "--expert-model-parallel-size",
            "ZeRO replicas"};
}

WorkloadFieldNames torchTitanFieldNames(bool pipelined)
{
    return {"training.global_batch_size",
            "training.seq_len",
            pipelined ? "parallelism.pipeline_parallel_microbatch_size" : "training.local_batch_size",
            "capacity factor",
            "gradient accumulation",
            "parallelism.pipeline_parallel_split_points",
            "parallelism.context_parallel_degree",
            "parallelism.expert_parallel_degree",
            "parallelism.data_parallel_replicate_degree"};
}

// The same for today's torchtitan config (TorchTitanTrainerConfig.h).
WorkloadFieldNames torchTitanTrainerFieldNames(bool pipelined)
{
    return {"TRAINING[\"num_tokens_per_train_step\"]",
            "TRAINING[\"max_context_length\"]",
            "TRAINING[\"num_tokens_per_microbatch_per_dp_rank\"]",
            "capacity factor",
            "gradient accumulation",
            pipelined ? "PARALLELISM[\"module_fqns_per_model_part\"]" : "PARALLELISM[\"pipeline_parallel_degree\"]",
            "PARALLELISM[\"context_parallel_degree\"]",
            "PARALLELISM[\"expert_parallel_degree\"]",
            "PARALLELISM[\"data_parallel_replicate_degree\"]"};
}

// The sizes the imported plan runs its workload with. Both stacks cut each sequence into
// two chunks per context-parallel rank (one from each end, for causal attention's balance).
WorkloadDegrees importedDegrees(const TrainingStackSettings& settings, const PlanDocument& document,
                                const FoldedModel& model)
{
    WorkloadDegrees degrees;
    const std::int64_t modelParallel =
        std::int64_t{settings.pipeline.stages} * settings.contextParallel * settings.tensorParallel;
    std::int64_t devices = document.plan.pipeline.stages;
    for (const MeshAxis& axis : document.plan.mesh)
        devices *= axis.size;
    degrees.dataParallel = settings.dataParallel > 0 ? settings.dataParallel : devices / modelParallel;
    degrees.pipelineStages = settings.pipeline.stages;
    degrees.virtualStages = settings.pipeline.virtualStages;
    degrees.contextParallel = settings.contextParallel;
    degrees.chunksPerContextRank = 2;
    degrees.expertParallel = settings.expertParallel;
    degrees.accumulation = settings.accumulation;
    const ShapeBinder binder(model.graph(), document.workload);
    addModelExperts(degrees, model, binder);
    const std::int64_t micro = document.workload.microBatch > 0 ? document.workload.microBatch : 1;
    degrees.tokensPerMicroStep = static_cast<double>(micro) * static_cast<double>(degrees.dataParallel) *
                                 static_cast<double>(binder.sequence());
    return degrees;
}

// torchtitan runs a pipelined step as whole passes of its schedule over rankBatch sequences
// per data-parallel rank (gradient accumulation iterations), a bubble each; Tapestry prices
// one schedule of all the step's micro-batches, one bubble, and says so.
void checkPipelinePasses(const TrainingStackSettings& settings, const Workload& workload, std::int64_t dataParallel,
                         const std::string& batchField, const std::string& fileName,
                         std::vector<std::string>& warnings)
{
    if (settings.pipeline.stages <= 1 || settings.rankBatch <= 0 || workload.microBatch <= 0)
        return;
    const std::int64_t perPass = settings.rankBatch * dataParallel;  // at most 2^24 x 2^20
    const std::int64_t microBatches = settings.rankBatch / workload.microBatch;
    const std::string pass = std::to_string(perPass) + " sequences (" + std::to_string(microBatches) +
                             " micro-batch(es) of " + std::to_string(workload.microBatch) + " per rank x data-parallel " +
                             std::to_string(dataParallel) + ")";
    if (workload.batch % perPass != 0)
        throw Error(ErrorCode::InvalidPlan, fileName,
                    batchField + ": global batch " + std::to_string(workload.batch) + " is not a multiple of " + pass +
                        ", one pass of the pipeline schedule: torchtitan runs a step as whole passes");
    const std::int64_t passes = workload.batch / perPass;
    if (passes > 1)
        warnings.push_back(batchField + ": torchtitan runs each step as " + std::to_string(passes) +
                           " gradient accumulation passes of the pipeline schedule over " + pass +
                           ", a bubble each; Tapestry prices one schedule of all " +
                           std::to_string(passes * microBatches) +
                           " micro-batches per rank, one bubble, so its step is shorter than torchtitan's");
}

// A file of `stack`: its plan priced with that stack's implementations (the parsers set
// its workload's: withStackImplementations).
TrainingStackImport importStack(TrainingStack stack, TrainingStackSettings settings, const WorkloadFieldNames& names,
                                const FoldedModel& model, const std::string& fileName, int gpuCount)
{
    TrainingStackImport imported;
    imported.document = planFromTrainingStackSettings(settings, model, fileName, gpuCount);
    imported.document.implementations = stack;
    const WorkloadDegrees degrees = importedDegrees(settings, imported.document, model);
    checkWorkload(imported.document.workload, degrees, names, fileName, ErrorCode::InvalidPlan);
    imported.warnings = std::move(settings.notes);
    checkPipelinePasses(settings, imported.document.workload, degrees.dataParallel, names.batch, fileName,
                        imported.warnings);
    return imported;
}

}  // namespace

TrainingStackImport importMegatronArguments(std::string_view text, const std::string& fileName,
                                            const FoldedModel& model, int gpuCount)
{
    return importStack(TrainingStack::Megatron, parseMegatronArguments(text, fileName, model), megatronFieldNames(),
                       model, fileName, gpuCount);
}

TrainingStackImport importTorchTitanConfig(std::string_view text, const std::string& fileName,
                                           const FoldedModel& model, int gpuCount)
{
    TrainingStackSettings settings = parseTorchTitanConfig(text, fileName, model);
    const WorkloadFieldNames names = torchTitanFieldNames(settings.pipeline.stages > 1);
    return importStack(TrainingStack::TorchTitan, std::move(settings), names, model, fileName, gpuCount);
}

std::optional<TrainingStackImport> importTrainingStackPlan(std::string_view text, const std::string& fileName,
                                                           const FoldedModel& model, int gpuCount)
{
    // A PyTorch export carries the plan it runs.
    if (std::optional<PlanDocument> exported = importPyTorchPlanExport(text, fileName, model))
        return TrainingStackImport{std::move(*exported), {}};
    if (isTorchTitanTrainerConfig(text)) {
        TrainingStackSettings settings = parseTorchTitanTrainerConfig(text, fileName, model);
        const WorkloadFieldNames names = torchTitanTrainerFieldNames(settings.pipeline.stages > 1);
        return importStack(TrainingStack::TorchTitan, std::move(settings), names, model, fileName, gpuCount);
    }
    if (isTorchTitanConfig(text) || fileName.ends_with(".toml"))
        return importTorchTitanConfig(text, fileName, model, gpuCount);
    if (isMegatronArguments(text))
        return importMegatronArguments(text, fileName, model, gpuCount);
    return std::nullopt;
}

}  // namespace tapestry
