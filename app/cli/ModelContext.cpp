#include "cli/ModelContext.h"

#include "cli/CommandLine.h"

#include "base/Error.h"
#include "base/ResourceFiles.h"
#include "cluster/ClusterFile.h"
#include "cluster/MeshText.h"
#include "cluster/PipelineStages.h"
#include "cost/AttentionKernelNames.h"
#include "onnx/OnnxImporter.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <optional>

namespace tapestry::cli {

namespace {

std::vector<std::string> splitOn(const std::string& text, char separator)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos)
            return parts;
        start = end + 1;
    }
}

}  // namespace

FoldedModel loadAndFold(const std::string& modelFile)
{
    Graph graph = importOnnxModel(modelFile);
    const std::vector<std::string>& unsized = graph.info().unsizedOps;
    if (!unsized.empty())
        std::fprintf(stderr, "tapestry-cli: note: %s: %zu op(s) whose operand shapes could not be inferred are not priced "
                             "(first: %s; `tapestry-cli inspect` lists them)\n",
                     modelFile.c_str(), unsized.size(), unsized.front().c_str());
    return foldModel(std::move(graph));
}

void addClusterOptions(CLI::App& command, std::string& cluster, int& nodes, const std::string& clusterHelp)
{
    command.add_option("--cluster", cluster, clusterHelp)->type_name("NAME|FILE");
    // A node count whose GPUs overflow no count: the largest clusters have about 10^5 GPUs.
    command.add_option("--nodes", nodes, "the number of nodes, instead of the cluster's own")
        ->type_name("N")
        ->check(wholeNumber(1, 1 << 20));
}

