#include "export/MegatronArguments.h"

#include "base/Error.h"
#include "base/NearMiss.h"
#include "cost/PipelineCost.h"
#include "export/ShellWords.h"
#include "fold/FoldedModel.h"
#include "target/StackRules.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>

namespace tapestry {

namespace {

// The pipeline's arguments: Megatron-LM splits layers evenly, apart from a first and a
// last stage of their own sizes (what it cannot follow is in stackSettingNotes).
void pipelineArguments(const TrainingStackSettings& s, std::vector<std::string>& args)
{
    const PipelineLayout& pipeline = s.pipeline;
    args.push_back("--pipeline-model-parallel-size " + std::to_string(pipeline.stages));
    // Megatron-LM's layers are the model's blocks; the pipeline arguments count them.
    args.push_back("--num-layers " + std::to_string(s.layers));
    if (!pipeline.active())
        return;
    const std::vector<std::int64_t> sizes = chunkBlockCounts(pipeline.chunkStarts, s.layers);
    const std::size_t n = sizes.size();
    if (pipeline.virtualStages > 1) {
        if (s.layers % static_cast<std::int64_t>(n) == 0)
            args.push_back("--num-layers-per-virtual-pipeline-stage " + std::to_string(s.layers / static_cast<std::int64_t>(n)));
        else
            args.push_back("--virtual-pipeline-model-parallel-size " + std::to_string(pipeline.virtualStages));
        return;
    }
    // Middle stages even; the first, the last or both of their own size (stackSettingNotes
    // says when the stages are otherwise uneven: then the split stays even).
    if (equalBlockCounts(sizes, 0, n) || (n > 2 && !equalBlockCounts(sizes, 1, n - 1)))
        return;
    bool first = true;
    bool last = true;
    if (equalBlockCounts(sizes, 1, n))
        last = false;
    else if (equalBlockCounts(sizes, 0, n - 1))
        first = false;
    if (first)
        args.push_back("--decoder-first-pipeline-num-layers " + std::to_string(sizes.front()));
    if (last)
        args.push_back("--decoder-last-pipeline-num-layers " + std::to_string(sizes.back()));
}

// Context and expert parallelism, and the experts' capacity when the plan prices one.
void contextAndExpertArguments(const TrainingStackSettings& s, std::vector<std::string>& args)
{
    if (s.contextParallel > 1) {
        args.push_back("--context-parallel-size " + std::to_string(s.contextParallel));
        args.push_back(std::string("--cp-comm-type ") +
                       (s.contextVariant == ContextParallelVariant::Ulysses ? "a2a" : "p2p"));
    }
    if (s.expertParallel > 1) {
        args.push_back("--expert-model-parallel-size " + std::to_string(s.expertParallel));
        args.push_back("--expert-tensor-parallel-size " + std::to_string(s.expertTensorParallel));
    }
    if (s.workload.capacityFactor != 1.0) {
        args.push_back("--moe-expert-capacity-factor " + capacityFactorText(s.workload.capacityFactor));
        // Tapestry prices each expert at its capacity: padding makes Megatron-LM compute that.
        args.push_back("--moe-pad-expert-input-to-capacity");
    }
}

// Megatron-FSDP's --data-parallel-sharding-strategy at each ZeRO stage (Megatron-Core's
// DistributedDataParallelConfig; no_shard is the default): optimizer states, then
// gradients, then parameters sharded.
constexpr std::array<std::string_view, 4> kShardingStrategies = {"no_shard", "optim", "optim_grads",
                                                                 "optim_grads_params"};

// The data-parallel wrapper and what it shards: Megatron-FSDP at the plan's ZeRO stage
// where Megatron-LM runs it (megatronRunsMegatronFsdp), else the distributed optimizer
// where it runs (megatronRunsDistributedOptimizer: ZeRO 1 and 2), else ZeRO 3 as
// Megatron-Core's FSDP2 wrapper, which shards parameters, gradients and optimizer states
// itself.
void dataParallelArguments(const TrainingStackSettings& s, std::vector<std::string>& args)
{
    const int zero = s.workload.zeroStage;
    if (megatronRunsMegatronFsdp(s)) {
        args.push_back("--use-megatron-fsdp");
        const std::string_view strategy = kShardingStrategies.at(static_cast<std::size_t>(zero));
        args.push_back("--data-parallel-sharding-strategy " + std::string(strategy));
        // Megatron-LM's Megatron-FSDP guide requires both: the optimizer steps the
        // sharded buffers, and validate_args takes only Megatron-FSDP's DTensor checkpoints.
        args.push_back("--use-distributed-optimizer");
        args.push_back("--ckpt-format fsdp_dtensor");
    } else if (megatronRunsDistributedOptimizer(s)) {
        args.push_back("--use-distributed-optimizer");
    } else if (zero == 3) {
        args.push_back("--use-torch-fsdp2");
    }
    // The fused step (Transformer Engine's FusedAdam with master weights) where the plan
    // prices it; Megatron-LM's default steps fp32 main parameters and copies them back. The
    // masters kept as the stack keeps them by default (megatronFusedStep): a plan priced
    // otherwise is noted (optimizerStepNote), since Megatron-Core r0.12, the release the
    // exports are checked against (targets.md), has no flag to keep whole masters.
    if (megatronRunsFusedStep(s))
        args.push_back("--use-precision-aware-optimizer");
}

const std::set<std::string>& valueFlags()
{
    static const std::set<std::string> flags = {
        "tensor-model-parallel-size",      "pipeline-model-parallel-size",       "num-layers-per-virtual-pipeline-stage",
        "virtual-pipeline-model-parallel-size", "num-layers",                   "seq-length",
        "micro-batch-size",                "global-batch-size",                  "recompute-granularity",
        "recompute-method",                "recompute-num-layers",               "decoder-first-pipeline-num-layers",
        "decoder-last-pipeline-num-layers", "context-parallel-size",            "expert-model-parallel-size",
        "optimizer",                       "attention-backend",                  "cp-comm-type",
        "expert-tensor-parallel-size",     "moe-expert-capacity-factor",         "fp8-format",
        "fp8-recipe",                      "data-parallel-sharding-strategy",
        "ckpt-format",  // not about the plan, but what Megatron-FSDP requires: the export writes it
        "clip-grad"};
    return flags;
}

const std::set<std::string>& switchFlags();

// Every flag the reader takes.
const std::vector<std::string>& readFlags()
{
    static const std::vector<std::string> flags = [] {
        std::vector<std::string> all(valueFlags().begin(), valueFlags().end());
        all.insert(all.end(), switchFlags().begin(), switchFlags().end());
        return all;
    }();
    return flags;
}

const std::set<std::string>& switchFlags()
{
    // use-custom-fsdp: Megatron-FSDP's name before Megatron-Core 0.14.
    static const std::set<std::string> flags = {"sequence-parallel", "use-distributed-optimizer", "use-torch-fsdp2",
                                                "use-megatron-fsdp", "use-custom-fsdp", "bf16", "fp16",
                                                "use-flash-attn",    "accumulate-allreduce-grads-in-fp32",
                                                "overlap-grad-reduce", "moe-pad-expert-input-to-capacity",
                                                "no-overlap-p2p-communication", "fp8-param-gather",
                                                "grad-reduce-in-bf16", "use-precision-aware-optimizer",
                                                "no-store-param-remainders"};
    return flags;
}

// The flags of a launch script placed as bash and Megatron-LM's argparse would take
// them. Commands (a line, or up to ';', '&&', '|') start with words of their own (the
// program, "VAR=value"); from a command's first flag on, and throughout an array that
// holds flags, each word is a flag or a flag's value: one for a known value flag, none
// for a known switch, any number for a flag Tapestry does not read (a launch script's
// data and model arguments, listed in ignored()).
class ArgumentReader {
public:
    ArgumentReader(std::string_view text, const std::string& fileName) : fileName_(fileName)
    {
        const std::vector<ShellWord> words = shellWords(text, fileName);
        std::size_t group = 0;
        while (group < words.size()) {
            const bool array = words[group].kind == ShellWord::Kind::ArrayOpen;
            std::size_t end = group + (array ? 1 : 0);
            while (end < words.size() && words[end].kind == ShellWord::Kind::Word)
                ++end;
            readGroup(words, array ? group + 1 : group, end, array);
            group = end + (end < words.size() && words[end].kind != ShellWord::Kind::ArrayOpen ? 1 : 0);
        }
    }

