#include "export/TorchTitanTrainerConfig.h"

#include "export/TorchTitanConfig.h"

#include "base/Error.h"
#include "base/JsonReader.h"
#include "base/JsonWriter.h"
#include "fold/FoldedModel.h"
#include "target/StackRules.h"

#include <algorithm>
#include <charconv>

namespace tapestry {

namespace {

// One `key: value` line of a Python dictionary literal.
struct Entry {
    std::string key;
    std::string value;  // as Python writes it
};

std::string dictionary(const std::string& name, const std::vector<Entry>& entries)
{
    std::string text = name + " = {\n";
    for (const Entry& entry : entries)
        text += "    " + jsonEscaped(entry.key) + ": " + entry.value + ",\n";
    return text + "}\n";
}

std::string number(std::int64_t value)
{
    return std::to_string(value);
}

std::string boolean(bool value)
{
    return value ? "True" : "False";
}

// The modules of each pipeline chunk as torchtitan's decoder models name them.
std::string modelParts(const TrainingStackSettings& s)
{
    const std::vector<std::size_t>& starts = s.pipeline.chunkStarts;
    std::string text = "[";
    for (std::size_t c = 0; c < starts.size(); ++c) {
        const std::size_t end = c + 1 < starts.size() ? starts[c + 1] : static_cast<std::size_t>(s.layers);
        std::vector<std::string> modules;
        if (c == 0)
            modules.emplace_back("tok_embeddings");
        for (std::size_t b = starts[c]; b < end; ++b)
            modules.push_back("layers." + std::to_string(b));
        if (c + 1 == starts.size()) {
            modules.emplace_back("norm");
            modules.emplace_back("output");
        }
        text += c > 0 ? ", [" : "[";
        for (std::size_t m = 0; m < modules.size(); ++m)
            text += (m > 0 ? ", " : "") + jsonEscaped(modules[m]);
        text += "]";
    }
    return text + "]";
}

// The `{ ... }` literal assigned to `name` in `text`, as JSON (True/False/None and
// trailing commas turned into JSON's).
std::string dictionaryJson(std::string_view text, const std::string& name, const std::string& fileName)
{
    const std::string head = name + " = {";
    const std::size_t at = text.find(head);
    if (at == std::string_view::npos || (at > 0 && text[at - 1] != '\n'))
        throw Error(ErrorCode::InvalidPlan, fileName, "has no line '" + head + "'");
    std::string json;
    bool inString = false;
    int depth = 0;
    for (std::size_t i = at + head.size() - 1; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            json += c;
            if (c == '\\' && i + 1 < text.size())
                json += text[++i];
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '#') {  // a comment to the end of the line
            while (i + 1 < text.size() && text[i + 1] != '\n')
                ++i;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if (c == '}' || c == ']') {
            while (!json.empty() && (json.back() == ' ' || json.back() == '\n' || json.back() == '\t'))
                json.pop_back();
            if (!json.empty() && json.back() == ',')
                json.pop_back();
            --depth;
        } else if (std::isalpha(static_cast<unsigned char>(c))) {
            std::size_t end = i;
            while (end < text.size() && std::isalnum(static_cast<unsigned char>(text[end])))
                ++end;
            const std::string_view word = text.substr(i, end - i);
            json += word == "True" ? "true" : word == "False" ? "false" : word == "None" ? "null" : std::string(word);
            i = end - 1;
            continue;
        }
        json += c;
        if (depth == 0)
            return json;
    }
    throw Error(ErrorCode::InvalidPlan, fileName, name + " is not closed");
}

class Reader {
public:
    Reader(const JsonValue& object, std::string section, const std::string& fileName)
        : object_(object), section_(std::move(section)), fileName_(fileName)
    {
        if (!object_.isObject())
            fail(section_, "is not a dictionary");
    }

    [[noreturn]] void fail(const std::string& key, const std::string& what) const
    {
        throw Error(ErrorCode::InvalidPlan, fileName_, section_ + "[\"" + key + "\"] " + what);
    }

    [[nodiscard]] std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t least = 1) const
    {
        const JsonValue* value = object_.find(key);
        if (!value)
            return fallback;
        const std::optional<std::int64_t> n = value->isNumber() ? value->asInteger() : std::nullopt;
        if (!n || *n < least || *n > (std::int64_t{1} << 40))
            fail(key, "is not a whole number from " + std::to_string(least));
        return *n;
    }

    [[nodiscard]] std::string text(const std::string& key, const std::string& fallback) const
    {
        const JsonValue* value = object_.find(key);
        if (!value)
            return fallback;
        if (!value->isString())
            fail(key, "is not a string");
        return value->asString();
    }

