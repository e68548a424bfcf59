// The search for a training stack returns plans the stack runs as is: exported to the
// stack with no note, imported back as the same plan at the same price (issue 24).
#include "cost/AttentionHeads.h"
#include "cost/ShapeBinder.h"
#include "export/ExportFormat.h"
#include "export/MegatronArguments.h"
#include "plan/ExpertPlans.h"
#include "plan/ParallelDegrees.h"
#include "plan/PhysicalLayout.h"
#include "search/ExportedPlanPrice.h"
#include "search/PlanPricing.h"
#include "search/SearchSession.h"
#include "search/SearchWorkloadCheck.h"
#include "target/StackRules.h"
#include "target/StagePlans.h"

#include "CostChecks.h"
#include "FoldedTestModel.h"
#include "TrainingStackImports.h"

#include <QTest>

#include <algorithm>
#include <limits>
#include <memory>
#include <set>
#include <tuple>

using namespace tapestry;
using namespace tapestry::test;

namespace {

std::vector<int> sizesOf(const std::vector<MeshAxis>& mesh)
{
    std::vector<int> sizes;
    for (const MeshAxis& axis : mesh)
        sizes.push_back(axis.size);
    return sizes;
}

const std::shared_ptr<const FoldedModel>& llama3()
{
    static const auto model = std::make_shared<const FoldedModel>(foldTestFile("llama3_8b_shape.dynamo.stripped.onnx"));
    return model;
}

// GPT-3 175B's shape with 32 layers.
const std::shared_ptr<const FoldedModel>& gpt3With32Layers()
{
    static const auto model = std::make_shared<const FoldedModel>(foldSynthPreset("gpt3-175b", 32));
    return model;
}

struct Searched {
    std::shared_ptr<const PlanCandidate> best;
    PlanDocument document;
};

Searched searchFor(const std::shared_ptr<const FoldedModel>& model, SearchSetup setup, TrainingStack stack)
{
    setup.options.stack = stack;
    setup.options.alternatives = 0;
    const std::shared_ptr<const SearchOutcome> outcome = SearchSession(model, setup).run();
    Searched searched;
    searched.best = outcome->best();
    if (!searched.best)
        return searched;
    const PlanPricing pricing(model, withChosenTechniques(setup, searched.best->workload),
                              planMeshAxes(searched.best->plan));
    searched.document = pricing.document(*searched.best);
    return searched;
}

// `searched`, the searched best plan for `stack`, exports to it with no note, imports
// back as the same plan with the same workload, and prices the same.
void verifyRoundTrip(const std::shared_ptr<const FoldedModel>& model, const SearchSetup& setup, TrainingStack stack,
                     const Searched& searched)
{
    QVERIFY(searched.best);
    const PlanDocument& document = searched.document;
    const std::vector<std::string> inexpressible = stackInexpressible(stack, *model, document);
    QVERIFY2(inexpressible.empty(), inexpressible.empty() ? "" : inexpressible.front().c_str());
    const ExportFormat format = stack == TrainingStack::TorchTitan ? ExportFormat::TorchTitan
                                : stack == TrainingStack::PyTorch  ? ExportFormat::PyTorch
                                                                   : ExportFormat::Megatron;
    const std::string text = renderExport(format, *model, document, {PictureView::Folded, HfPlanKeys::Model,
                                                                     setup.cluster.gpusPerNode});
    QVERIFY2(!contains(text, "Not expressible"), text.c_str());
    const std::string fileName = stack == TrainingStack::TorchTitan ? "plan-torchtitan.py"
                                 : stack == TrainingStack::PyTorch  ? "plan-dtensor.py"
                                                                    : "plan-megatron.sh";
    const TrainingStackImport back = imported(text, fileName, *model, planDeviceCount(document.plan));
    QVERIFY2(back.warnings.empty(), back.warnings.empty() ? "" : back.warnings.front().c_str());
    QCOMPARE(back.document.implementations, stack);
    QCOMPARE(sizesOf(back.document.plan.mesh), sizesOf(document.plan.mesh));
    QVERIFY(back.document.plan.strategies == document.plan.strategies);
    QCOMPARE(back.document.plan.pipeline.stages, document.plan.pipeline.stages);
    QCOMPARE(back.document.plan.pipeline.virtualStages, document.plan.pipeline.virtualStages);
    QCOMPARE(back.document.workload.batch, document.workload.batch);
    QCOMPARE(back.document.workload.sequence, document.workload.sequence);
    QCOMPARE(back.document.workload.zeroStage, document.workload.zeroStage);
    QCOMPARE(back.document.workload.zeroReplicas, document.workload.zeroReplicas);
    QCOMPARE(back.document.workload.recompute, document.workload.recompute);
    QCOMPARE(back.document.workload.selective, document.workload.selective);

    QCOMPARE(back.document.workload.capacityFactor, document.workload.capacityFactor);
    QCOMPARE(back.document.workload.overlap, document.workload.overlap);
    QCOMPARE(back.document.workload.attention, document.workload.attention);
    QCOMPARE(back.document.workload.fp32MainGradients, document.workload.fp32MainGradients);
    QCOMPARE(back.document.workload.gradientReduceType, document.workload.gradientReduceType);
    QCOMPARE(back.document.workload.computeType, document.workload.computeType);
    SearchSetup imported = setup;
    imported.workload = back.document.workload;
    const PlanPricing pricing(model, imported, planMeshAxes(back.document.plan));
    const std::shared_ptr<const PlanCandidate> priced =
        pricing.price(back.document.plan, PlanCandidate::Role::Opened, back.document.implementations);
    QCOMPARE(pricing.document(*priced).implementations, stack);
    QVERIFY2(near(priced->stepSeconds(), searched.best->stepSeconds(), 1e-3),
             qPrintable(QString::number(priced->stepSeconds()) + QStringLiteral(" vs ") +
                        QString::number(searched.best->stepSeconds())));
    QVERIFY(near(priced->memoryBytes(), searched.best->memoryBytes(), 1e-3));
}

void verifyRoundTrip(const std::shared_ptr<const FoldedModel>& model, const SearchSetup& setup, TrainingStack stack)
{
    verifyRoundTrip(model, setup, stack, searchFor(model, setup, stack));
}

SearchSetup setupOf(const char* cluster, int nodes, std::vector<MeshAxis> mesh, std::int64_t batch, std::int64_t sequence)
{
    SearchSetup setup;
    setup.cluster = testCluster(cluster);
    setup.cluster.nodes = nodes;
    setup.mesh = std::move(mesh);
    setup.workload = workload(batch, sequence);
    return setup;
}

}  // namespace

class StackTargetTest : public QObject {
    Q_OBJECT

private slots:
    // A search's layouts keep their stage plans by kind: each layout built with them is
    // the plan built without (mesh and strategies), one plan is built per kind (sequence
    // parallelism and the context-parallel variant: 2 x 3), and plans kept for another
    // model are left alone.
    void layoutsCopyTheStagePlanOfTheirKind()
    {
        const std::shared_ptr<const FoldedModel>& model = llama3();
        StagePlans plans(model);
        StagePlans others(gpt3With32Layers());
        const std::vector<std::pair<int, ContextParallelVariant>> contexts{
            {1, ContextParallelVariant::None}, {2, ContextParallelVariant::Ring}, {2, ContextParallelVariant::Ulysses}};
        for (const int tp : {1, 2, 4, 8}) {
            for (const bool sequenceParallel : {false, true}) {
                for (const auto& [cp, variant] : contexts) {
                    TrainingStackSettings settings;
                    settings.dataParallel = 0;
                    settings.tensorParallel = tp;
                    settings.sequenceParallel = sequenceParallel;
                    settings.contextParallel = cp;
                    settings.contextVariant = variant;
                    settings.workload = workload(16, 4096);
                    const Plan fresh = planFromTrainingStackSettings(settings, *model, "fresh", 16).plan;
                    const Plan kept = planFromTrainingStackSettings(settings, *model, "fresh", 16, &plans).plan;
                    QVERIFY(kept.mesh == fresh.mesh);
                    QVERIFY(kept.strategies == fresh.strategies);
                    QVERIFY(planFromTrainingStackSettings(settings, *model, "fresh", 16, &others).plan.strategies ==
                            fresh.strategies);
                }
            }
        }
        QCOMPARE(plans.size(), std::size_t{6});
        QCOMPARE(others.size(), std::size_t{0});
    }