void addPlanningOptions(CLI::App& command, PlanningOptions& options, bool meshAuto)
{
    addClusterOptions(command, options.cluster, options.nodes,
                      "a cluster preset (resources/clusters) or a cluster FILE.json");
    command
        .add_option("--mesh", options.mesh,
                    meshAuto ? "the device mesh: sizes 2x8 (dp x tp) or named axes pp=8,dp=2,tp=8 (pp: pipeline "
                               "stages, outermost), or auto for every factorization of the GPU count, pipelines included"
                             : "the device mesh: sizes 2x8 (dp x tp) or named axes pp=8,dp=2,tp=8 (pp: pipeline "
                               "stages, outermost) (default: one axis over every GPU)")
        ->type_name(meshAuto ? "MESH|auto" : "MESH")
        ->check(meshShape(meshAuto));
    command.add_option("--axes", options.axes, "names of the mesh axes (default d; dp,tp; a0,a1,...)")
        ->type_name("NAME,NAME");
    options.batchOption = command.add_option("--batch", options.workload.batch, "global batch in sequences (default: as the model says)")
        ->type_name("N")
        ->check(wholeNumber(1, kMaxWorkloadSize));
    options.sequenceOption = command.add_option("--seq", options.workload.sequence, "tokens per sequence (default: as the model says)")
        ->type_name("L")
        ->check(wholeNumber(1, kMaxWorkloadSize));
    options.optimizerOption = addChoice(command, "--optimizer", options.workload.optimizer,
              {{"adam", OptimizerKind::AdamMixedPrecision}, {"sgd", OptimizerKind::SgdMomentum}},
              "the optimizer whose states are kept (default adam)");
    options.microBatchOption = command.add_option("--micro-batch", options.workload.microBatch,
                       "sequences per data-parallel rank and micro-step; gradients accumulate over the "
                       "micro-steps (default: the whole batch at once)")
        ->type_name("N")
        ->check(wholeNumber(1, kMaxWorkloadSize));
    const std::vector<std::string> precisions{"bf16", "fp16", "fp8", "mxfp8"};
    options.precisionOption = command
        .add_option_function<std::string>(
            "--precision", [&options](const std::string& name) { (void)setPrecision(options.workload, name); },
            "the 16-bit type of activations, weights and gradients, or fp8 / mxfp8: bf16 with the repeated "
            "blocks' linear layers in FP8 (per-tensor scaling, or MXFP8 block scaling on Blackwell) as "
            "Transformer Engine recipes run them (default bf16)")
        ->check(CLI::Validator(
            [precisions](const std::string& text) {
                return std::find(precisions.begin(), precisions.end(), text) != precisions.end()
                           ? std::string()
                           : choiceError(text, precisions);
            },
            ""))
        ->type_name("bf16|fp16|fp8|mxfp8");
    options.fp8ParametersOption = addChoice(command, "--fp8-parameters", options.workload.fp8Parameters,
        {{"on", true}, {"off", false}},
        "on, with --precision fp8 or mxfp8: the FP8 layers' weights in FP8 only, without their 16-bit copy, as "
        "Transformer Engine's fp8_model_init keeps them (Megatron-LM's --fp8-param-gather, NeMo's fp8_params); "
        "ZeRO 3 gathers them in FP8 (default off: the 16-bit weights kept beside the FP8 copy)");
    options.zeroOption = command.add_option("--zero", options.workload.zeroStage,
                       "ZeRO stage over the data-parallel axes: 1 shards optimizer states, 2 also gradients, "
                       "3 also parameters (FSDP) (default 0)")
        ->type_name("0|1|2|3")
        ->check(wholeNumber(0, 3));
    options.zero1Option = command.add_flag_callback(
        "--zero1", [&options] { options.workload.zeroStage = 1; }, "the same as --zero 1");
    options.zeroImplementationOption = addChoice(command, "--zero-implementation", options.workload.zeroImplementation,
              {{"fsdp", ZeroImplementation::Fsdp}, {"fsdp2", ZeroImplementation::Fsdp2},
               {"deepspeed", ZeroImplementation::DeepSpeed}, {"megatron-fsdp", ZeroImplementation::MegatronFsdp}},
              "how ZeRO 2 and 3 move parameters and gradients: PyTorch FSDP's (fsdp, FSDP1) or fully_shard's "
              "(fsdp2) one gather per block, prefetched under compute, each with its own copies around its "
              "collectives, Megatron-FSDP's (megatron-fsdp) the same gathers into the buffers the parameters and "
              "main gradients live in, or DeepSpeed ZeRO-3's (2021) one gather per parameter tensor, each waited "
              "for (default fsdp; search --target: as the stack does)");
    options.zeroReplicasOption = command.add_option("--zero-replicas", options.workload.zeroReplicas,
                       "HSDP under ZeRO 2/3: the data-parallel ranks as N replicas of a shard group (torchtitan's "
                       "data_parallel_replicate_degree); each shards over its own ranks and the replicas all-reduce "
                       "their gradient shards (default 1: one group of every rank)")
        ->type_name("N")
        ->check(wholeNumber(1, 1 << 20));
    options.recomputeOption = addChoice(command, "--recompute", options.workload.recompute,
              {{"none", Recomputation::None}, {"selective", Recomputation::Selective}, {"full", Recomputation::Full}},
              "activation recomputation in the repeated blocks: none, the attention core (selective; for "
              "search --target torchtitan its op-level policy) or whole blocks (full) (default none)");
    options.checkpointReplayOption = addChoice(command, "--checkpoint-replay", options.workload.checkpointReplay,
              {{"whole-block", CheckpointReplay::WholeBlock}, {"stops-early", CheckpointReplay::StopsEarly}},
              "how full recomputation replays a block: whole, as Megatron-LM's checkpoint does, or stopping before "
              "its last matmul, as PyTorch's non-reentrant checkpoint (torchtitan's) does (default whole-block; "
              "search --target: as the stack does)");
    options.savedActivationsOption = addChoice(command, "--saved-activations", options.workload.savedActivations,
              {{"fused", SavedActivations::Fused}, {"eager", SavedActivations::Eager}},
              "what autograd keeps for backward and how the memory-bound ops run: as fused kernels keep and run "
              "them (Megatron-LM, Transformer Engine) or as eager PyTorch modules do (also the activation "
              "function's output, an RMS norm's fp32 input and normalized tensor, the loss's fp32 "
              "log-probabilities; each op its own kernel, RMS norms and the loss in fp32) (default fused; search "
              "--target: as the stack does)");
    options.optimizerStepOption = addChoice(command, "--optimizer-step", options.workload.optimizerStep,
              {{"fused", OptimizerStep::Fused},
               {"master-copies", OptimizerStep::MasterCopies},
               {"fused-remainders", OptimizerStep::FusedRemainders}},
              "how the optimizer step runs: one fused kernel that reads the 16-bit gradients and writes the "
              "16-bit weights (torchtitan), the same keeping each fp32 master as the 16-bit remainder of its bf16 "
              "weight (fused-remainders: Megatron-LM's --use-precision-aware-optimizer, 2 bytes per parameter "
              "less), or a fused optimizer on fp32 master copies, 16-bit gradients cast to fp32 before it and the "
              "masters copied into the weights after it (PyTorch, Megatron-LM's default) (default fused; search "
              "--target: as the stack does)");
    options.gradientLifetimeOption = addChoice(command, "--gradient-lifetime", options.workload.gradientLifetime,
              {{"persistent", GradientLifetime::Persistent},
               {"freed-between-steps", GradientLifetime::FreedBetweenSteps},
               {"zeroed-each-step", GradientLifetime::ZeroedEachStep}},
              "whether the gradients outlive the step: in a buffer kept from step to step, zeroed in place every "
              "step (zeroed-each-step: Megatron-LM, its bytes written once per step) or not priced so, or freed "
              "between steps (zero_grad(set_to_none=True): torchtitan, PyTorch), then with one micro-step they "
              "count only by what they exceed the activations by (default persistent; search --target: as the "
              "stack does)");
    options.clipGradientsOption = addChoice(command, "--clip-gradients", options.workload.gradientClipping,
              {{"none", GradientClipping::None},
               {"above-limit", GradientClipping::AboveLimit},
               {"every-step", GradientClipping::EveryStep}},
              "clip the gradients by their global norm: read every step for the norm and scaled only above the "
              "limit (above-limit: Megatron-LM's --clip-grad; one fp32 read of each gradient the optimizer steps, "
              "priced as not scaling) or scaled every step (every-step: torchtitan's max_norm; a read and a write "
              "more) (default none; search --target: as the stack does)");
    options.overlapOption = addChoice(command, "--overlap", options.workload.overlap, {{"on", true}, {"off", false}},
              "overlap data-parallel gradient reduction and FSDP gathers with compute (default on)");
    options.attentionOption = addChoice(command, "--attention", options.workload.attention,
              attentionKernelChoices(AttentionNameReader::PlanFile),
              "attention as one fused kernel, FlashAttention-2's (flash2; fused, its name before, is read the same), "
              "cuDNN's (cudnn, Transformer Engine's), the Triton FlashAttention (triton, llm-foundry's attn_impl: "
              "triton) or FlashAttention 1.x's (flash1), or separate kernels that write the scores (default flash2)",
              [](const std::string& name) { return attentionKernelRefusal(name, AttentionNameReader::PlanFile); });
    options.capacityFactorOption = command
        .add_option("--capacity-factor", options.workload.capacityFactor,
                    "mixture-of-experts routing: each expert takes up to this times its even share (top-k / "
                    "experts) of the tokens (default 1)")
        ->type_name("C")
        ->check(positiveNumber(kMaxCapacityFactor));
}

