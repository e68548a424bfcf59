#include "search/StackSearch.h"

#include "base/Error.h"
#include "cluster/PipelineStages.h"
#include "cost/ExpertRouting.h"
#include "cost/ShapeBinder.h"
#include "fold/FoldedModel.h"
#include "search/PlanPricing.h"
#include "target/StackRules.h"

#include <algorithm>
#include <chrono>

namespace tapestry {

namespace {

// The most experts of any mixture-of-experts layer (0: none).
int expertCountOf(const FoldedModel& model, const Workload& workload)
{
    int experts = 0;
    for (const ExpertMembership& member :
         expertMembership(model.graph(), model.coarse, ShapeBinder(model.graph(), workload)))
        experts = std::max(experts, member.experts);
    return experts;
}

bool withholds(const SearchOptions& options, ParallelTechnique technique)
{
    return std::find(options.withheld.begin(), options.withheld.end(), technique) != options.withheld.end();
}

// The workloads (training techniques, before the micro-batch) the search tries.
std::vector<Workload> stackWorkloads(const SearchSetup& setup, TrainingStack stack, bool pipelined)
{
    const std::vector<int> stages =
        setup.chooseZeroStage ? stackZeroStages(stack, pipelined) : std::vector<int>{setup.workload.zeroStage};
    const std::vector<Recomputation> recomputations = setup.chooseRecomputation
                                                          ? stackRecomputations(stack, setup.workload.attention)
                                                          : std::vector<Recomputation>{setup.workload.recompute};
    std::vector<Workload> workloads;
    for (const Recomputation recompute : recomputations)
        for (const int stage : stages) {
            Workload w = setup.workload;
            w.recompute = recompute;
            w.zeroStage = stage;
            workloads.push_back(w);
        }
    return workloads;
}

// Pareto points below `best`'s memory: each uses less memory than the one before.
std::vector<std::shared_ptr<const PlanCandidate>> paretoBelow(std::vector<std::shared_ptr<const PlanCandidate>> all,
                                                              const PlanCandidate& best, std::size_t count)
{
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
        return a->stepSeconds() != b->stepSeconds() ? a->stepSeconds() < b->stepSeconds()
                                                    : a->memoryBytes() < b->memoryBytes();
    });
    std::vector<std::shared_ptr<const PlanCandidate>> chosen;
    double memory = best.memoryBytes();
    for (const auto& candidate : all) {
        if (chosen.size() >= count)
            break;
        // At least 5 % less memory than the last point: a real step down the frontier.
        if (candidate->memoryBytes() < 0.95 * memory) {
            chosen.push_back(candidate);
            memory = candidate->memoryBytes();
        }
    }
    return chosen;
}

}  // namespace

