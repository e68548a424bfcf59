#include "export/TorchTitanConfig.h"

#include "base/Error.h"
#include "base/NearMiss.h"
#include "base/JsonWriter.h"
#include "fold/FoldedModel.h"
#include "target/StackRules.h"

#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>

namespace tapestry {

namespace {

const char* recomputeMode(Recomputation recompute)
{
    switch (recompute) {
    case Recomputation::None: return "none";
    case Recomputation::Selective: return "selective";
    case Recomputation::Full: return "full";
    }
    return "none";
}

// The keys of a table that parseTorchTitanConfig reads.
const std::vector<std::string>& keysRead(std::string_view section)
{
    static const std::vector<std::string> parallelism{
        "data_parallel_replicate_degree", "data_parallel_shard_degree", "fsdp_reshard_after_forward",
        "tensor_parallel_degree",         "context_parallel_degree",    "expert_parallel_degree",
        "expert_tensor_parallel_degree",  "pipeline_parallel_degree",   "pipeline_parallel_schedule",
        "pipeline_parallel_split_points", "pipeline_parallel_microbatch_size"};
    static const std::vector<std::string> training{"local_batch_size", "global_batch_size", "seq_len",
                                                   "mixed_precision_param", "mixed_precision_reduce"};
    static const std::vector<std::string> checkpoint{"mode", "selective_ac_option"};
    return section == "parallelism" ? parallelism : section == "training" ? training : checkpoint;
}

// A TOML 1.0 document (toml++), read by "section.key" with the line of each value for
// messages.
class TomlReader {
public:
    TomlReader(std::string_view text, const std::string& fileName) : fileName_(fileName)
    {
        try {
            table_ = toml::parse(text, fileName);
        } catch (const toml::parse_error& error) {
            fail(static_cast<int>(error.source().begin.line), std::string(error.description()));
        }
        // torchtitan reads these as tables; "[[parallelism]]" (an array of tables) or
        // "parallelism = 8" would leave every key unread.
        for (const char* section : {"parallelism", "training", "activation_checkpoint"}) {
            const toml::node* node = table_.get(section);
            if (node && !node->is_table())
                fail(lineOf(*node), std::string(section) + " is " + typeName(*node) + ", not a [" + section +
                                        "] table");
            // torchtitan refuses a key its config lacks; ignoring a misspelt key the reader
            // takes would leave that setting at its default.
            if (node)
                for (const auto& [key, value] : *node->as_table())
                    if (const std::optional<std::string> meant = misspeltName(key.str(), keysRead(section)))
                        fail(lineOf(value), std::string(section) + "." + std::string(key.str()) +
                                                " is not a torchtitan key: did you mean " + *meant + "?");
        }
    }

    [[nodiscard]] std::optional<std::int64_t> integer(const std::string& key) const
    {
        const toml::node* node = find(key);
        if (!node)
            return std::nullopt;
        if (!node->is_integer())
            fail(lineOf(*node), key + " is " + typeName(*node) + ", not a whole number");
        return node->as_integer()->get();
    }

    [[nodiscard]] std::optional<std::string> string(const std::string& key) const
    {
        const toml::node* node = find(key);
        if (!node)
            return std::nullopt;
        if (!node->is_string())
            fail(lineOf(*node), key + " is " + typeName(*node) + ", not a string");
        return node->as_string()->get();
    }

    [[nodiscard]] std::optional<bool> boolean(const std::string& key) const
    {
        const toml::node* node = find(key);
        if (!node)
            return std::nullopt;
        if (!node->is_boolean())
            fail(lineOf(*node), key + " is " + typeName(*node) + ", not true or false");
        return node->as_boolean()->get();
    }

    [[nodiscard]] std::vector<std::string> strings(const std::string& key) const
    {
        const toml::node* node = find(key);
        if (!node)
            return {};
        const toml::array* array = node->as_array();
        if (!array || !array->is_homogeneous(toml::node_type::string))
            fail(lineOf(*node), key + " is " + typeName(*node) + ", not an array of strings");
        std::vector<std::string> items;
        for (const toml::node& item : *array)
            items.push_back(item.as_string()->get());
        return items;
    }

    [[noreturn]] void fail(int line, const std::string& message) const
    {
        throw Error(ErrorCode::InvalidPlan, fileName_, "line " + std::to_string(line) + ": " + message);
    }

