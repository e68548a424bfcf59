// FP8 training (Workload::fp8, cost/KernelTime.h's fp8LinearSeconds): the closed forms
// of one FP8 linear layer, which layers a recipe puts in FP8 and what it keeps, the
// errors for GPUs without FP8, and the FP8-vs-BF16 step-time ratios of Llama-3-8B- and
// 70B-shaped models against published measurements.
#include "base/Error.h"
#include "base/TextFile.h"
#include "FoldedTestModel.h"
#include "cost/CostModel.h"
#include "cost/KernelTime.h"
#include "plan/ExpertPlans.h"
#include "validation/RunValidation.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <utility>

using namespace tapestry;
using namespace tapestry::test;

namespace {

// A GPU with round figures: 100 TFLOP/s 16-bit, 200 FP8 at 0.5, 1 TB/s HBM.
GpuSpec roundGpu()
{
    GpuSpec gpu;
    gpu.peakFlopsPerSecond = 100e12;
    gpu.hbmBytesPerSecond = 1e12;
    gpu.fp8.peakFlopsPerSecond = 200e12;
    gpu.fp8.achievableFraction = 0.5;
    return gpu;
}

bool near(double a, double b, double relative = 1e-9)
{
    return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b));
}

PlanEvaluation priced(const FoldedModel& m, const Cluster& cluster, const std::vector<MeshAxis>& axes, Workload w,
                      ExpertPlanKind kind)
{
    const DeviceMesh mesh(axes, cluster);
    const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
    return costs.evaluate(makeExpertPlan(kind, m.coarse, axes));
}

// The parameters of the layers the model runs in FP8 (the embedding and head stay 16-bit).
double fp8ParameterElements(const FoldedModel& m, const CostModel& costs)
{
    double elements = 0;
    for (const CoarseNode& node : m.coarse.nodes)
        elements += costs.facts(node.id).fp8 ? costs.facts(node.id).parameterElements : 0.0;
    return elements;
}

}  // namespace

class Fp8TrainingTest : public QObject {
    Q_OBJECT

private slots:
    // A compute-bound layer: X 8192 x 4096, W 4096 x 4096, 2 x 8192 x 4096 x 4096 flops.
    void fp8LinearIsTheClosedForm()
    {
        const GpuSpec gpu = roundGpu();
        const double x = 8192.0 * 4096, w = 4096.0 * 4096, y = 8192.0 * 4096;
        const double flops = 2 * 8192.0 * 4096 * 4096;
        const double gemm = flops / (200e12 * 0.5);  // FP8 rate at its share; bytes are far below
        const double hbm = 1e12 * kHbmShare;
        const Fp8LinearSeconds perTensor = fp8LinearSeconds(gpu, Fp8Recipe::PerTensor, flops, x, w, y);
        // Amax read, read, FP8 copy and its transpose: 2 + 2 + 1 + 1 bytes per element.
        QVERIFY(near(perTensor.forward, gemm + x * 6 / hbm));
        QVERIFY(near(perTensor.backward, 2 * gemm + y * 6 / hbm));
        QVERIFY(near(perTensor.weightCast, w * 6 / hbm));
        // MXFP8: no amax pass; two copies of 1 + 1/32 bytes (the block scales); the
        // block-scaled GEMM at 6.812 / 7.161 of the per-tensor rate (Transformer Engine's
        // GEMM profiling guide, B300).
        const Fp8LinearSeconds block = fp8LinearSeconds(gpu, Fp8Recipe::Block, flops, x, w, y);
        const double blockGemm = gemm * 7.161 / 6.812;
        QVERIFY(near(block.forward, blockGemm + x * (2 + 2 * (1 + 1.0 / 32)) / hbm));
        QVERIFY(near(block.backward, 2 * blockGemm + y * (2 + 2 * (1 + 1.0 / 32)) / hbm));
        QCOMPARE(fp8StorageBytes(Fp8Recipe::PerTensor), 1.0);
        QCOMPARE(fp8WeightCacheBytes(gpu.fp8, Fp8Recipe::PerTensor), 2.0);  // the copy and its transpose
        QCOMPARE(fp8WeightCacheBytes(gpu.fp8, Fp8Recipe::Block), 2 * (1 + 1.0 / 32));
        // The same GEMM in 16 bits runs at half the rate here (100 TFLOP/s at 0.5).
        QVERIFY(near(matmulSeconds(gpu, flops, 2 * (x + w + y)), 2 * gemm));
    }