    // Whether any flag Tapestry reads was there.
    [[nodiscard]] bool readAny() const { return !switches_.empty() || !values_.empty(); }
    // The flags read and not about the plan, in order of first appearance.
    [[nodiscard]] const std::vector<std::string>& ignored() const { return ignored_; }

    [[nodiscard]] bool has(const std::string& flag) const { return switches_.contains(flag) || values_.contains(flag); }

    [[nodiscard]] std::optional<std::string> text(const std::string& flag) const
    {
        const auto found = values_.find(flag);
        return found == values_.end() ? std::nullopt : std::optional<std::string>(found->second);
    }

    [[nodiscard]] std::optional<int> number(const std::string& flag) const
    {
        const std::optional<std::string> value = text(flag);
        if (!value)
            return std::nullopt;
        int n = 0;
        const auto [end, error] = std::from_chars(value->data(), value->data() + value->size(), n);
        // Sizes and batches beyond 2^20 (the most GPUs a cluster file may have) are typos.
        if (error != std::errc() || end != value->data() + value->size() || n < 1 || n > (1 << 20))
            fail("--" + flag + " '" + *value + "' is not a whole number from 1 to 1048576");
        return n;
    }

    // The flag's value as a number, nullopt without the flag; a value `accepts` refuses is an
    // error saying it is not `expected`.
    [[nodiscard]] std::optional<double> decimal(const std::string& flag, bool (*accepts)(double),
                                                const std::string& expected) const
    {
        const std::optional<std::string> value = text(flag);
        if (!value)
            return std::nullopt;
        double x = 0;
        const auto [end, error] = std::from_chars(value->data(), value->data() + value->size(), x);
        if (error != std::errc() || end != value->data() + value->size() || !accepts(x))
            fail("--" + flag + " '" + *value + "' is not " + expected);
        return x;
    }

