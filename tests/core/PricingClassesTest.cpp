// Pricing by classes of interchangeable nodes and tensors (cost/PricingClasses.h,
// CostModel::evaluateTotals) gives evaluate()'s price: the total time and memory and
// every part of their breakdowns, and each pipeline stage's, on GPT-, Llama- (grouped-
// query attention) and mixture-of-experts-shaped models under every expert layout
// (data, tensor, sequence, ring and Ulysses context, expert parallelism), every
// recomputation and ZeRO stage, with and without micro-batches, without a pipeline and
// on pipelines of even, uneven and interleaved chunks, and so does each block's price on a
// pipeline (what balancing its stages reads). Its classes, and the neighbours
// they read, do not grow with depth, a plan unlike across a family's instances is
// priced node by node, and a plan checked once to be uniform prices as the plan.
#include "FoldedTestModel.h"
#include "cluster/PipelineStages.h"
#include "cost/CostModel.h"
#include "cost/PricingClasses.h"
#include "plan/PipelineLayout.h"
#include "plan/ExpertPlans.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

using namespace tapestry;
using namespace tapestry::test;

namespace {

FoldedModel smallModel(const char* preset, std::int64_t layers)
{
    ModelSpec spec = findSynthPreset(preset)->spec;
    spec.layers = layers;
    spec.hidden = 512;
    spec.heads = 8;
    spec.kvHeads = std::string(preset) == "gpt2-small" ? 8 : 2;
    spec.ffn = 1024;
    spec.vocab = 32000;
    return foldModel(synthesizeModel(spec, preset));
}

bool close(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max({1e-12, std::abs(a), std::abs(b)});
}

// Every part of two breakdowns equal up to rounding; names the first that differs.
std::string differenceOf(const CostBreakdown& a, const CostBreakdown& b)
{
    const TimeBreakdown& s = a.time;
    const TimeBreakdown& t = b.time;
    std::vector<std::pair<const char*, std::pair<double, double>>> parts{
        {"step", {s.stepSeconds(), t.stepSeconds()}},
        {"compute", {s.computeSeconds, t.computeSeconds}},
        {"recompute", {s.recomputeSeconds, t.recomputeSeconds}},
        {"optimizer", {s.optimizerSeconds, t.optimizerSeconds}},
        {"data parallel", {s.dataParallelSeconds, t.dataParallelSeconds}},
        {"hidden", {s.hiddenSeconds, t.hiddenSeconds}},
        {"pipeline sends", {s.pipelineSendSeconds, t.pipelineSendSeconds}},
        {"bubble", {s.bubbleSeconds, t.bubbleSeconds}},
        {"parameters", {a.memory.parameters, b.memory.parameters}},
        {"gradients", {a.memory.gradients, b.memory.gradients}},
        {"optimizer states", {a.memory.optimizerStates, b.memory.optimizerStates}},
        {"activations", {a.memory.activations, b.memory.activations}},
        {"transient", {a.memory.transient, b.memory.transient}}};
    for (std::size_t i = 0; i < s.byCollective.size(); ++i)
        parts.push_back({"a collective", {s.byCollective[i], t.byCollective[i]}});
    for (std::size_t i = 0; i < s.byLink.size(); ++i)
        parts.push_back({"a link", {s.byLink[i], t.byLink[i]}});
    if (s.byAxis.size() != t.byAxis.size())
        return "axis count";
    for (std::size_t i = 0; i < s.byAxis.size(); ++i)
        parts.push_back({"an axis", {s.byAxis[i], t.byAxis[i]}});
    for (const auto& [name, values] : parts) {
        if (!close(values.first, values.second))
            return std::string(name) + ": " + std::to_string(values.first) + " by node, " +
                   std::to_string(values.second) + " by class";
    }
    return {};
}

// evaluateTotals equals evaluate on `plan`; returns what differs ("" when nothing).
std::string compare(const CostModel& costs, const Plan& plan)
{
    const PlanEvaluation byNode = costs.evaluate(plan);
    PlanEvaluation byClass;
    costs.evaluateTotals(plan, byClass);
    if (byClass.microBatches != byNode.microBatches || byClass.dataParallelDegree != byNode.dataParallelDegree)
        return "stepping";
    if (std::string d = differenceOf(byNode.total, byClass.total); !d.empty())
        return "total " + d;
    if (byClass.stages.size() != byNode.stages.size())
        return "stage count";
    for (std::size_t s = 0; s < byNode.stages.size(); ++s) {
        if (byClass.stages[s].blockRanges != byNode.stages[s].blockRanges ||
            !close(byClass.stages[s].microBatchSeconds, byNode.stages[s].microBatchSeconds) ||
            byClass.stages[s].inFlightMicroBatches != byNode.stages[s].inFlightMicroBatches)
            return "stage " + std::to_string(s);
        if (std::string d = differenceOf(byNode.stages[s].cost, byClass.stages[s].cost); !d.empty())
            return "stage " + std::to_string(s) + " " + d;
    }
    return {};
}

// CostModel::blockCosts of `plan` equals evaluate()'s per-node costs summed over each
// block, the nodes before the first block and after the last, and its largest
// transient buffer; returns what differs ("" when nothing).
std::string compareBlocks(const CostModel& costs, const FoldedModel& m, const Plan& plan)
{
    const std::optional<CostModel::BlockCosts> byClass = costs.blockCosts(plan);
    if (!byClass)
        return "not priced by classes";
    const PlanEvaluation byNode = costs.evaluate(plan);
    const std::vector<const BlockInstance*> blocks = modelBlocks(m.families);
    if (byClass->blocks.size() != blocks.size())
        return "block count";
    CostBreakdown empty;
    empty.time.byAxis.assign(costs.mesh().axisCount(), 0.0);
    std::vector<bool> inBlock(m.coarse.nodes.size(), false);
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        CostBreakdown sum = empty;
        for (const CoarseNodeId id : blocks[b]->nodes) {
            sum.add(byNode.perNode[id.index()]);
            inBlock[id.index()] = true;
        }
        sum.memory.transient = byClass->blocks[b].memory.transient;  // compared below, as the whole step's
        if (std::string d = differenceOf(sum, byClass->blocks[b]); !d.empty())
            return "block " + std::to_string(b) + " " + d;
    }
    CostBreakdown before = empty;
    CostBreakdown after = empty;
    double transient = 0;
    for (const CoarseNode& node : m.coarse.nodes) {
        transient = std::max(transient, byNode.perNode[node.id.index()].memory.transient);
        if (!inBlock[node.id.index()])
            (node.id < blocks.front()->nodes.front() ? before : after).add(byNode.perNode[node.id.index()]);
    }
    before.memory.transient = byClass->before.memory.transient;
    after.memory.transient = byClass->after.memory.transient;
    if (std::string d = differenceOf(before, byClass->before); !d.empty())
        return "before the blocks " + d;
    if (std::string d = differenceOf(after, byClass->after); !d.empty())
        return "after the blocks " + d;
    if (!close(transient, byClass->transient))
        return "transient";
    return {};
}