    // StagePlans::megatronPlan lays the splits it found once out on each mesh as
    // makeExpertPlan builds the plan there (name, origin, mesh, strategies), with and
    // without sequence parallelism in turn (the two are kept apart: only the second
    // splits the residual stream by sequence), on one to three axes and on none.
    void stagePlansLayMegatronSplitsOutOnEachMesh()
    {
        const std::shared_ptr<const FoldedModel>& model = llama3();
        StagePlans plans(model);
        const std::vector<std::vector<MeshAxis>> meshes{
            {{"tp", 8}}, {{"dp", 2}, {"tp", 4}}, {{"dp", 2}, {"cp", 2}, {"tp", 2}}, {}, {{"tp", 2}}};
        for (const std::vector<MeshAxis>& mesh : meshes) {
            for (const bool sequenceParallel : {false, true}) {
                const ExpertPlanKind kind =
                    sequenceParallel ? ExpertPlanKind::MegatronSequenceParallel : ExpertPlanKind::Megatron;
                const Plan fresh = makeExpertPlan(kind, model->coarse, mesh);
                const Plan laid = plans.megatronPlan(sequenceParallel, mesh);
                QCOMPARE(laid.name, fresh.name);
                QVERIFY(laid.origin == fresh.origin);
                QVERIFY(laid.mesh == fresh.mesh);
                QVERIFY(laid.strategies == fresh.strategies);
                const auto splitsBy = [&](AxisSplit split) {
                    return std::any_of(laid.strategies.begin(), laid.strategies.end(), [&](const NodeStrategy& s) {
                        return !s.axes.empty() && s.axes.back() == split;
                    });
                };
                QCOMPARE(splitsBy(AxisSplit::Column), !mesh.empty());
                QCOMPARE(splitsBy(AxisSplit::Row), !mesh.empty());
                QCOMPARE(splitsBy(AxisSplit::Sequence), !mesh.empty() && sequenceParallel);
            }
        }
        QCOMPARE(plans.size(), std::size_t{0});  // no stage plan was built
    }

    void layoutsFollowTheStacksRankOrder()
    {
        // On [2, 8] each axis is data, context or tensor parallel, data outermost and
        // tensor innermost: dp16; dp2 x cp8; dp2 x tp8; cp16; cp2 x tp8; tp16.
        const std::vector<MeshAxis> mesh{{"dp", 2}, {"tp", 8}};
        std::set<std::tuple<int, int, int>> degrees;
        for (const TrainingStackSettings& s : stackLayouts(TrainingStack::Megatron, mesh, 0))
            degrees.emplace(s.dataParallel, s.contextParallel, s.tensorParallel);
        const std::set<std::tuple<int, int, int>> expected{{16, 1, 1}, {2, 8, 1}, {2, 1, 8},
                                                           {1, 16, 1}, {1, 2, 8}, {1, 1, 16}};
        QCOMPARE(degrees, expected);
        // Sequence parallelism on or off under TP (4 layouts with TP), ring or Ulysses
        // under CP in Megatron-LM (3 with CP; cp2 x tp8 has both: 4): 1 + 2 + 2 + 2 + 4 + 2.
        QCOMPARE(stackLayouts(TrainingStack::Megatron, mesh, 0).size(), std::size_t{13});
        // torchtitan and PyTorch run ring attention only: 1 + 1 + 2 + 1 + 2 + 2.
        QCOMPARE(stackLayouts(TrainingStack::TorchTitan, mesh, 0).size(), std::size_t{9});
        QCOMPARE(stackLayouts(TrainingStack::PyTorch, mesh, 0).size(), std::size_t{9});
        QVERIFY(stackLayouts(TrainingStack::Any, mesh, 0).empty());
        // With 8 experts every expert-parallel size divides 8.
        for (const TrainingStackSettings& s : stackLayouts(TrainingStack::Megatron, {{"dp", 4}, {"tp", 8}}, 8))
            QCOMPARE(8 % s.expertParallel, 0);
    }

    // Tensor parallelism shards whole key-value heads: Megatron-Core refuses
    // num_query_groups % tensor_model_parallel_size != 0. The roles of [16, 9] give tp 1,
    // 9 or 144, of which Llama 3's 8 key-value heads leave 1; those of [12, 12] tp 1, 12 or
    // 144, of which GPT-2 small's 12 heads leave 1 and 12.
    void tensorParallelSizesDivideTheKeyValueHeads()
    {
        const FoldedModel llama = foldSynthPreset("llama3-8b", 1);
        const FoldedModel gpt = foldSynthPreset("gpt2-small", 1);
        QCOMPARE(keyValueHeads(llama.graph(), llama.coarse, ShapeBinder(llama.graph(), workload(2, 1024))), 8);
        QCOMPARE(keyValueHeads(gpt.graph(), gpt.coarse, ShapeBinder(gpt.graph(), workload(2, 1024))), 12);
        std::set<int> tp;
        for (const TrainingStackSettings& s : stackLayouts(TrainingStack::Megatron, {{"dp", 16}, {"tp", 9}}, 0, 8))
            tp.insert(s.tensorParallel);
        QCOMPARE(tp, (std::set<int>{1}));
        tp.clear();
        for (const TrainingStackSettings& s : stackLayouts(TrainingStack::TorchTitan, {{"dp", 12}, {"tp", 12}}, 0, 12))
            tp.insert(s.tensorParallel);
        QCOMPARE(tp, (std::set<int>{1, 12}));
    }

    // A plan priced with one stack's grouped-query keys and values, exported to a stack
    // that keeps them otherwise, is noted, and the file's head gives both prices: two
    // layers of Llama 3 8B (32 query heads on 8 key-value heads: h 4096, h_kv 1024) data
    // parallel over 8 GPUs with FSDP2 (ZeRO 3, which every stack writes), micro-batch 2
    // of 2048 tokens. torchtitan and the PyTorch export keep K and V repeated (4sbh bytes
    // a layer), Megatron-LM with their own heads (4sbh_kv): the Megatron-LM file reads
    // back 2 x 4sb(h - h_kv) lighter at the same step time, and the others' files of
    // Megatron's plan that much heavier. Priced as the target stack runs it, nothing is
    // noted; GPT-3's attention has no grouped heads, so neither is it.
    void groupedKeyValuesKeptOtherwiseAreNoted()
    {
        const auto llama = std::make_shared<const FoldedModel>(foldSynthPreset("llama3-8b", 2));
        QVERIFY(repeatsKeyValueHeads(llama->graph(), llama->coarse, ShapeBinder(llama->graph(), workload(2, 1024))));
        const FoldedModel& gpt = *gpt3With32Layers();
        QVERIFY(!repeatsKeyValueHeads(gpt.graph(), gpt.coarse, ShapeBinder(gpt.graph(), workload(2, 1024))));

        const Cluster cluster = testCluster("dgx-h100x1");
        const double s = 2048, b = 2, h = 4096, kv = 1024, layers = 2;
        const double keyValueDifference = layers * 4 * s * b * (h - kv);
        PlanDocument document;
        document.workload = workload(16, 2048);
        document.workload.microBatch = 2;
        document.workload.zeroStage = 3;
        document.plan = makeExpertPlan(ExpertPlanKind::DataParallel, llama->coarse, {{"dp", 8}});
        const std::vector<std::tuple<TrainingStack, ExportFormat, TrainingStack>> exports{
            {TrainingStack::TorchTitan, ExportFormat::Megatron, TrainingStack::Megatron},
            {TrainingStack::PyTorch, ExportFormat::Megatron, TrainingStack::Megatron},
            {TrainingStack::Megatron, ExportFormat::TorchTitan, TrainingStack::TorchTitan},
            {TrainingStack::Megatron, ExportFormat::TorchTitanToml, TrainingStack::TorchTitan},
            {TrainingStack::Megatron, ExportFormat::PyTorch, TrainingStack::PyTorch}};
        for (const auto& [priced, format, target] : exports) {
            // The K/V rule of `priced`, the rest as `target` runs it (eager PyTorch keeps more
            // activations besides, and frees its gradients between steps).
            PlanDocument asPriced = document;
            asPriced.workload = withStackImplementations(document.workload, target);
            asPriced.workload.keyValueHeads = stackKeyValueHeads(priced);
            const std::vector<std::string> notes = stackInexpressible(target, *llama, asPriced);
            QCOMPARE(notes.size(), std::size_t{1});
            QVERIFY2(contains(notes.front(), "grouped-query keys and values kept") &&
                         contains(notes.front(), priced == TrainingStack::Megatron ? "repeat" : "num_gqa_groups"),
                     notes.front().c_str());
            const PlanExportText file = planExportText(format, llama, asPriced, {}, cluster);
            QVERIFY2(file.text.starts_with("# Not the plan Tapestry priced: "), file.text.c_str());
            QVERIFY(file.price);
            QVERIFY(near(file.price->fileStepSeconds, file.price->planStepSeconds));
            const double lighter = priced == TrainingStack::Megatron ? -keyValueDifference : keyValueDifference;
            QVERIFY2(near(file.price->planMemoryBytes - file.price->fileMemoryBytes, lighter, 1e-6),
                     qPrintable(QString::number(file.price->planMemoryBytes - file.price->fileMemoryBytes) +
                                QStringLiteral(" vs ") + QString::number(lighter)));

            PlanDocument asTarget = document;
            asTarget.workload = withStackImplementations(document.workload, target);
            QVERIFY(stackInexpressible(target, *llama, asTarget).empty());
            PlanDocument gptPlan = asPriced;
            gptPlan.plan = makeExpertPlan(ExpertPlanKind::DataParallel, gpt.coarse, {{"dp", 8}});
            QVERIFY(stackInexpressible(target, gpt, gptPlan).empty());
        }
    }