    [[nodiscard]] int lineOf(const std::string& key) const
    {
        const toml::node* node = find(key);
        return node ? lineOf(*node) : 0;
    }

private:
    // "section.key": the key in the table, as written (a quoted key with a dot is not found).
    [[nodiscard]] const toml::node* find(const std::string& key) const
    {
        const std::size_t dot = key.find('.');
        const toml::table* section = table_.get_as<toml::table>(key.substr(0, dot));
        return section ? section->get(key.substr(dot + 1)) : nullptr;
    }
    static int lineOf(const toml::node& node) { return static_cast<int>(node.source().begin.line); }
    static std::string typeName(const toml::node& node)
    {
        switch (node.type()) {
        case toml::node_type::table: return "a table";
        case toml::node_type::array: return "an array";
        case toml::node_type::string: return "a string";
        case toml::node_type::integer: return "a whole number";
        case toml::node_type::floating_point: return "a number with a fraction";
        case toml::node_type::boolean: return "a boolean";
        case toml::node_type::date:
        case toml::node_type::time:
        case toml::node_type::date_time: return "a date or time";
        default: return "nothing";
        }
    }

    std::string fileName_;
    toml::table table_;
};

// The degree at `key`: >= 1, or -1 where `allowRest`.
int degree(const TomlReader& toml, const std::string& key, int fallback, bool allowRest = false)
{
    const std::optional<std::int64_t> value = toml.integer(key);
    if (!value)
        return fallback;
    if ((*value < 1 && !(allowRest && *value == -1)) || *value > (1 << 20))
        toml.fail(toml.lineOf(key), key + " = " + std::to_string(*value) + " is not a degree of 1 or more" +
                                        (allowRest ? " (or -1)" : ""));
    return static_cast<int>(*value);
}

}  // namespace

const char* torchTitanScheduleName(PipelineSchedule schedule)
{
    switch (schedule) {
    case PipelineSchedule::GPipe: return "GPipe";
    case PipelineSchedule::OneFOneB: return "1F1B";
    case PipelineSchedule::Interleaved: return "Interleaved1F1B";
    }
    return "1F1B";
}

std::string exportTorchTitanConfig(const FoldedModel& model, const PlanDocument& document, int gpusPerNode)
{
    const TrainingStackSettings s = trainingStackSettings(model, document, gpusPerNode);
    std::vector<std::string> notes = stackModelNotes(TrainingStack::TorchTitan, model);
    notes.insert(notes.end(), s.notes.begin(), s.notes.end());
    const Workload& w = s.workload;
    for (std::string& note : stackSettingNotes(TrainingStack::TorchTitan, s))
        notes.push_back(std::move(note));
    // torchtitan v0.2's TOML has no switch for it: its tensor parallelism always shards norms.
    if (s.tensorParallel > 1 && !s.sequenceParallel)
        notes.push_back("torchtitan's tensor parallelism shards norms over the sequence (sequence parallelism); "
                        "this plan does not");
    const TorchTitanDataParallel data = torchTitanDataParallel(s);

    std::string text = trainingStackComments(
        "torchtitan job config", "torchtitan", model, document, s,
        {"Merge into the model's train config ([model] name and flavor, [optimizer], ...). Split points are",
         "module paths as the ONNX model names them; torchtitan's own models name their blocks \"layers.N\"."},
        notes);
    text += "\n[parallelism]\n";
    text += "data_parallel_replicate_degree = " + std::to_string(data.replicate) + "\n";
    text += "data_parallel_shard_degree = " + std::to_string(data.shard) + "\n";
    if (data.sharded)
        text += std::string("fsdp_reshard_after_forward = ") + (data.reshardAfterForward ? "\"always\"" : "\"never\"") + "\n";
    text += "tensor_parallel_degree = " + std::to_string(s.tensorParallel) + "\n";
    text += "enable_async_tensor_parallel = false\n";
    if (s.contextParallel > 1)
        text += "context_parallel_degree = " + std::to_string(s.contextParallel) + "\n";
    if (data.expertParallel > 1) {
        text += "expert_parallel_degree = " + std::to_string(data.expertParallel) + "\n";
        text += "expert_tensor_parallel_degree = " + std::to_string(s.expertTensorParallel) + "\n";
    }
    text += "pipeline_parallel_degree = " + std::to_string(s.pipeline.stages) + "\n";
    std::int64_t localBatch = w.microBatch;
    if (s.pipeline.active()) {
        text += std::string("pipeline_parallel_schedule = \"") + torchTitanScheduleName(s.pipeline.schedule) + "\"\n";
        // A JSON string is a TOML basic string.
        text += "pipeline_parallel_split_points = [";
        for (std::size_t c = 1; c < s.pipeline.chunkStarts.size(); ++c)
            text += (c > 1 ? ", " : "") + jsonEscaped(s.blockModulePaths.at(s.pipeline.chunkStarts[c]));
        text += "]\n";
        text += "pipeline_parallel_microbatch_size = " + std::to_string(w.microBatch) + "\n";
        localBatch = w.batch / s.dataParallel;  // torchtitan cuts each rank's step into micro-batches
    }
    text += "\n[activation_checkpoint]\n";
    text += std::string("mode = \"") + recomputeMode(w.recompute) + "\"\n";
    if (w.recompute == Recomputation::Selective)
        text += "selective_ac_option = \"op\"\n";
    text += "\n[training]\n";
    text += "local_batch_size = " + std::to_string(localBatch) + "\n";
    text += "global_batch_size = " + std::to_string(w.batch) + "\n";
    text += "seq_len = " + std::to_string(w.sequence) + "\n";
    text += std::string("mixed_precision_param = \"") + (w.computeType == DataType::Float32 ? "float32" : "bfloat16") +
            "\"\n";
    text += std::string("mixed_precision_reduce = \"") +
            (w.gradientReduceType == DataType::Float32 ? "float32" : "bfloat16") + "\"\n";
    if (w.fp8 != Fp8Recipe::None) {
        // torchao's converters swap nn.Linear for FP8 linears; the output head stays bf16.
        const bool mx = w.fp8 == Fp8Recipe::Block;
        const std::string converter = mx ? "quantize.linear.mx" : "quantize.linear.float8";
        text += "\n[model]\nconverters = [\"" + converter + "\"]\n";
        text += "\n[" + converter + "]\n";
        text += std::string("recipe_name = \"") + (mx ? "mxfp8_cublas" : "tensorwise") + "\"\n";
        text += "filter_fqns = [\"output\"]\n";
    }
    return text;
}

bool isTorchTitanConfig(std::string_view text)
{
    std::size_t at = 0;
    while ((at = text.find("[parallelism]", at)) != std::string_view::npos) {
        if (at == 0 || text[at - 1] == '\n' || (at == 3 && text.starts_with("\xEF\xBB\xBF")))
            return true;
        ++at;
    }
    return false;
}

TrainingStackSettings parseTorchTitanConfig(std::string_view text, const std::string& fileName, const FoldedModel& model)
{
    const TomlReader toml(text, fileName);
    TrainingStackSettings s;
    s.contextParallel = degree(toml, "parallelism.context_parallel_degree", 1);
    if (s.contextParallel > 1)
        s.contextVariant = ContextParallelVariant::Ring;
    s.expertParallel = degree(toml, "parallelism.expert_parallel_degree", 1);
    s.expertTensorParallel = degree(toml, "parallelism.expert_tensor_parallel_degree", 1);
    const int replicate = degree(toml, "parallelism.data_parallel_replicate_degree", 1);
    const int shard = degree(toml, "parallelism.data_parallel_shard_degree", -1, true);
    if (std::int64_t{replicate} * shard > (1 << 20))
        toml.fail(toml.lineOf("parallelism.data_parallel_shard_degree"),
                  "data parallel " + std::to_string(replicate) + " x " + std::to_string(shard) + " is over 2^20 GPUs");
    s.dataParallel = shard == -1 ? 0 : replicate * shard;
    s.replicas = replicate;
    s.tensorParallel = degree(toml, "parallelism.tensor_parallel_degree", 1);
    s.sequenceParallel = s.tensorParallel > 1;
    Workload& w = s.workload;
    // torchtitan's checkpoint is PyTorch's non-reentrant one, its selective recomputation its op-level policy.
    w = withStackImplementations(w, TrainingStack::TorchTitan);
    // torchtitan's ParallelDims.fsdp_enabled: FSDP over dp_shard x cp whenever either is above 1.
    if (shard == -1 || shard > 1 || s.contextParallel > 1) {
        const std::string reshard = toml.string("parallelism.fsdp_reshard_after_forward").value_or("default");
        if (reshard != "default" && reshard != "always" && reshard != "never")
            toml.fail(toml.lineOf("parallelism.fsdp_reshard_after_forward"),
                      "fsdp_reshard_after_forward \"" + reshard + "\" is not default, always or never");
        w.zeroStage = reshard == "never" ? 2 : 3;
    }

    PipelineLayout& pipeline = s.pipeline;
    pipeline.stages = degree(toml, "parallelism.pipeline_parallel_degree", 1);
    const std::string schedule = toml.string("parallelism.pipeline_parallel_schedule").value_or("1F1B");
    std::optional<PipelineSchedule> parsed;
    for (const PipelineSchedule candidate : {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved})
        if (schedule == torchTitanScheduleName(candidate))
            parsed = candidate;
    if (!parsed)
        toml.fail(toml.lineOf("parallelism.pipeline_parallel_schedule"),
                  "pipeline_parallel_schedule \"" + schedule + "\" is not one Tapestry prices (1F1B, Interleaved1F1B, GPipe)");
    pipeline.schedule = *parsed;
    const std::vector<std::string> splits = toml.strings("parallelism.pipeline_parallel_split_points");
    const int splitsLine = toml.lineOf("parallelism.pipeline_parallel_split_points");
    if (pipeline.stages > 1 && !splits.empty()) {
        const std::vector<const BlockInstance*> blocks = modelBlocks(model.families);
        pipeline.chunkStarts = {0};
        for (const std::string& name : splits) {
            std::optional<std::size_t> found;
            for (std::size_t b = 0; b < blocks.size() && !found; ++b) {
                const std::string path = blockModulePath(*blocks[b]);
                if (path == name || path.ends_with("." + name))
                    found = b;
            }
            if (!found)
                toml.fail(splitsLine, "split point \"" + name + "\" names no block of the model");
            pipeline.chunkStarts.push_back(*found);
        }
        const std::size_t chunks = pipeline.chunkStarts.size();
        if (chunks % static_cast<std::size_t>(pipeline.stages) != 0)
            toml.fail(splitsLine, std::to_string(splits.size()) + " split points make " + std::to_string(chunks) +
                                      " chunks, not a multiple of the " + std::to_string(pipeline.stages) + " stages");
        pipeline.virtualStages = static_cast<int>(chunks) / pipeline.stages;
        if (pipeline.virtualStages > 1 && pipeline.schedule != PipelineSchedule::Interleaved)
            toml.fail(splitsLine, std::to_string(chunks) + " chunks on " + std::to_string(pipeline.stages) +
                                      " stages need the Interleaved1F1B schedule, not " + schedule);
    } else if (pipeline.stages > 1 && pipeline.schedule == PipelineSchedule::Interleaved) {
        toml.fail(toml.lineOf("parallelism.pipeline_parallel_schedule"),
                  "Interleaved1F1B without pipeline_parallel_split_points: how many chunks per stage is not said");
    }

    const std::string mode = toml.string("activation_checkpoint.mode").value_or("selective");
    if (mode == "none")
        w.recompute = Recomputation::None;
    else if (mode == "selective")
        w.recompute = Recomputation::Selective;
    else if (mode == "full")
        w.recompute = Recomputation::Full;
    else
        toml.fail(toml.lineOf("activation_checkpoint.mode"), "activation_checkpoint mode \"" + mode +
                                                                  "\" is not none, selective or full");
    if (w.recompute == Recomputation::Selective) {
        const std::string option = toml.string("activation_checkpoint.selective_ac_option").value_or("2");
        if (option != "op")
            s.notes.push_back("selective_ac_option \"" + option +
                              "\" (every n-th block fully recomputed) is read as Tapestry's selective recomputation");
    }

    const int local = degree(toml, "training.local_batch_size", 8);
    if (pipeline.stages > 1) {
        w.microBatch = degree(toml, "parallelism.pipeline_parallel_microbatch_size", 1);
        if (local % w.microBatch != 0)
            toml.fail(toml.lineOf("parallelism.pipeline_parallel_microbatch_size"),
                      "training.local_batch_size " + std::to_string(local) +
                          " is not a multiple of parallelism.pipeline_parallel_microbatch_size " +
                          std::to_string(w.microBatch) + ": torchtitan cuts a rank's batch into whole micro-batches");
        s.rankBatch = local;
    } else {
        w.microBatch = local;
    }
    const std::optional<std::int64_t> global = toml.integer("training.global_batch_size");
    if (global && *global != -1 && *global < 1)
        toml.fail(toml.lineOf("training.global_batch_size"), "global_batch_size is not -1 or a batch of 1 or more");
    w.batch = global && *global > 0 ? *global : 0;
    w.sequence = degree(toml, "training.seq_len", 2048);
    const std::string precision = toml.string("training.mixed_precision_param").value_or("bfloat16");
    if (precision == "bfloat16")
        w.computeType = DataType::BFloat16;
    else if (precision == "float32")
        w.computeType = DataType::Float32;
    else
        toml.fail(toml.lineOf("training.mixed_precision_param"),
                  "mixed_precision_param \"" + precision + "\" is not bfloat16 or float32");
    const std::string reduce = toml.string("training.mixed_precision_reduce").value_or("float32");
    if (reduce != "bfloat16" && reduce != "float32")
        toml.fail(toml.lineOf("training.mixed_precision_reduce"),
                  "mixed_precision_reduce \"" + reduce + "\" is not bfloat16 or float32");
    w.gradientReduceType = reduce == "float32" ? DataType::Float32 : DataType::BFloat16;
    for (const std::string& converter : toml.strings("model.converters")) {
        if (converter == "quantize.linear.float8" || converter == "float8")
            w.fp8 = Fp8Recipe::PerTensor;
        else if (converter == "quantize.linear.mx" || converter == "mx")
            w.fp8 = Fp8Recipe::Block;
    }
    w.fp8Implementation = stackFp8Implementation(TrainingStack::TorchTitan, w.fp8);
    w.attention = AttentionKernel::FlashAttention2;
    return s;
}

}  // namespace tapestry