    [[nodiscard]] std::optional<double> capacityFactor(const std::string& flag) const
    {
        return decimal(flag, isCapacityFactor,
                       "a number above 0 and up to " + std::to_string(static_cast<int>(kMaxCapacityFactor)));
    }

    [[noreturn]] void fail(const std::string& message) const { throw Error(ErrorCode::InvalidPlan, fileName_, message); }

private:
    [[noreturn]] void failAt(const ShellWord& word, const std::string& message) const
    {
        fail("line " + std::to_string(word.line) + ": " + message);
    }

    // The words [first, end) of one command or array.
    void readGroup(const std::vector<ShellWord>& words, std::size_t first, std::size_t end, bool array)
    {
        const auto isFlag = [&](std::size_t i) { return words[i].text.starts_with("--") && words[i].text.size() > 2; };
        std::size_t i = first;
        if (array) {
            // An array of other words (hosts, paths) is not Megatron-LM's.
            bool flags = false;
            for (std::size_t j = first; j < end; ++j)
                flags = flags || isFlag(j);
            if (!flags)
                return;
        } else {
            while (i < end && !isFlag(i))
                ++i;  // the command and its own words
        }
        // The words that may follow: 0 (a switch, a value given), 1 (a value flag), any
        // (kAny: a flag Tapestry does not read).
        constexpr int kAny = -1;
        int room = 0;
        std::string last;
        for (; i < end; ++i) {
            const ShellWord& word = words[i];
            if (!isFlag(i)) {
                if (room == 0)
                    failAt(word, last.empty() ? "'" + word.text + "' is not a flag (--name)"
                                              : "'" + word.text + "' after " + last +
                                                    " is neither a flag nor a value it takes");
                if (room > 0)
                    --room;
                continue;
            }
            if (room == 1)
                failAt(word, last + " has no value (" + word.text + " follows it)");
            std::string flag = word.text.substr(2);
            std::optional<std::string> value;
            if (const std::size_t equals = flag.find('='); equals != std::string::npos) {
                value = flag.substr(equals + 1);
                flag.resize(equals);
            }
            last = "--" + flag;
            if (switchFlags().contains(flag)) {
                if (value)
                    failAt(word, last + " takes no value ('" + word.text + "')");
                switches_.insert(flag);
                room = 0;
            } else if (valueFlags().contains(flag)) {
                if (value)
                    values_[flag] = *value;
                else if (i + 1 < end && !isFlag(i + 1))
                    values_[flag] = words[i + 1].text;
                room = value ? 0 : 1;
            } else {
                // Megatron-LM's argparse refuses a flag it lacks; ignoring a misspelt flag
                // Tapestry reads would leave that setting at its default.
                if (const std::optional<std::string> meant = misspeltName(flag, readFlags()))
                    failAt(word, last + " is not a Megatron-LM flag: did you mean --" + *meant + "?");
                if (std::find(ignored_.begin(), ignored_.end(), last) == ignored_.end())
                    ignored_.push_back(last);
                room = kAny;
            }
        }
        if (room == 1)
            failAt(words[end - 1], last + " has no value");
    }

