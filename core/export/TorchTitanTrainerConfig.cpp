#include "export/TorchTitanTrainerConfig.h"

#include "export/PythonLiteral.h"
#include "export/TorchTitanConfig.h"

#include "base/Error.h"
#include "base/NearMiss.h"
#include "base/TextPosition.h"
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

// torchtitan's ParallelismConfig has named the model parts' field module_fqns_per_model_part
// and, in its newer versions, this; the reader takes either (not both), the export writes
// the first and tapestry_plan renames it where the running torchtitan has the second.
constexpr const char* kNewPartsField = "pipeline_parallel_module_fqns_per_model_part";

// The fields of torchtitan's ParallelismConfig and TrainingConfig that the reader takes.
const std::vector<std::string>& parallelismFields()
{
    static const std::vector<std::string> fields{
        "data_parallel_replicate_degree", "data_parallel_shard_degree", "fsdp_reshard_after_forward",
        "tensor_parallel_degree",         "enable_sequence_parallel",   "context_parallel_degree",
        "expert_parallel_degree",         "pipeline_parallel_degree",   "pipeline_parallel_schedule",
        "module_fqns_per_model_part",     "num_pp_microbatches",        kNewPartsField};
    return fields;
}

const std::vector<std::string>& trainingFields()
{
    static const std::vector<std::string> fields{"num_tokens_per_microbatch_per_dp_rank", "num_tokens_per_train_step",
                                                 "max_context_length", "mixed_precision_param",
                                                 "mixed_precision_reduce"};
    return fields;
}

// One dictionary of the module (PARALLELISM, TRAINING): typed look-ups that name the
// field in errors, and the fields it holds that the reader does not take.
class Section {
public:
    Section(std::string_view text, std::string name, const std::vector<std::string>& fields, const std::string& fileName)
        : name_(std::move(name)), fileName_(fileName)
    {
        const std::optional<std::size_t> at = findPythonAssignment(text, name_, fileName);
        if (!at)
            throw Error(ErrorCode::InvalidPlan, fileName,
                        "has no '" + name_ + " = {...}' (is it cut short, or not torchtitan's config?)");
        object_ = readPythonLiteral(text, *at, fileName);
        if (!object_.isObject())
            throw Error(ErrorCode::InvalidPlan, fileName,
                        lineAndColumn(text, *at) + ": " + name_ + " is not a dictionary");
        for (const auto& member : object_.asObject()) {
            const std::string& key = member.first;
            if (std::find(fields.begin(), fields.end(), key) != fields.end())
                continue;
            // torchtitan's dataclasses refuse a field they lack; a near miss of one read here
            // would otherwise leave that field at its default.
            if (const std::optional<std::string> meant = misspeltName(key, fields))
                fail(key, "is not a torchtitan field: did you mean " + *meant + "?");
            unread_.push_back(name_ + "[\"" + key + "\"]");
        }
    }

    [[noreturn]] void fail(const std::string& key, const std::string& what) const
    {
        throw Error(ErrorCode::InvalidPlan, fileName_, name_ + "[\"" + key + "\"] " + what);
    }

    // A whole number from `least` to `most` (a float, a bool or a string is not one).
    [[nodiscard]] std::int64_t integer(const std::string& key, std::int64_t fallback, std::int64_t least,
                                       std::int64_t most) const
    {
        const JsonValue* value = object_.find(key);
        if (!value)
            return fallback;
        const std::string range = "a whole number from " + std::to_string(least) + " to " + std::to_string(most);
        if (value->isNumber() && !value->isInteger())
            fail(key, "is a float; torchtitan takes " + range);
        if (!value->isInteger() || *value->asInteger() < least || *value->asInteger() > most)
            fail(key, "is not " + range);
        return *value->asInteger();
    }

