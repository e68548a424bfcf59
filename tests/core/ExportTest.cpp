// Exports and imports of plans: the PyTorch DTensor file for llama.ts, Hugging Face
// tp_plan round trips and unmatched patterns, ONNX sharding annotations read back, and
// graph pictures.
#include "base/Error.h"
#include "export/ExportFormat.h"
#include "export/GraphPictureExport.h"
#include "export/HfTpPlanExport.h"
#include "export/HfTpPlanImport.h"
#include "export/ModuleStyleTable.h"
#include "export/OnnxShardingExport.h"
#include "export/PlanFileImport.h"
#include "export/PyTorchPlanExport.h"
#include "FoldedTestModel.h"
#include "onnx/OnnxImporter.h"
#include "onnx/OnnxMetadata.h"
#include "onnx/OnnxShardingReader.h"
#include "plan/ExpertPlans.h"
#include "plan/PlanFile.h"
#include "target/StackRules.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace tapestry;
using namespace tapestry::test;

namespace {

const std::vector<MeshAxis> kMesh = {{"dp", 2}, {"tp", 4}};

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

// The split on the last axis of every Linear anchor, by node name.
std::vector<std::pair<std::string, AxisSplit>> linearSplits(const FoldedModel& m, const Plan& plan)
{
    std::vector<std::pair<std::string, AxisSplit>> splits;
    for (const CoarseNode& node : m.coarse.nodes)
        if (node.kind == CoarseNodeKind::Linear || node.kind == CoarseNodeKind::Embedding)
            splits.emplace_back(node.name, plan.strategy(node.id).axes.back());
    return splits;
}

std::string pyTorchPlan(const FoldedModel& m, const Plan& plan)
{
    PlanDocument document;
    document.plan = plan;
    // As the export runs it: eager modules, FSDP2 keeping parameters gathered.
    document.workload = withStackImplementations(document.workload, TrainingStack::PyTorch);
    document.workload.zeroStage = 2;
    return exportPyTorchPlan(m, document);
}

const CoarseNode& nodeNamed(const FoldedModel& m, const std::string& name)
{
    for (const CoarseNode& node : m.coarse.nodes)
        if (node.name == name)
            return node;
    throw std::runtime_error("no node " + name);
}

}  // namespace