// The expert plans on `axes`, and for a mixture of experts the data-parallel plan with
// its experts spread over the first axis.
std::vector<Plan> plansFor(const CostModel& costs, const CoarseGraph& coarse, const std::vector<MeshAxis>& axes)
{
    std::vector<Plan> plans;
    for (const ExpertPlanKind kind : {ExpertPlanKind::DataParallel, ExpertPlanKind::Megatron,
                                      ExpertPlanKind::MegatronSequenceParallel, ExpertPlanKind::RingAttention,
                                      ExpertPlanKind::Ulysses})
        plans.push_back(makeExpertPlan(kind, coarse, axes));
    Plan experts = makeExpertPlan(ExpertPlanKind::DataParallel, coarse, axes);
    bool spread = false;
    for (const CoarseNode& node : coarse.nodes) {
        NodeStrategy strategy = experts.strategy(node.id);
        strategy.axes[0] = AxisSplit::Expert;
        if (costs.facts(node.id).experts > 0 && costs.accepts(node.id, strategy)) {
            experts.strategies[node.id.index()] = strategy;
            spread = true;
        }
    }
    if (spread)
        plans.push_back(experts);
    return plans;
}

}  // namespace

class PricingClassesTest : public QObject {
    Q_OBJECT

private slots:
    void classesPriceAsEveryNode()
    {
        const Cluster cluster = testCluster("dgx-h100x1");
        int compared = 0;
        int blocksCompared = 0;
        for (const char* preset : {"gpt2-small", "llama3-8b", "mixtral-8x7b"}) {
            const FoldedModel m = smallModel(preset, 6);
            // No pipeline; 2 even stages; 3 uneven stages (1, 3 and 2 blocks); 2 stages of
            // 2 interleaved chunks each (2, 1, 2, 1 blocks).
            PipelineLayout even;
            even.stages = 2;
            PipelineLayout uneven;
            uneven.stages = 3;
            uneven.chunkStarts = {0, 1, 4};
            PipelineLayout interleaved;
            interleaved.stages = 2;
            interleaved.virtualStages = 2;
            interleaved.schedule = PipelineSchedule::Interleaved;
            interleaved.chunkStarts = {0, 2, 3, 5};
            for (const PipelineLayout& layout : {PipelineLayout{}, even, uneven, interleaved}) {
                // Stages of one 8-GPU node each (a stage mesh of 2 x 4).
                Cluster nodes = cluster;
                nodes.nodes = layout.stages;
                const PipelineStages split = pipelineStages(nodes, layout.stages);
                const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, split.stageCluster);
                for (const int microBatch : {0, 2}) {
                    Workload w = workload(16, 256);
                    w.microBatch = microBatch;
                    PipelineLayout stages;
                    stages.stages = layout.stages;
                    const CostModel bound(m.graph(), m.coarse, m.families, split.stageCluster, mesh, w,
                                          PipelineSetting{stages, split.boundaryLink});
                    for (const Recomputation recompute :
                         {Recomputation::None, Recomputation::Selective, Recomputation::Full}) {
                        for (const int zero : {0, 1, 2, 3}) {
                            const CostModel costs = bound.withTechniques(recompute, zero, 1);
                            for (Plan plan : plansFor(costs, m.coarse, mesh.axes())) {
                                plan.pipeline = layout;
                                std::string difference = compare(costs, plan);
                                if (difference.empty() && plan.pipeline.active()) {
                                    difference = compareBlocks(costs, m, plan);
                                    ++blocksCompared;
                                }
                                QVERIFY2(difference.empty(),
                                         (std::string(preset) + ", " + std::to_string(layout.stages) +
                                          " stages, plan " + plan.name + ", micro-batch " + std::to_string(microBatch) +
                                          ", recompute " + std::to_string(static_cast<int>(recompute)) + ", ZeRO " +
                                          std::to_string(zero) + ": " + difference)
                                             .c_str());
                                ++compared;
                            }
                        }
                    }
                }
            }
        }
        QVERIFY(compared > 3 * 4 * 2 * 3 * 4 * 5);
        QVERIFY(blocksCompared > 3 * 3 * 2 * 3 * 4 * 5);
    }

    // 6 and 12 layers: the same classes and block kinds (the first block, the last, the
    // ones between), fewer than the nodes.
    void classesDoNotGrowWithDepth()
    {
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, cluster);
        std::vector<std::size_t> counts;
        for (const std::int64_t layers : {6, 12}) {
            const FoldedModel m = smallModel("llama3-8b", layers);
            const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(8, 256));
            const PricingClasses& classes = costs.pricingClasses();
            QVERIFY(classes.nodes.size() < m.coarse.nodes.size() / 3);
            QCOMPARE(classes.kindOfBlock.size(), static_cast<std::size_t>(layers));
            QCOMPARE(classes.blockKinds.size(), std::size_t{3});
            double members = 0;
            for (const PricingClasses::NodeClass& c : classes.nodes)
                members += c.count;
            QCOMPARE(members, static_cast<double>(m.coarse.nodes.size()));
            counts.push_back(classes.nodes.size());
            counts.push_back(classes.tensors.size());
            // What a pricing reads besides the members: the readers of each node class and
            // the consumers of each tensor class that may convert it (a mask or a rotary
            // table is read by every layer: one reader per position in the block).
            std::size_t neighbours = 0;
            for (const PricingClasses::NodeClass& c : classes.nodes)
                neighbours += c.readers.size();
            for (const PricingClasses::TensorClass& t : classes.tensors)
                neighbours += t.converting.size();
            counts.push_back(neighbours);
        }
        QCOMPARE(counts[0], counts[3]);
        QCOMPARE(counts[1], counts[4]);
        QCOMPARE(counts[2], counts[5]);
    }

    // A plan that splits one layer unlike the others is priced by evaluate() (its
    // breakdowns per node come with it) at the same price.
    void aPlanUnlikeAcrossLayersIsPricedNodeByNode()
    {
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, cluster);
        const FoldedModel m = smallModel("gpt2-small", 4);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(8, 256));
        Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh.axes());
        QVERIFY(costs.pricingClasses().uniform(plan));
        const CoarseNodeId third = m.families.families.front().instances[2].nodes.front();
        plan.strategies[third.index()].axes = {AxisSplit::Batch, AxisSplit::Batch};
        QVERIFY(!costs.pricingClasses().uniform(plan));
        PlanEvaluation totals;
        costs.evaluateTotals(plan, totals);
        QCOMPARE(totals.perNode.size(), m.coarse.nodes.size());
        QVERIFY(compare(costs, plan).empty());
    }

    // A plan checked once (CostModel::uniformPlan) prices as the plan itself: on 2
    // pipeline stages, under another pipeline layout set after the check, by a copy with
    // other techniques (its classes shared: not checked again) and by a model bound on
    // its own (other classes: checked again). A plan unlike across layers, or of another
    // graph, is refused.
    void aCheckedPlanPricesAsThePlan()
    {
        const FoldedModel m = smallModel("gpt2-small", 4);
        Cluster nodes = testCluster("dgx-h100x1");
        nodes.nodes = 2;
        const PipelineStages split = pipelineStages(nodes, 2);
        const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, split.stageCluster);
        PipelineLayout even;
        even.stages = 2;
        const PipelineSetting pipeline{even, split.boundaryLink};
        const CostModel costs(m.graph(), m.coarse, m.families, split.stageCluster, mesh, workload(16, 256), pipeline);
        const CostModel other(m.graph(), m.coarse, m.families, split.stageCluster, mesh, workload(16, 256), pipeline);
        const CostModel recomputing = costs.withTechniques(Recomputation::Full, 3, 1);

        Plan plan = makeExpertPlan(ExpertPlanKind::Megatron, m.coarse, mesh.axes());
        plan.pipeline = even;
        std::optional<UniformPlan> checked = costs.uniformPlan(plan);
        QVERIFY(checked);
        PipelineLayout interleaved;
        interleaved.stages = 2;
        interleaved.virtualStages = 2;
        interleaved.schedule = PipelineSchedule::Interleaved;
        for (const PipelineLayout& layout : {even, interleaved}) {
            plan.pipeline = layout;
            checked->setPipeline(layout);
            for (const CostModel* model : {&costs, &recomputing, &other}) {
                PlanEvaluation byPlan;
                model->evaluateTotals(plan, byPlan);
                PlanEvaluation byChecked;
                model->evaluateTotals(*checked, byChecked);
                QVERIFY(byChecked.totalsOnly);
                QCOMPARE(byChecked.total.time.stepSeconds(), byPlan.total.time.stepSeconds());
                QCOMPARE(byChecked.total.memory.total(), byPlan.total.memory.total());
                QCOMPARE(byChecked.stages.size(), std::size_t{2});
            }
        }

        Plan unlike = plan;
        const CoarseNodeId third = m.families.families.front().instances[2].nodes.front();
        unlike.strategies[third.index()].axes = {AxisSplit::Batch, AxisSplit::Batch};
        QVERIFY(!costs.uniformPlan(unlike));
        Plan shorter = plan;
        shorter.strategies.pop_back();
        QVERIFY(!costs.uniformPlan(shorter));
    }
};

QTEST_GUILESS_MAIN(PricingClassesTest)
#include "PricingClassesTest.moc"