    [[nodiscard]] bool flag(const std::string& key, bool fallback) const
    {
        const JsonValue* value = object_.find(key);
        if (!value)
            return fallback;
        if (!value->isBool())
            fail(key, "is not True or False");
        return value->asBool();
    }

    [[nodiscard]] const JsonValue* find(const std::string& key) const { return object_.find(key); }

private:
    const JsonValue& object_;
    std::string section_;
    const std::string& fileName_;
};

int degree(std::int64_t n)
{
    return static_cast<int>(std::min<std::int64_t>(n, 1 << 20));
}

}  // namespace

std::string exportTorchTitanTrainerConfig(const FoldedModel& model, const PlanDocument& document, int gpusPerNode)
{
    const TrainingStackSettings s = trainingStackSettings(model, document, gpusPerNode);
    std::vector<std::string> notes = s.notes;
    for (std::string& note : stackSettingNotes(TrainingStack::TorchTitan, s))
        notes.push_back(std::move(note));
    const Workload& w = s.workload;
    const bool sharded = w.zeroStage >= 2;
    // Expert ranks beyond the context- and tensor-parallel ones come from the shard dimension.
    const int borrowed = s.contextParallel * s.tensorParallel;
    const int expertShard = s.expertParallel > borrowed && s.expertParallel % borrowed == 0
                                ? s.expertParallel / borrowed
                                : 1;
    int replicate = sharded ? 1 : s.dataParallel;
    int shard = sharded ? s.dataParallel : 1;
    if (!sharded && expertShard > 1 && s.dataParallel % expertShard == 0) {
        replicate = s.dataParallel / expertShard;
        shard = expertShard;
    }
    std::vector<Entry> parallelism{
        {"data_parallel_replicate_degree", number(replicate)},
        {"data_parallel_shard_degree", number(shard)},
        {"fsdp_reshard_after_forward", w.zeroStage == 2 ? "\"never\"" : "\"always\""},
        {"tensor_parallel_degree", number(s.tensorParallel)},
        {"enable_sequence_parallel", boolean(s.sequenceParallel)},
        {"context_parallel_degree", number(s.contextParallel)},
        {"expert_parallel_degree", number(s.expertParallel)},
        {"pipeline_parallel_degree", number(s.pipeline.stages)},
    };
    const std::int64_t rankBatch = w.batch / std::max(s.dataParallel, 1);
    if (s.pipeline.active()) {
        parallelism.push_back({"pipeline_parallel_schedule", std::string("\"") + torchTitanScheduleName(s.pipeline.schedule) + "\""});
        parallelism.push_back({"pipeline_parallel_module_fqns_per_model_part", modelParts(s)});
        parallelism.push_back({"num_pp_microbatches", number(rankBatch / std::max<std::int64_t>(w.microBatch, 1))});
    }
    const std::vector<Entry> training{
        {"num_tokens_per_microbatch_per_dp_rank", number(w.microBatch * w.sequence)},
        {"num_tokens_per_train_step", number(w.batch * w.sequence)},
        {"max_context_length", number(w.sequence)},
        {"mixed_precision_param", w.computeType == DataType::Float32 ? "\"float32\"" : "\"bfloat16\""},
        {"mixed_precision_reduce", w.fp32MainGradients ? "\"float32\"" : "\"bfloat16\""},
    };
    const char* checkpointing = w.recompute == Recomputation::None ? "none" : "full";

    std::string overrides;
    for (const auto& [section, entries] : {std::pair<const char*, const std::vector<Entry>*>{"parallelism", &parallelism},
                                                  std::pair<const char*, const std::vector<Entry>*>{"training", &training}})
        for (const Entry& entry : *entries) {
            if (entry.key == "pipeline_parallel_module_fqns_per_model_part")
                continue;  // a nested list: set it in Python
            const std::string flag = "#     --" + std::string(section) + ".";
            std::string value = entry.value;
            if (value == "True" || value == "False") {  // tyro's boolean flags: --x and --no-x
                std::string dashed = entry.key;
                std::replace(dashed.begin(), dashed.end(), '_', '-');
                overrides += flag + (value == "True" ? "" : "no-") + dashed + " \\\n";
                continue;
            }
            if (value.size() >= 2 && value.front() == '"')
                value = value.substr(1, value.size() - 2);
            overrides += flag + entry.key + " " + value + " \\\n";
        }

    std::string text = trainingStackComments(
        "torchtitan config", "torchtitan", model, document, s,
        {"torchtitan (since 2026-02-23) is configured by config-registry functions that return Trainer.Config.",
         "tapestry_plan(config) puts this plan on the config of your model's own registry function:",
         "    def llama3_8b_tapestry():",
         "        return tapestry_plan(llama3_8b())",
         "and run: python -m torchtitan.train --module YOUR_REGISTRY --config llama3_8b_tapestry",
         "Pipeline model parts name modules as torchtitan's decoder models do (tok_embeddings, layers.N, norm,",
         "output). The same settings as command-line overrides (without the model parts):"},
        notes);
    text += overrides;
    text += "\nfrom dataclasses import fields, replace\n\n";
    text += "from torchtitan.distributed.activation_checkpoint import FullAC\n\n";
    text += dictionary("PARALLELISM", parallelism);
    text += dictionary("TRAINING", training);
    text += std::string("ACTIVATION_CHECKPOINT = \"") + checkpointing + "\"\n\n\n";
    text += "def tapestry_plan(config):\n"
            "    \"\"\"`config` (a Trainer.Config) with this plan's parallelism, batch and checkpointing.\"\"\"\n"
            "    config.parallelism = replace(config.parallelism, **PARALLELISM)\n"
            "    config.training = replace(config.training, **TRAINING)\n"
            "    if ACTIVATION_CHECKPOINT == \"full\":\n"
            "        config.activation_checkpoint = FullAC.Config()\n"
            "    else:  # the Trainer.Config default: no activation checkpointing\n"
            "        default = {f.name: f for f in fields(config)}[\"activation_checkpoint\"]\n"
            "        config.activation_checkpoint = default.default_factory()\n"
            "    return config\n";
    return text;
}