class ExportTest : public QObject {
    Q_OBJECT

private slots:
    void pyTorchPlanNamesTheModulePathsOfLlama()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, kMesh);
        const std::string text = pyTorchPlan(m, plan);
        const std::string expected = R"(TENSOR_PLAN = {
    "model.embed_tokens": RowwiseParallel(input_layouts=Replicate()),
    "model.layers.*.self_attn.q_proj": ColwiseParallel(),
    "model.layers.*.self_attn.k_proj": ColwiseParallel(),
    "model.layers.*.self_attn.v_proj": ColwiseParallel(),
    "model.layers.*.self_attn.o_proj": RowwiseParallel(),
    "model.layers.*.mlp.gate_proj": ColwiseParallel(),
    "model.layers.*.mlp.up_proj": ColwiseParallel(),
    "model.layers.*.mlp.down_proj": RowwiseParallel(),
    "lm_head": ColwiseParallel(output_layouts=Shard(-1), use_local_output=False),
}
)";
        QVERIFY2(contains(text, expected), text.c_str());
        QVERIFY(contains(text, "from torch.distributed.device_mesh import init_device_mesh\n"));
        QVERIFY(contains(text, "from torch.distributed.tensor import Replicate, Shard\n"));
        QVERIFY(contains(text, "from torch.distributed.tensor.parallel import ColwiseParallel, RowwiseParallel, "
                               "loss_parallel, parallelize_module\n"));
        QVERIFY(contains(text, "MESH_SHAPE = (2, 4)\nMESH_AXES = (\"dp\", \"tp\")\nTENSOR_AXIS = \"tp\""));
        QVERIFY(contains(text, "BATCH_AXES = (\"dp\",)"));
        QVERIFY(contains(text, "    mesh = init_device_mesh(device_type, MESH_SHAPE, mesh_dim_names=MESH_AXES)\n"));
        // The LM head's logits stay split by vocabulary: the loss runs under loss_parallel.
        QVERIFY(contains(text, "        stack.enter_context(loss_parallel())\n"));
        QVERIFY(contains(text, "def apply(model, mesh):\n"));
        QVERIFY2(contains(text, "    model = parallelize_module(model, mesh[TENSOR_AXIS], TENSOR_PLAN)\n"
                                "    for _, block in _blocks(model):\n"
                                "        fully_shard(block, mesh=data_mesh(mesh), reshard_after_forward=False)\n"
                                "    fully_shard(model, mesh=data_mesh(mesh), reshard_after_forward=False)\n"
                                "    return model\n"),
                 text.c_str());
        QVERIFY(contains(text, "MatMul operand [in, out]"));
        QVERIFY(!contains(text, "Not expressible"));
        QVERIFY(!contains(text, "SequenceParallel"));
    }

    void pyTorchPlanWithSequenceParallelNormsAndLayouts()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const Plan plan = makeExpertPlan(ExpertPlanKind::MegatronSequenceParallel, m.coarse, kMesh);
        const std::string text = pyTorchPlan(m, plan);
        QVERIFY(contains(text, "    \"model.layers.*.input_layernorm\": SequenceParallel(),\n"));
        QVERIFY(contains(text, "    \"model.norm\": SequenceParallel(),\n"));
        QVERIFY(contains(text, "    \"model.layers.*.self_attn.q_proj\": ColwiseParallel(input_layouts=Shard(1)),\n"));
        QVERIFY(contains(text, "    \"model.layers.*.self_attn.o_proj\": RowwiseParallel(output_layouts=Shard(1)),\n"));
        QVERIFY(contains(text, "import ColwiseParallel, RowwiseParallel, SequenceParallel, loss_parallel, "
                               "parallelize_module\n"));
    }

    void dataParallelPlanExportsAnEmptyPlanAndTheMesh()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, {{"d", 8}});
        const std::string text = pyTorchPlan(m, plan);
        QVERIFY(contains(text, "MESH_SHAPE = (8,)\nMESH_AXES = (\"d\",)\nBATCH_AXES = (\"d\",)"));
        QVERIFY(contains(text, "    return mesh[\"d\"]\n"));
        QVERIFY(!contains(text, "TENSOR_PLAN"));
        QVERIFY(!contains(text, "torch.distributed.tensor.parallel"));
        QVERIFY(moduleStyleTables(m.graph(), m.coarse, m.families, plan).empty());
    }

    // The file casts nothing, so its header says the precision the plan was priced in: 16-bit
    // weights and gradients, fp32 masters and optimizer states (mixed-precision Adam: 2 + 2 + 12
    // bytes per parameter; fp32 main gradients: 2 + 4 + 12; SGD's momentum: 2 + 2 + 8; fp32:
    // 4 + 4 + 12), and the optimizer step the PyTorch export's workload prices (master copies).
    void pyTorchPlanSaysThePrecisionItWasPricedIn()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document;
        document.plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, {{"d", 8}});
        document.workload.zeroStage = 2;
        document.workload.zeroImplementation = ZeroImplementation::Fsdp2;
        QVERIFY(contains(exportPyTorchPlan(m, document),
                         "#   priced with bf16 weights and gradients, fp32 master weights and Adam moments (2 + 2 + 12 "
                         "bytes per\n#   parameter); this file casts nothing: cast the model to bf16, keep fp32 masters "
                         "in the optimizer (torch.optim's fused=True),\n#   each gradient cast to an fp32 copy before the "
                         "step, the masters copied into the weights after it\n"));
        // Priced with Megatron-LM's 16-bit master remainders (10 bytes of states), the file runs
        // torch.optim on whole masters: its header counts those, its notes say the difference.
        document.workload.optimizerStep = OptimizerStep::FusedRemainders;
        const std::string remainders = exportPyTorchPlan(m, document);
        QVERIFY2(contains(remainders, "#   priced with bf16 weights and gradients, fp32 master weights and Adam moments "
                                      "(2 + 2 + 12 bytes per\n#   parameter)"),
                 remainders.c_str());
        QVERIFY2(contains(remainders, "and it keeps whole fp32 masters (2 bytes per parameter more)"), remainders.c_str());
        document.workload.optimizerStep = OptimizerStep::Fused;
        document.workload.computeType = DataType::Float16;
        document.workload.fp32MainGradients = true;
        QVERIFY(contains(exportPyTorchPlan(m, document),
                         "#   priced with fp16 weights, fp32 gradients, fp32 master weights and Adam moments (2 + 4 + 12"));
        document.workload.fp32MainGradients = false;
        document.workload.optimizer = OptimizerKind::SgdMomentum;
        QVERIFY(contains(exportPyTorchPlan(m, document), "fp32 master weights and momentum (2 + 2 + 8 bytes per"));
        // In fp32 the price's 4-byte optimizer copy is no master: nothing to cast or keep.
        document.workload.computeType = DataType::Float32;
        document.workload.optimizer = OptimizerKind::AdamMixedPrecision;
        const std::string fp32 = exportPyTorchPlan(m, document);
        QVERIFY2(contains(fp32, "#   priced with fp32 weights and gradients, a second fp32 copy of the weights and Adam "
                                "moments (4 + 4 + 12 bytes per\n#   parameter); this file casts nothing: the model "
                                "trains in fp32\n"),
                 fp32.c_str());
    }

    void perInstanceDifferencesAreListedExplicitly()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, kMesh);
        plan.strategies[nodeNamed(m, "model/layers.2/mlp/up_proj/MatMul").id.index()].axes[1] = AxisSplit::None;
        const std::string text = pyTorchPlan(m, plan);
        QVERIFY(contains(text, "    \"model.layers.*.mlp.gate_proj\": ColwiseParallel(),\n"));
        QVERIFY(!contains(text, "model.layers.*.mlp.up_proj"));
        QVERIFY(contains(text, "    \"model.layers.0.mlp.up_proj\": ColwiseParallel(),\n"));
        QVERIFY(contains(text, "    \"model.layers.3.mlp.up_proj\": ColwiseParallel(),\n"));
        QVERIFY(!contains(text, "model.layers.2.mlp.up_proj"));
    }

    void hfTpPlanRoundTripsTheLinearSplits()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, kMesh);
        for (const HfPlanKeys keys : {HfPlanKeys::Model, HfPlanKeys::BaseModel}) {
            for (const bool python : {false, true}) {
                const std::string text = python ? exportHfTpPlanPython(m.graph(), m.coarse, m.families, plan, keys)
                                                : exportHfTpPlanJson(m.graph(), m.coarse, m.families, plan, keys);
                QVERIFY(isHfTpPlan(text));
                const ImportedPlan back =
                    planFromHfTpPlan(parseHfTpPlan(text, "tp_plan"), m.graph(), m.coarse, kMesh);
                auto expected = linearSplits(m, plan);
                if (keys == HfPlanKeys::BaseModel) {  // lm_head lies outside the base model
                    for (auto& [name, split] : expected)
                        if (name == "lm_head/MatMul")
                            split = AxisSplit::None;
                    QCOMPARE(back.warnings, std::vector<std::string>{
                                                "Linear module 'lm_head' is not in the tp_plan: replicated on 'tp'"});
                } else {
                    QCOMPARE(back.warnings, std::vector<std::string>{});
                }
                QCOMPARE(linearSplits(m, back.plan), expected);
                QCOMPARE(back.plan.mesh, kMesh);
                QCOMPARE(back.plan.origin, PlanOrigin::Import);
                validatePlan(back.plan, m.coarse);
            }
        }
        // With keys of the whole model the followers come back as Megatron laid them out.
        const std::string json = exportHfTpPlanJson(m.graph(), m.coarse, m.families, plan, HfPlanKeys::Model);
        QCOMPARE(planFromHfTpPlan(parseHfTpPlan(json, "tp_plan.json"), m.graph(), m.coarse, kMesh).plan.strategies,
                 plan.strategies);
        QVERIFY(contains(json, "  \"model.layers.*.self_attn.q_proj\": \"colwise\",\n"));
        QVERIFY(contains(json, "  \"model.layers.*.mlp.down_proj\": \"rowwise\",\n"));
        QVERIFY(contains(json, "  \"model.embed_tokens\": \"embedding_rowwise\",\n"));
        QVERIFY(contains(json, "  \"lm_head\": \"colwise_gather_output\"\n"));
    }

    void hfTpPlanOfATensorAxisOfOneGpuShardsNothing()
    {
        // A stack search lays a data-parallel plan out as [dp, 1]: Megatron's splits on an
        // axis of one GPU. The tp_plan is empty and says what it leaves to the trainer.
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, {{"dp", 16}, {"tp", 1}});
        QCOMPARE(exportHfTpPlanJson(m.graph(), m.coarse, m.families, plan, HfPlanKeys::Model), std::string("{}\n"));
        const std::string python = exportHfTpPlanPython(m.graph(), m.coarse, m.families, plan, HfPlanKeys::Model);
        QVERIFY(contains(python, "# The plan is pure data parallel: no module is sharded.\n"));
        QVERIFY(contains(python, "the plan also runs mesh axis \"dp\" (16 GPUs),\n"));
        QVERIFY(!contains(python, "tp_size"));
        QVERIFY(contains(python, "tp_plan = {\n}\n"));
        // On a real tensor axis the other axes are named too.
        const std::string megatron =
            exportHfTpPlanPython(m.graph(), m.coarse, m.families, makeExpertPlan(ExpertPlanKind::Megatron, m.coarse,
                                                                                 {{"dp", 2}, {"tp", 4}}),
                                 HfPlanKeys::Model);
        QVERIFY(contains(megatron, "tp_size=4)"));
        QVERIFY(contains(megatron, "the plan also runs mesh axis \"dp\" (2 GPUs),\n"));
    }

    void hfPythonDictWithSingleQuotesAndUnmatchedPatterns()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const std::string text = "# from modeling_llama.py\n"
                                 "base_model_tp_plan = {\n"
                                 "    'layers.*.self_attn.q_proj': 'colwise',\n"
                                 "    'layers.*.self_attn.k_proj': 'colwise',  # keys and values\n"
                                 "    'layers.*.self_attn.v_proj': 'colwise',\n"
                                 "    'layers.*.self_attn.o_proj': 'rowwise',\n"
                                 "    'layers.*.mlp.gate_proj': 'colwise_rep',\n"
                                 "    'layers.*.mlp.up_proj': \"colwise\",\n"
                                 "    'layers.*.mlp.down_proj': 'rowwise',\n"
                                 "    'layers.*.mlp.experts': 'local',\n"
                                 "    'layers.*.cross_attn.q_proj': 'colwise',\n"
                                 "}\n";
        QVERIFY(isHfTpPlan(text));
        const std::vector<HfTpPlanEntry> entries = parseHfTpPlan(text, "plan.py");
        QCOMPARE(entries.size(), std::size_t(9));
        QCOMPARE(entries[5], (HfTpPlanEntry{"layers.*.mlp.up_proj", "colwise"}));
        const ImportedPlan imported = planFromHfTpPlan(entries, m.graph(), m.coarse, kMesh);
        QCOMPARE(imported.warnings,
                 (std::vector<std::string>{
                     "style 'local' of 'layers.*.mlp.experts' is not a split Tapestry plans; ignored",
                     "pattern 'layers.*.cross_attn.q_proj' matches no module of the model",
                     "Linear module 'lm_head' is not in the tp_plan: replicated on 'tp'"}));
        QCOMPARE(imported.plan.strategy(nodeNamed(m, "model/layers.1/mlp/gate_proj/MatMul").id).axes,
                 (AxisSplits{AxisSplit::Batch, AxisSplit::Column}));
        QCOMPARE(imported.plan.strategy(nodeNamed(m, "model/layers.1/self_attn/o_proj/MatMul").id).axes,
                 (AxisSplits{AxisSplit::Batch, AxisSplit::Row}));
        QCOMPARE(imported.plan.strategy(nodeNamed(m, "model/embed_tokens/Gather").id).axes,
                 (AxisSplits{AxisSplit::Batch, AxisSplit::None}));
    }

    void malformedTpPlanIsReportedWithItsPosition()
    {
        try {
            (void)parseHfTpPlan("tp_plan = {\n  'a.b': ColwiseParallel(),\n}\n", "plan.py");
            QFAIL("expected an error");
        } catch (const Error& error) {
            QCOMPARE(error.code(), ErrorCode::InvalidPlan);
            QVERIFY2(contains(error.what(), "plan.py: line 2, column 10: expected a style name"), error.what());
        }
        QVERIFY(!isHfTpPlan(R"({"schemaVersion": 1, "strategies": []})"));
        // A Tapestry plan with a syntax error is a broken plan, not a Python tp_plan.
        QVERIFY(!isHfTpPlan("{ \"schema_version\": 1, \"mesh\": [ }"));
        QVERIFY(isHfTpPlan("tp_plan = {'a.b': 'colwise'}"));
    }

    // The campaign's UBSan report: a mesh axis of 2147483647 overflowed the device count.
    void pyTorchPlanRefusesMeshesWithoutADeviceCount()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        for (const std::vector<MeshAxis>& mesh : {std::vector<MeshAxis>{{"dp", 2}, {"tp", 2147483647}},
                                                  std::vector<MeshAxis>{{"d", -2}}}) {
            Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, {{"d", 8}});
            plan.mesh = mesh;
            QVERIFY_THROWS_EXCEPTION(Error, (void)pyTorchPlan(m, plan));
        }
    }

    void onnxAnnotationsReadBackAsThePlansShardings()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        PlanDocument document;
        document.plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, kMesh);
        const OnnxShardingAnnotations annotations = onnxShardingAnnotations(m.graph(), m.coarse, m.families, document);

        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("llama.sharded.onnx")).toStdString();
        {
            const std::string bytes = exportShardedOnnx(m.graph(), m.coarse, m.families, document);
            std::ofstream(file, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        }
        // The importer still reads the file: the new fields are unknown to its schema.
        const Graph reimported = importOnnxModel(file);
        QCOMPARE(reimported.opCount(), m.graph().opCount());

        const OnnxShardingAnnotations back = readOnnxShardingAnnotations(file);
        QCOMPARE(back.configurations, annotations.configurations);
        QCOMPARE(back.nodes, annotations.nodes);
        QCOMPARE(back.configurations.front().numDevices, 8);
        QCOMPARE(back.configurations.front().name, std::string("tapestry:megatron"));

        // q_proj's MatMul weight [in, out] is split by columns: dim 1, four shards, each
        // on the two devices of its dp column (devices are row-major over dp x tp).
        const CoarseNode& q = nodeNamed(m, "model/layers.0/self_attn/q_proj/MatMul");
        const auto node = std::find_if(back.nodes.begin(), back.nodes.end(), [&](const OnnxNodeConfiguration& n) {
            return n.nodeIndex == q.anchor.index();
        });
        QVERIFY(node != back.nodes.end());
        const std::string weightName = m.graph().tensor(m.graph().op(q.anchor).inputs[1]).name;
        const auto weight = std::find_if(node->shardingSpecs.begin(), node->shardingSpecs.end(),
                                         [&](const OnnxShardingSpec& s) { return s.tensorName == weightName; });
        QVERIFY(weight != node->shardingSpecs.end());
        QCOMPARE(weight->shardedDims.size(), std::size_t(1));
        QCOMPARE(weight->shardedDims[0].axis, std::int64_t(1));
        QCOMPARE(weight->shardedDims[0].simpleSharding[0].numShards, std::int64_t(4));
        QCOMPARE(weight->devices, (std::vector<std::int64_t>{-1, -2, -3, -4}));
        QCOMPARE(weight->deviceGroups.front(), (std::pair<std::int64_t, std::vector<std::int64_t>>{-1, {0, 4}}));
        QCOMPARE(weight->deviceGroups.back(), (std::pair<std::int64_t, std::vector<std::int64_t>>{-4, {3, 7}}));

        // The plan file itself rides along in the metadata: import-plan reads it back whole.
        PlanDocument withWorkload = document;
        withWorkload.workload.zeroStage = 1;
        withWorkload.workload.recompute = Recomputation::Full;
        const std::string carriedFile = dir.filePath(QStringLiteral("carried.onnx")).toStdString();
        {
            const std::string bytes = exportShardedOnnx(m.graph(), m.coarse, m.families, withWorkload);
            std::ofstream(carriedFile, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        }
        const PlanDocument carried = importShardedOnnxPlan(carriedFile, m.coarse, m.families);
        QCOMPARE(carried.plan.strategies, withWorkload.plan.strategies);
        QCOMPARE(carried.plan.mesh, withWorkload.plan.mesh);
        QVERIFY(carried.workload == withWorkload.workload);
        // A model no ONNX export wrote carries none, and the error names the file.
        const std::string plain = m.graph().info().sourcePath;
        try {
            (void)importShardedOnnxPlan(plain, m.coarse, m.families);
            QFAIL("a model without the plan's metadata must be refused");
        } catch (const Error& error) {
            QCOMPARE(error.code(), ErrorCode::InvalidPlan);
            QVERIFY2(contains(error.what(), plain) && contains(error.what(), "without a Tapestry plan"), error.what());
        }

        // Exporting an annotated model again replaces the annotations instead of adding more.
        FoldedModel again = foldTestFile("llama.ts.stripped.onnx");
        const std::string twice = dir.filePath(QStringLiteral("twice.onnx")).toStdString();
        Graph annotatedGraph = importOnnxModel(file);
        {
            const std::string bytes = exportShardedOnnx(annotatedGraph, again.coarse, again.families, document);
            std::ofstream(twice, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        }
        QCOMPARE(readOnnxShardingAnnotations(twice), back);
    }

    // One dispatch reads every kind of plan file (import-plan and the GUI): each written
    // by its export of Megatron-LM's plan on [2, 4] reads back as its kind with that plan;
    // errors name the file.
    void planFilesOfEveryKindReadThroughOneDispatch()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        QTemporaryDir dir;
        const std::vector<MeshAxis> mesh{{"dp", 2}, {"tp", 4}};
        PlanDocument document;
        document.plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh);
        document.modelFingerprint = m.fingerprint;
        const auto write = [&](const char* name, const std::string& bytes) {
            const std::string path = dir.filePath(QString::fromLatin1(name)).toStdString();
            std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
            return path;
        };
        const std::string json = write("plan.json", renderExport(ExportFormat::PlanJson, m, document, {}));
        const std::string onnx = write("plan.onnx", renderExport(ExportFormat::Onnx, m, document, {}));
        const std::string megatron = write("plan.sh", renderExport(ExportFormat::Megatron, m, document, {}));
        const std::string hf = write("tp_plan.json", renderExport(ExportFormat::HfJson, m, document, {}));
        const std::pair<std::string, PlanFileKind> files[] = {{json, PlanFileKind::Tapestry},
                                                              {onnx, PlanFileKind::ShardedOnnx},
                                                              {megatron, PlanFileKind::TrainingStack},
                                                              {hf, PlanFileKind::HfTpPlan}};
        for (const auto& [file, kind] : files) {
            const PlanFileImport imported = importPlanFile(file, m, 8, mesh);
            QCOMPARE(imported.kind, kind);
            QCOMPARE(imported.document.plan.strategies, document.plan.strategies);
            QCOMPARE(imported.document.modelFingerprint, m.fingerprint);
        }
        QCOMPARE(importPlanFile(hf, m, 8, mesh).document.plan.name, std::string("tp_plan"));
        QCOMPARE(importPlanFile(hf, m, 8, mesh).document.plan.origin, PlanOrigin::Import);
        const auto refused = [&](const std::string& file, ErrorCode code, const char* what) {
            try {
                (void)importPlanFile(file, m, 8, {});
                QFAIL("must be refused");
            } catch (const Error& error) {
                QCOMPARE(error.code(), code);
                QVERIFY2(contains(error.what(), file) && contains(error.what(), what), error.what());
            }
        };
        refused(hf, ErrorCode::InvalidMesh, "does not say its mesh");
        refused(write("notes.onnx", "{\"name\": \"x\"}"), ErrorCode::NotOnnx, "is not an ONNX model");
        refused(m.graph().info().sourcePath, ErrorCode::InvalidPlan, "without a Tapestry plan");

        // What a drop opens as a plan: an ONNX export for this model, not the model itself,
        // nor an export for another model, nor a text file.
        QVERIFY(carriesPlanFor(onnx, m));
        QVERIFY(!carriesPlanFor(m.graph().info().sourcePath, m));
        QVERIFY(!carriesPlanFor(json, m));
        PlanDocument other = document;
        other.modelFingerprint = "another model";
        QVERIFY(!carriesPlanFor(write("other.onnx", renderExport(ExportFormat::Onnx, m, other, {})), m));
        QCOMPARE(onnxMetadataValue(onnx, "no such key"), std::nullopt);
    }

    void graphPicturesAreDotSvgAndPng()
    {
        const FoldedModel m = foldTestFile("llama.ts.stripped.onnx");
        const std::string dot = exportGraphPicture(m.graph(), m.coarse, m.families, PictureView::Folded, PictureFormat::Dot);
        QVERIFY(dot.starts_with("digraph"));
        const std::string svg = exportGraphPicture(m.graph(), m.coarse, m.families, PictureView::Coarse, PictureFormat::Svg);
        QVERIFY(contains(svg.substr(0, 400), "<svg"));
        const std::string png = exportGraphPicture(m.graph(), m.coarse, m.families, PictureView::Folded, PictureFormat::Png);
        QVERIFY(png.starts_with(std::string("\x89PNG\r\n\x1a\n", 8)));
    }
};

QTEST_GUILESS_MAIN(ExportTest)
#include "ExportTest.moc"
