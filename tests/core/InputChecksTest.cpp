// Every input checked against itself: the workload check's rules, plan files that tell
// absent from zero, the Megatron-LM reader's shell words, the torchtitan reader's TOML
// 1.0 and Python literals, and mesh text. Each case is one of issue 29's reproductions or its legal twin.
#include "base/Error.h"
#include "base/JsonWriter.h"
#include "base/TextFile.h"
#include "cluster/MeshText.h"
#include "cluster/PipelineStages.h"
#include "cost/WorkloadCheck.h"
#include "base/NearMiss.h"
#include "export/MegatronArguments.h"
#include "export/PythonLiteral.h"
#include "export/ShellWords.h"
#include "export/TrainingStackImport.h"
#include "FoldedTestModel.h"
#include "TrainingStackImports.h"
#include "plan/ExpertPlans.h"
#include "plan/PlanFile.h"
#include "validation/PublishedRun.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <nlohmann/json.hpp>

using namespace tapestry;
using namespace tapestry::test;

namespace {

const FoldedModel& gpt()
{
    static const FoldedModel model = foldSynthPreset("gpt2-small", 4);
    return model;
}

Workload workloadOf(std::int64_t batch, std::int64_t microBatch, std::int64_t sequence = 0)
{
    Workload w;
    w.batch = batch;
    w.microBatch = microBatch;
    w.sequence = sequence;
    return w;
}

// The message checkWorkload gives, or "accepted".
std::string workloadError(const Workload& workload, const WorkloadDegrees& degrees)
{
    try {
        checkWorkload(workload, degrees, commandLineFieldNames(), "cmd");
    } catch (const Error& error) {
        return error.what();
    }
    return "accepted";
}

std::string importError(const std::string& text, const std::string& fileName, int gpus = 8)
{
    try {
        (void)importTrainingStackPlan(text, fileName, gpt(), gpus);
    } catch (const Error& error) {
        return error.what();
    }
    return "accepted";
}

// A torchtitan config-registry module for gpt()'s 4 blocks on 8 GPUs: pipeline 2 x data
// parallel 2 x tensor parallel 2, 16 sequences of 1024 tokens in micro-batches of 2 (4 per
// rank and step), full recomputation.
const std::string kTrainerConfig =
    "from torchtitan.distributed.activation_checkpoint import FullAC\n"
    "\n"
    "PARALLELISM = {\n"
    "    \"data_parallel_replicate_degree\": 2,\n"
    "    \"data_parallel_shard_degree\": 1,\n"
    "    \"tensor_parallel_degree\": 2,\n"
    "    \"pipeline_parallel_degree\": 2,\n"
    "    \"pipeline_parallel_schedule\": \"1F1B\",\n"
    "    \"module_fqns_per_model_part\": [[\"tok_embeddings\", \"layers.0\"], [\"layers.1\", \"layers.2\", "
    "\"layers.3\", \"norm\", \"output\"]],\n"
    "    \"num_pp_microbatches\": 4,\n"
    "}\n"
    "TRAINING = {\n"
    "    \"num_tokens_per_microbatch_per_dp_rank\": 2048,\n"
    "    \"num_tokens_per_train_step\": 16384,\n"
    "    \"max_context_length\": 1024,\n"
    "}\n"
    "ACTIVATION_CHECKPOINT = \"full\"\n";

// `text` with the first `from` replaced by `to`.
std::string edited(std::string text, const std::string& from, const std::string& to)
{
    const std::size_t at = text.find(from);
    if (at == std::string::npos)
        throw std::logic_error("not in the text: " + from);
    return text.replace(at, from.size(), to);
}

std::string trainerConfig(const std::string& from, const std::string& to)
{
    return edited(kTrainerConfig, from, to);
}

// A value as compact JSON, floats with a decimal point so that they differ from integers.
std::string dump(const JsonValue& value)
{
    if (value.isNull())
        return "null";
    if (value.isBool())
        return value.asBool() ? "true" : "false";
    if (value.isInteger())
        return std::to_string(*value.asInteger());
    if (value.isNumber()) {
        std::string text = QString::number(value.asNumber()).toStdString();
        return text.find_first_of(".e") == std::string::npos ? text + ".0" : text;
    }
    if (value.isString())
        return jsonEscaped(value.asString());
    std::string text;
    if (value.isArray()) {
        for (const JsonValue& item : value.asArray())
            text += (text.empty() ? "" : ",") + dump(item);
        return "[" + text + "]";
    }
    for (const auto& [key, member] : value.asObject())
        text += (text.empty() ? "\"" : ",\"") + key + "\":" + dump(member);
    return "{" + text + "}";
}

// A Python literal as dump() writes it, or the reader's error.
std::string literal(const std::string& text)
{
    try {
        return dump(readPythonLiteral(text, 0, "m.py"));
    } catch (const Error& error) {
        return error.what();
    }
}

// gpt()'s Megatron plan on dp 2 x tp 4 as JSON, its workload changed by `edit`.
std::string planJson(const std::function<void(nlohmann::json&)>& edit)
{
    PlanDocument document;
    document.plan = makeExpertPlan(ExpertPlanKind::Megatron, gpt().coarse, {{"dp", 2}, {"tp", 4}});
    document.plan.name = "p";
    document.workload = workloadOf(16, 2, 1024);
    nlohmann::json json = nlohmann::json::parse(planToJson(document, gpt().coarse, gpt().families));
    edit(json);
    return json.dump();
}

std::string planError(const std::string& json)
{
    try {
        (void)planFromJson(json, "plan.json", gpt().coarse, gpt().families);
    } catch (const Error& error) {
        return error.what();
    }
    return "accepted";
}

}  // namespace