Workload workloadOverPlanFile(const Workload& stored, const PlanningOptions& options)
{
    Workload workload = stored;
    const Workload& flags = options.workload;
    if (optionGiven(options.batchOption))
        workload.batch = flags.batch;
    if (optionGiven(options.sequenceOption))
        workload.sequence = flags.sequence;
    if (optionGiven(options.microBatchOption))
        workload.microBatch = flags.microBatch;
    if (optionGiven(options.precisionOption)) {
        workload.computeType = flags.computeType;
        workload.fp8 = flags.fp8;
        // A plan file's FP8 weights go with its FP8 recipe: another precision drops them.
        if (flags.fp8 == Fp8Recipe::None)
            workload.fp8Parameters = false;
    }
    if (optionGiven(options.fp8ParametersOption))
        workload.fp8Parameters = flags.fp8Parameters;
    if (optionGiven(options.optimizerOption))
        workload.optimizer = flags.optimizer;
    if (options.zeroStageGiven())
        workload.zeroStage = flags.zeroStage;
    if (optionGiven(options.zeroImplementationOption))
        workload.zeroImplementation = flags.zeroImplementation;
    if (optionGiven(options.zeroReplicasOption))
        workload.zeroReplicas = flags.zeroReplicas;
    if (options.recomputationGiven())
        workload.recompute = flags.recompute;
    if (optionGiven(options.checkpointReplayOption))
        workload.checkpointReplay = flags.checkpointReplay;
    if (optionGiven(options.savedActivationsOption))
        workload.savedActivations = flags.savedActivations;
    if (optionGiven(options.optimizerStepOption))
        workload.optimizerStep = flags.optimizerStep;
    if (optionGiven(options.gradientLifetimeOption))
        workload.gradientLifetime = flags.gradientLifetime;
    if (optionGiven(options.clipGradientsOption))
        workload.gradientClipping = flags.gradientClipping;
    if (optionGiven(options.overlapOption))
        workload.overlap = flags.overlap;
    if (optionGiven(options.attentionOption))
        workload.attention = flags.attention;
    if (optionGiven(options.capacityFactorOption))
        workload.capacityFactor = flags.capacityFactor;
    return workload;
}

