#include "search/PlanPricing.h"

#include "cluster/PipelineStages.h"
#include "cost/GradientsAtPeak.h"
#include "cost/PricingClasses.h"
#include "fold/FoldedModel.h"
#include "search/StrategySpace.h"
#include "target/StackRules.h"

#include <algorithm>
#include <limits>

namespace tapestry {

PlanPricing::PlanPricing(std::shared_ptr<const FoldedModel> folded, SearchSetup setup,
                         const std::vector<MeshAxis>& mesh, PipelineLayout assumed)
    : PlanPricing(nullptr, std::move(folded), std::move(setup), mesh, std::move(assumed))
{
}

PlanPricing::PlanPricing(const PlanPricing& seed, SearchSetup setup, const std::vector<MeshAxis>& mesh,
                         PipelineLayout assumed)
    : PlanPricing(&seed, seed.folded_, std::move(setup), mesh, std::move(assumed))
{
}

PlanPricing::PlanPricing(const PlanPricing* seed, std::shared_ptr<const FoldedModel> folded, SearchSetup setup,
                         const std::vector<MeshAxis>& mesh, PipelineLayout assumed)
    : folded_(std::move(folded)), setup_(std::move(setup))
{
    const PipelinedMesh split = splitPipelineAxis(mesh);
    const PipelineStages stages = tapestry::pipelineStages(setup_.cluster, split.stages);
    stageCluster_ = std::make_shared<const Cluster>(stages.stageCluster);
    mesh_ = std::make_shared<const DeviceMesh>(split.stageAxes, *stageCluster_);
    assumed.stages = split.stages;
    assumed.chunkStarts.clear();
    const PipelineSetting pipeline{assumed, stages.boundaryLink};
    if (seed) {
        if (auto rebound = seed->costs_->rebound(*stageCluster_, *mesh_, setup_.workload, pipeline))
            costs_ = std::make_shared<const CostModel>(std::move(*rebound));
    }
    if (!costs_)
        costs_ = std::make_shared<const CostModel>(*folded_, *stageCluster_, *mesh_, setup_.workload, pipeline);
    meshText_ = split.stages > 1 ? DeviceMesh(split.wholeAxes(), setup_.cluster).toString() : mesh_->toString();
}

PlanPricing::PlanPricing(const PlanPricing& bound, Recomputation recompute, int zeroStage, int zeroReplicas)
    : folded_(bound.folded_),
      setup_(bound.setup_),
      stageCluster_(bound.stageCluster_),
      mesh_(bound.mesh_),
      meshText_(bound.meshText_),
      costs_(std::make_shared<const CostModel>(bound.costs_->withTechniques(recompute, zeroStage, zeroReplicas)))
{
    setup_.workload.recompute = recompute;
    setup_.workload.zeroStage = zeroStage;
    setup_.workload.zeroReplicas = zeroReplicas;
}

std::shared_ptr<const PlanCandidate> PlanPricing::price(Plan plan, PlanCandidate::Role role,
                                                        TrainingStack implementations) const
{
    PlanEvaluation evaluation = costs_->evaluate(plan);
    std::shared_ptr<PlanCandidate> priced = newCandidate(role, std::move(plan), std::move(evaluation));
    // Only while this workload still names them: an option or a hand-edited file that
    // names another ZeRO implementation or replay prices with none in particular.
    priced->implementations = implementationsNamed(implementations, priced->workload);
    return priced;
}

std::shared_ptr<const PlanCandidate> PlanPricing::priceTotals(Plan plan, PlanCandidate::Role role) const
{
    PlanEvaluation evaluation;
    costs_->evaluateTotals(plan, evaluation);
    return candidate(role, std::move(plan), std::move(evaluation));
}

std::shared_ptr<const PlanCandidate> PlanPricing::priceTotals(const UniformPlan& plan, PlanCandidate::Role role) const
{
    PlanEvaluation evaluation;
    costs_->evaluateTotals(plan, evaluation);
    return candidate(role, plan.plan(), std::move(evaluation));
}

std::shared_ptr<const PlanCandidate> PlanPricing::candidate(PlanCandidate::Role role, Plan plan,
                                                            PlanEvaluation evaluation) const
{
    return newCandidate(role, std::move(plan), std::move(evaluation));
}

std::shared_ptr<PlanCandidate> PlanPricing::newCandidate(PlanCandidate::Role role, Plan plan,
                                                         PlanEvaluation evaluation) const
{
    auto candidate = std::make_shared<PlanCandidate>();
    candidate->evaluation = std::move(evaluation);
    candidate->role = role;
    candidate->plan = std::move(plan);
    candidate->workload = costs_->workload();
    candidate->batchSource = costs_->shapes().batchSource();
    candidate->sequenceSource = costs_->shapes().sequenceSource();
    candidate->meshText = meshText_;
    // The model, cluster and mesh go with the cost model, which refers to them.
    if (candidate->evaluation.totalsOnly)
        candidate->deferred = std::make_shared<const DeferredEvaluation>(
            [folded = folded_, cluster = stageCluster_, mesh = mesh_, costs = costs_](const Plan& priced) {
                return costs->evaluate(priced);
            });
    return candidate;
}

PlanDocument PlanPricing::document(const PlanCandidate& candidate) const
{
    return planDocument(candidate, folded_->fingerprint, setup_);
}

std::optional<double> PlanPricing::computeFloorSeconds(const std::function<bool()>& cancelled) const
{
    const std::vector<int> sizes = costs_->mesh().shape();
    double total = 0;
    // The nodes of one pricing class compute alike under every strategy: one member
    // each, times their count (the floor does not grow with depth).
    for (const PricingClasses::NodeClass& members : costs_->pricingClasses().nodes) {
        if (cancelled && cancelled())
            return std::nullopt;
        double least = std::numeric_limits<double>::infinity();
        for (const NodeStrategy& strategy : strategiesFor(folded_->coarse.node(members.node).kind, sizes))
            least = std::min(least, costs_->strategyComputeSeconds(members.node, strategy));
        total += members.count * least;
    }
    return total / costs_->pipeline().layout.stages;
}

double PlanPricing::memoryFloorBytes() const
{
    const std::vector<int> sizes = costs_->mesh().shape();
    // Gradients freed between steps may count only by what they exceed the activations by
    // (cost/GradientsAtPeak.h): then the two are bounded apart, their larger one counted.
    const bool gradientsAtPeak = costs_->workload().gradientLifetime == GradientLifetime::FreedBetweenSteps;
    double states = 0;
    double gradients = 0;
    double activations = 0;
    for (const PricingClasses::NodeClass& members : costs_->pricingClasses().nodes) {
        const double count = members.count;
        activations += count * costs_->activationFloorBytes(members.node);
        // Only a node with weights keeps states: its least over every strategy a search
        // may give it (PlanSearch's groups: experts may also split over experts).
        const CostModel::NodeFacts& facts = costs_->facts(members.node);
        if (facts.parameterElements == 0)
            continue;
        double least = std::numeric_limits<double>::infinity();
        double leastGradients = std::numeric_limits<double>::infinity();
        for (const NodeStrategy& strategy :
             strategiesFor(folded_->coarse.node(members.node).kind, sizes, facts.experts > 0)) {
            const double own = costs_->strategyStateFloorBytes(members.node, strategy);
            const double ownGradients = costs_->strategyGradientFloorBytes(members.node, strategy);
            least = std::min(least, gradientsAtPeak ? own : own + ownGradients);
            leastGradients = std::min(leastGradients, ownGradients);
        }
        states += count * least;
        if (gradientsAtPeak)
            gradients += count * leastGradients;
    }
    return peakFloorBytes(states, gradients, activations, gradientsAtPeak);
}

PlanDocument planDocument(const PlanCandidate& candidate, const std::string& modelFingerprint, const SearchSetup& setup)
{
    PlanDocument document;
    document.plan = candidate.plan;
    document.modelFingerprint = modelFingerprint;
    document.clusterName = setup.cluster.name;
    document.workload = candidate.workload;
    document.implementations = candidate.implementations;
    document.cost = costSummaryOf(candidate.evaluation);
    return document;
}

PlanCostSummary costSummaryOf(const PlanEvaluation& evaluation)
{
    const CostBreakdown& t = evaluation.total;
    return {t.time.stepSeconds(), t.time.computeSeconds, t.time.exposedCommunicationSeconds(), t.memory.total(),
            evaluation.hbmBytes};
}

SearchSetup withChosenTechniques(SearchSetup searched, const Workload& chosen)
{
    searched.workload.recompute = chosen.recompute;
    searched.workload.selective = chosen.selective;
    searched.workload.checkpointReplay = chosen.checkpointReplay;
    searched.workload.savedActivations = chosen.savedActivations;
    searched.workload.optimizerStep = chosen.optimizerStep;
    searched.workload.gradientLifetime = chosen.gradientLifetime;
    searched.workload.zeroImplementation = chosen.zeroImplementation;
    searched.workload.pipelineSendOverlap = chosen.pipelineSendOverlap;
    searched.workload.gradientClipping = chosen.gradientClipping;
    searched.workload.fp8Implementation = chosen.fp8Implementation;
    searched.workload.keyValueHeads = chosen.keyValueHeads;
    searched.workload.zeroStage = chosen.zeroStage;
    searched.workload.zeroReplicas = chosen.zeroReplicas;
    searched.workload.microBatch = chosen.microBatch;
    return searched;
}

}  // namespace tapestry
