// The training techniques of training.md against closed forms: Korthikanti et al.'s
// activation memory per GPT layer (no parallelism, tensor parallelism, sequence
// parallelism with selective recomputation), FSDP's gather and reduce-scatter volumes,
// gradient accumulation, the overlap rule, and the loss over vocabulary-split or
// partial-sum logits.
#include "CostChecks.h"
#include "FoldedTestModel.h"
#include "cluster/ClusterFile.h"
#include "cluster/PipelineStages.h"
#include "cost/AttentionKernelNames.h"
#include "cost/CostModel.h"
#include "cost/EagerKernelBytes.h"
#include "cost/EagerLaunchFloor.h"
#include "cost/KernelTime.h"
#include "cost/Overlap.h"
#include "cost/PipelineCost.h"
#include "cost/WorkloadCheck.h"
#include "plan/AxisSplit.h"
#include "plan/ExpertPlans.h"
#include "target/StackRules.h"

#include <QTest>

#include <tuple>

using namespace tapestry;
using namespace tapestry::test;

namespace {

constexpr std::int64_t kHidden = 768;
constexpr std::int64_t kHeads = 12;

// A GPT layer stack (GPT-2 small's width) with dropout, as Korthikanti et al. count it.
FoldedModel gptWithDropout(std::int64_t layers = 3)
{
    ModelSpec spec = findSynthPreset("gpt2-small")->spec;
    spec.layers = layers;
    spec.dropout = true;
    return foldModel(synthesizeModel(spec, "gpt"));
}

// A Llama stack of 3 layers, 1024 wide, 16 query heads on 4 key-value heads, SwiGLU of width `ffn`.
FoldedModel smallLlama(std::int64_t ffn, std::int64_t vocab = 32000)
{
    ModelSpec spec = findSynthPreset("llama3-8b")->spec;
    spec.layers = 3;
    spec.hidden = 1024;
    spec.heads = 16;
    spec.kvHeads = 4;
    spec.ffn = ffn;
    spec.vocab = vocab;
    return foldModel(synthesizeModel(spec, "llama"));
}

// One node of 8 GPUs with latency-free links, so that collective times are pure
// bandwidth terms: (n - 1)/n * S / B per gather or scatter.
Cluster bandwidthOnlyCluster()
{
    return parseClusterJson(R"({"name": "ideal", "nodes": 1, "gpusPerNode": 8,
        "gpu": {"name": "g", "peakFlopsPerSecond": 1e15, "hbmBytes": 80000000000, "hbmBytesPerSecond": 3e12},
        "intraNode": {"bytesPerSecond": 1e11, "latencySeconds": 0},
        "interNode": {"bytesPerSecond": 1e10, "latencySeconds": 0}})",
                            "ideal.json");
}

MemoryBreakdown layerMemory(const FoldedModel& m, const PlanEvaluation& e, std::size_t instance)
{
    MemoryBreakdown sum;
    for (const CoarseNodeId id : m.families.families.front().instances.at(instance).nodes)
        sum.add(e.perNode[id.index()].memory);
    return sum;
}

QString compared(double got, double expected)
{
    return QString::number(got, 'g', 12) + QStringLiteral(" vs ") + QString::number(expected, 'g', 12);
}

double parameterElements(const CostModel& costs, const FoldedModel& m)
{
    double p = 0;
    for (const CoarseNode& node : m.coarse.nodes)
        p += costs.facts(node.id).parameterElements;
    return p;
}

}  // namespace