    std::string fileName_;
    std::vector<std::string> ignored_;
    std::set<std::string> switches_;
    std::map<std::string, std::string> values_;
};

}  // namespace

std::string exportMegatronArguments(const FoldedModel& model, const PlanDocument& document, int gpusPerNode)
{
    const TrainingStackSettings s = trainingStackSettings(model, document, gpusPerNode);
    std::vector<std::string> notes = stackModelNotes(TrainingStack::Megatron, model);
    notes.insert(notes.end(), s.notes.begin(), s.notes.end());
    for (std::string& note : stackSettingNotes(TrainingStack::Megatron, s))
        notes.push_back(std::move(note));
    std::vector<std::string> args;
    args.push_back("--tensor-model-parallel-size " + std::to_string(s.tensorParallel));
    pipelineArguments(s, args);
    if (s.sequenceParallel)
        args.push_back("--sequence-parallel");
    contextAndExpertArguments(s, args);
    const Workload& w = s.workload;
    args.push_back("--seq-length " + std::to_string(w.sequence));
    args.push_back("--micro-batch-size " + std::to_string(w.microBatch));
    args.push_back("--global-batch-size " + std::to_string(w.batch));
    if (w.recompute == Recomputation::Selective)
        args.push_back("--recompute-granularity selective");
    if (w.recompute == Recomputation::Full) {
        args.push_back("--recompute-granularity full");
        args.push_back("--recompute-method uniform");
        args.push_back("--recompute-num-layers 1");
    }
    dataParallelArguments(s, args);
    if (w.computeType == DataType::BFloat16)
        args.push_back("--bf16");
    else if (w.computeType == DataType::Float16)
        args.push_back("--fp16");
    // Transformer Engine FP8: E4M3 forward and E5M2 gradients per tensor (current scaling),
    // or MXFP8 blocks, which are E4M3 throughout.
    if (w.fp8 == Fp8Recipe::PerTensor)
        args.push_back("--fp8-format hybrid --fp8-recipe tensorwise");
    else if (w.fp8 == Fp8Recipe::Block)
        args.push_back("--fp8-format e4m3 --fp8-recipe mxfp8");
    if (w.fp8 != Fp8Recipe::None && w.fp8Parameters)
        args.push_back("--fp8-param-gather");  // Transformer Engine's fp8_model_init: no 16-bit copy
    if (w.attention == AttentionKernel::FlashAttention2 || w.attention == AttentionKernel::Triton ||
        w.attention == AttentionKernel::FlashAttention1)
        args.push_back("--use-flash-attn");
    else if (w.attention == AttentionKernel::Cudnn)
        args.push_back("--attention-backend fused");
    if (w.optimizer == OptimizerKind::SgdMomentum)
        args.push_back("--optimizer sgd");
    // Megatron-LM's validate_args accumulates and reduces bf16 gradients in fp32 unless
    // --grad-reduce-in-bf16 says otherwise; fp16 ones only when asked.
    if (w.fp32MainGradients)
        args.push_back("--accumulate-allreduce-grads-in-fp32");
    else if (w.computeType == DataType::BFloat16)
        args.push_back("--grad-reduce-in-bf16");
    if (w.overlap)
        args.push_back("--overlap-grad-reduce");
    // Megatron-LM overlaps the sends wherever it can unless told not to.
    if (pipelineSendsOverlapped(s.pipeline, true) && !w.pipelineSendOverlap)
        args.push_back("--no-overlap-p2p-communication");

    std::string text = trainingStackComments(
        "Megatron-LM arguments", "Megatron-LM", model, document, s,
        {std::string("Add the model's own arguments (--hidden-size, --num-attention-heads, --ffn-hidden-size") +
             (s.expertParallel > 1 ? ", --num-experts, --moe-router-topk" : "") + ", ...)",
         "and run: torchrun ... pretrain_gpt.py \"${MEGATRON_ARGS[@]}\" ..."},
        notes);
    // Megatron-LM's validate_args refuses tensor and context parallelism without it (their
    // communication must be issued in order with the compute kernels), and Megatron-FSDP
    // with it (its gathers run beside the compute; tensor and context parallelism then
    // only draw a warning).
    if (megatronRunsMegatronFsdp(s))
        text += "unset CUDA_DEVICE_MAX_CONNECTIONS\n";
    else if (s.tensorParallel > 1 || s.contextParallel > 1)
        text += "export CUDA_DEVICE_MAX_CONNECTIONS=1\n";
    text += "MEGATRON_ARGS=(\n";
    for (const std::string& arg : args)
        text += "    " + arg + "\n";
    return text + ")\n";
}

namespace {

constexpr std::array<std::string_view, 4> kParallelSizeFlags = {
    "--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--context-parallel-size",
    "--expert-model-parallel-size"};

}  // namespace

bool isMegatronArguments(std::string_view text)
{
    // The flags' names without their dashes, so that a look-alike dash is refused by the
    // reader rather than the file taken for another format; the export's own array and title.
    return std::any_of(kParallelSizeFlags.begin(), kParallelSizeFlags.end(),
                       [text](std::string_view flag) { return text.find(flag.substr(2)) != std::string_view::npos; }) ||
           text.find("MEGATRON_ARGS=(") != std::string_view::npos ||
           text.find("# Megatron-LM arguments") != std::string_view::npos;
}

namespace {

// The ZeRO stage --data-parallel-sharding-strategy names (Megatron-LM's default no_shard: 0).
int shardingStrategyStage(const ArgumentReader& args)
{
    const std::string strategy = args.text("data-parallel-sharding-strategy").value_or("no_shard");
    const auto found = std::find(kShardingStrategies.begin(), kShardingStrategies.end(), strategy);
    if (found == kShardingStrategies.end())
        args.fail("--data-parallel-sharding-strategy '" + strategy +
                  "' is not no_shard, optim, optim_grads or optim_grads_params");
    return static_cast<int>(found - kShardingStrategies.begin());
}

}  // namespace

TrainingStackSettings parseMegatronArguments(std::string_view text, const std::string& fileName, const FoldedModel& model)
{
    const ArgumentReader args(text, fileName);
    if (!args.readAny())
        args.fail("names none of the flags Tapestry reads (--tensor-model-parallel-size, --pipeline-model-parallel-size, "
                  "...): is it cut short?");
    TrainingStackSettings s;
    if (!args.ignored().empty()) {
        std::string list;
        for (const std::string& flag : args.ignored())
            list += (list.empty() ? "" : ", ") + flag;
        s.notes.push_back(std::to_string(args.ignored().size()) + " flag(s) not about the plan, ignored: " + list);
    }
    s.tensorParallel = args.number("tensor-model-parallel-size").value_or(1);
    s.pipeline.stages = args.number("pipeline-model-parallel-size").value_or(1);
    s.contextParallel = args.number("context-parallel-size").value_or(1);
    if (s.contextParallel > 1) {
        const std::string comm = args.text("cp-comm-type").value_or("p2p");
        s.contextVariant = comm == "a2a" ? ContextParallelVariant::Ulysses : ContextParallelVariant::Ring;
        if (comm == "allgather")
            s.notes.push_back("--cp-comm-type allgather (keys and values gathered at once) is read as ring attention "
                              "(the same bytes, passed around the ring)");
        else if (comm == "a2a+p2p")
            s.notes.push_back("--cp-comm-type a2a+p2p (hierarchical: Ulysses inside, ring across) is read as ring "
                              "attention over all context-parallel ranks");
        else if (comm != "p2p" && comm != "a2a")
            args.fail("--cp-comm-type '" + comm + "' is not p2p, a2a, allgather or a2a+p2p");
    }
    s.expertParallel = args.number("expert-model-parallel-size").value_or(1);
    // Megatron-LM's default: the experts are as tensor parallel as the rest.
    s.expertTensorParallel = args.number("expert-tensor-parallel-size").value_or(s.tensorParallel);
    s.layers = args.number("num-layers").value_or(0);
    const std::int64_t layers = s.layers > 0 ? s.layers : static_cast<std::int64_t>(modelBlocks(model.families).size());
    s.sequenceParallel = args.has("sequence-parallel");

    if (s.pipeline.stages == 1 &&
        (args.has("num-layers-per-virtual-pipeline-stage") || args.has("virtual-pipeline-model-parallel-size")))
        args.fail("virtual pipeline stages need --pipeline-model-parallel-size above 1");
    if (const std::optional<int> perChunk = args.number("num-layers-per-virtual-pipeline-stage")) {
        const std::int64_t chunkLayers = std::int64_t{*perChunk} * s.pipeline.stages;
        if (layers % chunkLayers != 0)
            args.fail("--num-layers-per-virtual-pipeline-stage " + std::to_string(*perChunk) + " x " +
                      std::to_string(s.pipeline.stages) + " stages does not divide the " + std::to_string(layers) +
                      " layers");
        s.pipeline.virtualStages = static_cast<int>(layers / chunkLayers);
    } else if (const std::optional<int> virtualStages = args.number("virtual-pipeline-model-parallel-size")) {
        s.pipeline.virtualStages = *virtualStages;
    }
    if (s.pipeline.stages > 1)
        s.pipeline.schedule = s.pipeline.virtualStages > 1 ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB;
    const std::optional<int> first = args.number("decoder-first-pipeline-num-layers");
    const std::optional<int> last = args.number("decoder-last-pipeline-num-layers");
    if (first || last) {
        if (s.pipeline.virtualStages > 1)
            args.fail("first/last pipeline stage layers with virtual pipeline stages are not imported");
        const int p = s.pipeline.stages;
        const int middle = p - (first ? 1 : 0) - (last ? 1 : 0);
        const std::int64_t rest = layers - first.value_or(0) - last.value_or(0);
        if (middle < 0 || rest < 0 || (middle == 0 ? rest != 0 : rest % middle != 0 || rest == 0))
            args.fail("the first/last pipeline stage layers leave " + std::to_string(rest) + " of " +
                      std::to_string(layers) + " layers for " + std::to_string(std::max(middle, 0)) +
                      " other stages: they must divide evenly");
        std::vector<std::size_t> starts;
        std::size_t next = 0;
        for (int stage = 0; stage < p; ++stage) {
            starts.push_back(next);
            const bool isFirst = stage == 0 && first;
            const bool isLast = stage == p - 1 && last;
            next += static_cast<std::size_t>(isFirst ? *first : isLast ? *last : rest / std::max(middle, 1));
        }
        s.pipeline.chunkStarts = std::move(starts);
    }

    Workload& w = s.workload;
    w = withStackImplementations(w, TrainingStack::Megatron);
    w.sequence = args.number("seq-length").value_or(0);
    w.microBatch = args.number("micro-batch-size").value_or(1);
    w.batch = args.number("global-batch-size").value_or(0);  // 0 until the data-parallel size is known
    if (const std::optional<std::string> granularity = args.text("recompute-granularity")) {
        if (*granularity == "selective") {
            w.recompute = Recomputation::Selective;
        } else if (*granularity == "full") {
            w.recompute = Recomputation::Full;
            const std::string method = args.text("recompute-method").value_or("uniform");
            if (method != "uniform" && method != "block")
                args.fail("--recompute-method '" + method + "' is not uniform or block");
            const int group = args.number("recompute-num-layers").value_or(1);
            if (method != "uniform" || group != 1)
                s.notes.push_back("--recompute-method " + method + " --recompute-num-layers " + std::to_string(group) +
                                  " is read as full recomputation of every block");
        } else {
            args.fail("--recompute-granularity '" + *granularity + "' is not selective or full");
        }
    }
    const int strategyStage = shardingStrategyStage(args);
    if (args.has("use-megatron-fsdp") || args.has("use-custom-fsdp")) {
        if (args.has("use-torch-fsdp2"))
            args.fail("both --use-megatron-fsdp and --use-torch-fsdp2: Megatron-LM wraps the model in one of them");
        w.zeroStage = strategyStage;
        w.zeroImplementation = ZeroImplementation::MegatronFsdp;
    } else {
        w.zeroStage = args.has("use-torch-fsdp2") ? 3 : args.has("use-distributed-optimizer") ? 1 : 0;
        if (strategyStage > 0)
            s.notes.push_back("--data-parallel-sharding-strategy " + *args.text("data-parallel-sharding-strategy") +
                              " without --use-megatron-fsdp: Megatron-FSDP's setting, ignored (ZeRO " +
                              std::to_string(w.zeroStage) + " as the other flags say)");
    }
    if (args.has("bf16") && args.has("fp16"))
        args.fail("both --bf16 and --fp16");
    w.computeType = args.has("bf16") ? DataType::BFloat16 : args.has("fp16") ? DataType::Float16 : DataType::Float32;
    if (const std::optional<std::string> format = args.text("fp8-format")) {
        const std::string recipe = args.text("fp8-recipe").value_or("delayed");
        if (*format != "hybrid" && *format != "e4m3")
            args.fail("--fp8-format '" + *format + "' is not hybrid or e4m3");
        if (recipe == "mxfp8")
            w.fp8 = Fp8Recipe::Block;
        else if (recipe == "tensorwise" || recipe == "delayed" || recipe == "blockwise")
            w.fp8 = Fp8Recipe::PerTensor;
        else
            args.fail("--fp8-recipe '" + recipe + "' is not tensorwise, delayed, blockwise or mxfp8");
        if (recipe == "delayed" || recipe == "blockwise")
            s.notes.push_back("--fp8-recipe " + recipe + " is priced as per-tensor current scaling");
    }
    w.attention = AttentionKernel::Unfused;
    if (args.has("use-flash-attn"))
        w.attention = AttentionKernel::FlashAttention2;
    if (const std::optional<std::string> backend = args.text("attention-backend")) {
        // fused: Transformer Engine's cuDNN kernels; auto lets Transformer Engine choose
        // among what is installed, priced as FlashAttention-2.
        if (*backend == "flash" || *backend == "auto")
            w.attention = AttentionKernel::FlashAttention2;
        else if (*backend == "fused")
            w.attention = AttentionKernel::Cudnn;
        else if (*backend != "unfused" && *backend != "local")
            args.fail("--attention-backend '" + *backend + "' is not flash, fused, auto, unfused or local");
    }
    if (const std::optional<std::string> optimizer = args.text("optimizer")) {
        if (*optimizer == "sgd")
            w.optimizer = OptimizerKind::SgdMomentum;
        else if (*optimizer != "adam")
            args.fail("--optimizer '" + *optimizer + "' is not adam or sgd");
    }
    w.fp8Parameters = args.has("fp8-param-gather");
    if (w.fp8Parameters && w.fp8 == Fp8Recipe::None)
        args.fail("--fp8-param-gather without --fp8-format: FP8 weights need FP8 training");
    // Megatron-Core's OptimizerConfig refuses the precision-aware optimizer without the
    // distributed optimizer or for another optimizer than Adam. It keeps 16-bit remainders
    // of the masters as megatronFusedStep says, whole masters with --no-store-param-remainders.
    if (args.has("use-precision-aware-optimizer")) {
        if (!args.has("use-distributed-optimizer"))
            args.fail("--use-precision-aware-optimizer without --use-distributed-optimizer: Megatron-LM runs it only "
                      "on the distributed optimizer");
        if (w.optimizer != OptimizerKind::AdamMixedPrecision)
            args.fail("--use-precision-aware-optimizer with --optimizer sgd: Megatron-LM runs it only for adam");
        w.optimizerStep = args.has("no-store-param-remainders") ? OptimizerStep::Fused : megatronFusedStep(w);
    }
    // As validate_args decides (the export's comment above).
    w.fp32MainGradients = w.computeType == DataType::BFloat16 ? !args.has("grad-reduce-in-bf16")
                                                              : args.has("accumulate-allreduce-grads-in-fp32");
    // Megatron-LM's validate_args turns it on where the strategy shards gradients.
    w.overlap = args.has("overlap-grad-reduce") || strategyStage >= 2;
    w.pipelineSendOverlap = !args.has("no-overlap-p2p-communication");
    // --clip-grad 0 turns the clipping off (Megatron-Core's clip_grad > 0.0 test); any other
    // limit clips as stackGradientClipping says (the norm read, scaled above the limit).
    if (const std::optional<double> clip =
            args.decimal("clip-grad", [](double x) { return x >= 0 && std::isfinite(x); }, "a number of 0 or more"))
        w.gradientClipping = *clip > 0 ? stackGradientClipping(TrainingStack::Megatron) : GradientClipping::None;
    if (const std::optional<double> capacity = args.capacityFactor("moe-expert-capacity-factor")) {
        w.capacityFactor = *capacity;
        if (!args.has("moe-pad-expert-input-to-capacity"))
            s.notes.push_back("--moe-expert-capacity-factor without --moe-pad-expert-input-to-capacity: Megatron-LM "
                              "computes the tokens routed to an expert up to its capacity; Tapestry prices the "
                              "whole capacity");
    }
    return s;
}

}  // namespace tapestry