    // Where FP8 GEMMs take any layout (data-center Blackwell), per-tensor quantization
    // writes no transpose: 2 + 2 + 1 bytes per element; MXFP8 still writes both copies,
    // whose blocks run along different axes; the GEMMs themselves are unchanged.
    void anyLayoutDropsThePerTensorTranspose()
    {
        GpuSpec gpu = roundGpu();
        const double x = 8192.0 * 4096, w = 4096.0 * 4096, y = 8192.0 * 4096;
        const double flops = 2 * 8192.0 * 4096 * 4096;
        const double hbm = 1e12 * kHbmShare;
        const Fp8LinearSeconds tnOnly = fp8LinearSeconds(gpu, Fp8Recipe::PerTensor, flops, x, w, y);
        const Fp8LinearSeconds tnOnlyBlock = fp8LinearSeconds(gpu, Fp8Recipe::Block, flops, x, w, y);
        QCOMPARE(fp8QuantizeBytes(gpu.fp8, Fp8Recipe::PerTensor), 6.0);
        gpu.fp8.anyLayout = true;
        gpu.fp8.blockScaling = true;
        QCOMPARE(fp8QuantizeBytes(gpu.fp8, Fp8Recipe::PerTensor), 5.0);
        QCOMPARE(fp8QuantizeBytes(gpu.fp8, Fp8Recipe::Block), 2 + 2 * (1 + 1.0 / 32));
        QCOMPARE(fp8QuantizeBytes(gpu.fp8, Fp8Recipe::None), 0.0);
        // The cached FP8 weight is the quantizer's output: no transpose kept either.
        QCOMPARE(fp8WeightCacheBytes(gpu.fp8, Fp8Recipe::PerTensor), 1.0);
        QCOMPARE(fp8WeightCacheBytes(gpu.fp8, Fp8Recipe::Block), 2 * (1 + 1.0 / 32));
        const Fp8LinearSeconds perTensor = fp8LinearSeconds(gpu, Fp8Recipe::PerTensor, flops, x, w, y);
        QVERIFY(near(tnOnly.forward - perTensor.forward, x * 1 / hbm));
        QVERIFY(near(tnOnly.backward - perTensor.backward, y * 1 / hbm));
        QVERIFY(near(tnOnly.weightCast - perTensor.weightCast, w * 1 / hbm));
        const Fp8LinearSeconds block = fp8LinearSeconds(gpu, Fp8Recipe::Block, flops, x, w, y);
        QCOMPARE(block.forward, tnOnlyBlock.forward);
        QCOMPARE(block.backward, tnOnlyBlock.backward);
        // Transformer Engine's B300 profile of a layer's twelve GEMMs: quantization took
        // 8.984 - 7.161 ms under MXFP8 and 9.147 - 6.812 under current scaling, 0.781;
        // bytes moved give 4.0625 / 5 = 0.8125 (with a transpose, 4.0625 / 6 = 0.677).
        const double measured = (8.984 - 7.161) / (9.147 - 6.812);
        const double modelled = fp8QuantizeBytes(gpu.fp8, Fp8Recipe::Block) / fp8QuantizeBytes(gpu.fp8, Fp8Recipe::PerTensor);
        QVERIFY(std::abs(modelled / measured - 1) < 0.05);
    }