    void stackRulesNameWhatAStackCannotRun()
    {
        TrainingStackSettings s;
        s.dataParallel = 2;
        s.tensorParallel = 8;
        s.layers = 32;
        s.workload = withStackImplementations(workload(16, 2048), TrainingStack::Megatron);
        s.workload.microBatch = 8;
        QVERIFY(stackSettingNotes(TrainingStack::Megatron, s).empty());
        s.workload.zeroStage = 2;
        QCOMPARE(stackSettingNotes(TrainingStack::Megatron, s).size(), std::size_t{1});
        // Megatron-LM runs the fused step on its distributed optimizer (the export asks for
        // --use-precision-aware-optimizer), keeping the bf16 weights' masters as remainders,
        // not without it; and it zeroes its gradient buffer every step, which a persistent
        // buffer's price leaves out.
        s.workload.optimizerStep = OptimizerStep::FusedRemainders;
        QCOMPARE(stackSettingNotes(TrainingStack::Megatron, s).size(), std::size_t{1});
        s.workload.optimizerStep = OptimizerStep::Fused;
        QCOMPARE(stackSettingNotes(TrainingStack::Megatron, s).size(), std::size_t{2});
        QVERIFY(contains(stackSettingNotes(TrainingStack::Megatron, s).front(),
                         "optimizer states priced with whole fp32 masters: Megatron-LM's "
                         "--use-precision-aware-optimizer keeps each as the 16-bit remainder of its bf16 weight"));
        s.workload.zeroStage = 0;
        QCOMPARE(stackSettingNotes(TrainingStack::Megatron, s),
                 (std::vector<std::string>{
                     "optimizer step priced as one fused kernel that reads the gradients and writes the 16-bit "
                     "weights: Megatron-LM runs that (--use-precision-aware-optimizer) only for Adam on its "
                     "distributed optimizer, otherwise it steps fp32 main parameters and copies them back into the "
                     "weights (more bytes)"}));
        s.workload.optimizerStep = OptimizerStep::MasterCopies;
        s.workload.gradientLifetime = GradientLifetime::Persistent;
        QCOMPARE(stackSettingNotes(TrainingStack::Megatron, s),
                 (std::vector<std::string>{
                     "gradients priced without zeroing a buffer each step: Megatron-LM zeroes its whole gradient "
                     "buffer every step (zero_grad_buffer: one write of every held gradient, slower)"}));
        s.workload = workload(16, 2048);
        s.workload.microBatch = 8;
        s.workload.zeroStage = 2;
        // torchtitan frees its gradients between steps (one micro-step here, which it would note)
        // and clips them by their norm, scaling them every step.
        s.workload.gradientLifetime = GradientLifetime::FreedBetweenSteps;
        s.workload.gradientClipping = GradientClipping::EveryStep;
        // FSDP1's copies are not what torchtitan's FSDP2 makes; priced as FSDP2, it runs as is.
        QVERIFY(contains(stackSettingNotes(TrainingStack::TorchTitan, s).front(), "FSDP1's gathers and copies"));
        s.workload.zeroImplementation = ZeroImplementation::Fsdp2;
        QVERIFY(stackSettingNotes(TrainingStack::TorchTitan, s).empty());
        s.workload.zeroStage = 1;
        QVERIFY(contains(stackSettingNotes(TrainingStack::TorchTitan, s).front(), "ZeRO stage 1"));
        s.workload.microBatch = 3;  // 16 is no multiple of 3 x 2
        QVERIFY(contains(stackSettingNotes(TrainingStack::PyTorch, s).front(), "not a multiple of micro-batch 3"));
        QVERIFY(stackSettingNotes(TrainingStack::Any, s).empty());

        // torchtitan's op-level selective recomputation (an imported torchtitan config)
        // runs on torchtitan only; the others recompute attention's core instead.
        s.workload.microBatch = 8;
        s.workload.zeroStage = 2;
        s.workload.recompute = Recomputation::Selective;
        s.workload.selective = SelectiveRecomputation::EveryOtherMatmul;
        QVERIFY(stackSettingNotes(TrainingStack::TorchTitan, s).empty());
        QVERIFY(contains(stackSettingNotes(TrainingStack::PyTorch, s).front(), "torchtitan's op-level"));
        const std::vector<std::string> megatron = stackSettingNotes(TrainingStack::Megatron, s);
        QVERIFY(std::any_of(megatron.begin(), megatron.end(),
                            [](const std::string& note) { return contains(note, "torchtitan's op-level"); }));
        s.workload.selective = SelectiveRecomputation::AttentionCore;
        QCOMPARE(stackSettingNotes(TrainingStack::PyTorch, s),
                 (std::vector<std::string>{
                     "activations and memory-bound ops priced as fused kernels keep and run them: the PyTorch "
                     "export's eager modules keep more (the activation function's output, RMS norms' fp32 inputs, "
                     "the loss's fp32 log-probabilities) and run each op as its own kernel (slower)",
                     "optimizer step priced as one fused kernel that reads the 16-bit gradients and writes the "
                     "16-bit weights: the PyTorch export runs torch.optim on fp32 master copies, casting the "
                     "gradients and copying the masters back (more bytes)",
                     "gradients priced as clipped by their norm and scaled every step (a read of each fp32 "
                     "gradient, and a read and a write to scale it): the PyTorch export's training step does not "
                     "clip them (faster)"}));
        // Megatron-LM scales them only above the limit: a step priced scaling them every step
        // runs faster there (while the norm is below), one priced reading their norm only runs
        // slower on torchtitan.
        const auto noted = [&s](TrainingStack stack, const std::string& text) {
            const std::vector<std::string> notes = stackSettingNotes(stack, s);
            return std::find(notes.begin(), notes.end(), text) != notes.end();
        };
        QVERIFY(noted(TrainingStack::Megatron,
                      "gradients priced as clipped by their norm and scaled every step (a read of each fp32 gradient, "
                      "and a read and a write to scale it): Megatron-LM reads their norm every step and scales them "
                      "when it exceeds --clip-grad 1.0 (faster)"));
        s.workload.gradientClipping = GradientClipping::AboveLimit;
        QVERIFY(noted(TrainingStack::TorchTitan,
                      "gradients priced as clipped by their norm, scaled only above the limit (a read of each fp32 "
                      "gradient): torchtitan reads their norm and scales them every step (training.max_norm 1.0) "
                      "(slower)"));
        s.workload.savedActivations = SavedActivations::Eager;
        s.workload.gradientClipping = GradientClipping::None;
        // Priced with Megatron-LM's master remainders, run on torch.optim's whole masters:
        // the states' 2 bytes per parameter too, not only the step's time.
        s.workload.optimizerStep = OptimizerStep::FusedRemainders;
        QCOMPARE(stackSettingNotes(TrainingStack::PyTorch, s),
                 (std::vector<std::string>{
                     "optimizer step priced as one fused kernel that reads the 16-bit gradients and writes the "
                     "16-bit weights: the PyTorch export runs torch.optim on fp32 master copies, casting the "
                     "gradients and copying the masters back (more bytes); and it keeps whole fp32 masters (2 bytes "
                     "per parameter more)"}));
        s.workload.optimizerStep = OptimizerStep::MasterCopies;
        QVERIFY(stackSettingNotes(TrainingStack::PyTorch, s).empty());
        // torchtitan clips whatever the plan priced.
        QVERIFY(contains(stackSettingNotes(TrainingStack::TorchTitan, s).back(),
                         "gradients priced without clipping by their norm: torchtitan reads their norm and scales "
                         "them every step (training.max_norm 1.0) (slower)"));
    }