void checkPlanningWorkload(const Workload& workload, const WorkloadDegrees& degrees, const PlanningOptions& options,
                           const std::string& planFile)
{
    WorkloadFieldNames names = commandLineFieldNames();
    if (!planFile.empty()) {
        const WorkloadFieldNames file = planFileFieldNames();
        const auto fromFile = [&](std::string& name, const std::string& fileName, const CLI::Option* option) {
            if (!optionGiven(option))
                name = fileName;
        };
        fromFile(names.batch, file.batch, options.batchOption);
        fromFile(names.sequence, file.sequence, options.sequenceOption);
        fromFile(names.microBatch, file.microBatch, options.microBatchOption);
        fromFile(names.capacityFactor, file.capacityFactor, options.capacityFactorOption);
        fromFile(names.fp8Parameters, file.fp8Parameters, options.fp8ParametersOption);
        fromFile(names.optimizerStep, file.optimizerStep, options.optimizerStepOption);
        names.virtualStages = file.virtualStages;
        names.contextParallel = file.contextParallel;
        names.expertParallel = file.expertParallel;
    }
    checkWorkload(workload, degrees, names, planFile);
}

std::filesystem::path clusterPresetFolder(const char* argv0)
{
    const std::filesystem::path executableDir = std::filesystem::absolute(argv0).parent_path();
    const std::filesystem::path presets = findResource(executableDir, "clusters");
    if (presets.empty())
        throw Error(ErrorCode::FileNotFound, "resources/clusters", "the cluster presets are not installed");
    return presets;
}

Cluster loadCluster(const std::string& name, int nodes, const char* argv0)
{
    Cluster cluster;
    if (name.find('/') != std::string::npos || name.ends_with(".json"))
        cluster = loadClusterFile(name);
    else
        cluster = loadClusterPreset(clusterPresetFolder(argv0), name);
    if (nodes > 0) {
        // As cluster files: at most 2^20 GPUs, so device counts stay within int.
        if (std::int64_t{nodes} * cluster.gpusPerNode > (1 << 20))
            throw Error(ErrorCode::InvalidArgument, {},
                        "--nodes " + std::to_string(nodes) + " gives more than 2^20 GPUs of " + cluster.name);
        cluster = cluster.withNodes(nodes);
    }
    return cluster;
}

Cluster clusterFromOptions(const PlanningOptions& options, const char* argv0)
{
    return loadCluster(options.cluster, options.nodes, argv0);
}

void addPlanClusterOptions(CLI::App& command, PlanClusterOptions& options)
{
    addClusterOptions(command, options.cluster, options.nodes,
                      "the cluster the plan's mesh must fit: a preset or a cluster FILE.json (default: the "
                      "preset the plan names)");
}

