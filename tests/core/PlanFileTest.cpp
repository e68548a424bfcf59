// Plan files: JSON round trips, family compression with per-instance overrides, and
// the errors a plan for another model gets.
#include "FoldedTestModel.h"
#include "base/Error.h"
#include "cluster/DeviceMesh.h"
#include "cost/CostModel.h"
#include "graph/ModelFingerprint.h"
#include "plan/ExpertPlans.h"
#include "plan/PlanFile.h"

#include <QTest>

using namespace tapestry;
using namespace tapestry::test;

namespace {

PlanDocument megatron(const FoldedModel& m)
{
    PlanDocument document;
    document.plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, {{"dp", 2}, {"tp", 8}});
    document.plan.pins = {"model/layers.#"};
    document.modelFingerprint = modelFingerprint(m.graph());
    document.clusterName = "dgx-h100x2";
    document.workload.batch = 8;
    document.workload.sequence = 2048;
    document.cost = PlanCostSummary{0.25, 0.15, 0.1, 3.2e10, 8e10};
    return document;
}

ErrorCode errorOf(const std::string& json, const FoldedModel& m, std::string* message = nullptr)
{
    try {
        (void)planFromJson(json, "plan.json", m.coarse, m.families);
    } catch (const Error& error) {
        if (message)
            *message = error.what();
        return error.code();
    }
    return ErrorCode::InvalidArgument;
}

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const std::size_t at = text.find(from);
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    return text;
}

}  // namespace

class PlanFileTest : public QObject {
    Q_OBJECT

private slots:
    void roundTripsUnchanged()
    {
        const FoldedModel m = foldTestFile("llama3_8b_shape.dynamo.stripped.onnx");
        const PlanDocument original = megatron(m);
        const std::string json = planToJson(original, m.coarse, m.families);
        const PlanDocument back = planFromJson(json, "plan.json", m.coarse, m.families);
        QCOMPARE(back.plan.strategies, original.plan.strategies);
        QCOMPARE(back.plan.mesh, original.plan.mesh);
        QCOMPARE(back.plan.pins, original.plan.pins);
        QCOMPARE(back.plan.name, std::string("megatron"));
        QCOMPARE(back.modelFingerprint, original.modelFingerprint);
        QCOMPARE(back.clusterName, std::string("dgx-h100x2"));
        QCOMPARE(back.workload.sequence, std::int64_t{2048});
        QVERIFY(back.cost == original.cost);
        QCOMPARE(planToJson(back, m.coarse, m.families), json);
    }

    void familiesAreWrittenOnceWithOverrides()
    {
        const FoldedModel m = foldTestFile("llama3_8b_shape.dynamo.stripped.onnx");
        PlanDocument document = megatron(m);
        // Layer 7's q_proj goes its own way: one override, everything else per family.
        const Family& layers = m.families.families.front();
        const CoarseNodeId q7 = layers.instances[7].nodes[1];
        QCOMPARE(m.coarse.node(q7).name, std::string("model/layers.7/self_attn/q_proj/MatMul"));
        document.plan.strategies[q7.index()].axes[1] = AxisSplit::None;
        const std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY(json.find("\"model/layers.7/self_attn/q_proj/MatMul\"") != std::string::npos);
        QVERIFY(json.find("\"model/layers.8/self_attn/q_proj/MatMul\"") == std::string::npos);
        QVERIFY(json.find("\"self_attn/q_proj/MatMul\"") != std::string::npos);
        const PlanDocument back = planFromJson(json, "plan.json", m.coarse, m.families);
        QCOMPARE(back.plan.strategies, document.plan.strategies);
        QCOMPARE(back.plan.strategy(q7).axes[1], AxisSplit::None);
        QCOMPARE(back.plan.strategy(layers.instances[8].nodes[1]).axes[1], AxisSplit::Column);
    }

    void aPlanForAnotherModelIsReported()
    {
        const FoldedModel llama3 = foldTestFile("llama3_8b_shape.dynamo.stripped.onnx");
        const FoldedModel gpt2 = foldTestFile("gpt2.ts.stripped.onnx");
        const std::string json = planToJson(megatron(llama3), llama3.coarse, llama3.families);
        std::string message;
        QCOMPARE(errorOf(json, gpt2, &message), ErrorCode::InvalidPlan);
        QVERIFY2(message.find("plan.json") != std::string::npos && message.find("model/layers.#") != std::string::npos,
                 message.c_str());
    }