    // A stack search the stack cannot run whatever the layout is refused up front with the
    // stack's reasons, not answered "no layout that STACK runs on this mesh"; a workload
    // the search may still change (ZeRO chosen) is searched.
    void stackSearchesRefuseWorkloadsTheStackDoesNotRun()
    {
        const FoldedModel model = foldSynthPreset("gpt2-small", 2);
        SearchSetup setup = setupOf("dgx-h100x1", 1, {{"dp", 8}}, 16, 1024);
        const auto refusal = [&](TrainingStack stack) -> std::string {
            setup.options.stack = stack;
            try {
                checkSearchWorkload(model, setup, commandLineFieldNames());
            } catch (const Error& error) {
                return error.what();
            }
            return "searched";
        };
        setup.workload.zeroStage = 1;
        for (const TrainingStack stack : allTrainingStacks())
            QCOMPARE(refusal(stack), std::string("searched"));
        setup.chooseZeroStage = false;
        QVERIFY2(contains(refusal(TrainingStack::TorchTitan), "torchtitan does not run this workload: ZeRO stage 1"),
                 refusal(TrainingStack::TorchTitan).c_str());
        QVERIFY(contains(refusal(TrainingStack::PyTorch), "pytorch does not run this workload: ZeRO stage 1"));
        QCOMPARE(refusal(TrainingStack::Megatron), std::string("searched"));
        QCOMPARE(refusal(TrainingStack::Any), std::string("searched"));
        setup.chooseZeroStage = true;
        QVERIFY(setPrecision(setup.workload, "fp8"));
        QVERIFY(contains(refusal(TrainingStack::PyTorch), "pytorch does not run this workload: FP8 training"));
        QCOMPARE(refusal(TrainingStack::TorchTitan), std::string("searched"));
    }

    // A convolutional network (no attention) trains on the PyTorch export only: its
    // data-parallel plan runs on PyTorch alone, the other stacks' searches are refused
    // and their exports say so.
    void modelsWithoutAttentionRunOnThePyTorchExportOnly()
    {
        const FoldedModel resnet = foldSynthPreset("resnet50");
        QCOMPARE(stackModelNotes(TrainingStack::PyTorch, resnet), std::vector<std::string>{});
        QVERIFY(contains(stackModelNotes(TrainingStack::Megatron, resnet).at(0), "a model without attention"));
        QVERIFY(contains(stackModelNotes(TrainingStack::TorchTitan, resnet).at(0), "a model without attention"));
        QCOMPARE(stackModelNotes(TrainingStack::Megatron, foldSynthPreset("gpt2-small", 1)), std::vector<std::string>{});

        PlanDocument document;
        document.plan = makeExpertPlan(ExpertPlanKind::DataParallel, resnet.coarse, {{"dp", 8}});
        document.workload = withStackImplementations(workload(64, 1), TrainingStack::PyTorch);
        document.workload.zeroStage = 2;
        QCOMPARE(stacksRunning(resnet, document), std::vector<TrainingStack>{TrainingStack::PyTorch});
        QVERIFY(contains(exportMegatronArguments(resnet, document, 8), "#   - a model without attention"));

        SearchSetup setup = setupOf("dgx-h100x1", 1, {{"dp", 8}}, 64, 1);
        setup.options.stack = TrainingStack::Megatron;
        QVERIFY_THROWS_EXCEPTION(Error, checkSearchWorkload(resnet, setup, commandLineFieldNames()));
        setup.options.stack = TrainingStack::PyTorch;
        checkSearchWorkload(resnet, setup, commandLineFieldNames());
    }

    void llamaOnTwoNodesRoundTripsThroughEachStack()
    {
        const SearchSetup setup = setupOf("dgx-h100x2", 2, {{"dp", 2}, {"tp", 8}}, 16, 2048);
        verifyRoundTrip(llama3(), setup, TrainingStack::Megatron);
        verifyRoundTrip(llama3(), setup, TrainingStack::TorchTitan);
        verifyRoundTrip(llama3(), setup, TrainingStack::PyTorch);
        const Searched megatron = searchFor(llama3(), setup, TrainingStack::Megatron);
        const std::vector<TrainingStack> running = stacksRunning(*llama3(), megatron.document);
        QVERIFY(std::find(running.begin(), running.end(), TrainingStack::Megatron) != running.end());
        // stacksRunning infers and rebuilds the layout once for every stack: the stacks
        // stackInexpressible finds nothing in, one by one. The last node replicated over
        // an axis of several GPUs (the search lays data parallel 16 out on [16, 1]) is a
        // plan no stack writes.
        PlanDocument replicated = megatron.document;
        const auto wide = std::find_if(replicated.plan.mesh.begin(), replicated.plan.mesh.end(),
                                       [](const MeshAxis& axis) { return axis.size > 1; });
        QVERIFY(wide != replicated.plan.mesh.end());
        replicated.plan.strategies.back().axes[static_cast<std::size_t>(wide - replicated.plan.mesh.begin())] =
            AxisSplit::None;
        for (const PlanDocument* document : {&megatron.document, static_cast<const PlanDocument*>(&replicated)}) {
            const std::vector<TrainingStack> runs = stacksRunning(*llama3(), *document);
            for (const TrainingStack stack : allTrainingStacks()) {
                if (stack == TrainingStack::Any)
                    continue;
                QCOMPARE(std::find(runs.begin(), runs.end(), stack) != runs.end(),
                         stackInexpressible(stack, *llama3(), *document).empty());
            }
        }
        QVERIFY(stacksRunning(*llama3(), replicated).empty());
    }

    // "Why this plan" compares a stack's plan with the expert references: they are priced
    // with what the stack runs, or a torchtitan search would be measured against a ZeRO-1
    // data-parallel plan torchtitan cannot run.
    void expertReferencesRunOnTheTargetStack()
    {
        for (const TrainingStack stack : {TrainingStack::Megatron, TrainingStack::TorchTitan, TrainingStack::PyTorch}) {
            SearchSetup setup = setupOf("dgx-h100x2", 2, {{"dp", 16}}, 64, 1024);
            setup.options.stack = stack;
            const std::shared_ptr<const SearchOutcome> outcome = SearchSession(llama3(), setup).run();
            const std::vector<int> stages = stackZeroStages(stack, false);
            int experts = 0;
            for (const auto& candidate : outcome->candidates) {
                if (candidate->role != PlanCandidate::Role::Expert)
                    continue;
                ++experts;
                QVERIFY2(std::find(stages.begin(), stages.end(), candidate->workload.zeroStage) != stages.end(),
                         trainingStackName(stack));
                QCOMPARE(candidate->workload.zeroImplementation, stackZeroImplementation(stack));
            }
            QCOMPARE(experts, 3);
        }
    }

