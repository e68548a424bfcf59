// Every input checked against itself: the workload check's rules, plan files that tell
// absent from zero, the Megatron-LM reader's shell words, the torchtitan reader's TOML
// 1.0, and mesh text. Each case is one of issue 29's reproductions or its legal twin.
#include "base/Error.h"
#include "base/TextFile.h"
#include "cluster/MeshText.h"
#include "cluster/PipelineStages.h"
#include "cost/WorkloadCheck.h"
#include "export/MegatronArguments.h"
#include "export/ShellWords.h"
#include "export/TrainingStackImport.h"
#include "FoldedTestModel.h"
#include "TrainingStackImports.h"
#include "plan/ExpertPlans.h"
#include "plan/PlanFile.h"
#include "validation/PublishedRun.h"

#include <QTest>

#include <cmath>
#include <functional>
#include <limits>
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
        QVERIFY(contains(importError("[parallelism]\npipeline_parallel_degree = 2\npipeline_parallel_microbatch_size = 3\n"
                                     "[training]\nlocal_batch_size = 8\n",
                                     "j.toml"),
                         "training.local_batch_size 8 is not a multiple of "
                         "parallelism.pipeline_parallel_microbatch_size 3"));
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