    // validatePlan names the first node (in node order) whose strategy does not fit: a
    // split its kind cannot take, on which axis, or as many splits as the mesh has axes;
    // the second form checks only the nodes it is given.
    void validatePlanNamesTheFirstNodeThatDoesNotFit()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        Plan plan = megatron(m).plan;
        validatePlan(plan, m.coarse);  // as built: fits
        const auto nodeOf = [&](CoarseNodeKind kind, bool last) {  // the first or the last of a kind
            const CoarseNode* found = nullptr;
            for (const CoarseNode& node : m.coarse.nodes)
                if (node.kind == kind && (!found || last))
                    found = &node;
            return found;
        };
        const CoarseNode* linear = nodeOf(CoarseNodeKind::Linear, false);
        const CoarseNode* norm = nodeOf(CoarseNodeKind::Normalization, true);
        QVERIFY(linear && norm && linear->id < norm->id);
        const auto messageOf = [&](const std::vector<CoarseNodeId>* nodes) {
            try {
                if (nodes)
                    validatePlan(plan, m.coarse, *nodes);
                else
                    validatePlan(plan, m.coarse);
            } catch (const Error& error) {
                return error.code() == ErrorCode::InvalidPlan ? error.message() : "not InvalidPlan: " + error.message();
            }
            return std::string("fits");
        };
        const AxisSplits normSplits = plan.strategies[norm->id.index()].axes;
        plan.strategies[norm->id.index()].axes.back() = AxisSplit::Hidden;
        const std::string normRefused =
            "node '" + norm->name + "' (normalization) cannot use split 'hidden' on axis 'tp'";
        QCOMPARE(messageOf(nullptr), normRefused);
        const AxisSplits linearSplits = plan.strategies[linear->id.index()].axes;
        plan.strategies[linear->id.index()].axes.back() = AxisSplit::Head;
        QCOMPARE(messageOf(nullptr), "node '" + linear->name + "' (linear) cannot use split 'head' on axis 'tp'");
        const std::vector<CoarseNodeId> onlyNorm{norm->id};
        QCOMPARE(messageOf(&onlyNorm), normRefused);
        plan.strategies[linear->id.index()].axes = AxisSplits{AxisSplit::Batch};
        QCOMPARE(messageOf(nullptr), "node '" + linear->name + "' has 1 axis splits for a 2-axis mesh");
        plan.strategies[linear->id.index()].axes = linearSplits;
        plan.strategies[norm->id.index()].axes = normSplits;
        QCOMPARE(messageOf(nullptr), std::string("fits"));
    }

    void missingAndUnknownNodesAreNamed()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document = megatron(m);
        const std::string json = planToJson(document, m.coarse, m.families);
        std::string message;
        QCOMPARE(errorOf(replaced(json, "\"lm_head/MatMul\"", "\"lm_head/Nope\""), m, &message), ErrorCode::InvalidPlan);
        QVERIFY2(message.find("'lm_head/Nope'") != std::string::npos, message.c_str());
        QCOMPARE(errorOf(replaced(json, "\"column\"", "\"diagonal\""), m, &message), ErrorCode::InvalidPlan);
        QVERIFY2(message.find("'diagonal'") != std::string::npos, message.c_str());
        QCOMPARE(errorOf("{ \"schema_version\": 1, \"mesh\": [{\"name\": \"tp\", \"size\": 8}] }", m, &message),
                 ErrorCode::InvalidPlan);
        QVERIFY2(message.find("without a strategy") != std::string::npos, message.c_str());
        QCOMPARE(errorOf("{ \"name\": 3 ", m), ErrorCode::InvalidPlan);
        QCOMPARE(errorOf("{ \"schema_version\": 7, \"mesh\": [{\"name\": \"tp\", \"size\": 8}] }", m, &message),
                 ErrorCode::InvalidPlan);
        QVERIFY2(message.find("version 7") != std::string::npos, message.c_str());
        QCOMPARE(errorOf("{ \"schema_version\": 1, \"mesh\": [{\"name\": \"tp\", \"size\": 8}], \"colour\": 1 }", m),
                 ErrorCode::InvalidPlan);
    }

    // The campaign's plan files that import-plan and export accepted; each must be an
    // InvalidPlan naming plan.json and the field.
    void badFieldsAreRefusedNamingTheFile_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("expected");
        QTest::newRow("size 0") << "\"size\": 2" << "\"size\": 0" << "has size 0";
        QTest::newRow("size -2") << "\"size\": 2" << "\"size\": -2" << "has size -2";
        QTest::newRow("size INT32_MAX") << "\"size\": 2" << "\"size\": 2147483647" << "has size 2147483647";
        QTest::newRow("empty axis name") << "\"name\": \"dp\"" << "\"name\": \"\"" << "mesh axis 0 has no name";
        QTest::newRow("duplicate axis name") << "\"name\": \"dp\"" << "\"name\": \"tp\"" << "'tp' is used twice";
        QTest::newRow("batch -16") << "\"batch\": \"8\"" << "\"batch\": \"-16\"" << "workload.batch is -16";
        QTest::newRow("cost NaN") << "\"step_seconds\": 0.25" << "\"step_seconds\": \"NaN\"" << "cost.step_seconds";
        QTest::newRow("optimizer") << "\"optimizer\": \"adam\"" << "\"optimizer\": \"lion\"" << "'lion', not adam";
        QTest::newRow("syntax") << "\"name\": \"dp\"" << "\"name\": dp" << "line ";
        QTest::newRow("capacity factor -1") << "\"capacity_factor\": 1" << "\"capacity_factor\": -1"
                                            << "workload.capacity_factor is -1";
        QTest::newRow("capacity factor NaN") << "\"capacity_factor\": 1" << "\"capacity_factor\": \"NaN\""
                                             << "workload.capacity_factor is nan";
        QTest::newRow("capacity factor Infinity") << "\"capacity_factor\": 1" << "\"capacity_factor\": \"Infinity\""
                                                  << "workload.capacity_factor is inf";
        QTest::newRow("capacity factor 2000") << "\"capacity_factor\": 1" << "\"capacity_factor\": 2000"
                                              << "up to 1024";
        QTest::newRow("no replicas") << "\"capacity_factor\": 1" << "\"capacity_factor\": 1, \"zero_replicas\": 0"
                                     << "workload.zero_replicas is 0; it is 1 to";
        QTest::newRow("reduce type int8") << "\"capacity_factor\": 1"
                                          << "\"capacity_factor\": 1, \"gradient_reduce_type\": \"int8\""
                                          << "workload.gradient_reduce_type is 'int8', not float32, bfloat16 or float16";
        // Every value the reader takes, and the field under its key in the file.
        QTest::newRow("attention kernel") << "\"attention\": \"flash2\"" << "\"attention\": \"xformers\""
                                          << "workload.attention is 'xformers', not flash2, cudnn, triton, flash1, "
                                             "unfused or fused (read as flash2)";
        // The validate format's "flash" is ambiguous here: the error says what to write instead.
        QTest::newRow("attention flash") << "\"attention\": \"flash2\"" << "\"attention\": \"flash\""
                                         << "workload.attention is 'flash', not flash2, cudnn, triton, flash1, unfused "
                                            "or fused (read as flash2): write flash2 for FlashAttention-2 or flash1 "
                                            "for FlashAttention 1.x";
        QTest::newRow("zero implementation")
            << "\"capacity_factor\": 1" << "\"capacity_factor\": 1, \"zero_implementation\": \"colossal\""
            << "workload.zero_implementation is 'colossal', not fsdp, fsdp2, deepspeed or megatron-fsdp";
        QTest::newRow("fp8 recipe") << "\"capacity_factor\": 1" << "\"capacity_factor\": 1, \"fp8_recipe\": \"fp4\""
                                    << "workload.fp8_recipe is 'fp4', not none, per-tensor or mxfp8";
        QTest::newRow("bool as a word") << "\"capacity_factor\": 1" << "\"capacity_factor\": 1, \"overlap_off\": \"yes\""
                                        << "workload.overlap_off is not true or false";
        // A misspelt key: where it is and the field two or fewer edits away; a key near none,
        // the fields there are.
        QTest::newRow("misspelt workload key") << "\"recompute\"" << "\"recompte\""
                                               << "workload.recompte is not a plan field: did you mean workload.recompute?";
        QTest::newRow("misspelt top-level key") << "\"mesh\"" << "\"mseh\""
                                                << "plan.json: mseh is not a plan field: did you mean mesh?";
        QTest::newRow("misspelt key in a list") << "\"size\": 2" << "\"sizes\": 2"
                                                << "mesh[0].sizes is not a plan field: did you mean mesh[0].size?";
        QTest::newRow("unknown cost key") << "\"step_seconds\"" << "\"wall_clock\""
                                          << "cost.wall_clock is not a plan field (cost has step_seconds, compute_seconds, "
                                             "communication_seconds, memory_bytes and hbm_bytes)";
    }

    void badFieldsAreRefusedNamingTheFile()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, expected);
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const std::string json = planToJson(megatron(m), m.coarse, m.families);
        QVERIFY2(json.find(from.toStdString()) != std::string::npos, json.c_str());
        std::string message;
        const ErrorCode code = errorOf(replaced(json, from.toStdString(), to.toStdString()), m, &message);
        QVERIFY2(code == ErrorCode::InvalidPlan, message.c_str());
        QVERIFY2(message.starts_with("plan.json: ") && message.find(expected.toStdString()) != std::string::npos,
                 message.c_str());
    }

    void capacityFactorIsKeptAndAbsentReadsAsOne()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document = megatron(m);
        document.workload.capacityFactor = 1.25;
        const std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY2(json.find("\"capacity_factor\": 1.25") != std::string::npos, json.c_str());
        QCOMPARE(planFromJson(json, "plan.json", m.coarse, m.families).workload.capacityFactor, 1.25);
        // Files written before the field existed price dropless routing's average.
        const std::string older = replaced(json, ",\n  \"capacity_factor\": 1.25", "");
        QVERIFY(older.find("capacity_factor") == std::string::npos);
        QCOMPARE(planFromJson(older, "plan.json", m.coarse, m.families).workload.capacityFactor, 1.0);
    }

    // The attention kernel and DeepSpeed's ZeRO-3 come back as written; a file without a
    // ZeRO implementation is FSDP's (files written before the field), one with an unknown
    // name is refused.
    void attentionKernelAndZeroImplementationAreKept()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document = megatron(m);
        std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY(json.find("zero_implementation") == std::string::npos);
        QVERIFY(planFromJson(json, "plan.json", m.coarse, m.families).workload.zeroImplementation ==
                ZeroImplementation::Fsdp);
        document.workload.attention = AttentionKernel::Cudnn;
        document.workload.zeroStage = 3;
        document.workload.zeroImplementation = ZeroImplementation::DeepSpeed;
        json = planToJson(document, m.coarse, m.families);
        QVERIFY2(json.find("\"zero_implementation\": \"deepspeed\"") != std::string::npos, json.c_str());
        QVERIFY(planFromJson(json, "plan.json", m.coarse, m.families).workload == document.workload);
        // FSDP2 (fully_shard), what the stacks run, apart from FSDP1.
        PlanDocument fullyShard = document;
        fullyShard.workload.zeroImplementation = ZeroImplementation::Fsdp2;
        const std::string fsdp2 = planToJson(fullyShard, m.coarse, m.families);
        QVERIFY2(fsdp2.find("\"zero_implementation\": \"fsdp2\"") != std::string::npos, fsdp2.c_str());
        QVERIFY(planFromJson(fsdp2, "plan.json", m.coarse, m.families).workload == fullyShard.workload);
        try {
            (void)planFromJson(replaced(json, "\"deepspeed\"", "\"colossal\""), "plan.json", m.coarse, m.families);
            QFAIL("an unknown ZeRO implementation was read");
        } catch (const Error& error) {
            QVERIFY(std::string(error.what()).find("workload.zero_implementation is 'colossal'") != std::string::npos);
        }
    }

    // FlashAttention-2 is written "flash2", as the validate format names it; a file
    // written before that says "fused" and opens as the same workload.
    void flashAttentionTwoIsWrittenFlash2AndFusedStillOpens()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const PlanDocument document = megatron(m);
        QVERIFY(document.workload.attention == AttentionKernel::FlashAttention2);
        const std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY2(json.find("\"attention\": \"flash2\"") != std::string::npos, json.c_str());
        const std::string older = replaced(json, "\"attention\": \"flash2\"", "\"attention\": \"fused\"");
        QVERIFY(planFromJson(older, "plan.json", m.coarse, m.families).workload == document.workload);
        QCOMPARE(planToJson(planFromJson(older, "plan.json", m.coarse, m.families), m.coarse, m.families), json);
    }

    // torchtitan's op-level selective recomputation comes back as written (an imported
    // torchtitan config saved as a plan file prices the same); a file without the field
    // recomputes Megatron-LM's attention core; an unknown policy is refused.
    void selectiveRecomputationIsKept()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document = megatron(m);
        document.workload.recompute = Recomputation::Selective;
        std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY(json.find("selective_recomputation") == std::string::npos);
        QVERIFY(planFromJson(json, "plan.json", m.coarse, m.families).workload.selective ==
                SelectiveRecomputation::AttentionCore);
        document.workload.selective = SelectiveRecomputation::EveryOtherMatmul;
        json = planToJson(document, m.coarse, m.families);
        QVERIFY2(json.find("\"selective_recomputation\": \"every-other-matmul\"") != std::string::npos, json.c_str());
        QVERIFY(planFromJson(json, "plan.json", m.coarse, m.families).workload == document.workload);
        try {
            (void)planFromJson(replaced(json, "\"every-other-matmul\"", "\"every-third\""), "plan.json", m.coarse,
                               m.families);
            QFAIL("an unknown selective recomputation was read");
        } catch (const Error& error) {
            QVERIFY(std::string(error.what()).find("workload.selective_recomputation is 'every-third'") !=
                    std::string::npos);
        }
    }

    // How full recomputation replays a block comes back as written (a plan searched for
    // torchtitan or PyTorch, whose checkpoint stops early, prices the same when evaluated
    // again); a file without the field replays the whole block; an unknown value is refused.
    void checkpointReplayIsKept()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document = megatron(m);
        document.workload.recompute = Recomputation::Full;
        std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY(json.find("checkpoint_replay") == std::string::npos);
        QVERIFY(planFromJson(json, "plan.json", m.coarse, m.families).workload.checkpointReplay ==
                CheckpointReplay::WholeBlock);
        document.workload.checkpointReplay = CheckpointReplay::StopsEarly;
        json = planToJson(document, m.coarse, m.families);
        QVERIFY2(json.find("\"checkpoint_replay\": \"stops-early\"") != std::string::npos, json.c_str());
        QVERIFY(planFromJson(json, "plan.json", m.coarse, m.families).workload == document.workload);
        try {
            (void)planFromJson(replaced(json, "\"stops-early\"", "\"halfway\""), "plan.json", m.coarse, m.families);
            QFAIL("an unknown checkpoint replay was read");
        } catch (const Error& error) {
            QVERIFY(std::string(error.what()).find("workload.checkpoint_replay is 'halfway'") != std::string::npos);
        }
    }

    // How grouped-query keys and values reach attention (Megatron-LM's grouped, torchtitan's
    // repeated) comes back as written; a file without the field reads as-kernel; an unknown
    // value is refused, naming the field.
    void keyValueHeadsAreKept()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document = megatron(m);
        std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY(json.find("key_value_heads") == std::string::npos);
        QVERIFY(planFromJson(json, "plan.json", m.coarse, m.families).workload.keyValueHeads == KeyValueHeads::AsKernel);
        for (const KeyValueHeads heads : {KeyValueHeads::Grouped, KeyValueHeads::Repeated}) {
            document.workload.keyValueHeads = heads;
            json = planToJson(document, m.coarse, m.families);
            const std::string written = std::string("\"key_value_heads\": \"") + keyValueHeadsName(heads) + "\"";
            QVERIFY2(json.find(written) != std::string::npos, json.c_str());
            QVERIFY(planFromJson(json, "plan.json", m.coarse, m.families).workload == document.workload);
        }
        try {
            (void)planFromJson(replaced(json, "\"repeated\"", "\"shared\""), "plan.json", m.coarse, m.families);
            QFAIL("an unknown key_value_heads was read");
        } catch (const Error& error) {
            QVERIFY(std::string(error.what()).find("workload.key_value_heads is 'shared'") != std::string::npos);
        }
    }

    // Overlapped pipeline sends (a Megatron-LM search's) come back as written; a file
    // without the field waits for them.
    void pipelineSendOverlapIsKept()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document = megatron(m);
        std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY(json.find("pipeline_send_overlap") == std::string::npos);
        QVERIFY(!planFromJson(json, "plan.json", m.coarse, m.families).workload.pipelineSendOverlap);
        document.workload.pipelineSendOverlap = true;
        json = planToJson(document, m.coarse, m.families);
        QVERIFY2(json.find("\"pipeline_send_overlap\": true") != std::string::npos, json.c_str());
        QVERIFY(planFromJson(json, "plan.json", m.coarse, m.families).workload == document.workload);
    }

    // Which stack's implementations priced the plan (a stack's own search found it) comes
    // back as written; a file without the field, as every file written before it, is
    // priced with none in particular; an unknown stack is refused naming the file.
    void implementationsAreKept()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document = megatron(m);
        std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY2(json.find("implementations") == std::string::npos, json.c_str());
        QCOMPARE(planFromJson(json, "plan.json", m.coarse, m.families).implementations, TrainingStack::Any);
        document.implementations = TrainingStack::TorchTitan;
        json = planToJson(document, m.coarse, m.families);
        QVERIFY2(json.find("\"implementations\": \"torchtitan\"") != std::string::npos, json.c_str());
        QCOMPARE(planFromJson(json, "plan.json", m.coarse, m.families).implementations, TrainingStack::TorchTitan);
        QCOMPARE(planFromJson(replaced(json, "\"torchtitan\"", "\"any\""), "plan.json", m.coarse, m.families)
                     .implementations,
                 TrainingStack::Any);
        std::string message;
        QCOMPARE(errorOf(replaced(json, "\"torchtitan\"", "\"deepspeed\""), m, &message), ErrorCode::InvalidPlan);
        QCOMPARE(message, std::string("plan.json: implementations is 'deepspeed', not pytorch, megatron, torchtitan or any"));
    }

    // FP8 weights without a 16-bit copy (Workload::fp8Parameters) come back as written and
    // price the same step and memory; a file without the field, as every file written
    // before it, keeps the 16-bit copy; one that says so without an FP8 recipe is refused.
    void fp8WeightsAreKeptAtTheirPrice()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document = megatron(m);
        document.workload.fp8 = Fp8Recipe::PerTensor;
        document.workload.fp8Parameters = true;
        const std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY2(json.find("\"fp8_parameters\": true") != std::string::npos, json.c_str());
        const PlanDocument back = planFromJson(json, "plan.json", m.coarse, m.families);
        QVERIFY(back.workload == document.workload);

        const Cluster cluster = testCluster("dgx-h100x2");
        const DeviceMesh mesh(document.plan.mesh, cluster);
        auto price = [&](const PlanDocument& d) {
            return CostModel(m.graph(), m.coarse, m.families, cluster, mesh, d.workload).evaluate(d.plan).total;
        };
        const CostBreakdown written = price(document);
        const CostBreakdown read = price(back);
        QCOMPARE(read.time.stepSeconds(), written.time.stepSeconds());
        QCOMPARE(read.memory.total(), written.memory.total());

        const std::string olderJson = replaced(json, ",\n  \"fp8_parameters\": true", "");
        QVERIFY(olderJson.find("fp8_parameters") == std::string::npos);
        const PlanDocument older = planFromJson(olderJson, "plan.json", m.coarse, m.families);
        QVERIFY(!older.workload.fp8Parameters);
        QVERIFY(price(older).memory.parameters > read.memory.parameters);

        std::string message;
        QCOMPARE(errorOf(replaced(json, "\"fp8_recipe\": \"per-tensor\"", "\"fp8_recipe\": \"none\""), m, &message),
                 ErrorCode::InvalidPlan);
        QVERIFY2(message.starts_with("plan.json: workload.fp8_parameters: FP8 weights without a 16-bit copy need FP8 "
                                     "training"),
                 message.c_str());
    }

    // torchao's FP8 layers (a torchtitan plan) are kept as such: the file reads back at the
    // price written; an older file (no field) reads as Transformer Engine's, which keeps FP8
    // copies of the layers' inputs where torchao saves them in 16 bits; a name neither is refused.
    void fp8ImplementationIsKept()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document = megatron(m);
        document.plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, {{"dp", 16}});  // no tensor parallelism
        document.workload.fp8 = Fp8Recipe::PerTensor;
        document.workload.fp8Implementation = Fp8Implementation::Torchao;
        const std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY2(json.find("\"fp8_implementation\": \"torchao\"") != std::string::npos, json.c_str());
        const PlanDocument back = planFromJson(json, "plan.json", m.coarse, m.families);
        QVERIFY(back.workload == document.workload);

        const Cluster cluster = testCluster("dgx-h100x2");
        const DeviceMesh mesh(document.plan.mesh, cluster);
        auto price = [&](const PlanDocument& d) {
            return CostModel(m.graph(), m.coarse, m.families, cluster, mesh, d.workload).evaluate(d.plan).total;
        };
        QCOMPARE(price(back).memory.total(), price(document).memory.total());

        const std::string olderJson = replaced(json, ",\n  \"fp8_implementation\": \"torchao\"", "");
        QVERIFY(olderJson.find("fp8_implementation") == std::string::npos);
        const PlanDocument older = planFromJson(olderJson, "plan.json", m.coarse, m.families);
        QCOMPARE(older.workload.fp8Implementation, Fp8Implementation::TransformerEngine);
        QVERIFY(price(older).memory.activations < price(back).memory.activations);

        // torchtitan's tensorwise float8 (which casts before a tensor-parallel gather) by its name.
        const std::string titanJson = replaced(json, "\"torchao\"", "\"torchao-float8-tp\"");
        QCOMPARE(planFromJson(titanJson, "plan.json", m.coarse, m.families).workload.fp8Implementation,
                 Fp8Implementation::TorchaoFloat8TensorParallel);

        std::string message;
        QCOMPARE(errorOf(replaced(json, "\"torchao\"", "\"te\""), m, &message), ErrorCode::InvalidPlan);
        QVERIFY2(message.find("fp8_implementation") != std::string::npos, message.c_str());
    }

    // What autograd saves, how the optimizer step runs and whether the gradients outlive the
    // step are kept, priced the same read back; a file without them (older, or a fused
    // persistent plan) reads the defaults, and other names are refused naming the field.
    void savedActivationsAndGradientLifetimeAreKept()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document = megatron(m);
        document.plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, {{"dp", 16}});
        document.workload.microBatch = 0;  // one micro-step: freed gradients count at the peak only
        document.workload.savedActivations = SavedActivations::Eager;
        document.workload.gradientLifetime = GradientLifetime::FreedBetweenSteps;
        document.workload.optimizerStep = OptimizerStep::MasterCopies;
        const std::string json = planToJson(document, m.coarse, m.families);
        QVERIFY2(json.find("\"optimizer_step\": \"master-copies\"") != std::string::npos, json.c_str());
        QVERIFY2(json.find("\"saved_activations\": \"eager\"") != std::string::npos, json.c_str());
        QVERIFY2(json.find("\"gradient_lifetime\": \"freed-between-steps\"") != std::string::npos, json.c_str());
        const PlanDocument back = planFromJson(json, "plan.json", m.coarse, m.families);
        QVERIFY(back.workload == document.workload);

        const Cluster cluster = testCluster("dgx-h100x2");
        const DeviceMesh mesh(document.plan.mesh, cluster);
        auto price = [&](const PlanDocument& d) {
            return CostModel(m.graph(), m.coarse, m.families, cluster, mesh, d.workload).evaluate(d.plan).total;
        };
        QCOMPARE(price(back).memory.total(), price(document).memory.total());
        QCOMPARE(price(back).time.stepSeconds(), price(document).time.stepSeconds());

        const std::string olderSavedJson = replaced(replaced(json, ",\n  \"saved_activations\": \"eager\"", ""),
                                                    ",\n  \"gradient_lifetime\": \"freed-between-steps\"", "");
        const std::string olderJson = replaced(olderSavedJson, ",\n  \"optimizer_step\": \"master-copies\"", "");
        QVERIFY(olderJson.find("saved_activations") == std::string::npos);
        QVERIFY(olderJson.find("gradient_lifetime") == std::string::npos);
        QVERIFY(olderJson.find("optimizer_step") == std::string::npos);
        const PlanDocument older = planFromJson(olderJson, "plan.json", m.coarse, m.families);
        QCOMPARE(older.workload.savedActivations, SavedActivations::Fused);
        QCOMPARE(older.workload.gradientLifetime, GradientLifetime::Persistent);
        QCOMPARE(older.workload.optimizerStep, OptimizerStep::Fused);
        QVERIFY(price(older).time.optimizerSeconds < price(back).time.optimizerSeconds);
        QVERIFY(price(older).memory.activations < price(back).memory.activations);
        QVERIFY(price(older).memory.gradients > price(back).memory.gradients);

        std::string message;
        QCOMPARE(errorOf(replaced(json, "\"eager\"", "\"lazy\""), m, &message), ErrorCode::InvalidPlan);
        QVERIFY2(message.find("saved_activations") != std::string::npos, message.c_str());
        QCOMPARE(errorOf(replaced(json, "\"master-copies\"", "\"foreach\""), m, &message), ErrorCode::InvalidPlan);
        QVERIFY2(message.find("optimizer_step") != std::string::npos, message.c_str());
        QCOMPARE(errorOf(replaced(json, "\"freed-between-steps\"", "\"freed\""), m, &message), ErrorCode::InvalidPlan);
        QVERIFY2(message.find("gradient_lifetime") != std::string::npos, message.c_str());

        // Masters kept as remainders and the gradient clip are kept too; remainders of
        // another type than bf16 are refused naming the field, and so is a clip of another name.
        document.workload.optimizerStep = OptimizerStep::FusedRemainders;
        document.workload.gradientClipping = GradientClipping::EveryStep;
        const std::string kept = planToJson(document, m.coarse, m.families);
        QVERIFY2(kept.find("\"optimizer_step\": \"fused-remainders\"") != std::string::npos, kept.c_str());
        QVERIFY2(kept.find("\"gradient_clipping\": \"every-step\"") != std::string::npos, kept.c_str());
        QVERIFY(planFromJson(kept, "plan.json", m.coarse, m.families).workload == document.workload);
        QCOMPARE(errorOf(replaced(kept, "\"every-step\"", "\"always\""), m, &message), ErrorCode::InvalidPlan);
        QVERIFY2(message.find("workload.gradient_clipping is 'always', not none, above-limit or every-step") !=
                     std::string::npos,
                 message.c_str());
        // An older file kept the clip as a bool: true reads as the norm's read it priced.
        const std::string olderClip =
            replaced(kept, "\"gradient_clipping\": \"every-step\"", "\"gradient_norm_clipping\": true");
        QCOMPARE(planFromJson(olderClip, "plan.json", m.coarse, m.families).workload.gradientClipping,
                 GradientClipping::AboveLimit);
        const std::string unclipped = replaced(kept, ",\n  \"gradient_clipping\": \"every-step\"", "");
        QVERIFY2(unclipped.find("gradient_clipping") == std::string::npos, unclipped.c_str());
        QCOMPARE(planFromJson(unclipped, "plan.json", m.coarse, m.families).workload.gradientClipping,
                 GradientClipping::None);
        QVERIFY(price(document).memory.optimizerStates < price(back).memory.optimizerStates);
        QCOMPARE(errorOf(replaced(kept, "\"bfloat16\"", "\"float16\""), m, &message), ErrorCode::InvalidPlan);
        QVERIFY2(message.find("workload.optimizer_step: masters kept as 16-bit remainders") != std::string::npos,
                 message.c_str());
    }

    void fingerprintIgnoresNamesButNotShapes()
    {
        const FoldedModel ts = foldTestFile("llama.ts.stripped.onnx");
        QCOMPARE(modelFingerprint(ts.graph()), modelFingerprint(foldTestFile("llama.ts.weights.onnx").graph()));
        QVERIFY(modelFingerprint(ts.graph()) != modelFingerprint(foldTestFile("gpt2.ts.stripped.onnx").graph()));
        QCOMPARE(modelFingerprint(ts.graph()).size(), std::size_t{16});
    }
};

QTEST_APPLESS_MAIN(PlanFileTest)
#include "PlanFileTest.moc"