    // Where the whole batch does not fit, a stack search accumulates gradients over
    // micro-batches of 1, 2, 4 and 8 sequences and stops at the first that does not fit
    // (memory grows with the micro-batch): its best is still the best of searches that
    // each fix one micro-batch, and fits.
    void accumulatingStopsAtAMicroBatchThatDoesNotFit()
    {
        SearchSetup setup = setupOf("dgx-h100x2", 2, {{"dp", 2}, {"tp", 8}}, 128, 4096);
        setup.options.stack = TrainingStack::Megatron;
        setup.options.alternatives = 0;
        setup.options.memoryLimitBytes = 12e9;
        const auto bestOf = [&](const SearchSetup& s) { return SearchSession(llama3(), s).run()->best(); };
        const std::shared_ptr<const PlanCandidate> accumulated = bestOf(setup);
        QVERIFY(accumulated && accumulated->memoryBytes() <= 12e9);
        QVERIFY(accumulated->workload.microBatch >= 1 && accumulated->workload.microBatch <= 8);

        SearchSetup fixed = setup;
        fixed.chooseMicroBatch = false;
        const std::shared_ptr<const PlanCandidate> whole = bestOf(fixed);
        QVERIFY(whole && whole->memoryBytes() > 12e9);  // so the search accumulated
        double fastest = std::numeric_limits<double>::infinity();
        for (const std::int64_t microBatch : {1, 2, 4, 8}) {
            fixed.workload.microBatch = microBatch;
            const std::shared_ptr<const PlanCandidate> found = bestOf(fixed);
            if (found && found->memoryBytes() <= 12e9)
                fastest = std::min(fastest, found->stepSeconds());
            // The rule the search stops by, on the plan it found (a micro-batch beyond a
            // rank's 8 sequences is the whole batch again).
            const PlanPricing lower(llama3(), withChosenTechniques(setup, [&] {
                Workload w = accumulated->workload;
                w.microBatch = microBatch;
                return w;
            }()), planMeshAxes(accumulated->plan));
            const PlanPricing higher(llama3(), withChosenTechniques(setup, [&] {
                Workload w = accumulated->workload;
                w.microBatch = 2 * microBatch;
                return w;
            }()), planMeshAxes(accumulated->plan));
            QVERIFY(lower.price(accumulated->plan)->memoryBytes() <= higher.price(accumulated->plan)->memoryBytes());
        }
        QCOMPARE(accumulated->stepSeconds(), fastest);
    }

    // What a search hands out is priced by its totals; its breakdowns by op, node and
    // family come when first asked for, once, as a full evaluation prices them.
    void searchedPlansPriceTheirBreakdownsWhenAsked()
    {
        SearchSetup setup = setupOf("dgx-h100x2", 2, {{"dp", 2}, {"tp", 8}}, 16, 2048);
        setup.options.stack = TrainingStack::Megatron;
        setup.options.alternatives = 2;
        const std::shared_ptr<const SearchOutcome> outcome = SearchSession(llama3(), setup).run();
        const std::shared_ptr<const PlanCandidate> best = outcome->best();
        QVERIFY(best);
        std::vector<std::shared_ptr<const PlanCandidate>> handedOut;
        for (const auto& candidate : outcome->candidates)
            if (candidate->isSearched() || candidate->role == PlanCandidate::Role::Expert)
                handedOut.push_back(candidate);
        QVERIFY(handedOut.size() >= 4);  // the best and the three expert references at least
        for (const auto& candidate : handedOut) {
            QVERIFY(candidate->evaluation.totalsOnly);
            QVERIFY(candidate->evaluation.perNode.empty());
            const PlanEvaluation& full = candidate->breakdowns();
            QVERIFY(!full.totalsOnly);
            QCOMPARE(&candidate->breakdowns(), &full);  // priced once
            QCOMPARE(full.perNode.size(), llama3()->coarse.nodes.size());
            QVERIFY(near(full.total.time.stepSeconds(), candidate->stepSeconds(), 1e-12));
            QVERIFY(near(full.total.memory.total(), candidate->memoryBytes(), 1e-12));
            // As a pricing of its own workload and mesh prices the plan in full.
            const PlanPricing pricing(llama3(), withChosenTechniques(setup, candidate->workload),
                                      planMeshAxes(candidate->plan));
            const PlanEvaluation fresh = pricing.costs().evaluate(candidate->plan);
            for (std::size_t n = 0; n < fresh.perNode.size(); ++n)
                QVERIFY(near(full.perNode[n].time.stepSeconds(), fresh.perNode[n].time.stepSeconds(), 1e-12));
            QCOMPARE(full.perFamily.size(), fresh.perFamily.size());
            QCOMPARE(full.parallelTransfers.size(), fresh.parallelTransfers.size());
        }
    }

    // Batch-only neighbouring axes merge and axes of one GPU drop out: data parallel on
    // [2, 8], [16] and [16, 1] (whatever the last axis splits) is one layout; batch then
    // tensor on [4, 2, 2] is [8, 2]'s; batch over non-neighbouring axes stays apart.
    void physicalLayoutsMergeBatchOnlyAxes()
    {
        const CoarseGraph& coarse = llama3()->coarse;
        const Plan dp28 = makeExpertPlan(ExpertPlanKind::DataParallel, coarse, {{"dp", 2}, {"tp", 8}});
        const PhysicalLayout layout = physicalLayout(dp28);
        QCOMPARE(layout.sizes, std::vector<int>{16});
        QVERIFY(layout == physicalLayout(makeExpertPlan(ExpertPlanKind::DataParallel, coarse, {{"d", 16}})));
        QVERIFY(layout == physicalLayout(makeExpertPlan(ExpertPlanKind::Megatron, coarse, {{"dp", 16}, {"tp", 1}})));
        const PhysicalLayout megatron = physicalLayout(makeExpertPlan(ExpertPlanKind::Megatron, coarse, {{"dp", 8}, {"tp", 2}}));
        QCOMPARE(megatron.sizes, (std::vector<int>{8, 2}));
        QVERIFY(megatron ==
                physicalLayout(makeExpertPlan(ExpertPlanKind::Megatron, coarse, {{"a", 4}, {"dp", 2}, {"tp", 2}})));
        QVERIFY(!(megatron == layout));
        // Batch, tensor, batch on [2, 2, 4]: the two data axes are not neighbours.
        Plan apart = makeExpertPlan(ExpertPlanKind::Megatron, coarse, {{"a", 2}, {"tp", 2}});
        apart.mesh.push_back({"b", 4});
        for (NodeStrategy& strategy : apart.strategies)
            strategy.axes.push_back(AxisSplit::Batch);
        QCOMPARE(physicalLayout(apart).sizes, (std::vector<int>{2, 2, 4}));
    }

    // The free search lays data parallel 16 out as a batch split over both axes of
    // [2, 8]: Megatron-LM runs it as is (data parallel 16 on its [16, 1]), and the export
    // read back prices the same. One node replicated on the second axis is not data
    // parallelism any more.
    void batchOverEveryAxisIsPlainDataParallelism()
    {
        SearchSetup setup = setupOf("dgx-h100x2", 2, {{"dp", 2}, {"tp", 8}}, 16, 2048);
        setup.workload.zeroStage = 1;
        // Priced as Megatron-LM runs it (its grouped-query K/V kept per key-value head), as the export reads back.
        setup.workload = withStackImplementations(setup.workload, TrainingStack::Megatron);
        const PlanPricing pricing(llama3(), setup, setup.mesh);
        const Plan dp28 = makeExpertPlan(ExpertPlanKind::DataParallel, llama3()->coarse, setup.mesh);
        const std::shared_ptr<const PlanCandidate> searched = pricing.price(dp28);
        const PlanDocument document = pricing.document(*searched);
        const std::vector<std::string> notes = stackInexpressible(TrainingStack::Megatron, *llama3(), document);
        QVERIFY2(notes.empty(), notes.empty() ? "" : notes.front().c_str());
        const std::vector<TrainingStack> running = stacksRunning(*llama3(), document);
        QVERIFY(std::find(running.begin(), running.end(), TrainingStack::Megatron) != running.end());

        const std::string text = renderExport(ExportFormat::Megatron, *llama3(), document,
                                              {PictureView::Folded, HfPlanKeys::Model, setup.cluster.gpusPerNode});
        QVERIFY2(!contains(text, "Not expressible"), text.c_str());
        QVERIFY2(contains(text, "data parallel 16 x tensor parallel 1"), text.c_str());
        const TrainingStackImport back = imported(text, "plan-megatron.sh", *llama3(), 16);
        QCOMPARE(sizesOf(back.document.plan.mesh), (std::vector<int>{16, 1}));
        QVERIFY(physicalLayout(back.document.plan) == physicalLayout(dp28));
        SearchSetup again = setup;
        again.workload = back.document.workload;
        const PlanPricing backPricing(llama3(), again, planMeshAxes(back.document.plan));
        const std::shared_ptr<const PlanCandidate> priced = backPricing.price(back.document.plan);
        QVERIFY2(near(priced->stepSeconds(), searched->stepSeconds()),
                 qPrintable(QString::number(priced->stepSeconds()) + QStringLiteral(" vs ") +
                            QString::number(searched->stepSeconds())));
        QVERIFY(near(priced->memoryBytes(), searched->memoryBytes()));

        PlanDocument replicated = document;
        replicated.plan.strategies.back().axes[1] = AxisSplit::None;
        QVERIFY(!stackInexpressible(TrainingStack::Megatron, *llama3(), replicated).empty());
    }

