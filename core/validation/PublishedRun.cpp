#include "validation/PublishedRun.h"

#include "base/Error.h"
#include "base/JsonReader.h"
#include "base/TextFile.h"
#include "cost/AttentionKernelNames.h"
#include "cost/WorkloadCheck.h"
#include "cost/Workload.h"

#include <cmath>
#include <cstdio>

namespace tapestry {

namespace {

std::string numberText(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

// Reads the fields of one object of one case, naming the case and field in errors.
class CaseFields {
public:
    CaseFields(const JsonValue& object, const std::string& file, std::string path)
        : object_(object), file_(file), path_(std::move(path))
    {
        if (!object.isObject())
            fail("", "is " + std::string(object.kindName()) + ", not an object");
    }

    [[nodiscard]] const JsonValue& required(std::string_view key) const
    {
        const JsonValue* value = object_.find(key);
        if (!value)
            fail(key, "is missing");
        return *value;
    }
    [[nodiscard]] std::string text(std::string_view key) const
    {
        const JsonValue& value = required(key);
        if (!value.isString())
            fail(key, "is " + std::string(value.kindName()) + ", not a string");
        return value.asString();
    }
    [[nodiscard]] double positive(std::string_view key) const
    {
        const JsonValue& value = required(key);
        if (!value.isNumber() || !std::isfinite(value.asNumber()) || value.asNumber() <= 0)
            fail(key, "must be a positive number");
        return value.asNumber();
    }
    // A measured quantity: a positive number within [smallest, largest], outside of which
    // it is a typo or a unit slip (and the prices made of it overflow).
    [[nodiscard]] double measure(std::string_view key, double smallest, double largest) const
    {
        const double value = positive(key);
        if (value < smallest || value > largest)
            fail(key, "is " + numberText(value) + "; it must be from " + numberText(smallest) + " to " +
                          numberText(largest));
        return value;
    }
    [[nodiscard]] std::int64_t count(std::string_view key, double largest = 1e12) const
    {
        const double value = positive(key);
        if (value != std::floor(value) || value > largest)
            fail(key, "must be a whole number from 1 to " + std::to_string(static_cast<long long>(largest)));
        return static_cast<std::int64_t>(value);
    }
    [[nodiscard]] std::string textOr(std::string_view key, const std::string& fallback) const
    {
        return object_.find(key) ? text(key) : fallback;
    }
    [[nodiscard]] std::int64_t countOr(std::string_view key, std::int64_t fallback) const
    {
        return object_.find(key) ? count(key) : fallback;
    }
    [[nodiscard]] bool has(std::string_view key) const { return object_.find(key) != nullptr; }
    [[nodiscard]] bool flag(std::string_view key) const
    {
        const JsonValue& value = required(key);
        if (!value.isBool())
            fail(key, "is " + std::string(value.kindName()) + ", not true or false");
        return value.asBool();
    }
    [[nodiscard]] std::optional<double> optionalPositive(std::string_view key) const
    {
        const JsonValue* value = object_.find(key);
        if (!value || (value->isNumber() && value->asNumber() == 0))
            return std::nullopt;  // the format writes 0 for "not published"
        return positive(key);
    }
    [[noreturn]] void fail(std::string_view key, const std::string& problem) const
    {
        throw Error(ErrorCode::InvalidPublishedRun, file_,
                    path_ + (key.empty() ? "" : "." + std::string(key)) + ": " + problem);
    }

private:
    const JsonValue& object_;
    const std::string& file_;
    std::string path_;
};

PublishedRun readCase(const JsonValue& value, const std::string& file, std::size_t index)
{
    const std::string at = "cases[" + std::to_string(index) + "]";
    const CaseFields top(value, file, at);
    PublishedRun run;
    run.name = top.text("name");
    run.source = top.text("source");
    const std::string path = at + " (" + run.name + ")";

    const CaseFields model(top.required("model"), file, path + ".model");
    run.model.architecture = model.text("architecture");
    if (run.model.architecture != "gpt" && run.model.architecture != "llama")
        model.fail("architecture", "is '" + run.model.architecture + "'; the format describes gpt and llama");
    run.model.layers = model.count("layers", 1e4);
    run.model.hidden = model.count("hidden", 1e6);
    run.model.heads = model.count("heads", 1e4);
    run.model.kvHeads = model.countOr("kv_heads", run.model.heads);
    if (run.model.heads % run.model.kvHeads != 0)
        model.fail("kv_heads", "does not divide heads");
    run.model.ffnHidden = model.count("ffn_hidden", 1e7);
    run.model.vocab = model.count("vocab", 1e8);
    run.model.sequence = model.count("sequence", 1e8);
    run.model.attention = model.text("attention");
    if (!attentionKernelFromName(run.model.attention, AttentionNameReader::RunFile))
        model.fail("attention", attentionKernelRefusal(run.model.attention, AttentionNameReader::RunFile));
    if (run.model.hidden % run.model.heads != 0)
        model.fail("hidden", "is not divisible by heads");

    const CaseFields hardware(top.required("hardware"), file, path + ".hardware");
    run.hardware.gpu = hardware.text("gpu");
    // From a phone's GPU to a thousand times today's largest.
    run.hardware.peakTflops = hardware.measure("peak_tflops_bf16", 1e-3, 1e6);
    run.hardware.gpusPerNode = static_cast<int>(hardware.count("gpus_per_node", 1024));
    run.hardware.nodes = static_cast<int>(hardware.count("nodes", 1e6));
    // From 1 Mbit/s to a thousand times today's 400 Gbit/s links.
    run.hardware.interNodeGbitPerGpu = hardware.measure("inter_node_gbit_per_gpu", 1e-3, 4e5);
    run.hardware.gpusPerNvlinkDomain = static_cast<int>(hardware.countOr("gpus_per_nvlink_domain", 0));
    if (hardware.has("hbm_tb_per_s"))
        run.hardware.hbmTbPerSecond = hardware.measure("hbm_tb_per_s", 1e-3, 1e3);

    const CaseFields training(top.required("training"), file, path + ".training");
    run.training.precision = training.text("precision");
    if (Workload probe; run.training.precision == "fp32" || !setPrecision(probe, run.training.precision))
        training.fail("precision", "is '" + run.training.precision + "', not fp16, bf16, fp8 or mxfp8");
    run.training.fp8Parameters = training.has("fp8_parameters") && training.flag("fp8_parameters");
    if (run.training.fp8Parameters && run.training.precision != "fp8" && run.training.precision != "mxfp8")
        training.fail("fp8_parameters", "is true for a " + run.training.precision + " run (FP8 weights need fp8 or mxfp8)");
    // Megatron-LM turns accumulate_allreduce_grads_in_fp32 on for bf16, NeMo's default keeps
    // it; a recipe that turns it off says so (tests/data/validation/README.md).
    if (training.has("grad_reduce_in_fp32") && !fromMegatron(run))
        training.fail("grad_reduce_in_fp32", "is Megatron-Core's setting, and the source names no Megatron stack");
    run.training.gradReduceInFp32 = fromMegatron(run) && (!training.has("grad_reduce_in_fp32") ||
                                                          training.flag("grad_reduce_in_fp32"));
    run.training.globalBatch = training.count("global_batch");
    run.training.microBatch = training.count("micro_batch");
    const bool accumulationGiven = training.has("gradient_accumulation");
    run.training.gradientAccumulation = training.countOr("gradient_accumulation", 1);
    run.training.dataParallel = static_cast<int>(training.count("data_parallel", 1e6));
    run.training.tensorParallel = static_cast<int>(training.count("tensor_parallel", 1e6));
    run.training.pipelineParallel = static_cast<int>(training.count("pipeline_parallel", 1e6));
    run.training.virtualStages = static_cast<int>(training.countOr("virtual_stages", 1));
    run.training.sequenceParallel = training.flag("sequence_parallel");
    run.training.contextParallel = static_cast<int>(training.countOr("context_parallel", 1));
    const JsonValue& zero = training.required("zero_stage");
    if (!zero.isNumber() || (zero.asNumber() != 0 && zero.asNumber() != 1 && zero.asNumber() != 2 &&
                             zero.asNumber() != 3))
        training.fail("zero_stage", "must be 0, 1, 2 or 3");
    run.training.zeroStage = static_cast<int>(zero.asNumber());
    run.training.zeroImplementation = training.textOr("zero_implementation", "fsdp");
    if (run.training.zeroImplementation != "fsdp" && run.training.zeroImplementation != "deepspeed" &&
        run.training.zeroImplementation != "megatron-fsdp")
        training.fail("zero_implementation",
                      "is '" + run.training.zeroImplementation + "', not fsdp, deepspeed or megatron-fsdp");
    run.training.recompute = training.text("recompute");
    if (run.training.recompute != "none" && run.training.recompute != "selective" && run.training.recompute != "full")
        training.fail("recompute", "is '" + run.training.recompute + "', not none, selective or full");
    run.training.activationOffloadLayers = training.countOr("activation_offload_layers", 0);
    if (run.training.activationOffloadLayers > run.model.layers)
        training.fail("activation_offload_layers", "is more than the model's " + std::to_string(run.model.layers) +
                                                       " layers");
    run.training.optimizer = training.text("optimizer");
    if (run.training.optimizer != "adam")
        training.fail("optimizer", "is '" + run.training.optimizer + "'; the format describes Adam runs (adam)");
    const long long gpus = static_cast<long long>(run.hardware.nodes) * run.hardware.gpusPerNode;
    const long long product = static_cast<long long>(run.training.dataParallel) * run.training.tensorParallel *
                              run.training.pipelineParallel * run.training.contextParallel;
    if (product != gpus)
        training.fail("data_parallel", "dp x tp x pp x cp = " + std::to_string(product) + ", but the hardware has " +
                                           std::to_string(gpus) + " GPUs");

    Workload workload;
    workload.batch = run.training.globalBatch;
    workload.sequence = run.model.sequence;
    workload.microBatch = run.training.microBatch;
    WorkloadDegrees degrees;
    degrees.dataParallel = run.training.dataParallel;
    degrees.pipelineStages = run.training.pipelineParallel;
    degrees.virtualStages = run.training.virtualStages;
    degrees.contextParallel = run.training.contextParallel;
    degrees.accumulation = accumulationGiven ? run.training.gradientAccumulation : 0;
    const std::string trainingField = path + ".training.";
    checkWorkload(workload, degrees,
                  {trainingField + "global_batch", path + ".model.sequence", trainingField + "micro_batch", "capacity factor",
                   trainingField + "gradient_accumulation", trainingField + "virtual_stages", trainingField + "context_parallel",
                   "expert parallelism", "ZeRO replicas"},
                  file, ErrorCode::InvalidPublishedRun);

    const CaseFields measured(top.required("measured"), file, path + ".measured");
    // A step is at least one kernel launch (microseconds) and at most a year.
    run.measured.stepSeconds = measured.measure("step_seconds", 1e-6, 3.2e7);
    run.measured.memoryGibParametersAndOptimizer = measured.optionalPositive("memory_gib_parameters_and_optimizer");
    run.measured.memoryGibActivationsFirstStage = measured.optionalPositive("memory_gib_activations_first_stage");
    return run;
}

}  // namespace

bool fromMegatron(const PublishedRun& run)
{
    return run.source.find("Megatron") != std::string::npos;
}

bool namesPlainFlash(const PublishedRun& run)
{
    return run.model.attention == "flash";
}

std::string plainFlashNote(const std::string& fileName)
{
    return "note: " + fileName +
           ": model.attention \"flash\" is read as FlashAttention 1.x (flash1); runs that used FlashAttention-2 "
           "should say \"flash2\"";
}

void forEachPublishedRun(std::string_view json, const std::string& fileName,
                         const std::function<void(const PublishedRun&)>& each)
{
    const JsonValue document =
        parseJsonStreaming(json, fileName, "cases", [&](JsonValue value, std::size_t index) {
            each(readCase(value, fileName, index));
        });
    const JsonValue* cases = document.isObject() ? document.find("cases") : nullptr;
    if (!cases || !cases->isArray())
        throw Error(ErrorCode::InvalidPublishedRun, fileName, "has no \"cases\" array");
}

std::vector<PublishedRun> parsePublishedRuns(std::string_view json, const std::string& fileName)
{
    std::vector<PublishedRun> runs;
    forEachPublishedRun(json, fileName, [&](const PublishedRun& run) { runs.push_back(run); });
    return runs;
}

}  // namespace tapestry