class TrainingTechniquesTest : public QObject {
    Q_OBJECT

private slots:
    // sbh(34 + 5as/h) bytes per layer in 16-bit precision, nothing parallel, nothing recomputed.
    void activationsOfOneLayerMatchKorthikanti()
    {
        const FoldedModel m = gptWithDropout();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 1}, {"tp", 8}}, cluster);
        Workload w = workload(16, 512);
        w.attention = AttentionKernel::Unfused;
        const double s = 512, b = 16, h = kHidden, a = kHeads;
        const DeviceMesh single({{"dp", 8}, {"tp", 1}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, single, w);
        // Data parallel over 8 keeps a whole layer per device for b / 8 sequences.
        const PlanEvaluation e = costs.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, single.axes()));
        const double expected = s * (b / 8) * h * (34 + 5 * a * s / h);
        QVERIFY2(near(layerMemory(m, e, 1).activations, expected), qPrintable(compared(layerMemory(m, e, 1).activations, expected)));

        // Tensor parallel t = 8: sbh(10 + 24/t + 5as/(ht)).
        const CostModel tp(m.graph(), m.coarse, m.families, cluster, mesh, w);
        const PlanEvaluation te = tp.evaluate(makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh.axes()));
        const double t = 8;
        const double tensorParallel = s * b * h * (10 + 24 / t + 5 * a * s / (h * t));
        QVERIFY2(near(layerMemory(m, te, 1).activations, tensorParallel),
                 qPrintable(compared(layerMemory(m, te, 1).activations, tensorParallel)));

        // Sequence parallel and selective recomputation: 34 sbh / t.
        w.recompute = Recomputation::Selective;
        const CostModel sp(m.graph(), m.coarse, m.families, cluster, mesh, w);
        const PlanEvaluation se =
            sp.evaluate(makeExpertPlan(ExpertPlanKind::MegatronSequenceParallel, m.coarse, mesh.axes()));
        const double sequenceParallel = 34 * s * b * h / t;
        QVERIFY2(near(layerMemory(m, se, 1).activations, sequenceParallel),
                 qPrintable(compared(layerMemory(m, se, 1).activations, sequenceParallel)));
        // Selective recomputation repeats the attention core's forward pass, nothing else.
        QVERIFY(se.total.time.recomputeSeconds > 0);
    }

    // Unfused attention as Megatron-LM runs it: the scale-mask-softmax kernel, then dropout
    // as a kernel of its own, which reads the probabilities and writes its output and a
    // one-byte mask (2 + 2 + 1 bytes per score element) and moves the same bytes backward.
    // Priced fused into the softmax (any other kernel's facts), the scores node writes the
    // dropout's output only: 5 b a s^2 bytes fewer.
    void unfusedDropoutOfTheScoresRunsApart()
    {
        const FoldedModel m = gptWithDropout(2);
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        Workload w = workload(16, 512);
        w.attention = AttentionKernel::Unfused;
        const CostModel unfused(m.graph(), m.coarse, m.families, cluster, mesh, w);
        w.attention = AttentionKernel::Cudnn;
        const CostModel fused(m.graph(), m.coarse, m.families, cluster, mesh, w);
        const PlanEvaluation e = unfused.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes()));
        const double scores = 16.0 * kHeads * 512 * 512;  // b a s^2 elements of one layer
        int dropouts = 0;
        for (const Op& op : m.graph().ops()) {
            const CoarseNodeId node = m.coarse.nodeOf[op.id.index()];
            if (op.type != "Dropout" || m.coarse.node(node).kind != CoarseNodeKind::BatchedMatMul)
                continue;  // the dropouts after the projections stay as they were
            ++dropouts;
            const double more = unfused.facts(node).memoryBoundBytes - fused.facts(node).memoryBoundBytes;
            QVERIFY2(near(more, 5 * scores), qPrintable(compared(more, 5 * scores)));
            // Forward and backward alike, for the 2 of the 16 sequences each GPU runs.
            const double once = memoryBoundSeconds(cluster.gpu, 5 * scores / 8);
            const double priced = e.perOp[op.id.index()].time.computeSeconds;
            QVERIFY2(near(priced, 2 * once), qPrintable(compared(priced, 2 * once)));
        }
        QCOMPARE(dropouts, 2);
    }

    // Korthikanti et al.'s count for a Llama layer (no dropout, RMSNorm, grouped-query
    // attention with h_kv = kv heads x head dimension, SwiGLU of width f), bytes in 16
    // bits, fused attention, nothing parallel:
    //   norm inputs 2 x 2sbh, q/k/v's shared input 2sbh, Q 2sbh, K and V 2 x 2sbh_kv,
    //   attention output (o_proj's input) 2sbh, gate/up's shared input 2sbh, the gate and
    //   up projections' outputs 2 x 2sbf (fused SwiGLU recomputes silu from them),
    //   down_proj's input 2sbf:  sb(12h + 4h_kv + 6f).
    // Keys and values keep their own heads under Transformer Engine's cuDNN attention;
    // the other kernels keep the copies repeated per query head (h_kv -> h), as
    // Hugging Face's and torchtitan's repeat_kv hands them over; unfused attention adds
    // the softmax output, 2as²b. Tensor parallelism t (Megatron-LM, no sequence
    // parallelism) keeps the four full-width inputs (8sbh) and divides the rest by t.
    // Under FP8 (Transformer Engine) the linear layers keep FP8 copies of their inputs
    // (1 byte) and the attention kernel its 16-bit output besides: sb(11h + 4h_kv + 5f).
    void activationsOfALlamaLayerFollowKorthikanti()
    {
        const FoldedModel m = smallLlama(3584);  // f = 3.5h, h_kv = h/4: Llama 3 8B's proportions
        const Cluster cluster = testCluster("dgx-h100x1");
        const double s = 512, b = 16.0 / 8, h = 1024, a = 16, kv = 4 * (1024 / 16), f = 3584;
        auto layer = [&](AttentionKernel kernel, Fp8Recipe fp8, const DeviceMesh& mesh, ExpertPlanKind kind) {
            Workload w = workload(16, 512);
            w.attention = kernel;
            w.fp8 = fp8;
            const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
            return layerMemory(m, costs.evaluate(makeExpertPlan(kind, m.coarse, mesh.axes())), 1).activations;
        };
        const DeviceMesh dataParallel({{"dp", 8}}, cluster);
        const std::vector<std::tuple<AttentionKernel, double>> kernels{
            {AttentionKernel::Cudnn, s * b * (12 * h + 4 * kv + 6 * f)},
            {AttentionKernel::FlashAttention2, s * b * (16 * h + 6 * f)},
            {AttentionKernel::Unfused, s * b * (16 * h + 6 * f) + 2 * a * s * s * b}};
        for (const auto& [kernel, expected] : kernels) {
            const double got = layer(kernel, Fp8Recipe::None, dataParallel, ExpertPlanKind::DataParallel);
            QVERIFY2(near(got, expected), qPrintable(QString::fromUtf8(attentionKernelName(kernel)) + QStringLiteral(": ") +
                                                     compared(got, expected)));
        }
        // With Llama 3 8B's proportions that is 34sbh under cuDNN (12 + 1 + 21), as a GPT layer with dropout.

        const double t = 4;
        const DeviceMesh tensorParallel({{"dp", 2}, {"tp", 4}}, cluster);
        const double tp = layer(AttentionKernel::Cudnn, Fp8Recipe::None, tensorParallel, ExpertPlanKind::Megatron);
        const double bTp = 16.0 / 2;  // data parallel over 2
        const double tpExpected = s * bTp * (8 * h + (4 * h + 4 * kv + 6 * f) / t);
        QVERIFY2(near(tp, tpExpected), qPrintable(compared(tp, tpExpected)));

        const double fp8 = layer(AttentionKernel::Cudnn, Fp8Recipe::PerTensor, dataParallel, ExpertPlanKind::DataParallel);
        const double fp8Expected = s * b * (11 * h + 4 * kv + 5 * f);
        QVERIFY2(near(fp8, fp8Expected), qPrintable(compared(fp8, fp8Expected)));
    }

    // torchao's float8 layers save each linear layer's 16-bit input, not an FP8 copy as
    // Transformer Engine does: 1 byte more per element of every saved linear input, less
    // the FP8 copy Transformer Engine keeps beside the attention output. Under
    // FlashAttention-2 a Llama layer keeps sb(16h + 6f) in 16 bits; Transformer Engine's
    // FP8 keeps sb(15h + 5f) (the attention and MLP norms' outputs and the down
    // projection's input halved, the attention output's FP8 copy added), torchao's the
    // 16-bit sb(16h + 6f). Under tensor parallelism t (Megatron-LM's layout, no sequence
    // parallelism) the 16-bit layer keeps its four full-width inputs whole and divides the
    // rest: sb(8h + (8h + 6f)/t); Transformer Engine sb(6h + (9h + 5f)/t). torchtitan's
    // tensorwise float8 casts the inputs before gathering them (Float8ColwiseParallel,
    // Float8RowwiseParallel) and keeps Transformer Engine's FP8 copies there; torchtitan's
    // MXFP8 and the PyTorch export run plain ColwiseParallel/RowwiseParallel, whose layers
    // save the 16-bit inputs.
    void torchaoFloat8KeepsSixteenBitLinearInputs()
    {
        const FoldedModel m = smallLlama(3584);
        const double s = 512, b = 16.0 / 8, h = 1024, f = 3584;
        auto layer = [&](const Workload& stack, Fp8Recipe fp8, Fp8Implementation implementation, const Cluster& cluster,
                         const DeviceMesh& mesh, ExpertPlanKind kind) {
            Workload w = stack;
            w.attention = AttentionKernel::FlashAttention2;
            w.fp8 = fp8;
            w.fp8Implementation = implementation;
            const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
            return layerMemory(m, costs.evaluate(makeExpertPlan(kind, m.coarse, mesh.axes())), 1).activations;
        };
        const Workload plain = workload(16, 512);
        const Cluster hopper = testCluster("dgx-h100x1");
        const DeviceMesh dataParallel({{"dp", 8}}, hopper);
        const auto te = Fp8Implementation::TransformerEngine;
        const auto torchao = Fp8Implementation::Torchao;
        const auto float8Tp = Fp8Implementation::TorchaoFloat8TensorParallel;
        const auto dp = [&](Fp8Recipe fp8, Fp8Implementation implementation) {
            return layer(plain, fp8, implementation, hopper, dataParallel, ExpertPlanKind::DataParallel);
        };
        const double sixteen = s * b * (16 * h + 6 * f);
        const double fp8Te = dp(Fp8Recipe::PerTensor, te);
        QVERIFY2(near(dp(Fp8Recipe::None, te), sixteen), qPrintable(compared(dp(Fp8Recipe::None, te), sixteen)));
        QVERIFY2(near(fp8Te, s * b * (15 * h + 5 * f)), qPrintable(compared(fp8Te, s * b * (15 * h + 5 * f))));
        for (const Fp8Implementation implementation : {torchao, float8Tp}) {
            const double got = dp(Fp8Recipe::PerTensor, implementation);
            QVERIFY2(near(got, sixteen), qPrintable(compared(got, sixteen)));
        }

        const double t = 4, bTp = 16.0 / 2;
        const double sixteenTp = s * bTp * (8 * h + (8 * h + 6 * f) / t);
        const double copiesTp = s * bTp * (6 * h + (9 * h + 5 * f) / t);
        const DeviceMesh tensorParallel({{"dp", 2}, {"tp", 4}}, hopper);
        const auto tp = [&](const Workload& stack, Fp8Recipe fp8, Fp8Implementation implementation) {
            return layer(stack, fp8, implementation, hopper, tensorParallel, ExpertPlanKind::Megatron);
        };
        for (const auto& [implementation, expected] :
             {std::pair{te, copiesTp}, std::pair{float8Tp, copiesTp}, std::pair{torchao, sixteenTp}}) {
            const double got = tp(plain, Fp8Recipe::PerTensor, implementation);
            QVERIFY2(near(got, expected), qPrintable(QString::fromUtf8(fp8ImplementationName(implementation)) +
                                                     QStringLiteral(": ") + compared(got, expected)));
        }
        QVERIFY2(near(tp(plain, Fp8Recipe::None, te), sixteenTp),
                 qPrintable(compared(tp(plain, Fp8Recipe::None, te), sixteenTp)));

        // Which each stack's search prices: torchtitan's tensorwise float8 casts before the
        // gather, its MXFP8 and the PyTorch export's conversions do not, Megatron-LM runs
        // Transformer Engine; a 16-bit workload names no FP8 library (the default).
        const Workload pyTorch = withStackImplementations(plain, TrainingStack::PyTorch);
        const auto implementationOf = [](TrainingStack stack, Fp8Recipe fp8) {
            Workload w;
            w.fp8 = fp8;
            return withStackImplementations(w, stack).fp8Implementation;
        };
        QCOMPARE(implementationOf(TrainingStack::TorchTitan, Fp8Recipe::PerTensor), float8Tp);
        QCOMPARE(implementationOf(TrainingStack::TorchTitan, Fp8Recipe::Block), torchao);
        QCOMPARE(implementationOf(TrainingStack::PyTorch, Fp8Recipe::PerTensor), torchao);
        QCOMPARE(implementationOf(TrainingStack::PyTorch, Fp8Recipe::Block), torchao);
        QCOMPARE(implementationOf(TrainingStack::Megatron, Fp8Recipe::Block), te);
        QCOMPARE(implementationOf(TrainingStack::TorchTitan, Fp8Recipe::None), te);
        // The PyTorch export's FP8 under tensor parallelism keeps the 16-bit inputs as its
        // 16-bit layers do (eager accounting on both sides).
        const double pyTorchFp8 =
            tp(pyTorch, Fp8Recipe::PerTensor, implementationOf(TrainingStack::PyTorch, Fp8Recipe::PerTensor));
        const double pyTorchBf16 = tp(pyTorch, Fp8Recipe::None, te);
        QVERIFY2(near(pyTorchFp8, pyTorchBf16), qPrintable(compared(pyTorchFp8, pyTorchBf16)));
        // MXFP8 (on Blackwell) likewise: torchao's MXLinear saves the 16-bit input under
        // torchtitan's plain tensor parallelism; Transformer Engine keeps MXFP8 copies.
        const Cluster blackwell = testCluster("dgx-b200x1");
        const DeviceMesh blackwellTp({{"dp", 2}, {"tp", 4}}, blackwell);
        const Fp8Implementation titanMx = implementationOf(TrainingStack::TorchTitan, Fp8Recipe::Block);
        const double mxTorchao = layer(plain, Fp8Recipe::Block, titanMx, blackwell, blackwellTp, ExpertPlanKind::Megatron);
        QVERIFY2(near(mxTorchao, sixteenTp), qPrintable(compared(mxTorchao, sixteenTp)));
        QVERIFY(layer(plain, Fp8Recipe::Block, te, blackwell, blackwellTp, ExpertPlanKind::Megatron) < sixteenTp);
    }

    // What eager PyTorch's autograd saves (SavedActivations::Eager, counted with saved-tensor
    // hooks on transformers' Llama modules: bench/gpu/saved_tensors.py), on top of the count
    // above under FlashAttention-2 (repeated keys and values), bytes per element:
    //   each RMS norm its input upcast to fp32 (4sbh instead of 2sbh) and the normalized
    //   tensor its weight multiplies (2sbh): 2 x 4sbh more; the SwiGLU product both factors,
    //   silu's output too (2sbf more):  sb(24h + 8f) per layer.
    // The final norm keeps 6sbh; the loss (cross_entropy on the fp32 logits of vocabulary V)
    // the fp32 log-probabilities, 4sbV, kept at the output head, and at the start of backward
    // two more fp32 copies, 8sbV: the step's largest transient buffer.
    void eagerPyTorchKeepsWhatAutogradSaves()
    {
        const FoldedModel m = smallLlama(3584);
        const Cluster cluster = testCluster("dgx-h100x1");
        const double s = 512, b = 16.0 / 8, h = 1024, f = 3584, vocab = 32000;
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        Workload w = workload(16, 512);
        w.savedActivations = SavedActivations::Eager;
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
        const PlanEvaluation e = costs.evaluate(plan);
        const double layer = layerMemory(m, e, 1).activations;
        QVERIFY2(near(layer, s * b * (24 * h + 8 * f)), qPrintable(compared(layer, s * b * (24 * h + 8 * f))));
        double finalNorm = -1;
        double head = -1;
        for (const CoarseNode& node : m.coarse.nodes) {
            if (node.name == "model/norm")
                finalNorm = e.perNode[node.id.index()].memory.activations;
            if (node.name.starts_with("lm_head"))
                head = e.perNode[node.id.index()].memory.activations;
        }
        QVERIFY2(near(finalNorm, 6 * s * b * h), qPrintable(compared(finalNorm, 6 * s * b * h)));
        // The head keeps its input (2sbh) and the loss's log-probabilities.
        QVERIFY2(near(head, s * b * (2 * h + 4 * vocab)), qPrintable(compared(head, s * b * (2 * h + 4 * vocab))));
        QVERIFY2(near(e.total.memory.transient, 8 * s * b * vocab),
                 qPrintable(compared(e.total.memory.transient, 8 * s * b * vocab)));
        // SDPA's cuDNN backend keeps the keys and values the graph repeated, as FlashAttention does.
        Workload cudnn = w;
        cudnn.attention = AttentionKernel::Cudnn;
        const double cudnnLayer =
            layerMemory(m, CostModel(m.graph(), m.coarse, m.families, cluster, mesh, cudnn).evaluate(plan), 1).activations;
        QVERIFY2(near(cudnnLayer, layer), qPrintable(compared(cudnnLayer, layer)));
        // The fused accounting is the default.
        Workload fused = w;
        fused.savedActivations = SavedActivations::Fused;
        const PlanEvaluation k = CostModel(m.graph(), m.coarse, m.families, cluster, mesh, fused).evaluate(plan);
        QVERIFY(near(layerMemory(m, k, 1).activations, s * b * (16 * h + 6 * f)));
        QVERIFY(near(k.total.memory.transient, 2 * s * b * vocab));  // the 16-bit logits
    }

    // An eager kernel moves the tensors it takes and makes (cost/EagerKernelBytes.h), n bytes
    // each here, a broadcast operand w: a product of two activations reads 2n and writes n
    // forward, and backward one kernel per factor (the gradient and the other factor read, the
    // factor's gradient written); into a broadcast weight the full-size product is written and
    // summed first. A residual add passes its gradient on without a kernel; a view moves
    // nothing; a slice's gradient is a zero tensor with the slice copied in.
    void eagerKernelsMoveWhatTheyReadAndWrite()
    {
        const double n = 1000, w = 10, r = 4;
        // Bytes, and the kernels that move them (one forward unless a view; backward one per
        // input gradient that is not passed on as it is).
        auto check = [](EagerKernelBytes got, double forward, double backward, int forwardKernels,
                        int backwardKernels) {
            QVERIFY2(near(got.forward, forward) && near(got.backward, backward),
                     qPrintable(compared(got.forward, forward) + QStringLiteral(", ") + compared(got.backward, backward)));
            QCOMPARE(got.forwardKernels, forwardKernels);
            QCOMPARE(got.backwardKernels, backwardKernels);
        };
        check(eagerKernelBytes("Mul", {n, n}, {true, true}, n), 3 * n, 6 * n, 1, 2);
        check(eagerKernelBytes("Mul", {w, n}, {true, true}, n), w + 2 * n, (4 * n + w) + (2 * n + w), 1, 2);
        check(eagerKernelBytes("Mul", {n, 0}, {true, false}, n), 2 * n, 2 * n, 1, 1);  // by a scalar
        check(eagerKernelBytes("Add", {n, n}, {true, true}, n), 3 * n, 0, 1, 0);
        check(eagerKernelBytes("Add", {n, w}, {true, true}, n), 2 * n + w, n + w, 1, 1);  // a bias: summed
        check(eagerKernelBytes("Sigmoid", {n}, {true}, n), 2 * n, 3 * n, 1, 1);
        check(eagerKernelBytes("ReduceMean", {n}, {true}, r), n + r, r + n, 1, 1);
        check(eagerKernelBytes("Div", {0, r}, {false, true}, r), 2 * r, 3 * r, 1, 1);
        check(eagerKernelBytes("Reshape", {n, 0}, {true, false}, n), 0, 0, 0, 0);
        check(eagerKernelBytes("Slice", {n}, {true}, n / 2), 0, n + n, 0, 1);
        check(eagerKernelBytes("Concat", {n / 2, n / 2}, {true, true}, n), 2 * n, 0, 1, 0);
        check(eagerKernelBytes("Cast", {n}, {true}, 2 * n), 3 * n, 3 * n, 1, 1);
        QCOMPARE(eagerGradientSumBytes(1, n), 0.0);
        QCOMPARE(eagerGradientSumBytes(3, n), 6 * n);
        QCOMPARE(eagerGradientSumKernels(1), 0);
        QCOMPARE(eagerGradientSumKernels(3), 2);
        // cross_entropy on fp32 logits of 16-bit ones: 2 + 4 (the cast) + 4 + 4 (log_softmax)
        // forward, 4 (nll_loss's gradient) + 4 + 4 + 4 (log_softmax's) + 4 + 2 (the cast's) backward.
        check(eagerLossBytes(n, 2), 14 * n, 22 * n, 3, 3);
    }

    // Eager PyTorch (SavedActivations::Eager) on a Llama layer, per device (8 data-parallel
    // ranks, E = sbh elements, R = sb rows, weight h), bytes:
    // - the RMS norm in fp32 (LlamaRMSNorm): forward the cast up 6E, x^2 8E, its mean 4E + 4R,
    //   + eps, sqrt and 1/. 24R, x times that 8E + 4R, the cast down 6E, the weight's product
    //   4E + 2h: 36E + 32R + 2h. Backward the weight's product 12E + 4h, the cast down 6E, x
    //   times the scale 24E + 8R, 1/. and sqrt 24R, the mean 4E + 4R, x^2 12E, the cast up 6E
    //   and the sum of x's two fp32 gradients 12E, the sums of q, k and v's three 12E:
    //   88E + 36R + 4h. Fused, the node moves (2 + 2 + 2)E forward (x read by two of its ops) and
    //   twice that backward: 18E.
    // - the residual add: 6E forward; backward no kernel, but the gradients of its two readers
    //   (the next norm, the next add) are summed: 6E; fused 18E.
    // - the SwiGLU product: 6F forward, 12F backward either way (F = sbf).
    // - the output head adds the loss: 36 sbV (eagerLossBytes).
    // - the optimizer step as master copies: 40 bytes per parameter instead of 28.
    // At 16k tokens every kernel moving E-sized tensors takes longer than the host's launch;
    // the norm's three per-row ops forward (+ eps, sqrt, 1/.) and two backward do not, and
    // take 20 us each (cost/EagerLaunchFloor.h).
    void eagerPyTorchRunsEachMemoryBoundOpAsItsOwnKernel()
    {
        const FoldedModel m = smallLlama(3584);
        const Cluster cluster = testCluster("dgx-h100x1");
        const double s = 16384, batch = 16, ranks = 8, h = 1024, f = 3584, vocab = 32000;
        const double E = s * batch * h / ranks, R = s * batch / ranks, F = s * batch * f / ranks;
        const double rate = cluster.gpu.hbmBytesPerSecond * kHbmShare;
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        Workload w = workload(16, 16384);
        const PlanEvaluation fused = CostModel(m.graph(), m.coarse, m.families, cluster, mesh, w).evaluate(plan);
        w.savedActivations = SavedActivations::Eager;
        const CostModel eagerCosts(m.graph(), m.coarse, m.families, cluster, mesh, w);
        const PlanEvaluation eager = eagerCosts.evaluate(plan);
        auto seconds = [&](const PlanEvaluation& e, const std::string& name) {
            for (const CoarseNode& node : m.coarse.nodes) {
                if (node.name == name)
                    return e.perNode[node.id.index()].time.computeSeconds - e.perNode[node.id.index()].time.optimizerSeconds;
            }
            return -1.0;
        };
        const double norm = seconds(eager, "model/layers.1/input_layernorm");
        const double normBytes = (36 + 88) * E + (32 + 36) * R + 6 * h / ranks;
        const double normSeconds = (normBytes - 48 * R) / rate + 5 * kEagerKernelHostSeconds;
        QVERIFY2(near(norm, normSeconds), qPrintable(compared(norm, normSeconds)));
        QVERIFY(near(seconds(fused, "model/layers.1/input_layernorm"), 18 * E / rate));
        const double residual = seconds(eager, "model/layers.1");
        QVERIFY2(near(residual, 12 * E / rate), qPrintable(compared(residual * rate, 12 * E)));
        QVERIFY(near(seconds(fused, "model/layers.1"), 18 * E / rate));
        const double product = seconds(eager, "model/layers.1/mlp");
        QVERIFY2(near(product, 18 * F / rate), qPrintable(compared(product * rate, 18 * F)));
        QVERIFY(near(seconds(fused, "model/layers.1/mlp"), product));
        const double loss = seconds(eager, "lm_head/MatMul") - seconds(fused, "lm_head/MatMul");
        const double lossBytes = 36 * s * batch * vocab / ranks;
        QVERIFY2(near(loss, lossBytes / rate), qPrintable(compared(loss * rate, lossBytes)));

        // The optimizer step: 28 bytes per parameter fused, 40 as master copies (no ZeRO: every
        // rank updates every parameter).
        const double p = parameterElements(eagerCosts, m);
        QVERIFY2(near(eager.total.time.optimizerSeconds, 28 * p / rate),
                 qPrintable(compared(eager.total.time.optimizerSeconds * rate, 28 * p)));
        // Master copies launch two kernels per parameter tensor: a node's update takes the
        // larger of its bytes at HBM rate and those launches (the norms' weights, h-sized, and
        // the 1024 x 256 key and value projections are launch-bound).
        w.optimizerStep = OptimizerStep::MasterCopies;
        const PlanEvaluation copies = CostModel(m.graph(), m.coarse, m.families, cluster, mesh, w).evaluate(plan);
        double update = 0;
        for (const CoarseNode& node : m.coarse.nodes) {
            const CostModel::NodeFacts& facts = eagerCosts.facts(node.id);
            update += std::max(40 * facts.parameterElements / rate, 2 * facts.parameterTensors * kEagerKernelHostSeconds);
        }
        QVERIFY(update > 40 * p / rate);
        QVERIFY2(near(copies.total.time.optimizerSeconds, update),
                 qPrintable(compared(copies.total.time.optimizerSeconds, update)));
        // Megatron-LM's fp32 main gradients are read as held: 2 x 12 + 4 + 4 + 2 = 34.
        QCOMPARE(optimizerStepBytesPerParameter(OptimizerKind::AdamMixedPrecision, OptimizerStep::MasterCopies, 4, 2),
                 34.0);
        QCOMPARE(optimizerStepBytesPerParameter(OptimizerKind::AdamMixedPrecision, OptimizerStep::Fused, 4, 2), 30.0);
        // What autograd keeps is the same fact: the activations are eager's either way.
        QCOMPARE(copies.total.memory.activations, eager.total.memory.activations);
    }

    // Eager PyTorch launches each kernel from the host (cost/EagerLaunchFloor.h): at a few
    // tokens per GPU every kernel is shorter than its launch, so each op costs 20 us per
    // kernel per micro-step, whatever its tokens. By hand: the residual add is one kernel
    // forward and one backward (its output's two gradients summed), 40 us; the SwiGLU product
    // one forward and two backward (a gradient per factor), 60 us. Fused kernels (Megatron-LM,
    // torchtitan) are not priced by launch.
    void eagerKernelsTakeAtLeastTheHostsLaunch()
    {
        const FoldedModel m = smallLlama(3584, 512);  // a small vocabulary: no weight read outlasts a launch
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        const double t = kEagerKernelHostSeconds;
        auto priced = [&](std::int64_t sequence, std::int64_t microBatch, SavedActivations saved) {
            Workload w = workload(16, sequence);
            w.microBatch = microBatch;
            w.savedActivations = saved;
            return CostModel(m.graph(), m.coarse, m.families, cluster, mesh, w).evaluate(plan);
        };
        auto seconds = [&](const PlanEvaluation& e, const std::string& name) {
            for (const CoarseNode& node : m.coarse.nodes) {
                if (node.name == name)
                    return e.perNode[node.id.index()].time.computeSeconds;
            }
            return -1.0;
        };
        auto passes = [](const PlanEvaluation& e) {
            return e.total.time.computeSeconds - e.total.time.optimizerSeconds;
        };
        const PlanEvaluation eager = priced(8, 2, SavedActivations::Eager);
        QVERIFY2(near(seconds(eager, "model/layers.1"), 2 * t), qPrintable(compared(seconds(eager, "model/layers.1"), 2 * t)));
        QVERIFY2(near(seconds(eager, "model/layers.1/mlp"), 3 * t),
                 qPrintable(compared(seconds(eager, "model/layers.1/mlp"), 3 * t)));
        // Every op at its launches: the passes are a whole number of launches, and as long with
        // half the tokens; two micro-steps per rank launch everything twice.
        const double launches = passes(eager) / t;
        QVERIFY2(std::abs(launches - std::round(launches)) < 1e-6, qPrintable(QString::number(launches, 'g', 12)));
        QVERIFY(launches > 100);
        QVERIFY(near(passes(priced(4, 2, SavedActivations::Eager)), passes(eager)));
        QVERIFY2(near(passes(priced(8, 1, SavedActivations::Eager)), 2 * passes(eager)),
                 qPrintable(compared(passes(priced(8, 1, SavedActivations::Eager)), 2 * passes(eager))));
        const PlanEvaluation fused = priced(8, 2, SavedActivations::Fused);
        QVERIFY(passes(fused) < passes(eager) / 10);
        QVERIFY(passes(priced(4, 2, SavedActivations::Fused)) < passes(fused));
    }

    // Megatron-LM's default optimizer step (stackOptimizerStep, stackGradientLifetime,
    // stackGradientClipping), on 8 data-parallel ranks with fp32 main gradients: the clip
    // reads each fp32 gradient of the rank's optimizer shard for their norm (4 bytes; it
    // scales them only above the limit, priced as not happening),
    // FusedAdam reads the gradient (4), reads and writes the fp32 main weight and both moments
    // (24), and the copy back reads the main weight and writes the bf16 one (4 + 2): 38 bytes
    // per parameter of the shard; zero_grad_buffer then writes each gradient the rank holds
    // (4 bytes) every step. Update seconds = (38 P / optimizer shards + 4 P / gradient
    // shards) / HBM rate: ZeRO 1 (38/8 + 4) P, ZeRO 2 (38 + 4) P / 8. SC'21's fp16 gradients
    // without ZeRO: the cast to fp32 (2 + 4) + 28 + 6 = 40, the clip 4, zeroing 2: 46 P. A
    // buffer kept and not zeroed (Persistent) leaves the zeroing out, --clip-grad 0 the clip.
    void megatronStepsMasterCopiesAndZeroesItsGradientBuffer()
    {
        const FoldedModel m = smallLlama(3584);
        const Cluster cluster = testCluster("dgx-h100x1");
        const double rate = cluster.gpu.hbmBytesPerSecond * kHbmShare;
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        Workload w = withStackImplementations(workload(16, 512), TrainingStack::Megatron);
        QCOMPARE(w.optimizerStep, OptimizerStep::MasterCopies);
        QCOMPARE(w.gradientLifetime, GradientLifetime::ZeroedEachStep);
        QCOMPARE(w.gradientClipping, GradientClipping::AboveLimit);
        w.fp32MainGradients = true;
        const auto update = [&](const Workload& priced) {
            return CostModel(m.graph(), m.coarse, m.families, cluster, mesh, priced).evaluate(plan).total.time.optimizerSeconds;
        };
        const double p = parameterElements(CostModel(m.graph(), m.coarse, m.families, cluster, mesh, w), m);
        for (const auto& [zero, bytes] : {std::pair{1, (38.0 / 8 + 4) * p}, std::pair{2, (38.0 + 4) / 8 * p}}) {
            w.zeroStage = zero;
            QVERIFY2(near(update(w), bytes / rate), qPrintable(compared(update(w) * rate, bytes)));
        }
        Workload kept = w;
        kept.gradientLifetime = GradientLifetime::Persistent;
        QVERIFY2(near(update(kept), 38.0 / 8 * p / rate), qPrintable(compared(update(kept) * rate, 38.0 / 8 * p)));
        kept.gradientClipping = GradientClipping::None;
        QVERIFY2(near(update(kept), 34.0 / 8 * p / rate), qPrintable(compared(update(kept) * rate, 34.0 / 8 * p)));
        w.zeroStage = 0;
        w.computeType = DataType::Float16;
        w.fp32MainGradients = false;
        QVERIFY2(near(update(w), 46 * p / rate), qPrintable(compared(update(w) * rate, 46 * p)));
        // The PyTorch export and Any do not clip (torchtitan: the test below).
        QCOMPARE(withStackImplementations(workload(16, 512), TrainingStack::PyTorch).gradientClipping,
                 GradientClipping::None);
        QCOMPARE(workload(16, 512).gradientClipping, GradientClipping::None);
    }

    // torchtitan's clip (stackGradientClipping: EveryStep) reads each fp32 gradient of the
    // rank's FSDP2 shard for the norm, then multiplies it by the coefficient clamped to 1 in
    // place every step (torch.nn.utils.clip_grads_with_norm_: a read and a write): 3 x 4 = 12
    // bytes per parameter of the shard, against the 4 of Megatron-LM's clip (the norm's read;
    // it scales only above the limit). With torchtitan's fused AdamW on 8 ranks at ZeRO 3
    // (2 x 12 + 2 + 2 = 28 bytes per parameter of the shard; gradients freed, not zeroed):
    // update seconds = (28 + 12) P / 8 / HBM rate, (28 + 4) P / 8 above the limit, 28 P / 8
    // without a clip.
    void torchTitanScalesEveryGradientEveryStep()
    {
        const FoldedModel m = smallLlama(3584);
        const Cluster cluster = testCluster("dgx-h100x1");
        const double rate = cluster.gpu.hbmBytesPerSecond * kHbmShare;
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        Workload w = withStackImplementations(workload(16, 512), TrainingStack::TorchTitan);
        w.zeroStage = 3;
        QCOMPARE(w.gradientClipping, GradientClipping::EveryStep);
        QCOMPARE(w.optimizerStep, OptimizerStep::Fused);
        QCOMPARE(w.gradientLifetime, GradientLifetime::FreedBetweenSteps);
        QVERIFY(!w.fp32MainGradients);
        const double p = parameterElements(CostModel(m.graph(), m.coarse, m.families, cluster, mesh, w), m);
        for (const auto& [clipping, bytes] : {std::pair{GradientClipping::EveryStep, 40.0},
                                              std::pair{GradientClipping::AboveLimit, 32.0},
                                              std::pair{GradientClipping::None, 28.0}}) {
            Workload clipped = w;
            clipped.gradientClipping = clipping;
            const double update = CostModel(m.graph(), m.coarse, m.families, cluster, mesh, clipped)
                                      .evaluate(plan)
                                      .total.time.optimizerSeconds;
            QVERIFY2(near(update, bytes * p / 8 / rate), qPrintable(compared(update * rate, bytes * p / 8)));
        }
    }

    // Megatron-LM's --use-precision-aware-optimizer on bf16 weights keeps each fp32 master as
    // the 16-bit remainder its bf16 weight lacks (Transformer Engine's FusedAdam with
    // store_param_remainders, on by default since TE 2.1): on 8 data-parallel ranks at ZeRO 1
    // with fp32 main gradients the optimizer states are (2 + 4 + 4) P / 8 = 10 P / 8 bytes per
    // rank, 2 P / 8 fewer than whole masters (12 P / 8). The step reads the 4-byte gradient,
    // reads and writes the remainder and both moments (2 x 10) and the bf16 weight (2 x 2):
    // 28 bytes per parameter of the shard, against 4 + 2 x 12 + 2 = 30 with whole masters;
    // the clip's read (4) and zero_grad_buffer's write of the 4-byte gradients as before.
    // Update seconds = ((28 + 4) P / 8 + 4 P) / HBM rate.
    void megatronPrecisionAwareStepKeepsMasterRemainders()
    {
        const FoldedModel m = smallLlama(3584);
        const Cluster cluster = testCluster("dgx-h100x1");
        const double rate = cluster.gpu.hbmBytesPerSecond * kHbmShare;
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        Workload w = withStackImplementations(workload(16, 512), TrainingStack::Megatron);
        w.fp32MainGradients = true;
        w.zeroStage = 1;
        TrainingStackSettings settings;
        settings.workload = w;
        settings.workload.optimizerStep = OptimizerStep::Fused;
        QVERIFY(megatronRunsFusedStep(settings));
        QCOMPARE(megatronFusedStep(w), OptimizerStep::FusedRemainders);
        const auto priced = [&](OptimizerStep step) {
            Workload stepped = w;
            stepped.optimizerStep = step;
            return CostModel(m.graph(), m.coarse, m.families, cluster, mesh, stepped).evaluate(plan).total;
        };
        const double p = parameterElements(CostModel(m.graph(), m.coarse, m.families, cluster, mesh, w), m);
        const CostBreakdown remainders = priced(OptimizerStep::FusedRemainders);
        const CostBreakdown whole = priced(OptimizerStep::Fused);
        QVERIFY2(near(remainders.memory.optimizerStates, 10 * p / 8),
                 qPrintable(compared(remainders.memory.optimizerStates, 10 * p / 8)));
        QVERIFY2(near(whole.memory.optimizerStates, 12 * p / 8), qPrintable(compared(whole.memory.optimizerStates, 12 * p / 8)));
        QVERIFY2(near(remainders.time.optimizerSeconds, (32 * p / 8 + 4 * p) / rate),
                 qPrintable(compared(remainders.time.optimizerSeconds * rate, 32 * p / 8 + 4 * p)));
        QVERIFY2(near(whole.time.optimizerSeconds, (34 * p / 8 + 4 * p) / rate),
                 qPrintable(compared(whole.time.optimizerSeconds * rate, 34 * p / 8 + 4 * p)));
        QCOMPARE(remainders.memory.parameters, whole.memory.parameters);
        QCOMPARE(remainders.memory.gradients, whole.memory.gradients);
        // TE keeps remainders of bf16 parameters only: fp16 weights keep whole masters, and a
        // workload that asks for remainders there is refused.
        Workload half = w;
        half.computeType = DataType::Float16;
        QCOMPARE(megatronFusedStep(half), OptimizerStep::Fused);
        half.optimizerStep = OptimizerStep::FusedRemainders;
        bool refused = false;
        try {
            checkWorkload(half, {}, commandLineFieldNames(), "run.sh");
        } catch (const Error& e) {
            refused = e.message().find("--optimizer-step: masters kept as 16-bit remainders "
                                                 "(fused-remainders) need Adam on bf16 weights, not adam on fp16 "
                                                 "weights") != std::string::npos;
        }
        QVERIFY(refused);
        // FP8 weights (--fp8-param-gather) have no bf16 bits to rebuild a master from: TE keeps
        // remainders of bf16 parameters only and steps FP8 ones with whole fp32 masters
        // (multi_tensor_adam_fp8), as Megatron-Core's later releases keep them themselves
        // (megatronFusedStep): the states stay 12 P / 8 bytes, as with 16-bit weights.
        Workload fp8 = w;
        QVERIFY(setPrecision(fp8, "fp8"));
        fp8.fp8Parameters = true;
        QCOMPARE(megatronFusedStep(fp8), OptimizerStep::Fused);
        fp8.optimizerStep = megatronFusedStep(fp8);
        const CostBreakdown fp8Weights =
            CostModel(m.graph(), m.coarse, m.families, cluster, mesh, fp8).evaluate(plan).total;
        QVERIFY2(near(fp8Weights.memory.optimizerStates, 12 * p / 8),
                 qPrintable(compared(fp8Weights.memory.optimizerStates, 12 * p / 8)));
    }

    // Gradients freed between steps (zero_grad(set_to_none=True)), with one micro-step, are
    // allocated during backward as it frees the activations (cost/GradientsAtPeak.h): the step
    // peaks with the larger of the two, so the gradients count only by what they exceed the
    // activations by; with two micro-steps the first one's gradients are live through the
    // second's backward and count whole. What autograd saves does not decide it: eager
    // activations with a persistent gradient buffer (Megatron-LM's) keep every gradient.
    void freedGradientsAreAllocatedAfterThePeak()
    {
        const FoldedModel m = smallLlama(3584);
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        for (const std::int64_t sequence : {512, 32}) {  // activations above the gradients, then below
            Workload w = workload(16, sequence);
            const PlanEvaluation fused = CostModel(m.graph(), m.coarse, m.families, cluster, mesh, w).evaluate(plan);
            const double all = fused.total.memory.gradients;
            w.savedActivations = SavedActivations::Eager;
            const PlanEvaluation kept = CostModel(m.graph(), m.coarse, m.families, cluster, mesh, w).evaluate(plan);
            QVERIFY2(near(kept.total.memory.gradients, all), qPrintable(compared(kept.total.memory.gradients, all)));
            for (const SavedActivations saved : {SavedActivations::Eager, SavedActivations::Fused}) {
                w.savedActivations = saved;
                w.gradientLifetime = GradientLifetime::FreedBetweenSteps;
                w.microBatch = 0;
                const CostModel freed(m.graph(), m.coarse, m.families, cluster, mesh, w);
                const PlanEvaluation e = freed.evaluate(plan);
                const double live = std::max(0.0, all - e.total.memory.activations);
                QVERIFY2(near(e.total.memory.gradients, live), qPrintable(compared(e.total.memory.gradients, live)));
                QVERIFY(saved == SavedActivations::Fused || (sequence == 512 ? live == 0 : live > 0));
                PlanEvaluation totals;
                freed.evaluateTotals(plan, totals);
                QVERIFY2(near(totals.total.memory.total(), e.total.memory.total()),
                         qPrintable(compared(totals.total.memory.total(), e.total.memory.total())));
                w.microBatch = 1;  // two micro-steps of one sequence per GPU
                const PlanEvaluation accumulating =
                    CostModel(m.graph(), m.coarse, m.families, cluster, mesh, w).evaluate(plan);
                QVERIFY2(near(accumulating.total.memory.gradients, all),
                         qPrintable(compared(accumulating.total.memory.gradients, all)));
            }
        }
    }

    // Under full recomputation a block's backward holds its activations again, but not while
    // the logits' buffers of the loss are live (at the start of backward, before any block's
    // replay): the step's transient is the larger of the two, not their sum.
    void recomputedBlockAndLogitsDoNotCoexist()
    {
        const FoldedModel m = smallLlama(3584);
        const Cluster cluster = testCluster("dgx-h100x1");
        const double s = 512, b = 16.0 / 8, h = 1024, f = 3584, vocab = 32000;
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        Workload w = workload(16, 512);
        w.recompute = Recomputation::Full;
        const CostModel full(m.graph(), m.coarse, m.families, cluster, mesh, w);
        const PlanEvaluation e = full.evaluate(plan);
        // Outside: the 16-bit logits, 2sbV. Inside: the gate projection's output (2sbf) with
        // the block's activations sb(16h + 6f) replayed: 45056sb, under 2sbV = 64000sb.
        QVERIFY2(near(e.total.memory.transient, 2 * s * b * vocab),
                 qPrintable(compared(e.total.memory.transient, 2 * s * b * vocab)));
        PlanEvaluation totals;
        full.evaluateTotals(plan, totals);
        QVERIFY2(near(totals.total.memory.transient, 2 * s * b * vocab),
                 qPrintable(compared(totals.total.memory.transient, 2 * s * b * vocab)));
        // A vocabulary of 1000: the gate projection's output with the replayed block,
        // sb(2f + 16h + 6f), exceeds the logits' 2sbV and is the transient.
        const FoldedModel narrow = smallLlama(3584, 1000);
        const PlanEvaluation n = CostModel(narrow.graph(), narrow.coarse, narrow.families, cluster, mesh, w)
                                     .evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, narrow.coarse, mesh.axes()));
        const double inside = s * b * (2 * f + 16 * h + 6 * f);
        QVERIFY2(near(n.total.memory.transient, inside), qPrintable(compared(n.total.memory.transient, inside)));
    }

    // Grouped-query K and V are kept as the stack's attention call takes them, whatever the
    // kernel: Megatron-Core hands Transformer Engine num_gqa_groups (4sbh_kv bytes of K and
    // V per layer in 16 bits), torchtitan and the PyTorch export repeat them to every query
    // head first (4sbh); with no stack named, as the kernel's usual caller does (own heads
    // under cuDNN only). Besides K and V a layer keeps sb(12h + 6f) under the fused
    // accounting, sb(20h + 8f) under the PyTorch export's eager one
    // (eagerPyTorchKeepsWhatAutogradSaves).
    void groupedKeyValuesAreKeptAsTheStackCallsAttention()
    {
        const FoldedModel m = smallLlama(3584);
        const Cluster cluster = testCluster("dgx-h100x1");
        const double s = 512, b = 16.0 / 8, h = 1024, kv = 4 * (1024 / 16), f = 3584;
        const double fused = s * b * (12 * h + 6 * f), eager = s * b * (20 * h + 8 * f);
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        const double grouped = 4 * s * b * kv, repeated = 4 * s * b * h;
        const std::vector<std::tuple<TrainingStack, AttentionKernel, double>> cases{
            {TrainingStack::Megatron, AttentionKernel::FlashAttention2, fused + grouped},
            {TrainingStack::Megatron, AttentionKernel::Cudnn, fused + grouped},
            {TrainingStack::TorchTitan, AttentionKernel::FlashAttention2, fused + repeated},
            {TrainingStack::TorchTitan, AttentionKernel::Cudnn, fused + repeated},
            {TrainingStack::PyTorch, AttentionKernel::FlashAttention2, eager + repeated},
            {TrainingStack::PyTorch, AttentionKernel::Cudnn, eager + repeated},
            {TrainingStack::Any, AttentionKernel::FlashAttention2, fused + repeated},
            {TrainingStack::Any, AttentionKernel::Cudnn, fused + grouped}};
        for (const auto& [stack, kernel, expected] : cases) {
            Workload w = withStackImplementations(workload(16, 512), stack);
            w.attention = kernel;
            const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
            const double got = layerMemory(m, costs.evaluate(plan), 1).activations;
            QVERIFY2(near(got, expected), qPrintable(QString::fromUtf8(keyValueHeadsName(w.keyValueHeads)) +
                                                     QStringLiteral(" ") + QString::fromUtf8(attentionKernelName(kernel)) +
                                                     QStringLiteral(": ") + compared(got, expected)));
        }
    }

    // Full recomputation keeps each layer's input only (2sbh) and repeats its forward pass.
    void fullRecomputationKeepsLayerInputs()
    {
        const FoldedModel m = gptWithDropout();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}, {"tp", 1}}, cluster);
        Workload w = workload(8, 512);
        const CostModel none(m.graph(), m.coarse, m.families, cluster, mesh, w);
        w.recompute = Recomputation::Full;
        const CostModel full(m.graph(), m.coarse, m.families, cluster, mesh, w);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        const PlanEvaluation kept = none.evaluate(plan);
        const PlanEvaluation recomputed = full.evaluate(plan);
        const double sbh = 512.0 * (8 / 8) * kHidden;
        QVERIFY2(near(layerMemory(m, recomputed, 1).activations, 2 * sbh),
                 qPrintable(compared(layerMemory(m, recomputed, 1).activations, 2 * sbh)));
        // The repeated forward pass is a third of the layer's forward + backward compute.
        CostBreakdown layerKept;
        CostBreakdown layerRecomputed;
        for (const CoarseNodeId id : m.families.families.front().instances.at(1).nodes) {
            layerKept.add(kept.perNode[id.index()]);
            layerRecomputed.add(recomputed.perNode[id.index()]);
        }
        QVERIFY(layerRecomputed.time.recomputeSeconds > 0);
        QVERIFY(near(layerRecomputed.time.computeSeconds - layerKept.time.computeSeconds,
                     layerRecomputed.time.recomputeSeconds));
    }

    // PyTorch's non-reentrant checkpoint stops its replay once the backward has every
    // tensor back (CheckpointReplay::StopsEarly): a block without dropout runs again all
    // but its last matmul (the second MLP projection, whose input the replay has just made)
    // and the residual add after it; with dropout after that matmul, whose mask the replay
    // must make, it runs the whole block, as Megatron-LM's reentrant checkpoint always does.
    void pyTorchCheckpointStopsBeforeTheLastMatmul()
    {
        ModelSpec spec = findSynthPreset("gpt2-small")->spec;
        spec.layers = 3;
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        for (const bool dropout : {false, true}) {
            spec.dropout = dropout;
            const FoldedModel m = foldModel(synthesizeModel(spec, "gpt"));
            Workload w = workload(16, 1024);
            w.recompute = Recomputation::Full;
            const CostModel whole(m.graph(), m.coarse, m.families, cluster, mesh, w);
            w.checkpointReplay = CheckpointReplay::StopsEarly;
            const CostModel early(m.graph(), m.coarse, m.families, cluster, mesh, w);
            const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
            const PlanEvaluation all = whole.evaluate(plan);
            const PlanEvaluation stopped = early.evaluate(plan);
            const std::vector<CoarseNodeId>& block = m.families.families.front().instances.at(1).nodes;
            std::size_t lastLinear = 0;
            for (std::size_t i = 0; i < block.size(); ++i) {
                if (m.coarse.node(block[i]).kind == CoarseNodeKind::Linear)
                    lastLinear = i;
            }
            QVERIFY(m.coarse.node(block[lastLinear]).name.find("mlp") != std::string::npos);
            QCOMPARE(block.size(), lastLinear + 2);  // the residual add follows it
            for (std::size_t i = 0; i < block.size(); ++i) {
                const CoarseNode& node = m.coarse.node(block[i]);
                const double again = stopped.perNode[block[i].index()].time.recomputeSeconds;
                const double forward = all.perNode[block[i].index()].time.recomputeSeconds;
                QVERIFY2(forward > 0, node.name.c_str());
                const double expected = !dropout && i >= lastLinear ? 0.0 : forward;
                QVERIFY2(near(again, expected), qPrintable(QString::fromStdString(node.name + ": ") + compared(again, expected)));
                QCOMPARE(early.facts(block[i]).pastReplayStop, !dropout && i >= lastLinear);
            }
            // Nothing else changes: what the block keeps and everything outside recomputation.
            QVERIFY(near(stopped.total.memory.total(), all.total.memory.total()));
            QVERIFY(near(stopped.total.time.computeSeconds - stopped.total.time.recomputeSeconds,
                         all.total.time.computeSeconds - all.total.time.recomputeSeconds));
        }
    }

    // torchtitan's op-level selective recomputation (parallelize_llama's _custom_policy):
    // of a Llama block's seven matmuls in forward order (q, k, v, o, gate, up, down) the
    // first, third, fifth and seventh keep their outputs, as does attention; the block
    // keeps those and its input, 2sb(4h + h_kv + f) bytes in 16 bits, and runs again the
    // forward of k, o, up and of every elementwise op (the kept matmuls' followers too), as
    // full recomputation does.
    void torchTitanKeepsEveryOtherMatmul()
    {
        const FoldedModel m = smallLlama(2816);
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        Workload w = workload(16, 512);
        w.recompute = Recomputation::Selective;
        w.selective = SelectiveRecomputation::EveryOtherMatmul;
        const CostModel perOp(m.graph(), m.coarse, m.families, cluster, mesh, w);
        w.recompute = Recomputation::Full;
        const CostModel full(m.graph(), m.coarse, m.families, cluster, mesh, w);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        const PlanEvaluation kept = perOp.evaluate(plan);
        const PlanEvaluation recomputed = full.evaluate(plan);

        const double s = 512, b = 16.0 / 8, h = 1024, kv = 4 * (1024 / 16), f = 2816;
        const double expected = 2 * s * b * (4 * h + kv + f);
        QVERIFY2(near(layerMemory(m, kept, 1).activations, expected),
                 qPrintable(compared(layerMemory(m, kept, 1).activations, expected)));

        const std::vector<std::pair<std::string, int>> linears{{"q_proj", 1},  {"k_proj", 2},    {"v_proj", 3},
                                                               {"o_proj", 4},  {"gate_proj", 5}, {"up_proj", 6},
                                                               {"down_proj", 7}};
        int seen = 0;
        for (const CoarseNodeId id : m.families.families.front().instances.at(1).nodes) {
            const CoarseNode& node = m.coarse.node(id);
            const double again = kept.perNode[id.index()].time.recomputeSeconds;
            const double whole = recomputed.perNode[id.index()].time.recomputeSeconds;
            if (node.kind == CoarseNodeKind::Linear) {
                const auto named = std::find_if(linears.begin(), linears.end(), [&](const auto& l) {
                    return node.name.find("/" + l.first + "/") != std::string::npos;
                });
                QVERIFY2(named != linears.end(), node.name.c_str());
                QCOMPARE(perOp.facts(id).linearOrdinal, named->second);
                ++seen;
                if (named->second % 2 == 1) {
                    // Only its elementwise followers (rotary embedding, reshapes) run again.
                    const double followers = memoryBoundSeconds(cluster.gpu, perOp.facts(id).memoryBoundBytes / 8);
                    QVERIFY2(near(again, followers) && again < whole,
                             qPrintable(QString::fromStdString(node.name + ": ") + compared(again, followers)));
                    continue;
                }
            }
            if (node.kind == CoarseNodeKind::BatchedMatMul) {
                // SDPA's output is kept: at most the reshapes around the kernel run again.
                const double followers = memoryBoundSeconds(cluster.gpu, perOp.facts(id).memoryBoundBytes / 8);
                QVERIFY2(again <= followers * (1 + 1e-9) && again < whole,
                         qPrintable(QString::fromStdString(node.name + ": ") + compared(again, followers)));
                continue;
            }
            QVERIFY2(near(again, whole), qPrintable(QString::fromStdString(node.name + ": ") + compared(again, whole)));
        }
        QCOMPARE(seen, 7);
        QVERIFY(kept.total.time.recomputeSeconds > 0.25 * recomputed.total.time.recomputeSeconds);
        QVERIFY(kept.total.time.recomputeSeconds < recomputed.total.time.recomputeSeconds);
    }

    // A model re-targeted to other techniques (what a search does per mesh and
    // micro-batch) prices every plan exactly as one bound with those techniques: no
    // fact bound at construction may depend on recomputation or the ZeRO stage.
    void otherTechniquesPriceAsAFreshBinding()
    {
        const FoldedModel m = gptWithDropout();
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 4}, {"tp", 2}}, cluster);
        Workload w = workload(16, 1024);
        w.microBatch = 2;
        const CostModel bound(m.graph(), m.coarse, m.families, cluster, mesh, w);
        for (const ExpertPlanKind kind : {ExpertPlanKind::DataParallel, ExpertPlanKind::MegatronSequenceParallel}) {
            const Plan plan = makeExpertPlan(kind, m.coarse, mesh.axes());
            for (const Recomputation recompute : {Recomputation::None, Recomputation::Selective, Recomputation::Full}) {
                for (const int zero : {0, 1, 2, 3}) {
                    Workload other = w;
                    other.recompute = recompute;
                    other.zeroStage = zero;
                    const CostModel fresh(m.graph(), m.coarse, m.families, cluster, mesh, other);
                    const CostBreakdown got = bound.withTechniques(recompute, zero, 1).evaluate(plan).total;
                    const CostBreakdown expected = fresh.evaluate(plan).total;
                    QCOMPARE(got.time.stepSeconds(), expected.time.stepSeconds());
                    QCOMPARE(got.memory.total(), expected.memory.total());
                    QCOMPARE(got.time.recomputeSeconds, expected.time.recomputeSeconds);
                }
            }
        }
    }

    // ZeRO 3 (FSDP): per micro-step the parameters are gathered twice and the gradients
    // reduce-scattered once (in FSDP's reduce type: fp32 by default, the compute type if
    // asked): 1.5x the all-reduce volume of ZeRO 0 per micro-step with a 16-bit reduce.
    void fsdpGathersAndScattersPerMicroStep()
    {
        const FoldedModel m = gptWithDropout(2);
        const Cluster cluster = bandwidthOnlyCluster();
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        Workload w = workload(32, 256);
        w.microBatch = 2;  // 32 / (2 x 8) = 2 micro-steps
        w.zeroStage = 3;
        w.overlap = false;
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
        QCOMPARE(costs.microSteps(), 2);
        const PlanEvaluation e = costs.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes()));
        const double p = parameterElements(costs, m);
        const double ring = 7.0 / 8 * 2 * p / cluster.intraNode.bytesPerSecond;  // one pass over bf16 parameters
        const TimeBreakdown& t = e.total.time;
        QVERIFY2(near(t.byCollective[static_cast<std::size_t>(CollectiveKind::AllGather)], 2 * 2 * ring),
                 qPrintable(compared(t.byCollective[static_cast<std::size_t>(CollectiveKind::AllGather)], 4 * ring)));
        QVERIFY(near(t.byCollective[static_cast<std::size_t>(CollectiveKind::ReduceScatter)], 2 * 2 * ring));
        QCOMPARE(t.byCollective[static_cast<std::size_t>(CollectiveKind::AllReduce)], 0.0);
        Workload bf16 = w;
        bf16.gradientReduceType = DataType::BFloat16;
        const CostModel reducedInBf16(m.graph(), m.coarse, m.families, cluster, mesh, bf16);
        QVERIFY(near(reducedInBf16.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes()))
                         .total.time.byCollective[static_cast<std::size_t>(CollectiveKind::ReduceScatter)],
                     2 * ring));
        // Every state is sharded 8 ways.
        QVERIFY(near(e.total.memory.parameters, 2 * p / 8));
        QVERIFY(near(e.total.memory.optimizerStates, 12 * p / 8));

        // ZeRO 0 all-reduces once per step whatever the micro-steps: 2(n-1)/n * 2P / B.
        w.zeroStage = 0;
        const CostModel ddp(m.graph(), m.coarse, m.families, cluster, mesh, w);
        const PlanEvaluation d = ddp.evaluate(makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes()));
        QVERIFY(near(d.total.time.byCollective[static_cast<std::size_t>(CollectiveKind::AllReduce)], 2 * ring));
        QVERIFY(near(d.total.memory.parameters, 2 * p));
    }

    // ZeRO shards a node's states over its data-parallel ranks only, as Megatron-LM's
    // distributed optimizer, FSDP and DeepSpeed do: on [dp 2, tp 4] under Megatron's
    // sequence parallelism, the norms (sequence split on tp) keep their states sharded 2
    // ways, not 8, and sum their gradients over tp. Per device, with P_t the parameters of
    // the nodes that split their weights on tp and P_r the rest: ZeRO 1 keeps 12 bytes of
    // Adam states per (P_t / 4 + P_r) / 2; ZeRO 3 every state over 2, gathers the bf16
    // parameters twice and reduce-scatters the gradients in fp32 once per micro-step over
    // dp ((n - 1)/n x S / B, n = 2), and all-reduces the norms' bf16 gradients over tp
    // (2(n - 1)/n x S / B, n = 4) per micro-step.
    void zeroShardsOverDataRanksOnly()
    {
        const FoldedModel m = gptWithDropout(2);
        const Cluster cluster = bandwidthOnlyCluster();
        const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::MegatronSequenceParallel, m.coarse, mesh.axes());
        Workload w = workload(8, 256);
        w.microBatch = 2;  // 8 / (2 x 2) = 2 micro-steps
        w.overlap = false;
        w.zeroStage = 1;
        const CostModel zero1(m.graph(), m.coarse, m.families, cluster, mesh, w);
        double split = 0;
        double rest = 0;
        double norms = 0;  // of `rest`, the sequence-parallel ones
        for (const CoarseNode& node : m.coarse.nodes) {
            const AxisSplits& axes = plan.strategy(node.id).axes;
            QCOMPARE(axes[0], AxisSplit::Batch);
            const double p = zero1.facts(node.id).parameterElements;
            (splitsWeights(axes[1]) ? split : rest) += p;
            if (axes[1] == AxisSplit::Sequence)
                norms += p;
        }
        QVERIFY(norms > 0);
        const double local = split / 4 + rest;
        const PlanEvaluation e1 = zero1.evaluate(plan);
        QCOMPARE(e1.microBatches, 2);
        QVERIFY2(near(e1.total.memory.optimizerStates, 12 * local / 2),
                 qPrintable(compared(e1.total.memory.optimizerStates, 12 * local / 2)));
        QVERIFY(near(e1.total.memory.parameters, 2 * local));

        w.zeroStage = 3;
        const CostModel zero3(m.graph(), m.coarse, m.families, cluster, mesh, w);
        const PlanEvaluation e3 = zero3.evaluate(plan);
        QVERIFY(near(e3.total.memory.parameters, 2 * local / 2));
        QVERIFY(near(e3.total.memory.gradients, 2 * local / 2));
        QVERIFY(near(e3.total.memory.optimizerStates, 12 * local / 2));
        const double bandwidth = cluster.intraNode.bytesPerSecond;
        const double expected = 2 * ((2 + 2 + 4) * 0.5 * local / bandwidth + 2 * 0.75 * 2 * norms / bandwidth);
        QVERIFY2(near(e3.total.time.dataParallelSeconds, expected),
                 qPrintable(compared(e3.total.time.dataParallelSeconds, expected)));
    }

    // ZeRO shards over a node's data ranks: with none every stage runs as ZeRO 0
    // (effectiveZeroStage). GPT-2-wide layers on [dp 1, tp 8] with the sequence-parallel
    // plan, 4 micro-steps of 2: the sequence-parallel norms' bf16 gradients (2 bytes per
    // parameter) are all-reduced over tp once per step, 2 x 7/8 x 2 P / B, at every stage
    // (ZeRO 2/3 priced them per micro-step, four times that), and nothing is gathered or
    // reduce-scattered: the step and the memory are ZeRO 0's.
    void zeroShardsNothingWithoutDataRanks()
    {
        const FoldedModel m = gptWithDropout(2);
        const Cluster cluster = bandwidthOnlyCluster();
        const DeviceMesh mesh({{"dp", 1}, {"tp", 8}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::MegatronSequenceParallel, m.coarse, mesh.axes());
        Workload w = workload(8, 256);
        w.microBatch = 2;
        w.overlap = false;
        const CostModel zero0(m.graph(), m.coarse, m.families, cluster, mesh, w);
        double norms = 0;
        for (const CoarseNode& node : m.coarse.nodes)
            if (plan.strategy(node.id).axes[1] == AxisSplit::Sequence)
                norms += zero0.facts(node.id).parameterElements;
        QVERIFY(norms > 0);
        const PlanEvaluation e0 = zero0.evaluate(plan);
        QCOMPARE(e0.microBatches, 4);
        const double expected = 2 * 0.875 * 2 * norms / cluster.intraNode.bytesPerSecond;
        QVERIFY2(near(e0.total.time.dataParallelSeconds, expected),
                 qPrintable(compared(e0.total.time.dataParallelSeconds, expected)));
        for (const int stage : {1, 2, 3}) {
            w.zeroStage = stage;
            const CostModel zero(m.graph(), m.coarse, m.families, cluster, mesh, w);
            const PlanEvaluation e = zero.evaluate(plan);
            QVERIFY2(near(e.total.time.dataParallelSeconds, expected),
                     qPrintable(compared(e.total.time.dataParallelSeconds, expected)));
            QCOMPARE(e.total.time.stepSeconds(), e0.total.time.stepSeconds());
            QCOMPARE(e.total.memory.total(), e0.total.memory.total());
            PlanEvaluation totals;
            zero.evaluateTotals(plan, totals);
            QVERIFY(near(totals.total.time.stepSeconds(), e0.total.time.stepSeconds()));
        }
        QCOMPARE(effectiveZeroStage(3, 1), 0);
        QCOMPARE(effectiveZeroStage(3, 2), 3);
    }

    // HSDP (Workload::zeroReplicas): 16 data-parallel ranks on two nodes of 8 as 2 replicas
    // of a shard group of 8, one per node. Each rank keeps 1/8 of every state; per
    // micro-step the bf16 parameters are gathered twice and the fp32 gradients
    // reduce-scattered once within the node ((n - 1)/n x S / B_intra, n = 8), and each
    // reduce-scatter's output, S / 8, is all-reduced over the 2 replicas across the nodes
    // (2(n - 1)/n x S / 8 / B_inter, n = 2). One replica is FSDP over all 16 ranks: states / 16.
    void hybridShardingShardsWithinAndReducesAcross()
    {
        const FoldedModel m = gptWithDropout(2);
        const Cluster cluster = bandwidthOnlyCluster().withNodes(2);
        const DeviceMesh mesh({{"dp", 16}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        Workload w = workload(64, 256);
        w.microBatch = 2;  // 64 / (2 x 16) = 2 micro-steps
        w.overlap = false;
        w.zeroStage = 3;
        const CostModel fsdp(m.graph(), m.coarse, m.families, cluster, mesh, w);
        const double p = parameterElements(fsdp, m);
        const PlanEvaluation whole = fsdp.evaluate(plan);
        QCOMPARE(whole.microBatches, 2);
        QVERIFY(near(whole.total.memory.optimizerStates, 12 * p / 16));
        QVERIFY(near(whole.total.memory.parameters, 2 * p / 16));

        w.zeroReplicas = 2;
        const CostModel hsdp(m.graph(), m.coarse, m.families, cluster, mesh, w);
        const PlanEvaluation e = hsdp.evaluate(plan);
        QVERIFY(near(e.total.memory.parameters, 2 * p / 8));
        QVERIFY(near(e.total.memory.gradients, 2 * p / 8));
        QVERIFY(near(e.total.memory.optimizerStates, 12 * p / 8));
        const TimeBreakdown& t = e.total.time;
        const double within = 7.0 / 8 * 2 * p / cluster.intraNode.bytesPerSecond;  // bf16; the fp32 scatter twice
        const double across = 2 * 0.5 * 4 * p / 8 / cluster.interNode.bytesPerSecond;
        const auto seconds = [&](CollectiveKind kind) { return t.byCollective[static_cast<std::size_t>(kind)]; };
        QVERIFY2(near(seconds(CollectiveKind::AllGather), 2 * 2 * within),
                 qPrintable(compared(seconds(CollectiveKind::AllGather), 4 * within)));
        QVERIFY(near(seconds(CollectiveKind::ReduceScatter), 2 * 2 * within));
        QVERIFY2(near(seconds(CollectiveKind::AllReduce), 2 * across),
                 qPrintable(compared(seconds(CollectiveKind::AllReduce), 2 * across)));
        QVERIFY(near(t.dataParallelSeconds, 2 * (4 * within + across)));
    }

    // PyTorch FSDP assembles, casts to fp32 and pre-divides every block's whole gradient on
    // every micro-step before reduce-scattering it (cost/FsdpGradientCopies.h): 18 bytes per
    // parameter through HBM at kHbmShare of its bandwidth, m times per step, whatever the
    // ranks (each holds the block unsharded); FSDP2 copies 10 (ZeRO 2) or 14 (ZeRO 3).
    // Megatron-LM's fp32 main gradients and DeepSpeed's ZeRO have no such pass; Megatron-FSDP
    // has its own (below).
    void fsdpCastsEachMicroStepsWholeGradient()
    {
        const FoldedModel m = gptWithDropout(2);
        for (const int nodes : {1, 2}) {
            const Cluster cluster = bandwidthOnlyCluster().withNodes(nodes);
            const int ranks = 8 * nodes;
            const DeviceMesh mesh({{"dp", ranks}}, cluster);
            const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
            Workload w = workload(64, 256);
            w.microBatch = 2;  // 64 / (2 x 8) = 4 micro-steps on 8 ranks, 2 on 16
            w.zeroStage = 1;
            const CostModel zero1(m.graph(), m.coarse, m.families, cluster, mesh, w);
            const int steps = zero1.evaluate(plan).microBatches;
            QCOMPARE(steps, 32 / ranks);
            const double p = parameterElements(zero1, m);
            const double expected = steps * 18 * p / (cluster.gpu.hbmBytesPerSecond * kHbmShare);
            for (const int zero : {2, 3}) {
                w.zeroStage = zero;
                const CostModel fsdp(m.graph(), m.coarse, m.families, cluster, mesh, w);
                const double got = fsdp.evaluate(plan).total.time.computeSeconds - zero1.evaluate(plan).total.time.computeSeconds;
                QVERIFY2(near(got, expected), qPrintable(compared(got, expected)));
                // FSDP2 (fully_shard): the reduce-scatter's copy-in with its cast to fp32 (2 + 4
                // bytes) and a copy out of each all-gather (2 + 2): one gather per micro-step
                // under ZeRO 2, two under ZeRO 3.
                Workload fsdp2 = w;
                fsdp2.zeroImplementation = ZeroImplementation::Fsdp2;
                const CostModel fullyShard(m.graph(), m.coarse, m.families, cluster, mesh, fsdp2);
                const double copies = zero == 3 ? 6 + 2 * 4 : 6 + 4;
                const double expected2 = steps * copies * p / (cluster.gpu.hbmBytesPerSecond * kHbmShare);
                const double got2 =
                    fullyShard.evaluate(plan).total.time.computeSeconds - zero1.evaluate(plan).total.time.computeSeconds;
                QVERIFY2(near(got2, expected2), qPrintable(compared(got2, expected2)));
                // Reduced in bf16: FSDP2's copy-in writes 2 bytes instead of 4; FSDP1 casts
                // nothing and divides in bf16 (2 + 2 assembling, 2 + 2 dividing).
                for (const auto& [implementation, bytes] :
                     {std::pair{ZeroImplementation::Fsdp2, copies - 2}, std::pair{ZeroImplementation::Fsdp, 8.0}}) {
                    Workload bf16 = w;
                    bf16.zeroImplementation = implementation;
                    bf16.gradientReduceType = DataType::BFloat16;
                    const CostModel reduced(m.graph(), m.coarse, m.families, cluster, mesh, bf16);
                    const double expected3 = steps * bytes * p / (cluster.gpu.hbmBytesPerSecond * kHbmShare);
                    const double got3 =
                        reduced.evaluate(plan).total.time.computeSeconds - zero1.evaluate(plan).total.time.computeSeconds;
                    QVERIFY2(near(got3, expected3), qPrintable(compared(got3, expected3)));
                }
                Workload other = w;
                other.fp32MainGradients = true;
                Workload base = other;
                base.zeroStage = 1;
                const CostModel megatron(m.graph(), m.coarse, m.families, cluster, mesh, other);
                const CostModel megatronZero1(m.graph(), m.coarse, m.families, cluster, mesh, base);
                QVERIFY(near(megatron.evaluate(plan).total.time.computeSeconds,
                             megatronZero1.evaluate(plan).total.time.computeSeconds));
                Workload deepSpeed = w;
                deepSpeed.zeroImplementation = ZeroImplementation::DeepSpeed;
                const CostModel deepSpeedCosts(m.graph(), m.coarse, m.families, cluster, mesh, deepSpeed);
                QVERIFY(near(deepSpeedCosts.evaluate(plan).total.time.computeSeconds,
                             zero1.evaluate(plan).total.time.computeSeconds));
                // Megatron-FSDP: the GEMM writes its bucket, the gather fills it; a bf16 bucket
                // is scaled by 1/ranks in place (2 + 2 bytes), fp32's scale is fused into the
                // collective; each adds its reduced shard to the main gradient (2 reads and a
                // write of 1/ranks of the block in the bucket's type).
                for (const bool fp32 : {false, true}) {
                    Workload megatronFsdp = w;
                    megatronFsdp.zeroImplementation = ZeroImplementation::MegatronFsdp;
                    megatronFsdp.fp32MainGradients = fp32;
                    Workload itsZero1 = megatronFsdp;
                    itsZero1.zeroStage = 1;
                    const CostModel sharded(m.graph(), m.coarse, m.families, cluster, mesh, megatronFsdp);
                    const CostModel unsharded(m.graph(), m.coarse, m.families, cluster, mesh, itsZero1);
                    const double bytes = fp32 ? 3.0 * 4 / ranks : 4 + 3.0 * 2 / ranks;
                    const double expected4 = steps * bytes * p / (cluster.gpu.hbmBytesPerSecond * kHbmShare);
                    const double got4 = sharded.evaluate(plan).total.time.computeSeconds -
                                        unsharded.evaluate(plan).total.time.computeSeconds;
                    QVERIFY2(near(got4, expected4), qPrintable(compared(got4, expected4)));
                }
            }
        }
    }

    // Transformer Engine's tensor-parallel overlap (Workload::tensorParallelOverlap) runs
    // each gather or scatter of sequence parallelism inside a block in n chunks beside the
    // n chunks of the GEMM it feeds or drains: with links fast enough that each chunk's
    // transfer takes less than a GEMM chunk, only the first (or last) chunk shows, 1/n of
    // the collective. Blocks repeat, so a block's share is what 4 layers cost over 2,
    // halved; the rest (the embedding's scatter, the head's gather) is not overlapped.
    void tensorParallelOverlapLeavesOneChunkPerCollective()
    {
        Cluster cluster = bandwidthOnlyCluster();
        cluster.intraNode.bytesPerSecond = 1e13;
        const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, cluster);
        Workload plain = workload(8, 1024);
        Workload overlapped = plain;
        overlapped.tensorParallelOverlap = true;
        struct Gathers {
            double block = 0;
            double rest = 0;
            bool totalsAgree = true;  // evaluateTotals prices the same step
        };
        auto gathersAndScatters = [&](const Workload& w) -> Gathers {
            double total[2] = {0, 0};
            int i = 0;
            bool agree = true;
            for (const std::int64_t layers : {2, 4}) {
                const FoldedModel m = gptWithDropout(layers);
                const Plan plan = makeExpertPlan(ExpertPlanKind::MegatronSequenceParallel, m.coarse, mesh.axes());
                const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
                const PlanEvaluation e = costs.evaluate(plan);
                const auto& c = e.total.time.byCollective;
                total[i++] = c[static_cast<std::size_t>(CollectiveKind::AllGather)] +
                             c[static_cast<std::size_t>(CollectiveKind::ReduceScatter)];
                PlanEvaluation totals;
                costs.evaluateTotals(plan, totals);
                agree = agree && near(totals.total.time.stepSeconds(), e.total.time.stepSeconds(), 1e-9);
            }
            const double block = (total[1] - total[0]) / 2;
            return Gathers{block, total[0] - 2 * block, agree};
        };
        const Gathers without = gathersAndScatters(plain);
        const Gathers with = gathersAndScatters(overlapped);
        QVERIFY(without.block > 0 && without.rest > 0);
        QVERIFY(without.totalsAgree && with.totalsAgree);
        // One chunk of four exposed; the three hidden slow the GEMM chunks beside them.
        const double exposedShare = 0.25 + 0.75 * 0.189 / 1.189;
        QVERIFY2(near(with.block, without.block * exposedShare, 1e-9),
                 qPrintable(compared(with.block, without.block * exposedShare)));
        QVERIFY2(near(with.rest, without.rest, 1e-9), qPrintable(compared(with.rest, without.rest)));
    }

    // Gradient accumulation: m micro-steps keep 1/m of the activations, compute the
    // same while their GEMMs stay math-bound (4,096 tokens per micro-step here; thinner
    // ones pay for re-reading the weights and their gradients: test_kernel_shape), and
    // synchronize the gradients once.
    void accumulationDividesActivationsNotGradientSync()
    {
        const FoldedModel m = gptWithDropout(2);
        const Cluster cluster = bandwidthOnlyCluster();
        const DeviceMesh mesh({{"dp", 8}}, cluster);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        Workload whole = workload(64, 2048);
        whole.overlap = false;
        Workload accumulated = whole;
        accumulated.microBatch = 2;  // 64 / (2 x 8) = 4 micro-steps
        const CostModel one(m.graph(), m.coarse, m.families, cluster, mesh, whole);
        const CostModel four(m.graph(), m.coarse, m.families, cluster, mesh, accumulated);
        QCOMPARE(four.microSteps(), 4);
        const PlanEvaluation a = one.evaluate(plan);
        const PlanEvaluation b = four.evaluate(plan);
        QVERIFY(near(b.total.memory.activations, a.total.memory.activations / 4));
        QVERIFY(near(b.total.time.computeSeconds, a.total.time.computeSeconds, 1e-6));
        QVERIFY(near(b.total.time.communicationSeconds(), a.total.time.communicationSeconds()));
    }

    // B = m x b x d with d the axes the plan splits the batch on, whatever they are
    // called: renaming the axes changes no price.
    void dataParallelDegreeComesFromThePlansBatchSplits()
    {
        const FoldedModel m = gptWithDropout(2);
        const Cluster cluster = testCluster("dgx-h100x2");
        Workload w = workload(16, 256);
        w.microBatch = 1;
        auto priced = [&](const std::vector<MeshAxis>& axes, Plan plan) {
            const DeviceMesh mesh(axes, cluster);
            plan.mesh = axes;
            return CostModel(m.graph(), m.coarse, m.families, cluster, mesh, w).evaluate(plan);
        };
        const std::vector<MeshAxis> named{{"dp", 2}, {"cp", 2}, {"tp", 4}};
        const std::vector<MeshAxis> plain{{"a0", 2}, {"a1", 2}, {"a2", 4}};
        // Context parallel on the last axis: the batch splits over the first two, 16 / (1 x 4).
        const Plan ring = makeExpertPlan(ExpertPlanKind::RingAttention, m.coarse, named);
        // Every node splits the batch on every axis: 16 / (1 x 16), one micro-step.
        const Plan data = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, named);
        // Megatron with its middle axis turned to the sequence: only the first axis is data parallel.
        Plan middle = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, named);
        for (NodeStrategy& strategy : middle.strategies)
            strategy.axes[1] = AxisSplit::Sequence;
        for (const auto& [plan, degree, steps] :
             {std::tuple{ring, 4, 4}, std::tuple{data, 16, 1}, std::tuple{middle, 2, 8}}) {
            const PlanEvaluation a = priced(named, plan);
            const PlanEvaluation b = priced(plain, plan);
            QCOMPARE(a.dataParallelDegree, degree);
            QCOMPARE(a.microBatches, steps);
            QCOMPARE(b.microBatches, steps);
            QCOMPARE(a.total.time.stepSeconds(), b.total.time.stepSeconds());
            QCOMPARE(a.total.memory.total(), b.total.memory.total());
        }
    }

    // The compute beside communication runs 18.9 % slower: of O = communication - last
    // bucket beside H of compute, O - H shows while the communication sets the pace
    // (H x 1.189 <= O), else the slowed compute ends O x 0.189 / 1.189 late.
    void overlapNeverHidesMoreThanTheComputeAvailable()
    {
        const double slowed = 0.189 / 1.189;
        QVERIFY(near(hiddenCommunicationCost(1.189), 0.189));  // 1 s of compute takes 1.189 beside it
        QVERIFY(near(exposedCommunicationSeconds(10, 100, 5), 2 + 8 * slowed));  // all but the last bucket hidden
        QCOMPARE(exposedCommunicationSeconds(10, 3, 5), 7.0);  // 2 + (8 - 3): 3 x 1.189 ends before the 8
        QVERIFY(near(exposedCommunicationSeconds(10, 7, 5), 2 + 8 * slowed));  // 7 x 1.189 = 8.32 outlasts the 8
        QVERIFY(near(exposedCommunicationSeconds(10, 8 / 1.189, 5), 2 + 8 - 8 / 1.189));  // both bounds meet
        QCOMPARE(exposedCommunicationSeconds(10, 0, 5), 10.0);                   // nothing to hide under
        QCOMPARE(exposedCommunicationSeconds(0, 5, 5), 0.0);
        QCOMPARE(exposedCommunicationSeconds(10, 100, 1), 10.0);  // one bucket: always exposed

        // In the model: data parallelism across two nodes, with and without overlap.
        const FoldedModel m = gptWithDropout(2);
        const Cluster cluster = testCluster("dgx-h100x2");
        const DeviceMesh mesh({{"dp", 16}}, cluster);
        Workload w = workload(32, 512);
        const Plan plan = makeExpertPlan(ExpertPlanKind::DataParallel, m.coarse, mesh.axes());
        const PlanEvaluation on = CostModel(m.graph(), m.coarse, m.families, cluster, mesh, w).evaluate(plan);
        w.overlap = false;
        const PlanEvaluation off = CostModel(m.graph(), m.coarse, m.families, cluster, mesh, w).evaluate(plan);
        QCOMPARE(off.total.time.hiddenSeconds, 0.0);
        QVERIFY(on.total.time.hiddenSeconds > 0);
        QVERIFY(near(on.total.time.communicationSeconds(), off.total.time.communicationSeconds()));
        // Hidden under at most the backward compute; the last of three buckets stays exposed.
        QVERIFY(on.total.time.hiddenSeconds <= on.total.time.computeSeconds);
        QVERIFY(on.total.time.exposedCommunicationSeconds() >= on.total.time.communicationSeconds() / 3 * (1 - 1e-9));
        QVERIFY(near(on.total.time.stepSeconds(), on.total.time.computeSeconds + on.total.time.exposedCommunicationSeconds()));
    }

    // Logits reach the loss: vocabulary-split logits pay the vocab-parallel
    // cross-entropy's three fp32 all-reduces per token row; partial sums pay a
    // reduce-scatter of the logits (and its all-gather in backward) on top.
    void lossPricesVocabularySplitAndPartialLogits()
    {
        const FoldedModel m = gptWithDropout(2);
        const Cluster cluster = bandwidthOnlyCluster();
        const DeviceMesh mesh({{"tp", 8}}, cluster);
        const Workload w = workload(4, 256);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w);
        Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh.axes());
        CoarseNodeId head;
        for (const CoarseNode& node : m.coarse.nodes) {
            if (node.name.starts_with("lm_head"))
                head = node.id;
        }
        QVERIFY(head.isValid());
        QCOMPARE(plan.strategy(head).axes[0], AxisSplit::Column);
        const double rows = 4.0 * 256;
        const double vocabParallel = 3 * 2.0 * 7 / 8 * (4 * rows) / cluster.intraNode.bytesPerSecond;
        const TimeBreakdown column = costs.evaluate(plan).perNode[head.index()].time;
        QVERIFY2(near(column.communicationSeconds(), vocabParallel), qPrintable(compared(column.communicationSeconds(), vocabParallel)));

        plan.strategies[head.index()].axes[0] = AxisSplit::Row;
        const TimeBreakdown row = costs.evaluate(plan).perNode[head.index()].time;
        const double logits = rows * 50257 * 2;
        const double partial = 2 * 7.0 / 8 * logits / cluster.intraNode.bytesPerSecond;
        QVERIFY2(near(row.byCollective[static_cast<std::size_t>(CollectiveKind::ReduceScatter)] +
                          row.byCollective[static_cast<std::size_t>(CollectiveKind::AllGather)],
                      partial),
                 qPrintable(compared(row.communicationSeconds(), partial)));
        QVERIFY(row.communicationSeconds() > 100 * column.communicationSeconds());
    }

    // Stages of unequal time (the loss on the last, the embedding on the first): the step
    // is m times the slowest stage's micro-batch time plus every other stage's once, over
    // v interleaved. 4 stages of 1, 1, 1 and 2 s per micro-batch, 8 micro-batches: 1F1B
    // 8 x 2 + 3 = 19 s, interleaved over 2 chunks 16 + 3/2 = 17.5 s; a first stage of
    // 1.2 s: 19.2 and 17.6 s. Megatron-LM's schedules simulated op by op (each stage's
    // warm-up, one forward and one backward in turn, cool-down; forward a third of a
    // stage's time) end at the same times; the slowest stage's 2 s for each of the
    // p - 1 fill slots said 22 and 19 s.
    void pipelineFillPassesEachOtherStageOnce()
    {
        auto priced = [](std::vector<double> seconds, int virtualStages) {
            PipelineLayout layout;
            layout.stages = static_cast<int>(seconds.size());
            layout.virtualStages = virtualStages;
            layout.schedule = virtualStages > 1 ? PipelineSchedule::Interleaved : PipelineSchedule::OneFOneB;
            const int microBatches = 8;
            std::vector<StageNodes> stages(seconds.size());
            for (std::size_t s = 0; s < seconds.size(); ++s) {
                stages[s].microBatchSeconds = seconds[s];
                stages[s].time.computeSeconds = microBatches * seconds[s];
            }
            const std::size_t blocks = seconds.size() * static_cast<std::size_t>(virtualStages);
            PlanEvaluation evaluation;
            priceStageNodes(evaluation, layout, blocks, std::move(stages), 0, microBatches,
                            std::vector<double>(blocks, 0.0), false);
            return evaluation;
        };
        // Every stage's step is its busy time plus its wait (bubbleSeconds).
        auto step = [&](std::vector<double> seconds, int virtualStages) {
            const PlanEvaluation evaluation = priced(std::move(seconds), virtualStages);
            double longest = 0;
            double shortest = evaluation.total.time.stepSeconds() * 2;
            for (const StageCost& stage : evaluation.stages) {
                longest = std::max(longest, stage.cost.time.stepSeconds());
                shortest = std::min(shortest, stage.cost.time.stepSeconds());
            }
            return near(longest, shortest) ? evaluation.total.time.stepSeconds() : -1.0;
        };
        QVERIFY2(near(step({1, 1, 1, 2}, 1), 19), qPrintable(compared(step({1, 1, 1, 2}, 1), 19)));
        QVERIFY2(near(step({1, 1, 1, 2}, 2), 17.5), qPrintable(compared(step({1, 1, 1, 2}, 2), 17.5)));
        QVERIFY2(near(step({1.2, 1, 1, 2}, 1), 19.2), qPrintable(compared(step({1.2, 1, 1, 2}, 1), 19.2)));
        QVERIFY2(near(step({1.2, 1, 1, 2}, 2), 17.6), qPrintable(compared(step({1.2, 1, 1, 2}, 2), 17.6)));
        // Equal stages: Narayanan et al.'s (m + (p - 1)/v) t.
        QVERIFY(near(step({1, 1, 1, 1}, 1), 11));
        QVERIFY(near(step({1, 1, 1, 1}, 2), 9.5));
    }

    // Pipelines (Narayanan et al.): the bubble is (p - 1)/(v m) of the m micro-batches'
    // time, and 1F1B keeps p micro-batches of activations on the first stage.
    void pipelineBubbleAndActivationsInFlight()
    {
        const FoldedModel m = gptWithDropout(8);
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 1}, {"tp", 8}}, cluster);
        Workload w = workload(16, 512);
        w.microBatch = 1;  // 16 micro-batches of one sequence
        auto priced = [&](int v, PipelineSchedule schedule) {
            PipelineLayout layout;
            layout.stages = 4;
            layout.virtualStages = v;
            layout.schedule = schedule;
            const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, w,
                                  PipelineSetting{layout, cluster.interNode});
            Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh.axes());
            plan.pipeline = layout;
            return costs.evaluate(plan);
        };
        const PlanEvaluation oneF = priced(1, PipelineSchedule::OneFOneB);
        QCOMPARE(oneF.microBatches, 16);
        QCOMPARE(oneF.stages.size(), std::size_t{4});
        double slowest = 0;
        for (const StageCost& stage : oneF.stages) {
            QCOMPARE(stage.blockRanges.size(), std::size_t{1});
            QCOMPARE(stage.blockRanges.front().second - stage.blockRanges.front().first, std::size_t{2});
            slowest = std::max(slowest, stage.microBatchSeconds);
        }
        // Every stage's step is the same: its busy time plus its wait.
        for (const StageCost& stage : oneF.stages)
            QVERIFY(near(stage.cost.time.stepSeconds(), oneF.total.time.stepSeconds()));
        // The slowest stage waits each other stage's micro-batch time once (the fill and
        // the drain; the stages here differ by the embedding and the loss), plus the
        // difference in the other stages' once-per-step work.
        auto others = [](const PlanEvaluation& evaluation, double slowestStage) {
            double sum = -slowestStage;
            for (const StageCost& stage : evaluation.stages)
                sum += stage.microBatchSeconds;
            return sum;
        };
        QVERIFY(oneF.total.time.bubbleSeconds >= others(oneF, slowest) * 0.999);
        QVERIFY(oneF.total.time.bubbleSeconds < others(oneF, slowest) * 1.05);
        QVERIFY(others(oneF, slowest) < 3 * slowest);  // the loss makes the last stage the slowest
        const PlanEvaluation interleaved = priced(2, PipelineSchedule::Interleaved);
        double slowestInterleaved = 0;
        for (const StageCost& stage : interleaved.stages) {
            QCOMPARE(stage.blockRanges.size(), std::size_t{2});
            slowestInterleaved = std::max(slowestInterleaved, stage.microBatchSeconds);
        }
        QVERIFY(interleaved.total.time.bubbleSeconds >= others(interleaved, slowestInterleaved) / 2 * 0.999);
        QVERIFY(interleaved.total.time.bubbleSeconds < others(interleaved, slowestInterleaved) / 2 * 1.05);
        QVERIFY(interleaved.total.time.bubbleSeconds < oneF.total.time.bubbleSeconds);

        // The first stage holds p = 4 micro-batches of its blocks' activations, the second 3.
        auto blockActivations = [&](std::size_t block) {
            double bytes = 0;
            for (const CoarseNodeId id : m.families.families.front().instances.at(block).nodes)
                bytes += oneF.perNode[id.index()].memory.activations;
            return bytes;
        };
        const double middle = blockActivations(2) + blockActivations(3);
        QVERIFY2(near(oneF.stages[1].cost.memory.activations, 3 * middle),
                 qPrintable(compared(oneF.stages[1].cost.memory.activations, 3 * middle)));
        const PlanEvaluation gpipe = priced(1, PipelineSchedule::GPipe);
        QVERIFY(near(gpipe.stages[1].cost.memory.activations, 16 * middle));
        // The fullest stage is the total's memory.
        double fullest = 0;
        for (const StageCost& stage : oneF.stages)
            fullest = std::max(fullest, stage.cost.memory.total());
        QCOMPARE(oneF.total.memory.total(), fullest);
    }

    // Megatron-Core's overlap_p2p_comm (Workload::pipelineSendOverlap): in the steady state
    // a stage's sends run beside its compute, which here is the longer, so the m
    // micro-batches pay none of them; the fill slots still do. The step shrinks by exactly
    // m x the bottleneck stage's sends per micro-batch. Megatron-Core's 1F1B schedule
    // waits for its sends whatever the flag says: the same price either way.
    void overlappedSendsLeaveTheFillToPay()
    {
        const FoldedModel m = gptWithDropout(4);
        const PipelineStages stages = pipelineStages(testCluster("dgx-h100x2"), 2);
        const std::vector<MeshAxis> axes{{"dp", 1}, {"tp", 8}};
        const DeviceMesh mesh(axes, stages.stageCluster);
        PipelineLayout layout;
        layout.stages = 2;
        layout.virtualStages = 2;
        layout.schedule = PipelineSchedule::Interleaved;
        Workload plain = workload(8, 512);
        plain.microBatch = 1;
        Workload overlapped = plain;
        overlapped.pipelineSendOverlap = true;
        Plan plan = makeExpertPlan(ExpertPlanKind::MegatronSequenceParallel, m.coarse, axes);
        plan.pipeline = layout;
        auto priced = [&](const Workload& w) {
            const CostModel costs(m.graph(), m.coarse, m.families, stages.stageCluster, mesh, w,
                                  PipelineSetting{layout, stages.boundaryLink});
            return costs.evaluate(plan);
        };
        const PlanEvaluation a = priced(plain);
        const PlanEvaluation b = priced(overlapped);
        const double sends = a.total.time.pipelineSendSeconds / a.microBatches;
        QVERIFY(sends > 0);
        QCOMPARE(b.total.time.pipelineSendSeconds, 0.0);
        const double saved = a.total.time.stepSeconds() - b.total.time.stepSeconds();
        QVERIFY2(near(saved, a.microBatches * sends), qPrintable(compared(saved, a.microBatches * sends)));

        layout.virtualStages = 1;
        layout.schedule = PipelineSchedule::OneFOneB;
        plan.pipeline = layout;
        const PlanEvaluation oneF = priced(plain);
        QVERIFY(oneF.total.time.pipelineSendSeconds > 0);
        QCOMPARE(priced(overlapped).total.time.stepSeconds(), oneF.total.time.stepSeconds());
        QCOMPARE(priced(overlapped).total.time.pipelineSendSeconds, oneF.total.time.pipelineSendSeconds);
    }

    // Two stages of one DGX H100 node each, tensor parallel 8 inside: a micro-batch's
    // block input (b s h, replicated over tp without sequence parallelism) crosses the
    // stage boundary as Megatron-LM's scatter/gather sends it (SC'21, sec. 4.1): each tp
    // rank sends 1/8 over its own NIC, the next stage all-gathers it over NVLink. With
    // sequence parallelism the input is already split 8 ways and nothing is gathered.
    void pipelineSendsScatterOverTensorRanksAndGather()
    {
        const FoldedModel m = gptWithDropout(4);
        const PipelineStages stages = pipelineStages(testCluster("dgx-h100x2"), 2);
        const std::vector<MeshAxis> axes{{"dp", 1}, {"tp", 8}};
        const DeviceMesh mesh(axes, stages.stageCluster);
        Workload w = workload(8, 512);
        w.microBatch = 1;
        PipelineLayout layout;
        layout.stages = 2;
        const CostModel costs(m.graph(), m.coarse, m.families, stages.stageCluster, mesh, w,
                              PipelineSetting{layout, stages.boundaryLink});
        auto sendsPerMicroBatch = [&](ExpertPlanKind kind) {
            Plan plan = makeExpertPlan(kind, m.coarse, axes);
            plan.pipeline = layout;
            const PlanEvaluation e = costs.evaluate(plan);
            return e.total.time.pipelineSendSeconds / e.microBatches;
        };
        const double bsh = 1.0 * 512 * kHidden * 2;
        const LinkSpec& inter = stages.boundaryLink;
        const double sliced = bsh / 8 / inter.bytesPerSecond + inter.latencySeconds;
        const double gather = ringGatherOrScatter(8, bsh, stages.stageCluster.intraNode);
        QVERIFY2(near(sendsPerMicroBatch(ExpertPlanKind::Megatron), sliced + gather),
                 qPrintable(QString::number(sendsPerMicroBatch(ExpertPlanKind::Megatron)) + QStringLiteral(" vs ") +
                            QString::number(sliced + gather)));
        QVERIFY2(near(sendsPerMicroBatch(ExpertPlanKind::MegatronSequenceParallel), sliced),
                 qPrintable(QString::number(sendsPerMicroBatch(ExpertPlanKind::MegatronSequenceParallel))));
    }
};

QTEST_GUILESS_MAIN(TrainingTechniquesTest)
#include "TrainingTechniquesTest.moc"