    [[nodiscard]] int degree(const std::string& key) const
    {
        return static_cast<int>(integer(key, 1, 1, kMaxDegree));
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

    // PARALLELISM["x"] for each field the reader does not take, in the file's order.
    [[nodiscard]] const std::vector<std::string>& unread() const { return unread_; }

    // As the TOML reader and planFromTrainingStackSettings bound a parallel size.
    static constexpr std::int64_t kMaxDegree = std::int64_t{1} << 20;

private:
    std::string name_;
    const std::string& fileName_;
    JsonValue object_;
    std::vector<std::string> unread_;
};

// The blocks each model part holds, as chunk starts: parts of torchtitan's module names in
// order (tok_embeddings in the first part, norm and output in the last, as Tapestry prices
// them), each block once.
std::vector<std::size_t> chunkStartsOfParts(const JsonValue& parts, const std::string& key, const Section& parallelism,
                                            std::size_t blocks)
{
    if (!parts.isArray())
        parallelism.fail(key, "is not a list of lists of module names");
    std::vector<std::size_t> starts;
    std::vector<std::string> seen;
    std::size_t next = 0;  // the block the next part must start with
    const std::size_t count = parts.asArray().size();
    for (std::size_t p = 0; p < count; ++p) {
        const JsonValue& part = parts.asArray()[p];
        if (!part.isArray())
            parallelism.fail(key, "is not a list of lists of module names");
        bool started = false;
        for (const JsonValue& module : part.asArray()) {
            if (!module.isString())
                parallelism.fail(key, "holds a module name that is not a string");
            const std::string& name = module.asString();
            const std::string where = " (part " + std::to_string(p + 1) + " of " + std::to_string(count) + ")";
            if (name == "tok_embeddings" || name == "norm" || name == "output") {
                const bool first = name == "tok_embeddings";
                if (p != (first ? 0 : count - 1))
                    parallelism.fail(key, "puts " + name + " in part " + std::to_string(p + 1) + " of " +
                                              std::to_string(count) + ": Tapestry prices " +
                                              (first ? "the embedding in the first part" : "norm and output in the last"));
                if (std::find(seen.begin(), seen.end(), name) != seen.end())
                    parallelism.fail(key, "names " + name + " twice");
                seen.push_back(name);
                continue;
            }
            if (!name.starts_with("layers."))
                parallelism.fail(key, "names '" + name + "'" + where +
                                          ", not a module of torchtitan's decoder models (tok_embeddings, "
                                          "layers.N, norm, output)");
            std::size_t block = 0;
            const char* first = name.data() + 7;
            const char* last = name.data() + name.size();
            const auto [end, error] = std::from_chars(first, last, block);
            if (error != std::errc() || end != last || block != next || block >= blocks)
                parallelism.fail(key, "names '" + name + "' where block layers." + std::to_string(next) +
                                          " of the model's " + std::to_string(blocks) + " comes next");
            if (!started)
                starts.push_back(block);
            started = true;
            ++next;
        }
        if (!started)
            parallelism.fail(key, "has a model part without a block" + std::string(" (part ") + std::to_string(p + 1) +
                                      ")");
    }
    if (next != blocks)
        parallelism.fail(key, "covers " + std::to_string(next) + " of the model's " + std::to_string(blocks) + " blocks");
    return starts;
}

}  // namespace