std::optional<Cluster> checkPlanFitsCluster(const Plan& plan, const std::string& namedCluster,
                                            const std::string& planFile, const PlanClusterOptions& options,
                                            const char* argv0, const char* command)
{
    std::optional<Cluster> cluster;
    if (!options.cluster.empty()) {
        cluster = loadCluster(options.cluster, options.nodes, argv0);
    } else {
        // The plan's own cluster: a preset by name, or one scaled by --nodes, whose name
        // Cluster::withNodes wrote as "PRESET (N nodes)".
        const std::filesystem::path presets = clusterPresetFolder(argv0);
        const auto isPreset = [&](const std::string& name) {
            const std::vector<std::string> names = clusterPresetNames(presets);
            return std::find(names.begin(), names.end(), name) != names.end();
        };
        std::string preset = namedCluster;
        int nodes = options.nodes;
        const std::size_t open = namedCluster.rfind(" (");
        if (!isPreset(preset) && open != std::string::npos && namedCluster.ends_with(")")) {
            int scaled = 0;
            const char* first = namedCluster.data() + open + 2;
            const auto [end, error] = std::from_chars(first, namedCluster.data() + namedCluster.size(), scaled);
            const std::string_view unit(end, namedCluster.data() + namedCluster.size() - end);
            if (error == std::errc{} && (unit == " nodes)" || unit == " node)")) {
                preset = namedCluster.substr(0, open);
                if (nodes == 0)
                    nodes = scaled;
            }
        }
        if (isPreset(preset))
            cluster = loadCluster(preset, nodes, argv0);
    }
    if (!cluster) {
        const std::string named = namedCluster.empty() ? "no cluster" : "the cluster '" + namedCluster + "'";
        std::fprintf(stderr,
                     "tapestry-cli %s: note: %s names %s, not a cluster preset: its mesh is not checked against a "
                     "GPU count (give --cluster)\n",
                     command, planFile.c_str(), named.c_str());
        return std::nullopt;
    }
    try {
        (void)DeviceMesh(planMeshAxes(plan), *cluster);
    } catch (const Error& error) {
        std::string stages;
        if (plan.pipeline.active()) {
            stages = " (" + std::to_string(plan.pipeline.stages) + " pipeline stages of mesh [";
            for (std::size_t a = 0; a < plan.mesh.size(); ++a)
                stages += (a ? ", " : "") + std::to_string(plan.mesh[a].size);
            stages += "])";
        }
        throw Error(ErrorCode::InvalidPlan, planFile, "does not fit the cluster" + stages + ": " + error.message());
    }
    return cluster;
}

std::vector<MeshAxis> meshAxesFromOptions(const std::string& mesh, const std::string& axesText, const Cluster& cluster)
{
    if (mesh.find('=') != std::string::npos) {
        if (!axesText.empty())
            throw Error(ErrorCode::InvalidArgument, {}, "--axes names the axes of --mesh AxB; --mesh " + mesh + " names its own");
        return splitPipelineAxis(parseMeshText(mesh)).wholeAxes();
    }
    const std::string text = mesh.empty() ? std::to_string(cluster.deviceCount()) : mesh;
    std::vector<MeshAxis> axes;
    for (const std::string& part : splitOn(text, 'x')) {
        int size = 0;  // stays 0 (refused by DeviceMesh) for what --mesh's validator did not check
        std::from_chars(part.data(), part.data() + part.size(), size);
        axes.push_back({{}, size});
    }
    std::vector<std::string> names;
    if (!axesText.empty())
        names = splitOn(axesText, ',');
    else if (axes.size() == 1)
        names = {"d"};
    else if (axes.size() == 2)
        names = {"dp", "tp"};
    else
        for (std::size_t i = 0; i < axes.size(); ++i)
            names.push_back("a" + std::to_string(i));
    if (names.size() != axes.size())
        throw Error(ErrorCode::InvalidArgument, {},
                    "--axes names " + std::to_string(names.size()) + " axes, --mesh has " + std::to_string(axes.size()));
    for (std::size_t i = 0; i < axes.size(); ++i)
        axes[i].name = names[i];
    return axes;
}

}  // namespace tapestry::cli