StackSearchOutcome searchStackMesh(const std::shared_ptr<const FoldedModel>& model, const SearchSetup& setup,
                                   const std::vector<MeshAxis>& axes, const std::function<bool()>& cancelled,
                                   const std::function<void(double)>& progress)
{
    const auto start = std::chrono::steady_clock::now();
    const TrainingStack stack = setup.options.stack;
    if (!setup.options.pins.empty())
        throw Error(ErrorCode::InvalidArgument, {},
                    std::string("pins need --target any: ") + trainingStackName(stack) +
                        " lays out every layer itself (search with --target any to pin single nodes)");
    const PipelinedMesh split = splitPipelineAxis(axes);
    const bool pipelined = split.stages > 1;
    const std::size_t blocks = modelBlocks(model->families).size();
    std::vector<PipelineLayout> pipelineLayouts{PipelineLayout{}};
    if (pipelined) {
        pipelineLayouts = pipelineLayoutVariants(split.stages, blocks);
        if (pipelineLayouts.empty())
            throw Error(ErrorCode::InvalidMesh, {},
                        "a pipeline of " + std::to_string(split.stages) + " stages needs at least as many blocks; " +
                            "the model has " + std::to_string(blocks));
    }
    const Cluster stageCluster = pipelineStages(setup.cluster, split.stages).stageCluster;
    int devices = split.stages;
    for (const MeshAxis& axis : split.stageAxes)
        devices *= axis.size;

    std::vector<TrainingStackSettings> layouts =
        stackLayouts(stack, split.stageAxes, expertCountOf(*model, setup.workload));
    std::erase_if(layouts, [&](const TrainingStackSettings& s) {
        return (s.contextParallel > 1 && withholds(setup.options, ParallelTechnique::Context)) ||
               (s.expertParallel > 1 && withholds(setup.options, ParallelTechnique::Expert));
    });
    const std::vector<Workload> workloads = stackWorkloads(setup, stack, pipelined);

    StackSearchOutcome outcome;
    outcome.result.statistics.coarseNodes = model->coarse.nodes.size();
    outcome.result.statistics.families = model->families.families.size();
    std::vector<std::shared_ptr<const PlanCandidate>> priced;
    double limit = setup.options.memoryLimitBytes.value_or(0);
    bool limitKnown = setup.options.memoryLimitBytes.has_value();

    // Prices `plan` (built from `layout`) under every pipeline layout with `pricing`;
    // keeps what the stack runs. Returns whether some kept plan fits. The plan is the
    // layout's by construction, so only the workload and pipeline are checked here
    // (stackInexpressible would rebuild the plan to find the same).
    auto priceLayouts = [&](const PlanPricing& pricing, Plan plan, const TrainingStackSettings& layout) {
        if (!limitKnown) {
            limit = pricing.costs().hbmBytes();
            limitKnown = true;
        }
        TrainingStackSettings settings = layout;
        settings.layers = static_cast<std::int64_t>(blocks);
        settings.workload = pricing.costs().workload();
        if (settings.workload.microBatch == 0)
            settings.workload.microBatch = std::max<std::int64_t>(1, settings.workload.batch / layout.dataParallel);
        bool fits = false;
        for (const PipelineLayout& pipeline : pipelineLayouts) {
            plan.pipeline = pipeline;
            settings.pipeline = pipeline;
            if (pipeline.active())
                settings.pipeline.chunkStarts = chunkStarts(pipeline, blocks);
            if (!stackSettingNotes(stack, settings).empty())
                continue;
            auto candidate = pricing.price(plan, PlanCandidate::Role::Best);
            ++outcome.result.statistics.solves;
            fits = fits || candidate->memoryBytes() <= limit;
            if (!outcome.best || isPreferred(*candidate, *outcome.best, limit))
                outcome.best = candidate;
            priced.push_back(std::move(candidate));
        }
        return fits;
    };

    for (std::size_t l = 0; l < layouts.size(); ++l) {
        if (cancelled && cancelled()) {
            outcome.result.cancelled = true;
            break;
        }
        if (progress)
            progress(static_cast<double>(l) / static_cast<double>(layouts.size()));
        TrainingStackSettings settings = layouts[l];
        settings.pipeline = pipelineLayouts.front();
        settings.workload = setup.workload;
        Plan plan;
        try {
            plan = planFromTrainingStackSettings(settings, *model, trainingStackName(stack), devices).plan;
            // The stack's own stage mesh must lie evenly on the NVLink domains: 16-GPU
            // expert groups on 72-GPU racks would straddle two racks unevenly.
            (void)DeviceMesh(splitPipelineAxis(planMeshAxes(plan)).stageAxes, stageCluster);
        } catch (const Error&) {
            continue;  // the layout's expert ranks do not fit this mesh or this cluster
        }
        if (setup.options.widestGroup > 0 && widestGroup(plan) > setup.options.widestGroup)
            continue;
        plan.origin = PlanOrigin::Search;
        plan.name = "tap";
        const std::vector<MeshAxis> stackAxes = planMeshAxes(plan);
        for (const Workload& workload : workloads) {
            std::vector<std::int64_t> microBatches{workload.microBatch};
            if (pipelined)
                microBatches = setup.pipelineMicroBatches();
            bool fits = false;
            for (const std::int64_t microBatch : microBatches) {
                SearchSetup variant = setup;
                variant.workload = workload;
                variant.workload.microBatch = microBatch;
                const PlanPricing pricing(model, std::move(variant), stackAxes, pipelineLayouts.front());
                const CostModel& costs = pricing.costs();
                // A micro-batch beyond a rank's share of the batch repeats a smaller one.
                if (pipelined && microBatch > 1 && microBatch * costs.dataParallelDegree() > costs.workload().batch)
                    continue;
                fits = priceLayouts(pricing, plan, layouts[l]) || fits;
            }
            // Gradient accumulation: another way to fit, tried only where the whole
            // per-rank batch does not (with the same techniques it only adds time).
            if (pipelined || fits || !setup.chooseMicroBatch || setup.workload.microBatch != 0)
                continue;
            for (std::int64_t microBatch = 1; microBatch <= 8; microBatch *= 2) {
                SearchSetup variant = setup;
                variant.workload = workload;
                variant.workload.microBatch = microBatch;
                const PlanPricing pricing(model, std::move(variant), stackAxes, pipelineLayouts.front());
                const CostModel& costs = pricing.costs();
                if (microBatch * costs.dataParallelDegree() >= costs.workload().batch)
                    break;
                priceLayouts(pricing, plan, layouts[l]);
            }
        }
    }

    SearchResult& result = outcome.result;
    result.memoryLimitBytes = limit;
    result.statistics.decisionGroups = layouts.size();
    if (outcome.best) {
        outcome.workload = outcome.best->workload;
        result.best = SearchCandidate{outcome.best->plan, outcome.best->evaluation};
        result.fitsInMemory = outcome.best->memoryBytes() <= limit;
        result.statistics.status = result.cancelled ? IlpStatus::Feasible : IlpStatus::Optimal;
        result.statistics.objectiveSeconds = outcome.best->stepSeconds();
        result.statistics.boundSeconds = result.cancelled ? 0 : outcome.best->stepSeconds();
        if (!result.fitsInMemory)
            result.message = std::string("no ") + trainingStackName(stack) + " layout fits the memory limit on this "
                             "mesh; the one closest to fitting is shown";
        for (const auto& alternative : paretoBelow(priced, *outcome.best, setup.options.alternatives)) {
            auto kept = std::make_shared<PlanCandidate>(*alternative);
            kept->role = PlanCandidate::Role::Alternative;
            result.alternatives.push_back({kept->plan, kept->evaluation});
            outcome.alternatives.push_back(std::move(kept));
        }
    } else {
        result.message = std::string("no layout that ") + trainingStackName(stack) + " runs on this mesh";
    }
    result.statistics.totalSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.statistics.solveSeconds = result.statistics.totalSeconds;
    return outcome;
}

}  // namespace tapestry