std::string exportTorchTitanTrainerConfig(const FoldedModel& model, const PlanDocument& document, int gpusPerNode)
{
    const TrainingStackSettings s = trainingStackSettings(model, document, gpusPerNode);
    std::vector<std::string> notes = stackModelNotes(TrainingStack::TorchTitan, model);
    notes.insert(notes.end(), s.notes.begin(), s.notes.end());
    for (std::string& note : stackSettingNotes(TrainingStack::TorchTitan, s))
        notes.push_back(std::move(note));
    const Workload& w = s.workload;
    const TorchTitanDataParallel data = torchTitanDataParallel(s);
    std::vector<Entry> parallelism{
        {"data_parallel_replicate_degree", number(data.replicate)},
        {"data_parallel_shard_degree", number(data.shard)},
        {"fsdp_reshard_after_forward", data.reshardAfterForward ? "\"always\"" : "\"never\""},
        {"tensor_parallel_degree", number(s.tensorParallel)},
        {"enable_sequence_parallel", boolean(s.sequenceParallel)},
        {"context_parallel_degree", number(s.contextParallel)},
        {"expert_parallel_degree", number(data.expertParallel)},
        {"pipeline_parallel_degree", number(s.pipeline.stages)},
    };
    const std::int64_t rankBatch = w.batch / std::max(s.dataParallel, 1);
    if (s.pipeline.active()) {
        parallelism.push_back({"pipeline_parallel_schedule", std::string("\"") + torchTitanScheduleName(s.pipeline.schedule) + "\""});
        parallelism.push_back({"module_fqns_per_model_part", modelParts(s)});
        parallelism.push_back({"num_pp_microbatches", number(rankBatch / std::max<std::int64_t>(w.microBatch, 1))});
    }
    const std::vector<Entry> training{
        {"num_tokens_per_microbatch_per_dp_rank", number(w.microBatch * w.sequence)},
        {"num_tokens_per_train_step", number(w.batch * w.sequence)},
        {"max_context_length", number(w.sequence)},
        {"mixed_precision_param", w.computeType == DataType::Float32 ? "\"float32\"" : "\"bfloat16\""},
        {"mixed_precision_reduce", w.gradientReduceType == DataType::Float32 ? "\"float32\"" : "\"bfloat16\""},
    };
    const char* checkpointing = recomputationName(w.recompute);  // "none", "selective", "full"
    const char* float8 = w.fp8 == Fp8Recipe::PerTensor ? "\"tensorwise\"" : w.fp8 == Fp8Recipe::Block ? "\"mxfp8_cublas\"" : "None";

    std::string overrides;
    for (const auto& [section, entries] : {std::pair<const char*, const std::vector<Entry>*>{"parallelism", &parallelism},
                                                  std::pair<const char*, const std::vector<Entry>*>{"training", &training}})
        for (const Entry& entry : *entries) {
            if (entry.key == "module_fqns_per_model_part")
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
         "output). The same settings as command-line overrides (without the model parts and FP8 converters):"},
        notes);
    text += overrides;
    text += s.pipeline.active() ? "\nfrom dataclasses import fields, replace\n\n"  // fields: the model parts' name
                                : "\nfrom dataclasses import replace\n\n";
    text += "from torchtitan.distributed.activation_checkpoint import FullAC, SelectiveAC\n\n";
    text += dictionary("PARALLELISM", parallelism);
    text += dictionary("TRAINING", training);
    text += std::string("ACTIVATION_CHECKPOINT = \"") + checkpointing + "\"\n";
    text += std::string("FLOAT8_RECIPE = ") + float8 + "  # torchao's recipe for the Linear layers; None: bf16\n\n\n";
    text += "def tapestry_plan(config):\n"
            "    \"\"\"`config` (a Trainer.Config) with this plan's parallelism, batch and checkpointing.\"\"\"\n";
    if (s.pipeline.active())
        text += "    parallelism = dict(PARALLELISM)\n"
                "    # Newer torchtitan names the model parts' field " + std::string(kNewPartsField) + ".\n"
                "    if \"module_fqns_per_model_part\" not in {f.name for f in fields(config.parallelism)}:\n"
                "        parallelism[\"" + kNewPartsField + "\"] = parallelism.pop(\"module_fqns_per_model_part\")\n"
                "    config.parallelism = replace(config.parallelism, **parallelism)\n";
    else
        text += "    config.parallelism = replace(config.parallelism, **PARALLELISM)\n";
    text += "    config.training = replace(config.training, **TRAINING)\n"
            "    if ACTIVATION_CHECKPOINT == \"full\":\n"
            "        config.activation_checkpoint = FullAC.Config()\n"
            "    elif ACTIVATION_CHECKPOINT == \"selective\":  # per op: keeps every second matmul's output\n"
            "        config.activation_checkpoint = SelectiveAC.Config()\n"
            "    else:  # not Trainer.Config's default, which is SelectiveAC\n"
            "        config.activation_checkpoint = None\n"
            "    if FLOAT8_RECIPE is not None:  # FP8 Linear layers; the output head stays bf16\n"
            "        if FLOAT8_RECIPE.startswith(\"mxfp8\"):\n"
            "            from torchtitan.components.quantization.mx import MXLinearConverter as Converter\n"
            "        else:\n"
            "            from torchtitan.components.quantization.float8 import Float8LinearConverter as Converter\n"
            "        config.model_converters.converters = [\n"
            "            Converter.Config(recipe_name=FLOAT8_RECIPE, filter_fqns=[\"output\"])]\n"
            "    return config\n";
    return text;
}

bool isTorchTitanTrainerConfig(std::string_view text)
{
    if (text.find("torchtitan") == std::string_view::npos)
        return false;
    if (text.find("# torchtitan config for Tapestry plan") != std::string_view::npos)  // the export's title
        return true;
    // A line that starts with the dictionaries' names or imports torchtitan, however the
    // rest is written: such a file gets this reader's errors, not a tp_plan's.
    for (std::size_t line = 0; line < text.size();) {
        const std::string_view rest = text.substr(line);
        for (const std::string_view word : {"PARALLELISM", "TRAINING", "from torchtitan", "import torchtitan"}) {
            const char next = rest.size() > word.size() ? rest[word.size()] : ' ';
            if (rest.starts_with(word) && next != '_' && !std::isalnum(static_cast<unsigned char>(next)))
                return true;
        }
        const std::size_t end = text.find_first_of("\n\r", line);
        if (end == std::string_view::npos)
            break;
        line = end + 1;
    }
    return false;
}