    // The recipe changes the repeated blocks' linear layers only: the output head keeps
    // its 16-bit time, a block's projection gets faster, its saved input halves (the
    // attention output projection's FP8 copy sits beside the 16-bit output the fused
    // attention kernel keeps: 1/2 + 1 of it), and its weights gain the FP8 cache (2 bytes
    // per parameter).
    void onlyTheBlocksLinearLayersRunInFp8()
    {
        // GPT-2 XL's width (h = 1600) and 8 sequences of 1024 per GPU: GEMMs large enough
        // for FP8 to pay (on small ones the quantization costs more than the GEMM saves).
        const FoldedModel m = foldSynthPreset("gpt2-xl", 2);
        const Cluster cluster = testCluster("dgx-h100x1");
        const std::vector<MeshAxis> axes{{"dp", 8}};
        const DeviceMesh mesh(axes, cluster);
        Workload bf16 = workload(64, 1024);
        Workload fp8 = bf16;
        QVERIFY(setPrecision(fp8, "fp8"));
        QCOMPARE(fp8.fp8, Fp8Recipe::PerTensor);
        QCOMPARE(precisionName(fp8), std::string("fp8"));
        const CostModel plain(m.graph(), m.coarse, m.families, cluster, mesh, bf16);
        const CostModel eight(m.graph(), m.coarse, m.families, cluster, mesh, fp8);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, axes);
        const PlanEvaluation a = plain.evaluate(plan);
        const PlanEvaluation b = eight.evaluate(plan);
        int fp8Nodes = 0;
        for (const CoarseNode& node : m.coarse.nodes) {
            const CostModel::NodeFacts& facts = eight.facts(node.id);
            const bool inBlock = facts.block >= 0;
            QCOMPARE(facts.fp8, inBlock && node.kind == CoarseNodeKind::Linear);
            if (!node.anchor.isValid())
                continue;
            const double before = a.perOp[node.anchor.index()].time.computeSeconds;
            const double after = b.perOp[node.anchor.index()].time.computeSeconds;
            if (node.kind == CoarseNodeKind::Linear && !inBlock)
                QVERIFY(near(before, after));  // the output head stays 16-bit
            if (!facts.fp8)
                continue;
            ++fp8Nodes;
            QVERIFY(after < before);
            double savedBf16 = 0, savedFp8 = 0;
            for (const CostModel::SavedActivation& s : plain.facts(node.id).savedActivations)
                savedBf16 += s.asOutput ? 0 : s.bytes;
            for (const CostModel::SavedActivation& s : facts.savedActivations)
                savedFp8 += s.asOutput ? 0 : s.bytes;
            const bool readsAttention = node.name.find("/attn/c_proj") != std::string::npos;
            QVERIFY2(near(savedFp8, savedBf16 * (readsAttention ? 1.5 : 0.5)), node.name.c_str());
        }
        QCOMPARE(fp8Nodes, 2 * 4);  // qkv, out-projection, fc1, fc2 per layer
        const double blockParameters = fp8ParameterElements(m, eight);
        QVERIFY(near(b.total.memory.parameters - a.total.memory.parameters, blockParameters * 2));
    }

    // FP8 weights without a 16-bit copy (Workload::fp8Parameters: Transformer Engine's
    // fp8_model_init, Megatron-LM's --fp8-param-gather): each FP8 layer keeps only its FP8
    // weight cache, on B200 (any layout) one byte per parameter under per-tensor scaling
    // (MXFP8: row-wise and column-wise copies of 1 + 1/32 each, a scale byte per 32), and
    // nothing else moves. With Megatron-LM's distributed optimizer over 8 data-parallel ranks
    // (fp32 main gradients unsharded, fp32 main weights and Adam's two moments sharded) a
    // GPU holds, per parameter, 2 (16-bit) or 1 (FP8) + 4 + 12 / 8 bytes.
    void fp8WeightsReplaceTheSixteenBitCopy()
    {
        const FoldedModel m = foldSynthPreset("gpt2-xl", 2);
        const Cluster b200 = testCluster("dgx-b200x1");
        const std::vector<MeshAxis> axes{{"dp", 8}};
        Workload w = workload(64, 1024);
        w.zeroStage = 1;
        w.fp32MainGradients = true;
        QVERIFY(setPrecision(w, "fp8"));
        const CostModel cache(m.graph(), m.coarse, m.families, b200, DeviceMesh(axes, b200), w);
        double total = 0;
        for (const CoarseNode& node : m.coarse.nodes)
            total += cache.facts(node.id).parameterElements;
        const double fp8 = fp8ParameterElements(m, cache);
        QVERIFY(fp8 > 0 && fp8 < total);  // the embedding and the head stay 16-bit
        const PlanEvaluation withCopy = priced(m, b200, axes, w, ExpertPlanKind::DataParallel);
        w.fp8Parameters = true;
        const PlanEvaluation fp8Only = priced(m, b200, axes, w, ExpertPlanKind::DataParallel);
        QVERIFY(near(withCopy.total.memory.parameters, 2 * total + fp8));
        QVERIFY(near(fp8Only.total.memory.parameters, 2 * total - fp8));
        QCOMPARE(fp8Only.total.memory.gradients, withCopy.total.memory.gradients);
        QCOMPARE(fp8Only.total.memory.optimizerStates, withCopy.total.memory.optimizerStates);
        QCOMPARE(fp8Only.total.memory.activations, withCopy.total.memory.activations);
        const MemoryBreakdown& mem = fp8Only.total.memory;
        QVERIFY(near(mem.parameters + mem.gradients + mem.optimizerStates, total * (2 + 4 + 12.0 / 8) - fp8));
        QVERIFY(setPrecision(w, "mxfp8"));
        const PlanEvaluation mx = priced(m, b200, axes, w, ExpertPlanKind::DataParallel);
        QVERIFY(near(mx.total.memory.parameters, 2 * (total - fp8) + 2 * (1 + 1.0 / 32) * fp8));
    }

    // The FP8 weight cache holds what the quantizer writes (Transformer Engine's quantizer
    // makes the cached weight too): on a GPU whose FP8 GEMMs take any layout, per-tensor
    // scaling keeps no transpose, so the B200 preset holds exactly one byte per FP8 parameter
    // less than the same cluster without gpu.fp8.anyLayout; MXFP8 keeps both copies on both.
    void anyLayoutKeepsOneFp8WeightCopy()
    {
        const FoldedModel m = foldSynthPreset("gpt2-xl", 2);
        const Cluster b200 = testCluster("dgx-b200x1");
        QVERIFY(b200.gpu.fp8.anyLayout);
        Cluster tnOnly = b200;
        tnOnly.gpu.fp8.anyLayout = false;
        const std::vector<MeshAxis> axes{{"dp", 8}};
        Workload w = workload(64, 1024);
        QVERIFY(setPrecision(w, "fp8"));
        const CostModel facts(m.graph(), m.coarse, m.families, b200, DeviceMesh(axes, b200), w);
        const double fp8 = fp8ParameterElements(m, facts);
        QVERIFY(fp8 > 0);
        for (const bool fp8Only : {false, true}) {
            w.fp8Parameters = fp8Only;
            const PlanEvaluation any = priced(m, b200, axes, w, ExpertPlanKind::DataParallel);
            const PlanEvaluation tn = priced(m, tnOnly, axes, w, ExpertPlanKind::DataParallel);
            QVERIFY(near(tn.total.memory.parameters - any.total.memory.parameters, fp8 * 1));
            QCOMPARE(any.total.memory.activations, tn.total.memory.activations);
        }
        QVERIFY(setPrecision(w, "mxfp8"));
        w.fp8Parameters = false;
        QCOMPARE(priced(m, b200, axes, w, ExpertPlanKind::DataParallel).total.memory.parameters,
                 priced(m, tnOnly, axes, w, ExpertPlanKind::DataParallel).total.memory.parameters);
    }

    // Under ZeRO 3 such a run gathers its FP8 layers' weights in FP8 (Megatron's
    // fp8_param_gather: 1 byte per parameter instead of 2) and holds them so: the two blocks
    // gathered at a time (the one in use and the prefetched next) take 2 x (2 x the block's
    // other parameters + 1 x its FP8 ones), and the gathers take less time.
    void fp8WeightsAreGatheredInFp8()
    {
        const FoldedModel m = foldSynthPreset("gpt2-xl", 2);
        const Cluster h100 = testCluster("dgx-h100x1");
        const std::vector<MeshAxis> axes{{"dp", 8}};
        Workload w = workload(64, 1024);
        w.zeroStage = 3;
        QVERIFY(setPrecision(w, "fp8"));
        const CostModel costs(m.graph(), m.coarse, m.families, h100, DeviceMesh(axes, h100), w);
        std::vector<double> blockFp8, blockOther;
        for (const CoarseNode& node : m.coarse.nodes) {
            const CostModel::NodeFacts& facts = costs.facts(node.id);
            if (facts.block < 0)
                continue;
            const auto b = static_cast<std::size_t>(facts.block);
            blockFp8.resize(std::max(blockFp8.size(), b + 1));
            blockOther.resize(blockFp8.size());
            (facts.fp8 ? blockFp8 : blockOther)[b] += facts.parameterElements;
        }
        QCOMPARE(blockFp8.size(), std::size_t{2});
        QCOMPARE(blockFp8[0], blockFp8[1]);
        const PlanEvaluation sixteen = priced(m, h100, axes, w, ExpertPlanKind::DataParallel);
        w.fp8Parameters = true;
        const PlanEvaluation eight = priced(m, h100, axes, w, ExpertPlanKind::DataParallel);
        const double drop = sixteen.total.memory.transient - eight.total.memory.transient;
        QVERIFY(near(drop, 2 * blockFp8[0] * (2 - 1)));
        QVERIFY(blockOther[0] > 0);
        QVERIFY(eight.total.time.dataParallelSeconds < sixteen.total.time.dataParallelSeconds);
    }

    void gpusWithoutFp8AreRefused()
    {
        const FoldedModel m = foldSynthPreset("gpt2-small", 1);
        const std::vector<MeshAxis> axes{{"dp", 8}};
        Workload w = workload(8, 512);
        QVERIFY(setPrecision(w, "fp8"));
        const Cluster a100 = testCluster("dgx-a100x1");
        try {
            (void)priced(m, a100, axes, w, ExpertPlanKind::DataParallel);
            QFAIL("FP8 on an A100 must be an error");
        } catch (const Error& error) {
            QVERIFY(std::string(error.what()).find("has no FP8 tensor cores") != std::string::npos);
        }
        QVERIFY(setPrecision(w, "mxfp8"));
        QVERIFY_THROWS_EXCEPTION(Error, (void)priced(m, testCluster("dgx-h100x1"), axes, w, ExpertPlanKind::DataParallel));
        (void)priced(m, testCluster("dgx-b200x1"), axes, w, ExpertPlanKind::DataParallel);  // Blackwell has MXFP8
        QVERIFY(!setPrecision(w, "fp4"));
        QCOMPARE(w.fp8, Fp8Recipe::Block);  // unchanged by a name it does not know
    }

    // torchtitan's Llama 3.1 8B benchmark on 8 H100s (FSDP, local batch 2, sequence 8192,
    // op-level selective activation checkpointing, torch.compile): 6,667 tokens/s per GPU in BF16,
    // 8,532 with Float8 (tensorwise scaling of every linear layer but the output), a
    // step-time ratio of 6667 / 8532 = 0.781 (pytorch/torchtitan
    // benchmarks/llama3_h100_202412_torchtitan.md, Table 1). The prediction must be
    // within 10 % of it.
    void llama3_8bFp8StepTimeRatioMatchesTorchtitan()
    {
        const FoldedModel m = foldSynthPreset("llama3-8b");
        const Cluster cluster = testCluster("dgx-h100x1");
        const std::vector<MeshAxis> axes{{"dp", 8}};
        Workload bf16 = workload(16, 8192);
        bf16.zeroStage = 3;
        bf16.recompute = Recomputation::Selective;
        bf16.selective = SelectiveRecomputation::EveryOtherMatmul;  // torchtitan's op-level policy
        Workload fp8 = bf16;
        QVERIFY(setPrecision(fp8, "fp8"));
        const double a = priced(m, cluster, axes, bf16, ExpertPlanKind::DataParallel).total.time.stepSeconds();
        const double b = priced(m, cluster, axes, fp8, ExpertPlanKind::DataParallel).total.time.stepSeconds();
        const double published = 6667.0 / 8532.0;
        const double predicted = b / a;
        qInfo("Llama-3-8B-shaped on 8 x H100, FSDP: step %.3f s bf16, %.3f s fp8, ratio %.3f (torchtitan %.3f)", a, b,
              predicted, published);
        QVERIFY2(std::abs(predicted / published - 1) <= 0.10,
                 qPrintable(QStringLiteral("predicted %1, published %2").arg(predicted).arg(published)));
    }

    // NVIDIA's DGX Cloud Benchmarking recipes for NeMo 24.09 (NVIDIA/dgxc-benchmarking,
    // llama3.1/README_8b.md and README_70b.md) give the same Megatron-Core layout in BF16
    // and FP8 on H100: Llama 3.1 8B on 8 GPUs (cp 2, 32 micro-batches) 12.91 s and 9.67 s
    // a step, a ratio of 0.749; Llama 3.1 70B on 64 GPUs (tp 4, pp 4 x 5 virtual stages,
    // cp 2, 64 micro-batches) 14.72 s and 11.01 s, 0.748. Priced as `validate` prices the
    // cases of the FP8 validation file, each predicted ratio must be within 10 % of them.
    void llama3Fp8StepTimeRatiosMatchNeMo()
    {
        const std::string file = testDataFile("validation/published-runs-fp8.json");
        const std::vector<PublishedRun> runs = parsePublishedRuns(readTextFile(file), file);
        const auto step = [&](const std::string& name) {
            const auto run = std::find_if(runs.begin(), runs.end(), [&](const PublishedRun& r) { return r.name == name; });
            if (run == runs.end())
                qFatal("no case %s", name.c_str());
            const RunPrediction prediction = predictRun(*run, clusterPresetDir());
            if (!prediction.skipped.empty())
                qFatal("%s skipped: %s", name.c_str(), prediction.skipped.c_str());
            return std::pair{prediction.stepSeconds, run->measured.stepSeconds};
        };
        for (const std::string size : {"8b-h100-", "70b-h100-"}) {
            const std::string gpus = size == "8b-h100-" ? "-8gpu" : "-64gpu";
            const std::string stem = "dgxc-24.09-llama3.1-" + size;
            const auto [bf16, measuredBf16] = step(stem + "bf16" + gpus);
            const auto [fp8, measuredFp8] = step(stem + "fp8" + gpus);
            const double predicted = fp8 / bf16;
            const double published = measuredFp8 / measuredBf16;
            qInfo("%s*%s: step %.3f s bf16, %.3f s fp8, ratio %.3f (NeMo 24.09 on H100: %.3f)", stem.c_str(), gpus.c_str(),
                  bf16, fp8, predicted, published);
            QVERIFY2(std::abs(predicted / published - 1) <= 0.10,
                     (stem + ": predicted " + std::to_string(predicted) + ", published " + std::to_string(published)).c_str());
        }
    }

    // tests/data/validation/published-runs-fp8.json: every case reads, and every one is
    // priced within its GPU's memory but Megatron-Bridge's 405B MXFP8 run, whose 16 x 8 pipeline chunks outnumber
    // its 126 layers (the stack counts the embedding and the loss as layers), and its two
    // GB200 70B Megatron-FSDP runs, which offload 40 layers' activations to the CPU.
    void theFp8ValidationFileIsPriced()
    {
        const std::string file = testDataFile("validation/published-runs-fp8.json");
        const std::vector<PublishedRun> runs = parsePublishedRuns(readTextFile(file), file);
        QCOMPARE(runs.size(), std::size_t{26});
        std::vector<double> errors;
        std::size_t skipped = 0;
        for (const PublishedRun& run : runs) {
            const RunPrediction prediction = predictRun(run, clusterPresetDir());
            const bool unpriced = run.name == "mbridge-26.02-llama3.1-405b-gb200-mxfp8-256gpu" ||
                                  run.training.activationOffloadLayers > 0;
            QVERIFY2(prediction.skipped.empty() != unpriced, run.name.c_str());
            if (unpriced) {
                ++skipped;
                continue;
            }
            QVERIFY(prediction.stepSeconds > 0);
            // Every one ran, so none may need more memory than its GPU has.
            QVERIFY2(prediction.memoryBytes <= prediction.deviceMemoryBytes,
                     (run.name + ": " + std::to_string(prediction.memoryBytes / (1 << 30)) + " GiB").c_str());
            errors.push_back(std::abs(relativeError(prediction.stepSeconds, run.measured.stepSeconds)));
        }
        const ValidationSummary summary = summarizeErrors(errors, skipped);
        QCOMPARE(summary.priced, std::size_t{23});
        QCOMPARE(summary.skipped, std::size_t{3});
    }
};

QTEST_APPLESS_MAIN(Fp8TrainingTest)
#include "Fp8TrainingTest.moc"