class InputChecksTest : public QObject {
    Q_OBJECT

private slots:
    void globalBatchMustSplitIntoMicroBatchesOverDataParallelRanks()
    {
        WorkloadDegrees dp2;
        dp2.dataParallel = 2;
        QCOMPARE(workloadError(workloadOf(17, 1), dp2),
                 std::string("cmd: --batch: global batch 17 is not a multiple of micro-batch 1 x data-parallel 2"));
        // 16 = 3 micro-steps of 2 x 3 sequences is 18, not 16.
        QVERIFY(contains(workloadError(workloadOf(16, 3), dp2), "is not a multiple of micro-batch 3 x data-parallel 2"));
        QVERIFY(contains(workloadError(workloadOf(16, 32), {}), "a micro-step alone takes 32 sequences"));
        WorkloadDegrees dp32;
        dp32.dataParallel = 32;
        QVERIFY(contains(workloadError(workloadOf(1, 0), dp32), "global batch 1 is not a multiple of data-parallel 32"));
        // 16 = 4 micro-steps x 2 sequences x 2 ranks; 0 (not given) is never checked.
        QCOMPARE(workloadError(workloadOf(16, 2), dp2), std::string("accepted"));
        QCOMPARE(workloadError(workloadOf(0, 3), dp2), std::string("accepted"));
        // Sizes above 2^24, which plan files and the command line refuse, are refused for
        // every reader: an import must not write a plan that cannot be read back.
        QCOMPARE(workloadError(workloadOf(std::int64_t{1} << 25, 0), {}),
                 std::string("cmd: --batch: global batch 33554432 is not 1 to 16777216"));
        QCOMPARE(workloadError(workloadOf(16, 2, -1), {}), std::string("cmd: --seq: sequence -1 is not 1 to 16777216"));
        QCOMPARE(workloadError(workloadOf(std::int64_t{1} << 24, 1, std::int64_t{1} << 24), {}), std::string("accepted"));
    }

    void statedAccumulationMustMatch()
    {
        WorkloadDegrees degrees;
        degrees.dataParallel = 2;
        degrees.accumulation = 4;
        QVERIFY(contains(workloadError(workloadOf(24, 2), degrees),
                         "gradient accumulation: 4 x micro-batch 2 x data-parallel 2 = 16, not the global batch 24"));
        QCOMPARE(workloadError(workloadOf(16, 2), degrees), std::string("accepted"));
    }

    void virtualStagesNeedAPipelineAndSequencesSplitOverContextRanks()
    {
        WorkloadDegrees virtualOnly;
        virtualOnly.virtualStages = 2;
        QVERIFY(contains(workloadError(workloadOf(8, 1), virtualOnly), "2 virtual stages need a pipeline"));
        WorkloadDegrees context;
        context.contextParallel = 4;
        context.chunksPerContextRank = 2;
        QVERIFY(contains(workloadError(workloadOf(8, 1, 4100), context),
                         "--seq: sequence 4100 does not split into 2 chunks x context-parallel 4 equal pieces"));
        QCOMPARE(workloadError(workloadOf(8, 1, 4096), context), std::string("accepted"));
        // The stacks set two chunks per rank whatever the degree; one rank cuts nothing
        // (ViT-L/16's 197 tokens).
        context.contextParallel = 1;
        QCOMPARE(workloadError(workloadOf(8, 1, 197), context), std::string("accepted"));
    }

    void expertsSplitOverExpertRanksAndCapacityLeavesThemWork()
    {
        WorkloadDegrees moe;
        moe.experts = 8;
        moe.topK = 2;
        moe.expertParallel = 3;
        QVERIFY(contains(workloadError(workloadOf(8, 1), moe), "8 experts per layer do not split over 3"));
        moe.expertParallel = 4;
        moe.tokensPerMicroStep = 4096;
        Workload w = workloadOf(8, 1);
        w.capacityFactor = 5e-324;
        QVERIFY(contains(workloadError(w, moe), "--capacity-factor: capacity factor 4.94066e-324 leaves each of 8 "
                                                "experts less than one of the 4096 tokens"));
        // 0.5 x 4096 x 2 / 8 = 512 tokens per expert: a legal, dropping factor.
        w.capacityFactor = 0.5;
        QCOMPARE(workloadError(w, moe), std::string("accepted"));
        w.capacityFactor = std::numeric_limits<double>::quiet_NaN();
        QVERIFY(contains(workloadError(w, moe), "capacity factor nan is not a number above 0"));
    }