TrainingStackSettings parseTorchTitanTrainerConfig(std::string_view text, const std::string& fileName,
                                                   const FoldedModel& model)
{
    const Section parallelism(text, "PARALLELISM", parallelismFields(), fileName);
    const Section training(text, "TRAINING", trainingFields(), fileName);

    TrainingStackSettings s;
    Workload& w = s.workload;
    // torchtitan's checkpoint is PyTorch's non-reentrant one, its selective recomputation its op-level policy.
    w = withStackImplementations(w, TrainingStack::TorchTitan);
    const std::int64_t replicate = parallelism.degree("data_parallel_replicate_degree");
    const std::int64_t shard = parallelism.integer("data_parallel_shard_degree", -1, -1, Section::kMaxDegree);
    if (shard == 0)
        parallelism.fail("data_parallel_shard_degree", "is 0: -1 (the GPUs left) or a degree from 1");
    if (replicate * shard > Section::kMaxDegree)
        parallelism.fail("data_parallel_shard_degree", "x data_parallel_replicate_degree is " +
                                                           std::to_string(replicate * shard) + " ranks: over 2^20");
    s.dataParallel = shard == -1 ? 0 : static_cast<int>(replicate * shard);
    s.replicas = static_cast<int>(replicate);
    s.tensorParallel = parallelism.degree("tensor_parallel_degree");
    const bool sequenceParallel = parallelism.flag("enable_sequence_parallel", true);
    s.sequenceParallel = s.tensorParallel > 1 && sequenceParallel;
    s.contextParallel = parallelism.degree("context_parallel_degree");
    if (s.contextParallel > 1)
        s.contextVariant = ContextParallelVariant::Ring;
    s.expertParallel = parallelism.degree("expert_parallel_degree");
    s.expertTensorParallel = 1;  // torchtitan's experts borrow the tensor-parallel ranks
    const std::string reshard = parallelism.text("fsdp_reshard_after_forward", "default");
    if (reshard != "default" && reshard != "always" && reshard != "never")
        parallelism.fail("fsdp_reshard_after_forward", "\"" + reshard + "\" is not default, always or never");
    // Any shard dimension is FSDP (expert ranks beyond the context- and tensor-parallel
    // ones shard the dense parameters too), and so is context parallelism
    // (ParallelDims.fsdp_enabled: FSDP over dp_shard x cp).
    if (shard == -1 || shard > 1 || s.contextParallel > 1)
        w.zeroStage = reshard == "never" ? 2 : 3;

    PipelineLayout& pipeline = s.pipeline;
    pipeline.stages = parallelism.degree("pipeline_parallel_degree");
    const std::string schedule = parallelism.text("pipeline_parallel_schedule", "1F1B");
    std::optional<PipelineSchedule> parsed;
    for (const PipelineSchedule candidate : {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved})
        if (schedule == torchTitanScheduleName(candidate))
            parsed = candidate;
    if (!parsed)
        parallelism.fail("pipeline_parallel_schedule",
                         "\"" + schedule + "\" is not a schedule Tapestry prices (1F1B, Interleaved1F1B, GPipe)");
    pipeline.schedule = *parsed;
    std::string partsKey = "module_fqns_per_model_part";
    if (parallelism.find(kNewPartsField)) {
        if (parallelism.find(partsKey))
            parallelism.fail(kNewPartsField, "and PARALLELISM[\"" + partsKey +
                                                 "\"] both name the model parts: torchtitan has one of them");
        partsKey = kNewPartsField;
    }
    const JsonValue* parts = parallelism.find(partsKey);
    if (parts && !parts->isNull() && pipeline.stages > 1) {
        pipeline.chunkStarts = chunkStartsOfParts(*parts, partsKey, parallelism, modelBlocks(model.families).size());
        const std::size_t chunks = pipeline.chunkStarts.size();
        if (chunks % static_cast<std::size_t>(pipeline.stages) != 0)
            parallelism.fail(partsKey, std::to_string(chunks) +
                                                               " model parts are not a multiple of the " +
                                                               std::to_string(pipeline.stages) + " stages");
        pipeline.virtualStages = static_cast<int>(chunks) / pipeline.stages;
        if (pipeline.virtualStages > 1 && pipeline.schedule != PipelineSchedule::Interleaved)
            parallelism.fail("pipeline_parallel_schedule", std::to_string(chunks) + " model parts on " +
                                                               std::to_string(pipeline.stages) +
                                                               " stages need Interleaved1F1B, not " + schedule);
    }
    // torchtitan runs a step as gradient accumulation iterations, each one pass of the
    // pipeline schedule over num_pp_microbatches micro-batches per rank (one without a
    // pipeline): the passes' sequences per rank are rankBatch, and the step a whole
    // number of passes (importTrainingStackPlan checks it with the data-parallel size).
    const std::int64_t microBatches = parallelism.integer("num_pp_microbatches", 1, 1, kMaxWorkloadSize);

    w.sequence = training.integer("max_context_length", 2048, 1, kMaxWorkloadSize);
    const std::int64_t maxTokens = std::int64_t{1} << 40;
    const std::int64_t microTokens = training.integer("num_tokens_per_microbatch_per_dp_rank", 16384, 1, maxTokens);
    if (microTokens % w.sequence != 0)
        training.fail("num_tokens_per_microbatch_per_dp_rank",
                      "is not a whole number of sequences of " + std::to_string(w.sequence) + " tokens");
    w.microBatch = microTokens / w.sequence;
    const std::int64_t stepTokens = training.integer("num_tokens_per_train_step", -1, -1, maxTokens);
    if (stepTokens == 0)
        training.fail("num_tokens_per_train_step", "is 0: -1 (one pass of the micro-batches) or a whole number of "
                                                   "sequences");
    if (stepTokens > 0 && stepTokens % w.sequence != 0)
        training.fail("num_tokens_per_train_step", "is not a whole number of sequences of " +
                                                       std::to_string(w.sequence) + " tokens");
    const std::int64_t perPass = pipeline.stages > 1 ? microBatches : 1;
    if (static_cast<double>(w.microBatch) * static_cast<double>(perPass) > static_cast<double>(kMaxWorkloadSize))
        parallelism.fail("num_pp_microbatches", "x " + std::to_string(w.microBatch) +
                                                    " sequences per micro-batch is over 2^24 sequences per rank");
    s.rankBatch = w.microBatch * perPass;
    if (stepTokens > 0)
        w.batch = stepTokens / w.sequence;
    const std::string precision = training.text("mixed_precision_param", "bfloat16");
    if (precision != "bfloat16" && precision != "float32")
        training.fail("mixed_precision_param", "\"" + precision + "\" is not bfloat16 or float32");
    w.computeType = precision == "float32" ? DataType::Float32 : DataType::BFloat16;
    // FSDP's reduce dtype, fp32 by default (torchtitan keeps 16-bit gradients: no main gradients).
    const std::string reduce = training.text("mixed_precision_reduce", "float32");
    if (reduce != "bfloat16" && reduce != "float32")
        training.fail("mixed_precision_reduce", "\"" + reduce + "\" is not bfloat16 or float32");
    w.gradientReduceType = reduce == "float32" ? DataType::Float32 : DataType::BFloat16;
    w.attention = AttentionKernel::FlashAttention2;

    if (const std::optional<std::size_t> at = findPythonAssignment(text, "ACTIVATION_CHECKPOINT", fileName)) {
        const JsonValue mode = readPythonLiteral(text, *at, fileName);
        const std::optional<Recomputation> recompute =
            mode.isString() ? recomputationFromName(mode.asString()) : std::nullopt;
        if (!recompute)
            throw Error(ErrorCode::InvalidPlan, fileName,
                        lineAndColumn(text, *at) + ": ACTIVATION_CHECKPOINT is not \"none\", \"selective\" or \"full\"");
        w.recompute = *recompute;
    }

    if (const std::optional<std::size_t> at = findPythonAssignment(text, "FLOAT8_RECIPE", fileName)) {
        const JsonValue recipe = readPythonLiteral(text, *at, fileName);
        if (recipe.isString() && recipe.asString() == "tensorwise")
            w.fp8 = Fp8Recipe::PerTensor;
        else if (recipe.isString() && recipe.asString() == "mxfp8_cublas")
            w.fp8 = Fp8Recipe::Block;
        else if (!recipe.isNull())
            throw Error(ErrorCode::InvalidPlan, fileName,
                        lineAndColumn(text, *at) +
                            ": FLOAT8_RECIPE is not None, \"tensorwise\" or \"mxfp8_cublas\" (the FP8 recipes "
                            "Tapestry prices)");
    }
    w.fp8Implementation = stackFp8Implementation(TrainingStack::TorchTitan, w.fp8);

    std::vector<std::string> unread = parallelism.unread();
    unread.insert(unread.end(), training.unread().begin(), training.unread().end());
    if (!unread.empty()) {
        std::string list;
        for (const std::string& field : unread)
            list += (list.empty() ? "" : ", ") + field;
        s.notes.push_back(std::to_string(unread.size()) + " field(s) not about the plan, ignored: " + list);
    }
    return s;
}

}  // namespace tapestry