bool isTorchTitanTrainerConfig(std::string_view text)
{
    return text.find("\nPARALLELISM = {") != std::string_view::npos && text.find("torchtitan") != std::string_view::npos;
}

TrainingStackSettings parseTorchTitanTrainerConfig(std::string_view text, const std::string& fileName,
                                                   const FoldedModel& model)
{
    const JsonValue parallelismJson = parseJson(dictionaryJson(text, "PARALLELISM", fileName), fileName);
    const JsonValue trainingJson = parseJson(dictionaryJson(text, "TRAINING", fileName), fileName);
    const Reader parallelism(parallelismJson, "PARALLELISM", fileName);
    const Reader training(trainingJson, "TRAINING", fileName);

    TrainingStackSettings s;
    Workload& w = s.workload;
    const int replicate = degree(parallelism.integer("data_parallel_replicate_degree", 1));
    const std::int64_t shardValue = parallelism.integer("data_parallel_shard_degree", -1, -1);
    if (shardValue == 0)
        parallelism.fail("data_parallel_shard_degree", "is 0: -1 (the GPUs left) or a degree from 1");
    const int shard = degree(shardValue);
    s.dataParallel = shard == -1 ? 0 : replicate * shard;
    s.tensorParallel = degree(parallelism.integer("tensor_parallel_degree", 1));
    s.sequenceParallel = s.tensorParallel > 1 && parallelism.flag("enable_sequence_parallel", true);
    s.contextParallel = degree(parallelism.integer("context_parallel_degree", 1));
    if (s.contextParallel > 1)
        s.contextVariant = ContextParallelVariant::Ring;
    s.expertParallel = degree(parallelism.integer("expert_parallel_degree", 1));
    s.expertTensorParallel = 1;  // torchtitan's experts borrow the tensor-parallel ranks
    // Any shard dimension is FSDP (expert ranks beyond the context- and tensor-parallel
    // ones shard the dense parameters too).
    if (shard == -1 || shard > 1) {
        const std::string reshard = parallelism.text("fsdp_reshard_after_forward", "default");
        if (reshard != "default" && reshard != "always" && reshard != "never")
            parallelism.fail("fsdp_reshard_after_forward", "\"" + reshard + "\" is not default, always or never");
        w.zeroStage = reshard == "never" ? 2 : 3;
    }

    PipelineLayout& pipeline = s.pipeline;
    pipeline.stages = degree(parallelism.integer("pipeline_parallel_degree", 1));
    const std::string schedule = parallelism.text("pipeline_parallel_schedule", "1F1B");
    std::optional<PipelineSchedule> parsed;
    for (const PipelineSchedule candidate : {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved})
        if (schedule == torchTitanScheduleName(candidate))
            parsed = candidate;
    if (!parsed)
        parallelism.fail("pipeline_parallel_schedule",
                         "\"" + schedule + "\" is not a schedule Tapestry prices (1F1B, Interleaved1F1B, GPipe)");
    pipeline.schedule = *parsed;
    const std::size_t blocks = modelBlocks(model.families).size();
    if (const JsonValue* parts = parallelism.find("pipeline_parallel_module_fqns_per_model_part");
        parts && !parts->isNull() && pipeline.stages > 1) {
        const std::string key = "pipeline_parallel_module_fqns_per_model_part";
        if (!parts->isArray())
            parallelism.fail(key, "is not a list of lists of module names");
        std::size_t next = 0;  // the block the next part must start with
        for (const JsonValue& part : parts->asArray()) {
            if (!part.isArray())
                parallelism.fail(key, "is not a list of lists of module names");
            bool started = false;
            for (const JsonValue& module : part.asArray()) {
                if (!module.isString())
                    parallelism.fail(key, "holds a module name that is not a string");
                const std::string& name = module.asString();
                if (!name.starts_with("layers."))
                    continue;  // tok_embeddings, norm, output
                std::size_t block = 0;
                const char* first = name.data() + 7;
                const char* last = name.data() + name.size();
                const auto [end, error] = std::from_chars(first, last, block);
                if (error != std::errc() || end != last || block != next || block >= blocks)
                    parallelism.fail(key, "names '" + name + "' where block layers." + std::to_string(next) +
                                              " of the model's " + std::to_string(blocks) + " comes next");
                if (!started)
                    pipeline.chunkStarts.push_back(block);
                started = true;
                ++next;
            }
            if (!started)
                parallelism.fail(key, "has a model part without a block");
        }
        if (next != blocks)
            parallelism.fail(key, "covers " + std::to_string(next) + " of the model's " + std::to_string(blocks) +
                                      " blocks");
        const std::size_t chunks = pipeline.chunkStarts.size();
        if (chunks % static_cast<std::size_t>(pipeline.stages) != 0)
            parallelism.fail(key, std::to_string(chunks) + " model parts are not a multiple of the " +
                                      std::to_string(pipeline.stages) + " stages");
        pipeline.virtualStages = static_cast<int>(chunks) / pipeline.stages;
        if (pipeline.virtualStages > 1 && pipeline.schedule != PipelineSchedule::Interleaved)
            parallelism.fail("pipeline_parallel_schedule", std::to_string(chunks) + " model parts on " +
                                                               std::to_string(pipeline.stages) +
                                                               " stages need Interleaved1F1B, not " + schedule);
    }

    w.sequence = training.integer("max_context_length", 2048);
    const std::int64_t microTokens = training.integer("num_tokens_per_microbatch_per_dp_rank", 16384);
    if (microTokens % w.sequence != 0)
        training.fail("num_tokens_per_microbatch_per_dp_rank",
                      "is not a whole number of sequences of " + std::to_string(w.sequence) + " tokens");
    w.microBatch = microTokens / w.sequence;
    const std::int64_t stepTokens = training.integer("num_tokens_per_train_step", -1, -1);
    if (stepTokens > 0 && stepTokens % w.sequence != 0)
        training.fail("num_tokens_per_train_step", "is not a whole number of sequences of " +
                                                       std::to_string(w.sequence) + " tokens");
    if (stepTokens > 0)
        w.batch = stepTokens / w.sequence;
    else
        s.rankBatch = w.microBatch * (pipeline.stages > 1 ? parallelism.integer("num_pp_microbatches", 1) : 1);
    const std::string precision = training.text("mixed_precision_param", "bfloat16");
    if (precision != "bfloat16" && precision != "float32")
        training.fail("mixed_precision_param", "\"" + precision + "\" is not bfloat16 or float32");
    w.computeType = precision == "float32" ? DataType::Float32 : DataType::BFloat16;
    // Gradients reduced in fp32: torchtitan's default, Megatron-LM's main gradients.
    const std::string reduce = training.text("mixed_precision_reduce", "float32");
    if (reduce != "bfloat16" && reduce != "float32")
        training.fail("mixed_precision_reduce", "\"" + reduce + "\" is not bfloat16 or float32");
    w.fp32MainGradients = reduce == "float32";
    w.attention = AttentionKernel::Fused;

    const std::size_t at = text.find("\nACTIVATION_CHECKPOINT = \"");
    if (at != std::string_view::npos) {
        const std::size_t begin = at + 26;
        const std::size_t end = text.find('"', begin);
        const std::string_view mode = text.substr(begin, end == std::string_view::npos ? 0 : end - begin);
        if (mode == "full")
            w.recompute = Recomputation::Full;
        else if (mode != "none")
            throw Error(ErrorCode::InvalidPlan, fileName,
                        "ACTIVATION_CHECKPOINT \"" + std::string(mode) + "\" is not none or full");
    }
    return s;
}

}  // namespace tapestry