    void planFilesTellAbsentFromZeroAndRefuseUnknownNames()
    {
        QVERIFY(contains(planError(planJson([](nlohmann::json& j) { j["workload"]["batch"] = 0; })),
                         "plan.json: workload.batch is 0; it is 1 to 16777216 (leave it out for the model's own)"));
        QVERIFY(contains(planError(planJson([](nlohmann::json& j) { j["workload"]["sequence"] = "0"; })),
                         "workload.sequence is 0"));
        QVERIFY(contains(planError(planJson([](nlohmann::json& j) { j["workload"]["capacity_factor"] = 0; })),
                         "workload.capacity_factor is 0"));
        QVERIFY(contains(planError(planJson([](nlohmann::json& j) { j["workload"]["compute_type"] = "float8"; })),
                         "workload.compute_type is 'float8', not bfloat16, float16 or float32"));
        QVERIFY(contains(planError(planJson([](nlohmann::json& j) { j["origin"] = "magic"; })),
                         "origin is 'magic'"));
        QVERIFY(contains(planError(planJson([](nlohmann::json& j) { j["workload"]["micro_batch"] = 3; })),
                         "workload.batch: global batch 16 is not a multiple of micro-batch 3"));
        // Absent: the model's own batch, and a capacity factor of 1.
        const PlanDocument absent = planFromJson(planJson([](nlohmann::json& j) {
                                                     j["workload"].erase("batch");
                                                     j["workload"].erase("micro_batch");
                                                     j["workload"].erase("capacity_factor");
                                                 }),
                                                 "plan.json", gpt().coarse, gpt().families);
        QCOMPARE(absent.workload.batch, std::int64_t{0});
        QCOMPARE(absent.workload.sequence, std::int64_t{1024});
        QCOMPARE(absent.workload.capacityFactor, 1.0);
    }

    void megatronWordsAreSplitAsBashSplitsThem()
    {
        // A launch script: a continued command, quotes, escapes, flags Tapestry ignores with
        // several values, a redirection.
        const std::string script = "#!/bin/bash\n"
                                   "export CUDA_DEVICE_MAX_CONNECTIONS=1\n"
                                   "torchrun --nproc_per_node 8 pretrain_gpt.py \\\n"
                                   "    --tensor-model-parallel-size '2' \\\n"
                                   "    --seq-length \"1024\" --data-path 0.5 a\\ b 0.5 c \\\n"
                                   "    --micro-batch-size 1 --global-batch-size 8 --use-flash-attn 2>&1 > log.txt\n";
        const TrainingStackImport result = imported(script, "train.sh", gpt(), 8);
        QCOMPARE(result.document.workload.batch, std::int64_t{8});
        QCOMPARE(result.document.workload.sequence, std::int64_t{1024});
        QCOMPARE(planMeshAxes(result.document.plan), (std::vector<MeshAxis>{{"dp", 4}, {"tp", 2}}));
        bool listed = false;
        for (const std::string& warning : result.warnings)
            listed = listed || (contains(warning, "--nproc_per_node") && contains(warning, "--data-path"));
        QVERIFY(listed);
        const std::vector<ShellWord> words = shellWords("A=( --x 'a b' \"c\\\"d\" e\\ f )\n", "f");
        QCOMPARE(words.size(), std::size_t{7});
        QCOMPARE(words[0].kind, ShellWord::Kind::ArrayOpen);
        QCOMPARE(words[2].text, std::string("a b"));
        QCOMPARE(words[3].text, std::string("c\"d"));
        QCOMPARE(words[4].text, std::string("e f"));
        QCOMPARE(words[5].kind, ShellWord::Kind::ArrayClose);
    }