    // A stack search lays data parallel 16 out as Megatron-LM's pattern on [16, 1]; an
    // edit of a split on the axis of one GPU (the down projection's row to none) changes
    // nothing on the devices: Megatron-LM still runs it as is.
    void aSplitOverOneGpuIsNoDifference()
    {
        SearchSetup setup = setupOf("dgx-h100x2", 2, {{"dp", 16}, {"tp", 1}}, 16, 2048);
        setup.workload.zeroStage = 1;
        setup.workload = withStackImplementations(setup.workload, TrainingStack::Megatron);
        const PlanPricing pricing(llama3(), setup, setup.mesh);
        Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, llama3()->coarse, setup.mesh);
        std::size_t edited = 0;
        for (const CoarseNode& node : llama3()->coarse.nodes)
            if (node.name.find("mlp/down_proj") != std::string::npos &&
                plan.strategies[node.id.index()].axes[1] == AxisSplit::Row) {
                plan.strategies[node.id.index()].axes[1] = AxisSplit::None;
                ++edited;
            }
        QCOMPARE(edited, std::size_t{32});
        const PlanDocument document = pricing.document(*pricing.price(plan));
        const std::vector<std::string> notes = stackInexpressible(TrainingStack::Megatron, *llama3(), document);
        QVERIFY2(notes.empty(), notes.empty() ? "" : notes.front().c_str());
        // The same edit on a tensor axis of 8 GPUs is off Megatron-LM's pattern.
        const std::vector<MeshAxis> wide{{"dp", 2}, {"tp", 8}};
        Plan tensor = makeExpertPlan(ExpertPlanKind::Megatron, llama3()->coarse, wide);
        for (const CoarseNode& node : llama3()->coarse.nodes)
            if (node.name.find("mlp/down_proj") != std::string::npos)
                tensor.strategies[node.id.index()].axes[1] = AxisSplit::None;
        const PlanPricing widePricing(llama3(), setup, wide);
        const std::vector<std::string> off =
            stackInexpressible(TrainingStack::Megatron, *llama3(), widePricing.document(*widePricing.price(tensor)));
        QVERIFY(!off.empty() && contains(off.front(), "mlp/down_proj"));
    }

    // A torchtitan target means torchtitan's selective recomputation (SelectiveAC, every
    // other matmul's output kept): searched, priced, exported and read back as that policy,
    // and offered with a fused attention kernel too (it drops more than attention's core).
    void torchTitanTargetsRecomputeSelectivelyAsTorchTitanDoes()
    {
        QCOMPARE(stackSelectiveRecomputation(TrainingStack::TorchTitan), SelectiveRecomputation::EveryOtherMatmul);
        QCOMPARE(stackSelectiveRecomputation(TrainingStack::Megatron), SelectiveRecomputation::AttentionCore);
        // Full recomputation: torchtitan's and PyTorch's non-reentrant checkpoint stops its
        // replay early, Megatron-LM's replays the whole block.
        QCOMPARE(stackCheckpointReplay(TrainingStack::TorchTitan), CheckpointReplay::StopsEarly);
        QCOMPARE(stackCheckpointReplay(TrainingStack::PyTorch), CheckpointReplay::StopsEarly);
        QCOMPARE(stackCheckpointReplay(TrainingStack::Megatron), CheckpointReplay::WholeBlock);
        // A full recomputation replayed otherwise than the stack replays it is noted (it
        // prices differently); without full recomputation the replay changes nothing.
        TrainingStackSettings replayed;
        replayed.dataParallel = 1;
        replayed.workload.batch = 8;
        replayed.workload.recompute = Recomputation::Full;
        const auto noted = [&](TrainingStack stack) {
            const std::vector<std::string> notes = stackSettingNotes(stack, replayed);
            return std::any_of(notes.begin(), notes.end(),
                               [](const std::string& note) { return note.find("full recomputation") == 0; });
        };
        QVERIFY(noted(TrainingStack::TorchTitan) && noted(TrainingStack::PyTorch) && !noted(TrainingStack::Megatron));
        replayed.workload.checkpointReplay = CheckpointReplay::StopsEarly;
        QVERIFY(!noted(TrainingStack::TorchTitan) && !noted(TrainingStack::PyTorch) && noted(TrainingStack::Megatron));
        replayed.workload.recompute = Recomputation::None;
        QVERIFY(!noted(TrainingStack::Megatron));
        const std::vector<Recomputation> all{Recomputation::None, Recomputation::Selective, Recomputation::Full};
        QVERIFY(stackRecomputations(TrainingStack::TorchTitan, AttentionKernel::FlashAttention2) == all);
        QVERIFY(stackRecomputations(TrainingStack::Megatron, AttentionKernel::Unfused) == all);
        QVERIFY((stackRecomputations(TrainingStack::Megatron, AttentionKernel::FlashAttention2) ==
                 std::vector<Recomputation>{Recomputation::None, Recomputation::Full}));

        // The setup carries Megatron-LM's policy, as `search --recompute selective` gives it.
        SearchSetup setup = setupOf("dgx-h100x2", 2, {{"dp", 2}, {"tp", 8}}, 16, 2048);
        setup.workload.recompute = Recomputation::Selective;
        setup.chooseRecomputation = false;
        const Searched titan = searchFor(llama3(), setup, TrainingStack::TorchTitan);
        QVERIFY(titan.best);
        QCOMPARE(titan.best->workload.recompute, Recomputation::Selective);
        QCOMPARE(titan.best->workload.selective, SelectiveRecomputation::EveryOtherMatmul);
        QCOMPARE(titan.document.workload.selective, SelectiveRecomputation::EveryOtherMatmul);
        QCOMPARE(titan.document.workload.checkpointReplay, CheckpointReplay::StopsEarly);
        const std::string text = renderExport(ExportFormat::TorchTitan, *llama3(), titan.document,
                                              {PictureView::Folded, HfPlanKeys::Model, setup.cluster.gpusPerNode});
        QVERIFY(contains(text, "ACTIVATION_CHECKPOINT = \"selective\""));
        QVERIFY(contains(text, "config.activation_checkpoint = SelectiveAC.Config()"));
        verifyRoundTrip(llama3(), setup, TrainingStack::TorchTitan, titan);

        // The same plan keeps more without recomputation and less recomputing everything.
        for (const Recomputation other : {Recomputation::None, Recomputation::Full}) {
            SearchSetup priced = withChosenTechniques(setup, titan.best->workload);
            priced.workload.recompute = other;
            const PlanPricing pricing(llama3(), priced, planMeshAxes(titan.best->plan));
            const double memory = pricing.price(titan.best->plan)->memoryBytes();
            QVERIFY(other == Recomputation::None ? memory > titan.best->memoryBytes()
                                                 : memory < titan.best->memoryBytes());
        }

        // Megatron-LM's target keeps its own policy.
        const Searched megatron = searchFor(llama3(), setup, TrainingStack::Megatron);
        QVERIFY(megatron.best);
        QCOMPARE(megatron.best->workload.selective, SelectiveRecomputation::AttentionCore);
        QCOMPARE(megatron.best->workload.checkpointReplay, CheckpointReplay::WholeBlock);
        QVERIFY(megatron.best->workload.pipelineSendOverlap);
        QVERIFY(!titan.best->workload.pipelineSendOverlap);
    }

    // HSDP where torchtitan and PyTorch run it: shard groups inside an NVLink domain,
    // replicated across them. Llama-3-8B under ZeRO 3 on 2 x 8 GPUs joined by 2.5 GB/s
    // per GPU (20 Gb/s Ethernet), 4 micro-steps, gradients reduced in bf16
    // (mixed_precision_reduce): FSDP over all 16 gathers twice and reduce-scatters once
    // per micro-step across the nodes (3 x P / 8 bytes per GPU), more than the compute
    // hides; HSDP gathers only inside them and all-reduces 1/8 of the gradients across
    // (P / 4), so the torchtitan search takes 2 replicas of 8 (more memory, less time),
    // exports them and reads them back at its price; Megatron-LM's search shards over every
    // rank. (With fp32 reduction both cross the nodes with P / 2: HSDP gains nothing.)
    void torchTitanSearchesShardWithinNodesWhereThatIsFaster()
    {
        TrainingStackSettings layout;
        layout.dataParallel = 16;
        QVERIFY(stackZeroReplicas(TrainingStack::TorchTitan, layout, 8) == std::vector<int>{2});
        QVERIFY(stackZeroReplicas(TrainingStack::PyTorch, layout, 8) == std::vector<int>{2});
        QVERIFY(stackZeroReplicas(TrainingStack::Megatron, layout, 8).empty());
        QVERIFY(stackZeroReplicas(TrainingStack::TorchTitan, layout, 16).empty());  // one domain
        layout.dataParallel = 4;
        layout.tensorParallel = 4;  // 2 data ranks per domain of 8
        QVERIFY(stackZeroReplicas(TrainingStack::TorchTitan, layout, 8) == std::vector<int>{2});
        layout.contextParallel = 4;  // the context ranks span domains: no cut
        QVERIFY(stackZeroReplicas(TrainingStack::TorchTitan, layout, 8).empty());

        SearchSetup setup = setupOf("dgx-h100x2", 2, {{"dp", 16}}, 64, 2048);
        setup.workload.zeroStage = 3;
        setup.chooseZeroStage = false;
        setup.workload.microBatch = 1;
        setup.cluster.interNode.bytesPerSecond = 2.5e9;
        setup.workload.gradientReduceType = DataType::BFloat16;
        const Searched titan = searchFor(llama3(), setup, TrainingStack::TorchTitan);
        QVERIFY(titan.best);
        QCOMPARE(titan.best->workload.zeroReplicas, 2);
        QCOMPARE(titan.document.workload.zeroReplicas, 2);
        SearchSetup whole = withChosenTechniques(setup, titan.best->workload);
        whole.workload.zeroReplicas = 1;
        const PlanPricing fsdp(llama3(), whole, planMeshAxes(titan.best->plan));
        const std::shared_ptr<const PlanCandidate> overAll = fsdp.price(titan.best->plan);
        QVERIFY(overAll->stepSeconds() > titan.best->stepSeconds());
        QVERIFY(overAll->memoryBytes() < titan.best->memoryBytes());
        verifyRoundTrip(llama3(), setup, TrainingStack::TorchTitan, titan);
        const Searched megatron = searchFor(llama3(), setup, TrainingStack::Megatron);
        QVERIFY(megatron.best);
        QCOMPARE(megatron.best->workload.zeroReplicas, 1);
    }

    // Megatron-LM overlaps an interleaved pipeline's sends with the other chunks' compute
    // by default (overlap_p2p_comm; --no-overlap-p2p-communication turns it off), so its
    // searches price that; exported to torchtitan or PyTorch, whose schedules are priced
    // waiting for the sends, such a plan is noted. 1F1B waits in every stack: no note.
    void megatronOverlapsAnInterleavedPipelinesSends()
    {
        QVERIFY(withStackImplementations(Workload{}, TrainingStack::Megatron).pipelineSendOverlap);
        QVERIFY(!withStackImplementations(Workload{}, TrainingStack::TorchTitan).pipelineSendOverlap);
        QVERIFY(!withStackImplementations(Workload{}, TrainingStack::PyTorch).pipelineSendOverlap);
        TrainingStackSettings settings;
        settings.dataParallel = 1;
        settings.workload.batch = 8;
        settings.workload.pipelineSendOverlap = true;
        settings.pipeline.stages = 2;
        settings.pipeline.virtualStages = 2;
        settings.pipeline.schedule = PipelineSchedule::Interleaved;
        const auto noted = [&](TrainingStack stack) {
            const std::vector<std::string> notes = stackSettingNotes(stack, settings);
            return std::any_of(notes.begin(), notes.end(),
                               [](const std::string& note) { return contains(note, "overlap_p2p_comm"); });
        };
        QVERIFY(noted(TrainingStack::TorchTitan) && noted(TrainingStack::PyTorch) && !noted(TrainingStack::Megatron));
        settings.pipeline.virtualStages = 1;
        settings.pipeline.schedule = PipelineSchedule::OneFOneB;
        QVERIFY(!noted(TrainingStack::TorchTitan) && !noted(TrainingStack::PyTorch));
    }

    // A layout without data ranks shards nothing: each ZeRO stage runs as ZeRO 0
    // (effectiveZeroStage). Llama-3-8B on pipeline 2 x 4 GPUs, a batch of 7 (no data
    // parallelism divides it) at 2048 tokens: the PyTorch search (ZeRO 2 on a pipeline
    // wherever there are data ranks) lays the 4 GPUs out as tensor parallelism and returns
    // ZeRO 0, its file applies no FSDP, and the plan reads back from the PyTorch, torchtitan
    // and Megatron-LM files alike: at its price under each file's workload (torchtitan and
    // Megatron-LM run fused kernels and a fused optimizer step where PyTorch runs eager ones).
    void aLayoutWithoutDataRanksRunsAsZeroZero()
    {
        SearchSetup setup = setupOf("dgx-h100x1", 1, {{"pp", 2}, {"dp", 1}, {"tp", 4}}, 7, 2048);
        const Searched searched = searchFor(llama3(), setup, TrainingStack::PyTorch);
        QVERIFY(searched.best);
        const TrainingStackSettings layout = trainingStackSettings(*llama3(), searched.document, 0);
        QCOMPARE(layout.dataParallel * layout.contextParallel, 1);
        QCOMPARE(searched.best->workload.zeroStage, 0);
        QVERIFY(searched.best->evaluation.microBatches > 1);
        const std::string text = renderExport(ExportFormat::PyTorch, *llama3(), searched.document, {});
        QVERIFY2(!contains(text, "fully_shard") && !contains(text, "DATA_AXES"), text.c_str());
        verifyRoundTrip(llama3(), setup, TrainingStack::PyTorch, searched);
        for (const auto& [format, fileName] : {std::pair{ExportFormat::TorchTitan, "plan-torchtitan.py"},
                                               std::pair{ExportFormat::Megatron, "plan-megatron.sh"}}) {
            const std::string file = renderExport(format, *llama3(), searched.document, {});
            const TrainingStackImport back = imported(file, fileName, *llama3(), planDeviceCount(searched.document.plan));
            QCOMPARE(back.document.workload.zeroStage, 0);
            SearchSetup read = setup;
            read.workload = back.document.workload;
            const PlanPricing pricing(llama3(), read, planMeshAxes(back.document.plan));
            QVERIFY(near(pricing.price(back.document.plan)->stepSeconds(),
                         pricing.price(searched.document.plan)->stepSeconds(), 1e-9));
        }
        // The same plan at ZeRO 2 prices as ZeRO 0 and says nothing of ZeRO to any stack
        // (priced with each stack's implementations: Megatron-LM keeps grouped K/V otherwise).
        PlanDocument zero2 = searched.document;
        zero2.workload.zeroStage = 2;
        for (const TrainingStack stack : {TrainingStack::PyTorch, TrainingStack::TorchTitan, TrainingStack::Megatron}) {
            PlanDocument asStack = zero2;
            asStack.workload = withStackImplementations(zero2.workload, stack);
            QVERIFY(stackInexpressible(stack, *llama3(), asStack).empty());
        }
        setup.workload = zero2.workload;
        const PlanPricing pricing(llama3(), setup, planMeshAxes(zero2.plan));
        QCOMPARE(pricing.price(zero2.plan)->stepSeconds(), searched.best->stepSeconds());
    }

    void longSequencesRoundTripWithShardedSequences()
    {
        // Llama-3-8B at 131072 tokens on 8 DGX-H100 nodes: sequence-sharded activations
        // (Megatron-LM's sequence parallelism under TP 8, or context parallelism) or nothing fits.
        const SearchSetup setup = setupOf("dgx-h100x2", 8, {{"dp", 8}, {"tp", 8}}, 64, 131072);
        const Searched megatron = searchFor(llama3(), setup, TrainingStack::Megatron);
        QVERIFY(megatron.best);
        QVERIFY(megatron.best->memoryBytes() <= megatron.best->evaluation.hbmBytes);
        const TrainingStackSettings layout = trainingStackSettings(*llama3(), megatron.document, 8);
        QVERIFY(layout.sequenceParallel || layout.contextParallel > 1);
        verifyRoundTrip(llama3(), setup, TrainingStack::Megatron);
        verifyRoundTrip(llama3(), setup, TrainingStack::TorchTitan);
        verifyRoundTrip(llama3(), setup, TrainingStack::PyTorch);
    }

    void mixtureOfExpertsRoundTripsWithExpertSizesThatDivide()
    {
        static const auto mixtral = std::make_shared<const FoldedModel>(foldSynthPreset("mixtral-8x7b", 4));
        const SearchSetup setup = setupOf("dgx-h100x4", 4, {{"dp", 4}, {"tp", 8}}, 64, 4096);
        for (const TrainingStack stack : {TrainingStack::Megatron, TrainingStack::TorchTitan, TrainingStack::PyTorch}) {
            const Searched searched = searchFor(mixtral, setup, stack);
            QVERIFY(searched.best);
            QCOMPARE(8 % expertParallelDegree(searched.document.plan), 0);
            verifyRoundTrip(mixtral, setup, stack, searched);
        }
    }

    void pipelinedGptRoundTrips()
    {
        const auto& gpt3 = gpt3With32Layers();
        const SearchSetup setup = setupOf("dgx-h100x2", 16, {{"pp", 8}, {"dp", 2}, {"tp", 8}}, 512, 2048);
        const Searched searched = searchFor(gpt3, setup, TrainingStack::Megatron);
        QVERIFY(searched.best);
        QCOMPARE(searched.document.plan.pipeline.stages, 8);
        verifyRoundTrip(gpt3, setup, TrainingStack::Megatron);
        verifyRoundTrip(gpt3, setup, TrainingStack::TorchTitan);
    }

    // `any` is the best plan on any stack. GPT-3 (32 layers) on pipeline 8 x dp 2 x tp 8 at
    // 512 x 2048: Megatron-LM's interleaved schedule overlaps its sends with the other
    // chunks' compute (overlap_p2p_comm), which no plan priced with `any`'s own
    // implementations does, and its layout is the best plan there. The any search returns
    // a plan no stack's search is preferred to, priced with Megatron-LM's implementations
    // (the plan says so: PlanCandidate::implementations), and it round-trips through
    // Megatron-LM's files at its price.
    void anySearchIsTheBestPlanOnAnyStack()
    {
        const auto& gpt3 = gpt3With32Layers();
        const SearchSetup setup = setupOf("dgx-h100x2", 16, {{"pp", 8}, {"dp", 2}, {"tp", 8}}, 512, 2048);
        const Searched any = searchFor(gpt3, setup, TrainingStack::Any);
        QVERIFY(any.best);
        for (const TrainingStack stack : {TrainingStack::Megatron, TrainingStack::TorchTitan, TrainingStack::PyTorch}) {
            const Searched own = searchFor(gpt3, setup, stack);
            QVERIFY(own.best);
            QVERIFY2(!isPreferred(*own.best, *any.best, any.best->evaluation.hbmBytes), trainingStackName(stack));
        }
        QCOMPARE(any.best->implementations, TrainingStack::Megatron);
        QVERIFY(any.best->workload.pipelineSendOverlap);
        verifyRoundTrip(gpt3, setup, TrainingStack::Megatron, any);
    }

    // A plan is named by the search that found it: Megatron-LM's own search names its plan
    // "megatron-layout" (also where `any` takes it), not "tap" (the TAP search's). Its plan
    // file says whose implementations priced it, and read back it prices exactly as
    // searched, saying so again, until its workload names another implementation.
    void aStacksPlanIsNamedByItsSearchAndKeepsItsImplementations()
    {
        const auto& gpt3 = gpt3With32Layers();
        const SearchSetup setup = setupOf("dgx-h100x2", 16, {{"pp", 8}, {"dp", 2}, {"tp", 8}}, 512, 2048);
        for (const TrainingStack stack : {TrainingStack::Any, TrainingStack::Megatron}) {
            const Searched searched = searchFor(gpt3, setup, stack);
            QVERIFY(searched.best);
            QCOMPARE(searched.best->plan.name, std::string("megatron-layout"));
            QCOMPARE(searched.document.implementations, TrainingStack::Megatron);
            const PlanDocument back = planFromJson(planToJson(searched.document, gpt3->coarse, gpt3->families),
                                                   "plan.json", gpt3->coarse, gpt3->families);
            QCOMPARE(back.plan.name, std::string("megatron-layout"));
            QCOMPARE(back.implementations, TrainingStack::Megatron);
            SearchSetup reopened = setup;
            reopened.workload = back.workload;
            const PlanPricing pricing(gpt3, reopened, planMeshAxes(back.plan));
            const std::shared_ptr<const PlanCandidate> priced =
                pricing.price(back.plan, PlanCandidate::Role::Opened, back.implementations);
            // (The search priced totals only, this the whole breakdown: the same up to rounding.)
            QVERIFY(near(priced->stepSeconds(), searched.best->stepSeconds()));
            QVERIFY(near(priced->memoryBytes(), searched.best->memoryBytes()));
            QCOMPARE(priced->implementations, TrainingStack::Megatron);
            // A workload that names another implementation (an option, a hand-edited file)
            // is Megatron-LM's no more.
            reopened.workload.zeroImplementation = ZeroImplementation::Fsdp;
            const PlanPricing fsdp1(gpt3, reopened, planMeshAxes(back.plan));
            QCOMPARE(fsdp1.price(back.plan, PlanCandidate::Role::Opened, back.implementations)->implementations,
                     TrainingStack::Any);
        }
    }

    // Which stack's implementations priced a plan is what its search says, not what its
    // workload looks like. Llama-3-8B on [2, 8] (dp, tp) with FSDP2 and a replay that
    // stops early, as PyTorch runs them: the `any` search prices the workload as named
    // (namesImplementations), its plan is none of the stacks' own, and it gets the Pareto
    // alternatives every `any` plan gets (each slower and smaller than it). The plan of a
    // stack's own search carries that stack, and so do the alternatives it keeps.
    void anyPlansSayWhoseImplementationsPricedThem()
    {
        SearchSetup setup = setupOf("dgx-h100x2", 2, {{"dp", 2}, {"tp", 8}}, 16, 2048);
        setup.workload = withStackImplementations(setup.workload, TrainingStack::PyTorch);
        setup.options.alternatives = 2;
        for (const TrainingStack stack : {TrainingStack::Any, TrainingStack::PyTorch}) {
            setup.options.stack = stack;
            const std::shared_ptr<const SearchOutcome> outcome = SearchSession(llama3(), setup).run();
            const std::shared_ptr<const PlanCandidate> best = outcome->best();
            QVERIFY(best);
            QCOMPARE(best->implementations, stack);
            // A stack's own search names its plans "pytorch-layout", "pytorch-layout-1", ...
            const std::string name = "pytorch-layout";
            if (stack == TrainingStack::PyTorch)
                QCOMPARE(best->plan.name, name);
            std::size_t alternatives = 0;
            for (const auto& candidate : outcome->candidates) {
                if (candidate->role != PlanCandidate::Role::Alternative)
                    continue;
                ++alternatives;
                if (stack == TrainingStack::PyTorch)
                    QCOMPARE(candidate->plan.name, name + "-" + std::to_string(alternatives));
                QCOMPARE(candidate->implementations, stack);
                QVERIFY(candidate->stepSeconds() > best->stepSeconds());
                QVERIFY(candidate->memoryBytes() < best->memoryBytes());
            }
            QVERIFY2(alternatives > 0, trainingStackName(stack));
            QCOMPARE(outcome->meshOf(*best)->search->alternatives.size(), alternatives);
        }
    }

    // GPT-3 175B at its published workload (1536 x 2048) over every mesh of 128 H100s:
    // whatever each stack's search picks (a pipeline, context parallelism) runs on it.
    void gpt3OnEveryMeshRoundTripsThroughEachStack()
    {
        static const auto gpt3 = std::make_shared<const FoldedModel>(foldSynthPreset("gpt3-175b"));
        const SearchSetup setup = setupOf("dgx-h100x16", 16, {}, 1536, 2048);
        for (const TrainingStack stack : {TrainingStack::Megatron, TrainingStack::TorchTitan, TrainingStack::PyTorch}) {
            const Searched searched = searchFor(gpt3, setup, stack);
            QVERIFY(searched.best);
            QVERIFY(searched.best->memoryBytes() <= searched.best->evaluation.hbmBytes);
            verifyRoundTrip(gpt3, setup, stack, searched);
        }
    }
};

QTEST_GUILESS_MAIN(StackTargetTest)
#include "StackTargetTest.moc"
