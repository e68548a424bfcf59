#include "search/StackSearch.h"

#include "base/Error.h"
#include "cluster/PipelineStages.h"
#include "fold/FoldedModel.h"
#include "search/PlanPricing.h"
#include "target/StackRules.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace tapestry {

namespace {

bool withholds(const SearchOptions& options, ParallelTechnique technique)
{
    return std::find(options.withheld.begin(), options.withheld.end(), technique) != options.withheld.end();
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

// Whether a plan of `stepSeconds` and `memoryBytes` is as fast and as small as one of
// `seconds` and `bytes`, and better in one.
bool dominates(double stepSeconds, double memoryBytes, double seconds, double bytes)
{
    return stepSeconds <= seconds && memoryBytes <= bytes && (stepSeconds < seconds || memoryBytes < bytes);
}

// Whether some plan of `frontier` dominates a plan of `seconds` and `bytes`.
bool dominated(const std::vector<std::shared_ptr<const PlanCandidate>>& frontier, double seconds, double bytes)
{
    return std::any_of(frontier.begin(), frontier.end(), [&](const auto& kept) {
        return dominates(kept->stepSeconds(), kept->memoryBytes(), seconds, bytes);
    });
}

// Keeps `frontier` to plans none of which another dominates: a plan off it is neither
// a search's best nor on its Pareto list.
void addToFrontier(std::vector<std::shared_ptr<const PlanCandidate>>& frontier,
                   std::shared_ptr<const PlanCandidate> candidate)
{
    if (dominated(frontier, candidate->stepSeconds(), candidate->memoryBytes()))
        return;
    std::erase_if(frontier, [&](const auto& kept) {
        return dominates(candidate->stepSeconds(), candidate->memoryBytes(), kept->stepSeconds(),
                         kept->memoryBytes());
    });
    frontier.push_back(std::move(candidate));
}

// The key of a layout on a pipeline of `stages`: what planFromTrainingStackSettings
// builds its plan from.
std::string layoutKey(int stages, const TrainingStackSettings& layout)
{
    return std::to_string(stages) + "/" + std::to_string(layout.dataParallel) + "/" +
           std::to_string(layout.contextParallel) + "/" + std::to_string(layout.tensorParallel) + "/" +
           std::to_string(layout.sequenceParallel) + "/" + std::to_string(static_cast<int>(layout.contextVariant)) +
           "/" + std::to_string(layout.expertParallel) + "/" + std::to_string(layout.expertTensorParallel);
}

// Everything one layout is priced with on one mesh.
struct LayoutSearch {
    const std::shared_ptr<const FoldedModel>& model;
    const SearchSetup& setup;
    TrainingStack stack;
    bool pipelined;
    std::size_t blocks;
    int devices;
    double limit;
    const Cluster& stageCluster;
    const std::vector<PipelineLayout>& pipelineLayouts;
    const std::vector<Workload>& workloads;
    const std::function<bool()>& cancelled;
    SharedBindings& shared;
    StagePlans& plans;
};

// What the layouts of one mesh's search share: one pricing per micro-batch on the stack
// mesh in hand (layouts that differ only in flags, sequence parallelism or the
// context-parallel variant, have the same), and the storage of the evaluation in hand.
struct Bindings {
    std::vector<MeshAxis> axes;
    std::map<std::int64_t, std::unique_ptr<PlanPricing>> byMicroBatch;
    PlanEvaluation scratch;

    // A pricing on `stackAxes` of the setup's workload with `workload`'s techniques and
    // `microBatch` (with the session's bound shapes).
    static std::unique_ptr<PlanPricing> on(const LayoutSearch& search, const std::vector<MeshAxis>& stackAxes,
                                           std::int64_t microBatch, const Workload& workload)
    {
        SearchSetup variant = search.setup;
        variant.workload = workload;
        variant.workload.microBatch = microBatch;
        return search.shared.pricing(search.model, std::move(variant), stackAxes, search.pipelineLayouts.front());
    }
};

// What a stack's search names its plans: "megatron-layout", its Pareto alternatives
// "megatron-layout-1", ... (a TAP search's are "tap", "tap-1", ...).
std::string layoutPlanName(TrainingStack stack)
{
    return std::string(trainingStackName(stack)) + "-layout";
}

// `candidate`, a kept plan of `layout` (LayoutPrices), in `role` with the layout's plan
// under its pipeline, found by `stack`'s search, named `name` (its breakdowns, priced by
// its totals, come when asked for).
std::shared_ptr<const PlanCandidate> inRole(const PlanCandidate& candidate, const LayoutPrices& layout,
                                            PlanCandidate::Role role, TrainingStack stack, std::string name)
{
    auto kept = std::make_shared<PlanCandidate>(candidate);
    kept->plan = layout.plan;
    kept->plan.pipeline = candidate.plan.pipeline;
    kept->role = role;
    kept->implementations = stack;
    kept->plan.name = std::move(name);
    return kept;
}

// `layout` built as the stack builds it and priced under every workload, micro-batch
// and pipeline layout the search tries; what the stack runs is kept on the frontier.
LayoutPrices priceLayout(const LayoutSearch& search, const TrainingStackSettings& layout, Bindings& bindings)
{
    LayoutPrices prices;
    TrainingStackSettings built = layout;
    built.pipeline = search.pipelineLayouts.front();
    built.workload = search.setup.workload;
    Plan plan;
    try {
        plan = planFromTrainingStackSettings(built, *search.model, trainingStackName(search.stack), search.devices,
                                             &search.plans)
                   .plan;
        // The stack's own stage mesh must lie evenly on the NVLink domains: 16-GPU
        // expert groups on 72-GPU racks would straddle two racks unevenly.
        (void)DeviceMesh(splitPipelineAxis(planMeshAxes(plan)).stageAxes, search.stageCluster);
    } catch (const Error&) {
        return prices;  // the layout's expert ranks do not fit this mesh or this cluster
    }
    prices.widestGroup = widestGroup(plan);
    plan.origin = PlanOrigin::Search;
    plan.name = layoutPlanName(search.stack);
    const std::vector<MeshAxis> stackAxes = planMeshAxes(plan);
    if (bindings.axes != stackAxes) {
        bindings.axes = stackAxes;
        bindings.byMicroBatch.clear();
    }

    // Prices `plan` under every pipeline layout with `pricing`; keeps what the stack
    // runs. Returns whether some kept plan fits. The plan is the layout's by
    // construction, so only the workload and pipeline are checked here
    // (stackInexpressible would rebuild the plan to find the same).
    PlanEvaluation& scratch = bindings.scratch;
    // The stack lays every layer out alike: the plan is checked for that once (with the
    // first pricing; the others share its classes) and then priced by classes, without
    // growing with depth (the breakdowns of the plans a search hands out when asked for).
    std::optional<UniformPlan> uniform;
    bool checked = false;
    const auto priceUnder = [&](const PlanPricing& pricing) {
        if (!checked) {
            uniform = pricing.costs().uniformPlan(plan);
            checked = true;
        }
        TrainingStackSettings settings = layout;
        settings.layers = static_cast<std::int64_t>(search.blocks);
        settings.workload = pricing.costs().workload();
        if (settings.workload.microBatch == 0)
            settings.workload.microBatch = std::max<std::int64_t>(1, settings.workload.batch / layout.dataParallel);
        bool fits = false;
        for (const PipelineLayout& pipeline : search.pipelineLayouts) {
            settings.pipeline = pipeline;
            if (pipeline.active())
                settings.pipeline.chunkStarts = chunkStarts(pipeline, search.blocks);
            if (!stackSettingNotes(search.stack, settings).empty())
                continue;
            if (uniform) {
                uniform->setPipeline(pipeline);
                pricing.costs().evaluateTotals(*uniform, scratch);
            } else {
                plan.pipeline = pipeline;
                pricing.costs().evaluateTotals(plan, scratch);
            }
            ++prices.priced;
            const double seconds = scratch.total.time.stepSeconds();
            const double bytes = scratch.total.memory.total();
            fits = fits || bytes <= search.limit;
            // Most plans are dominated: their evaluation's storage serves the next one.
            // A kept one holds only its pipeline (LayoutPrices): most are pushed off the
            // frontier by a later one, and a plan copy reads every node.
            if (!dominated(prices.frontier, seconds, bytes)) {
                Plan pipelineOnly;
                pipelineOnly.pipeline = pipeline;
                addToFrontier(prices.frontier, pricing.candidate(PlanCandidate::Role::Best, std::move(pipelineOnly),
                                                                 std::exchange(scratch, {})));
            }
        }
        return fits;
    };

    // The search's workloads, each ZeRO 2/3 one also as HSDP where the stack runs it
    // (before it: the last stays the leanest).
    std::vector<Workload> workloads;
    for (Workload workload : search.workloads) {
        // Without data or context ranks every stage runs as ZeRO 0: priced once, as that.
        workload.zeroStage = effectiveZeroStage(workload.zeroStage, layout.dataParallel * layout.contextParallel);
        if (std::find(workloads.begin(), workloads.end(), workload) != workloads.end())
            continue;
        if (workload.zeroStage >= 2 && workload.zeroReplicas == 1)
            for (const int replicas : stackZeroReplicas(search.stack, layout, search.stageCluster.nvlinkDomainSize())) {
                Workload hybrid = workload;
                hybrid.zeroReplicas = replicas;
                workloads.push_back(hybrid);
            }
        workloads.push_back(workload);
    }

    // One pricing per workload and micro-batch, each done once: whether some plan fit,
    // or nothing when the micro-batch repeats a smaller one.
    // The workloads differ only in their techniques: each micro-batch binds its shapes
    // once, and the other workloads price with that binding.
    std::map<std::pair<std::size_t, std::int64_t>, std::optional<bool>> done;
    std::optional<bool> leanestFits;  // whether the layout's leanest plan fits, once priced
    const auto priceWith = [&](std::size_t w, std::int64_t microBatch, bool accumulating) {
        const auto [entry, fresh] = done.try_emplace({w, microBatch});
        if (!fresh)
            return entry->second;
        // A layout may take a second of pricing on a deep model: cancel between pricings.
        if (prices.cancelled || (search.cancelled && search.cancelled())) {
            prices.cancelled = true;
            return entry->second;
        }
        const Workload& workload = workloads[w];
        std::unique_ptr<PlanPricing>& first = bindings.byMicroBatch[microBatch];
        if (!first)
            first = Bindings::on(search, stackAxes, microBatch, workload);
        const Workload& firstWorkload = first->costs().workload();
        std::unique_ptr<PlanPricing> other;
        if (firstWorkload.recompute != workload.recompute || firstWorkload.zeroStage != workload.zeroStage ||
            firstWorkload.zeroReplicas != workload.zeroReplicas)
            other = std::make_unique<PlanPricing>(*first, workload.recompute, workload.zeroStage, workload.zeroReplicas);
        const PlanPricing& pricing = other ? *other : *first;
        const CostModel& costs = pricing.costs();
        // A micro-batch beyond a rank's share of the batch repeats a smaller one; an
        // accumulating one must leave at least two micro-steps.
        const std::int64_t perStep = microBatch * costs.dataParallelDegree();
        const bool repeats = accumulating ? perStep >= costs.workload().batch
                                          : search.pipelined && microBatch > 1 && perStep > costs.workload().batch;
        if (repeats)
            return entry->second;
        // Where the layout's leanest plan fits, every search reading these prices has a
        // plan that fits, which it prefers to one that does not, and whose Pareto points
        // use less memory than it: a plan whose memory floor is over the limit cannot be
        // either (nor push one off the frontier), so it is not priced.
        if (leanestFits == true && uniform && costs.memoryFloorBytes(*uniform) > search.limit)
            entry->second = false;
        else
            entry->second = priceUnder(pricing);
        return entry->second;
    };
    const bool accumulates = !search.pipelined && search.setup.chooseMicroBatch && search.setup.workload.microBatch == 0;
    const auto microBatchesOf = [&](const Workload& workload) {
        return search.pipelined ? search.setup.pipelineMicroBatches() : std::vector<std::int64_t>{workload.microBatch};
    };

    // The prices with the layout's plan, once.
    const auto withPlan = [&] {
        prices.plan = uniform ? uniform->plan() : std::move(plan);
        return std::move(prices);
    };

    // The layout's least memory first: the last workload (full recomputation, the highest
    // ZeRO stage) at its smallest micro-batch. A layout that does not fit there fits
    // nowhere (memory grows with the micro-batch and falls with each technique), and
    // then that plan is all it offers: the closest to fitting.
    const std::size_t leanest = workloads.size() - 1;
    const std::int64_t leanestMicroBatch = accumulates ? 1 : microBatchesOf(workloads[leanest]).front();
    leanestFits = priceWith(leanest, leanestMicroBatch, accumulates);
    if (leanestFits == false)
        return withPlan();

    for (std::size_t w = 0; w < workloads.size(); ++w) {
        bool fits = false;
        for (const std::int64_t microBatch : microBatchesOf(workloads[w]))
            fits = priceWith(w, microBatch, false).value_or(false) || fits;
        // Gradient accumulation: another way to fit, tried only where the whole
        // per-rank batch does not (with the same techniques it only adds time).
        if (!accumulates || fits)
            continue;
        // Past a micro-batch that does not fit, none does. A plan that does not fit
        // matters only where nothing of the layout fits (its leanest is then the closest
        // to fitting): where the leanest fits, every search reading these prices has a
        // plan that fits, which it prefers, and its Pareto points fit too.
        for (std::int64_t microBatch = 1; microBatch <= 8; microBatch *= 2) {
            const std::optional<bool> fitted = priceWith(w, microBatch, true);
            if (!fitted || (!*fitted && leanestFits == true))
                break;
        }
    }
    return withPlan();
}

}  // namespace

std::shared_ptr<const LayoutPrices> StackLayoutPrices::of(int stages, const TrainingStackSettings& layout,
                                                          const std::function<LayoutPrices()>& price)
{
    const std::string key = layoutKey(stages, layout);
    {
        const std::scoped_lock hold(lock_);
        if (const auto found = prices_.find(key); found != prices_.end())
            return found->second;
    }
    // Priced outside the lock: two meshes pricing one layout at once price it alike.
    auto priced = std::make_shared<const LayoutPrices>(price());
    if (priced->cancelled)
        return priced;  // a part of the layout's prices: not for another mesh
    const std::scoped_lock hold(lock_);
    return prices_.try_emplace(key, std::move(priced)).first->second;
}

StackSearchOutcome searchStackMesh(const std::shared_ptr<const FoldedModel>& model, const SearchSetup& setup,
                                   const std::vector<MeshAxis>& axes, StackLayoutPrices& layoutPrices,
                                   SharedBindings& shared, StagePlans& stagePlans,
                                   const std::function<bool()>& cancelled,
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

    const SharedBindings::LayoutCounts counts = shared.layoutCounts(*model, setup.workload);
    std::vector<TrainingStackSettings> layouts =
        stackLayouts(stack, split.stageAxes, counts.experts, counts.keyValueHeads);
    std::erase_if(layouts, [&](const TrainingStackSettings& s) {
        return (s.contextParallel > 1 && withholds(setup.options, ParallelTechnique::Context)) ||
               (s.expertParallel > 1 && withholds(setup.options, ParallelTechnique::Expert));
    });
    const std::vector<Workload> workloads = setup.workloadVariants(pipelined);
    const double limit = setup.options.memoryLimitBytes.value_or(static_cast<double>(setup.cluster.gpu.hbmBytes));
    const LayoutSearch search{model, setup, stack, pipelined, blocks, devices, limit, stageCluster, pipelineLayouts,
                              workloads, cancelled, shared, stagePlans};

    StackSearchOutcome outcome;
    outcome.result.statistics.coarseNodes = model->coarse.nodes.size();
    outcome.result.statistics.families = model->families.families.size();
    std::vector<std::shared_ptr<const PlanCandidate>> frontier;
    // The layout of each plan that was on `frontier`, whose plan it takes when handed out.
    std::map<const PlanCandidate*, std::shared_ptr<const LayoutPrices>> layoutOf;
    Bindings bindings;
    for (std::size_t l = 0; l < layouts.size(); ++l) {
        if (cancelled && cancelled()) {
            outcome.result.cancelled = true;
            break;
        }
        if (progress)
            progress(static_cast<double>(l) / static_cast<double>(layouts.size()));
        const std::shared_ptr<const LayoutPrices> prices =
            layoutPrices.of(split.stages, layouts[l], [&] { return priceLayout(search, layouts[l], bindings); });
        if ((setup.options.widestGroup > 0 && prices->widestGroup > setup.options.widestGroup) ||
            prices->widestGroup <= setup.options.groupsWiderThan)
            continue;
        outcome.result.statistics.solves += prices->priced;
        for (const auto& candidate : prices->frontier) {
            layoutOf.emplace(candidate.get(), prices);
            addToFrontier(frontier, candidate);
        }
        if (prices->cancelled) {
            outcome.result.cancelled = true;
            break;
        }
    }
    std::shared_ptr<const PlanCandidate> best;
    for (const auto& candidate : frontier) {
        if (!best || isPreferred(*candidate, *best, limit))
            best = candidate;
    }
    if (best)
        outcome.best =
            inRole(*best, *layoutOf.at(best.get()), PlanCandidate::Role::Best, stack, layoutPlanName(stack));

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
        for (const auto& alternative : paretoBelow(frontier, *best, setup.options.alternatives)) {
            auto kept = inRole(*alternative, *layoutOf.at(alternative.get()), PlanCandidate::Role::Alternative, stack,
                               layoutPlanName(stack) + "-" + std::to_string(outcome.alternatives.size() + 1));
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