    void megatronWordsItCannotPlaceAreRefusedWithTheirLine()
    {
        QVERIFY(contains(importError("MEGATRON_ARGS=(\n    \xE2\x80\x94tensor-model-parallel-size 8\n)\n", "a.sh"),
                         "a.sh: line 2: a word starts with an em dash (U+2014)"));
        QVERIFY(contains(importError("--tensor-model-parallel-size\xC2\xA0" "8\n", "a.sh"), "line 1: a U+00A0 space"));
        QVERIFY(contains(importError("MEGATRON_ARGS=(\n    --tensor-model-parallel-size 2\n    --use-flash-attn\n",
                                     "a.sh"),
                         "line 1: the array MEGATRON_ARGS=( opened here has no closing ')'"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 2\n--seq-length \"1024\n", "a.sh"),
                         "line 2: the double quote opened here is not closed"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 2 2\n", "a.sh"),
                         "line 1: '2' after --tensor-model-parallel-size is neither a flag nor a value it takes"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 2\n--sequence-parallel yes\n", "a.sh"),
                         "line 2: 'yes' after --sequence-parallel"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 2 --bf16=true\n", "a.sh"), "--bf16 takes no value"));
        QVERIFY(contains(importError(std::string("\x01\x7f junk --tensor-model-parallel-size 2\n"), "a.sh"),
                         "line 1: control character U+0001"));
        QVERIFY(contains(importError("# Megatron-LM arguments for Tapestry plan \"p\" (m):\n# pipeline 1\n", "a.sh"),
                         "a.sh: names none of the flags"));
        QVERIFY(contains(importError("--tensor-model-parallel-size 2 --micro-batch-size 1 --global-batch-size 17\n",
                                     "a.sh"),
                         "a.sh: --global-batch-size: global batch 17 is not a multiple of micro-batch 1 x "
                         "data-parallel 4"));
    }

    // Each stack refuses a flag or field it lacks; a misspelling of one Tapestry reads is
    // refused too (ignoring it would price that setting's default), other unknown names
    // stay ignored and listed.
    void misspeltNamesOfWhatTheReadersTakeAreRefused()
    {
        const std::vector<std::string> known{"local_batch_size", "global_batch_size", "seq_len"};
        QCOMPARE(misspeltName("global_batch_siz", known), std::optional<std::string>("global_batch_size"));
        QCOMPARE(misspeltName("locl_batch_size", known), std::optional<std::string>("local_batch_size"));
        QCOMPARE(misspeltName("local_batch_size", known), std::optional<std::string>());  // a name it reads
        QCOMPARE(misspeltName("seq_lenn", known), std::optional<std::string>("seq_len"));
        QCOMPARE(misspeltName("seq_le", known), std::optional<std::string>());  // too short to tell
        QCOMPARE(misspeltName("lcl_btch_sze", known), std::optional<std::string>());  // three edits away
        QCOMPARE(importError("MEGATRON_ARGS=(\n    --tensor-model-paralel-size 2\n)\n", "a.sh"),
                 std::string("a.sh: line 2: --tensor-model-paralel-size is not a Megatron-LM flag: did you mean "
                             "--tensor-model-parallel-size?"));
        QVERIFY(contains(imported("--tensor-model-parallel-size 2 --hidden-size 768 --num-attention-heads 12\n", "a.sh",
                                  gpt(), 8)
                             .warnings.front(),
                         "2 flag(s) not about the plan, ignored: --hidden-size, --num-attention-heads"));
        QCOMPARE(importError("[parallelism]\ntensor_paralel_degree = 2\n", "j.toml"),
                 std::string("j.toml: line 2: parallelism.tensor_paralel_degree is not a torchtitan key: did you mean "
                             "tensor_parallel_degree?"));
        QCOMPARE(importError("[training]\nlocal_batch_size = 2\nseq_lenn = 1024\n", "j.toml"),
                 std::string("j.toml: line 3: training.seq_lenn is not a torchtitan key: did you mean seq_len?"));
    }

    void torchTitanConfigsAreToml10()
    {
        // Legal TOML the old reader refused: a byte-order mark, a quoted key, a \u escape.
        const TrainingStackImport legal =
            imported("\xEF\xBB\xBF[parallelism]\n\"tensor_parallel_degree\" = 2\npipeline_parallel_schedule = "
                     "\"\\u0031F1B\"\n[training]\nlocal_batch_size = 2\nseq_len = 1_024\n",
                     "job.toml", gpt(), 8);
        QCOMPARE(planMeshAxes(legal.document.plan), (std::vector<MeshAxis>{{"dp", 4}, {"tp", 2}}));
        QCOMPARE(legal.document.workload.sequence, std::int64_t{1024});
        // Illegal TOML the old reader took.
        QVERIFY(contains(importError("[parallelism]\ntensor_parallel_degree = 2\ntensor_parallel_degree = 4\n", "j.toml"),
                         "j.toml: line 3:"));
        QVERIFY(contains(importError("[parallelism]\ntensor_parallel_degree = 8_\n", "j.toml"), "j.toml: line 2:"));
        QVERIFY(contains(importError("[[parallelism]]\ntensor_parallel_degree = 2\n", "j.toml"),
                         "parallelism is an array, not a [parallelism] table"));
        QVERIFY(contains(importError("[parallelism]\rtensor_parallel_degree = 2\r", "j.toml"), "j.toml: line 1:"));
        // A replicate degree beside the default shard degree -1 (the GPUs left): torchtitan
        // needs the rest to be a multiple of it, and shards nothing when the replicas are all.
        QCOMPARE(importError("[parallelism]\ndata_parallel_replicate_degree = 3\ntensor_parallel_degree = 2\n", "j.toml"),
                 std::string("j.toml: pipeline 1 x data-parallel replicas 3 x tensor parallel 2 does not divide the "
                             "cluster's 8 GPUs"));
        const auto zeroStageOf = [](int replicas) {
            return imported("[parallelism]\ndata_parallel_replicate_degree = " + std::to_string(replicas) +
                                "\ntensor_parallel_degree = 2\n",
                            "j.toml", gpt(), 8)
                .document.workload.zeroStage;
        };
        QCOMPARE(zeroStageOf(4), 0);  // 4 replicas x shard 1
        QCOMPARE(zeroStageOf(2), 3);  // 2 replicas x shard 2 (FSDP)
        // 2 replicas x shard 2 is HSDP: the plan's workload carries the replicas, without a word.
        const auto importedFrom = [](const std::string& parallelism) {
            return imported("[parallelism]\n" + parallelism + "tensor_parallel_degree = 2\n", "j.toml", gpt(), 8);
        };
        for (const std::string& parallelism :
             {std::string("data_parallel_replicate_degree = 2\n"),
              std::string("data_parallel_replicate_degree = 2\ndata_parallel_shard_degree = 2\n")}) {
            const TrainingStackImport hsdp = importedFrom(parallelism);
            QCOMPARE(hsdp.document.workload.zeroReplicas, 2);
            QVERIFY(std::none_of(hsdp.warnings.begin(), hsdp.warnings.end(),
                                 [](const std::string& warning) { return contains(warning, "replicate"); }));
        }
        QCOMPARE(importedFrom("data_parallel_replicate_degree = 4\n").document.workload.zeroReplicas, 1);  // DDP
        QCOMPARE(importedFrom("data_parallel_shard_degree = 4\n").document.workload.zeroReplicas, 1);       // FSDP
        // The same from today's Python config: replicate 2 x shard 2 x pipeline 2, 32 sequences.
        QVERIFY(imported(kTrainerConfig, "job.py", gpt(), 8).warnings.empty());
        std::string trainer = edited(kTrainerConfig, "\"data_parallel_shard_degree\": 1", "\"data_parallel_shard_degree\": 2");
        trainer = edited(trainer, "\"tensor_parallel_degree\": 2", "\"tensor_parallel_degree\": 1");
        trainer = edited(trainer, "\"num_tokens_per_train_step\": 16384", "\"num_tokens_per_train_step\": 32768");
        const TrainingStackImport hsdpTrainer = imported(trainer, "job.py", gpt(), 8);
        QVERIFY(hsdpTrainer.warnings.empty());
        QCOMPARE(hsdpTrainer.document.workload.zeroReplicas, 2);
        QVERIFY(contains(importError("[parallelism]\npipeline_parallel_degree = 2\npipeline_parallel_microbatch_size = 3\n"
                                     "[training]\nlocal_batch_size = 8\n",
                                     "j.toml"),
                         "training.local_batch_size 8 is not a multiple of "
                         "parallelism.pipeline_parallel_microbatch_size 3"));
        // A pipelined step beyond local_batch_size x data-parallel runs as several passes of
        // the schedule (gradient accumulation iterations): priced as one and said; a global
        // batch that is not whole passes is refused as torchtitan refuses it.
        const std::string pipelined = "[parallelism]\npipeline_parallel_degree = 2\ntensor_parallel_degree = 2\n"
                                      "[activation_checkpoint]\nmode = \"none\"\n[training]\nlocal_batch_size = 4\n"
                                      "global_batch_size = ";
        const TrainingStackImport passes = imported(pipelined + "24\n", "j.toml", gpt(), 8);
        QCOMPARE(passes.document.workload.batch, std::int64_t{24});
        QCOMPARE(passes.warnings,
                 std::vector<std::string>{"training.global_batch_size: torchtitan runs each step as 3 gradient "
                                          "accumulation passes of the pipeline schedule over 8 sequences (4 "
                                          "micro-batch(es) of 1 per rank x data-parallel 2), a bubble each; Tapestry "
                                          "prices one schedule of all 12 micro-batches per rank, one bubble, so its step "
                                          "is shorter than torchtitan's"});
        QVERIFY(imported(pipelined + "8\n", "j.toml", gpt(), 8).warnings.empty());
        QCOMPARE(importError(pipelined + "12\n", "j.toml"),
                 std::string("j.toml: training.global_batch_size: global batch 12 is not a multiple of 8 sequences (4 "
                             "micro-batch(es) of 1 per rank x data-parallel 2), one pass of the pipeline schedule: "
                             "torchtitan runs a step as whole passes"));
    }

    void pythonLiteralsAreReadAsPythonReadsThem()
    {
        QCOMPARE(literal("{'a': (1,), \"b\": (2), 'c': [0x1_0, -0o7, 0b11, 1_000, 1e3, .5]}  # note"),
                 std::string("{\"a\":[1],\"b\":2,\"c\":[16,-7,3,1000,1000.0,0.5]}"));
        QCOMPARE(literal("['\\x41\\u00e9\\101\\q', r'\\d', \"a\" 'b', u'c', \"\"\"x\"y\"\"\", True, False, None]"),
                 std::string("[\"A\xC3\xA9" "A\\\\q\",\"\\\\d\",\"ab\",\"c\",\"x\\\"y\",true,false,null]"));
        QCOMPARE(literal("{\n  'a': 1,  # one\r\n  'b': [\r    2,\n  ],\n}"), std::string("{\"a\":1,\"b\":[2]}"));
        QCOMPARE(literal("9223372036854775807"), std::string("9223372036854775807"));
        QCOMPARE(literal("-9223372036854775808"), std::string("-9223372036854775808"));
        QCOMPARE(literal("9223372036854775808"),
                 std::string("m.py: line 1, column 1: '9223372036854775808' is beyond what a 64-bit whole number holds"));
        QCOMPARE(literal("08"), std::string("m.py: line 1, column 1: '08': Python does not allow leading zeros in a "
                                            "whole number"));
        QCOMPARE(literal("8_"), std::string("m.py: line 1, column 2: an underscore in a number goes between two digits"));
        QCOMPARE(literal("{'a': 1, 'a': 2}"),
                 std::string("m.py: line 1, column 10: key \"a\" is given twice (Python keeps the last)"));
        QCOMPARE(literal("{'a': 32 * 2}"),
                 std::string("m.py: line 1, column 10: expected ',' or '}' (Tapestry reads literal values, not "
                             "expressions)"));
        QCOMPARE(literal("[\n1,\nfalse]"),
                 std::string("m.py: line 3, column 1: 'false' is a name, not a value: Tapestry reads numbers, strings, "
                             "True, False, None, lists and dictionaries"));
        QCOMPARE(literal("{'a': [1, 2}"), std::string("m.py: line 1, column 12: expected ',' or ']' (Tapestry reads "
                                                      "literal values, not expressions)"));
        QCOMPARE(literal("{'a': [1,\n"), std::string("m.py: line 2, column 1: the '[' at line 1, column 7 is not closed"));
        QCOMPARE(literal("'abc\n'"), std::string("m.py: line 1, column 1: the string is not closed"));
        QCOMPARE(literal("b'x'"),
                 std::string("m.py: line 1, column 1: a string with prefix 'b' is not a literal Tapestry reads (plain, "
                             "u or r strings are)"));
        QCOMPARE(literal("'\\ud800'"),
                 std::string("m.py: line 1, column 2: the escape is not a character (a surrogate or past U+10FFFF)"));
        QCOMPARE(literal("1 + 2"), std::string("m.py: line 1, column 3: expected the end of the line after the value "
                                               "(Tapestry reads literal values, not expressions)"));
        QCOMPARE(literal(std::string(100, '[')), std::string("m.py: line 1, column 66: nesting is deeper than 64 levels"));
        // Assignments: any spacing or annotation; twice, or changed in place, is refused.
        QCOMPARE(findPythonAssignment("\xEF\xBB\xBFX = 1\n", "X", "m.py"), std::optional<std::size_t>(7));
        QCOMPARE(findPythonAssignment("XY = 1\nX: dict={}\n", "X", "m.py"), std::optional<std::size_t>(15));
        QCOMPARE(findPythonAssignment("# X = 1\n", "X", "m.py"), std::optional<std::size_t>());
        const auto assignmentError = [](const std::string& text) {
            try {
                (void)findPythonAssignment(text, "X", "m.py");
            } catch (const Error& error) {
                return std::string(error.what());
            }
            return std::string("accepted");
        };
        QCOMPARE(assignmentError("X = {}\rX = {}\r"),
                 std::string("m.py: line 2, column 1: assigns X again (first at line 1, column 1); Python keeps the "
                             "last, so write it once"));
        QCOMPARE(assignmentError("X = {}\nX[\"a\"] = 1\n"),
                 std::string("m.py: line 2, column 1: changes or uses X outside its assignment; Tapestry reads the "
                             "assigned literal alone, so write the value there"));
    }

    void torchTitanPythonConfigsAreReadAsPythonReadsThem()
    {
        const TrainingStackImport base = imported(kTrainerConfig, "plan.py", gpt(), 8);
        QVERIFY(base.warnings.empty());
        QCOMPARE(planMeshAxes(base.document.plan), (std::vector<MeshAxis>{{"pp", 2}, {"dp", 2}, {"tp", 2}}));
        QCOMPARE(base.document.workload.batch, std::int64_t{16});
        QCOMPARE(base.document.workload.microBatch, std::int64_t{2});
        QCOMPARE(base.document.workload.recompute, Recomputation::Full);
        // Legal Python the old reader refused or read as something else: each imports as the base.
        std::string crOnly = kTrainerConfig;
        std::replace(crOnly.begin(), crOnly.end(), '\n', '\r');
        const std::vector<std::string> legal{
            trainerConfig("\"1F1B\"", "'1F1B'"),
            trainerConfig("16384", "16_384"),
            trainerConfig("PARALLELISM = {", "PARALLELISM: dict={  # the plan"),
            trainerConfig("ACTIVATION_CHECKPOINT = \"full\"", "ACTIVATION_CHECKPOINT='full'"),
            trainerConfig("from torchtitan", "# PARALLELISM = {}\nfrom torchtitan"),
            trainerConfig("[[\"tok_embeddings\", \"layers.0\"], [\"layers.1\", \"layers.2\", \"layers.3\", \"norm\", "
                          "\"output\"]]",
                          "((\"tok_embeddings\", \"lay\" \"ers.0\"),\n     (  # the rest\n      \"layers.1\", "
                          "\"layers.2\", \"layers.3\", \"norm\", \"output\"))"),
            crOnly,
        };
        for (const std::string& text : legal) {
            const TrainingStackImport same = imported(text, "plan.py", gpt(), 8);
            QVERIFY2(same.document.plan.pipeline == base.document.plan.pipeline, text.c_str());
            QVERIFY2(same.document.plan.strategies == base.document.plan.strategies, text.c_str());
            QVERIFY2(same.document.workload == base.document.workload, text.c_str());
        }
        // A field Tapestry does not take is listed; a near miss of one it takes is refused.
        QCOMPARE(imported(trainerConfig("\"num_pp", "\"enable_async_tensor_parallel\": True,\n    \"num_pp"), "plan.py",
                          gpt(), 8)
                     .warnings,
                 std::vector<std::string>{
                     "1 field(s) not about the plan, ignored: PARALLELISM[\"enable_async_tensor_parallel\"]"});
        const auto error = [](const std::string& from, const std::string& to) {
            return importError(trainerConfig(from, to), "plan.py");
        };
        QCOMPARE(error("\"tensor_parallel_degree\"", "\"tensor_paralel_degree\""),
                 std::string("plan.py: PARALLELISM[\"tensor_paralel_degree\"] is not a torchtitan field: did you mean "
                             "tensor_parallel_degree?"));
        // Newer torchtitan's name for the model parts reads the same; both at once are refused.
        const TrainingStackImport renamed =
            imported(trainerConfig("\"module_fqns", "\"pipeline_parallel_module_fqns"), "plan.py", gpt(), 8);
        QVERIFY(renamed.warnings.empty());
        QVERIFY(renamed.document.plan.pipeline == base.document.plan.pipeline);
        QVERIFY(contains(error("\"num_pp", "\"pipeline_parallel_module_fqns_per_model_part\": None,\n    \"num_pp"),
                         "PARALLELISM[\"pipeline_parallel_module_fqns_per_model_part\"] and "
                         "PARALLELISM[\"module_fqns_per_model_part\"] both name the model parts"));
        // Values of the wrong type or out of range.
        QCOMPARE(error("16384", "16384.0"),
                 std::string("plan.py: TRAINING[\"num_tokens_per_train_step\"] is a float; torchtitan takes a whole "
                             "number from -1 to 1099511627776"));
        QVERIFY(contains(error("16384", "0"), "TRAINING[\"num_tokens_per_train_step\"] is 0"));
        QVERIFY(contains(error("\"data_parallel_shard_degree\": 1", "\"data_parallel_shard_degree\": 1048576"),
                         "PARALLELISM[\"data_parallel_shard_degree\"] x data_parallel_replicate_degree is 2097152 "
                         "ranks: over 2^20"));
        QVERIFY(contains(error("\"tensor_parallel_degree\": 2", "\"tensor_parallel_degree\": TP"),
                         "plan.py: line 6, column 31: 'TP' is a name"));
        QVERIFY(contains(error("\"data_parallel_shard_degree\": 1", "\"enable_sequence_parallel\": 1"),
                         "PARALLELISM[\"enable_sequence_parallel\"] is not True or False"));
        QVERIFY(contains(error("\"full\"", "\"memory_budget\""),
                         "plan.py: line 17, column 25: ACTIVATION_CHECKPOINT is not \"none\", \"selective\" or "
                         "\"full\""));
        // What the file's sizes say against each other and the model.
        // torchtitan runs a step as whole passes of the pipeline schedule (gradient
        // accumulation iterations): 16 sequences are 2 passes of 2 x 2 per rank x 2 ranks,
        // priced as one schedule of 4 and said; 3 x 2 x 2 = 12 does not divide 16.
        QCOMPARE(error("\"num_pp_microbatches\": 4", "\"num_pp_microbatches\": 3"),
                 std::string("plan.py: TRAINING[\"num_tokens_per_train_step\"]: global batch 16 is not a multiple of 12 "
                             "sequences (3 micro-batch(es) of 2 per rank x data-parallel 2), one pass of the pipeline "
                             "schedule: torchtitan runs a step as whole passes"));
        const TrainingStackImport twoPasses =
            imported(trainerConfig("\"num_pp_microbatches\": 4", "\"num_pp_microbatches\": 2"), "plan.py", gpt(), 8);
        QVERIFY(twoPasses.document.workload == base.document.workload);
        QCOMPARE(twoPasses.warnings,
                 std::vector<std::string>{"TRAINING[\"num_tokens_per_train_step\"]: torchtitan runs each step as 2 "
                                          "gradient accumulation passes of the pipeline schedule over 8 sequences (2 "
                                          "micro-batch(es) of 2 per rank x data-parallel 2), a bubble each; Tapestry "
                                          "prices one schedule of all 4 micro-batches per rank, one bubble, so its step "
                                          "is shorter than torchtitan's"});
        QCOMPARE(importError(trainerConfig("\"num_pp_microbatches\": 4", "\"num_pp_microbatches\": None"), "plan.py"),
                 std::string("plan.py: PARALLELISM[\"num_pp_microbatches\"] is not a whole number from 1 to 16777216"));
        QCOMPARE(importError(edited(trainerConfig("16384", "-1"), "\"num_pp_microbatches\": 4",
                                    "\"num_pp_microbatches\": 16777216"),
                             "plan.py"),
                 std::string("plan.py: PARALLELISM[\"num_pp_microbatches\"] x 2 sequences per micro-batch is over 2^24 "
                             "sequences per rank"));
        QCOMPARE(importError(edited(trainerConfig("16384", "1099511627776"), "\"max_context_length\": 1024",
                                    "\"max_context_length\": 2"),
                             "plan.py"),
                 std::string("plan.py: TRAINING[\"num_tokens_per_train_step\"]: global batch 549755813888 is not 1 to "
                             "16777216"));
        QVERIFY(contains(error("\"norm\", \"output\"", "\"nrom\", \"output\""),
                         "names 'nrom' (part 2 of 2), not a module of torchtitan's decoder models"));
        QVERIFY(contains(error("[[\"tok_embeddings\", \"layers.0\"], [", "[[\"layers.0\"], [\"tok_embeddings\", "),
                         "puts tok_embeddings in part 2 of 2: Tapestry prices the embedding in the first part"));
        // Files Python would run differently, cut short, or broken.
        QVERIFY(contains(importError(kTrainerConfig + "PARALLELISM = {}\n", "plan.py"),
                         "plan.py: line 18, column 1: assigns PARALLELISM again (first at line 3, column 1)"));
        QVERIFY(contains(importError(kTrainerConfig + "PARALLELISM[\"tensor_parallel_degree\"] = 4\n", "plan.py"),
                         "plan.py: line 18, column 1: changes or uses PARALLELISM outside its assignment"));
        QCOMPARE(importError(kTrainerConfig.substr(0, kTrainerConfig.find("TRAINING")), "plan.py"),
                 std::string("plan.py: has no 'TRAINING = {...}' (is it cut short, or not torchtitan's config?)"));
        QCOMPARE(importError(kTrainerConfig.substr(0, kTrainerConfig.find("\"num_pp")), "plan.py"),
                 std::string("plan.py: line 10, column 5: the '{' at line 3, column 15 is not closed"));
        QCOMPARE(importError("from torchtitan.config import JobConfig\n", "plan.py"),
                 std::string("plan.py: has no 'PARALLELISM = {...}' (is it cut short, or not torchtitan's config?)"));
    }

    // validate's cases: the campaign's inputs (fuzz/regressions/published-runs).
    void publishedRunsAreCheckedAgainstThemselves()
    {
        const auto error = [](const char* name) {
            const std::string file = std::string(TAPESTRY_TEST_DATA_DIR) + "/../../fuzz/regressions/published-runs/" + name;
            try {
                (void)parsePublishedRuns(readTextFile(file), file);
            } catch (const Error& e) {
                return e.message();
            }
            return std::string("accepted");
        };
        const std::string at = "cases[0] (sc21-gpt-1.7B-tp1-pp1-32gpu).";
        QCOMPARE(error("accumulation-contradicts.json"),
                 at + "training.gradient_accumulation: 3 x micro-batch 16 x data-parallel 32 = 1536, not the global "
                      "batch 512");
        QCOMPARE(error("virtual-stages-without-pipeline.json"),
                 at + "training.virtual_stages: 2 virtual stages need a pipeline of 2 or more stages");
        QVERIFY(contains(error("batch-1-on-32-ranks.json"), at + "training.global_batch: global batch 1 is not a multiple"));
        QVERIFY(contains(error("optimizer-lion.json"), at + "training.optimizer: is 'lion'"));
        QVERIFY(contains(error("bandwidth-1e-300.json"), at + "hardware.inter_node_gbit_per_gpu: is 1e-300"));
        QVERIFY(contains(error("step-1e-300.json"), at + "measured.step_seconds: is 1e-300"));
        // Cases reach the caller one by one, in order, before a bad one stops the reading.
        const std::string one = readTextFile(std::string(TAPESTRY_TEST_DATA_DIR) +
                                             "/../../fuzz/seeds/published-runs/one-case.json");
        const std::string body = one.substr(one.find('[') + 1, one.rfind(']') - one.find('[') - 1);
        std::vector<std::string> seen;
        try {
            forEachPublishedRun("{\"cases\": [" + body + "," + body + ", 7]}", "runs.json",
                                [&](const PublishedRun& run) { seen.push_back(run.name); });
        } catch (const Error& e) {
            QVERIFY(contains(e.what(), "runs.json: cases[2]: is number, not an object"));
        }
        QCOMPARE(seen.size(), std::size_t{2});
    }

    void meshRoleNamesIgnoreCaseAndAPipelineMayStandAlone()
    {
        QCOMPARE(parseMeshText("PP=2,Dp=1,TP=8"), (std::vector<MeshAxis>{{"pp", 2}, {"dp", 1}, {"tp", 8}}));
        const PipelinedMesh alone = splitPipelineAxis(parseMeshText("pp=16"));
        QCOMPARE(alone.stages, 16);
        QCOMPARE(alone.stageAxes, (std::vector<MeshAxis>{{"d", 1}}));
    }
};

QTEST_GUILESS_MAIN(InputChecksTest)
#include "InputChecksTest.moc"
