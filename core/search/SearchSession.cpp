#include "search/SearchSession.h"

#include "base/Error.h"
#include "cluster/MeshText.h"
#include "cluster/PipelineStages.h"
#include "fold/FoldedModel.h"
#include "plan/ExpertPlans.h"
#include "plan/ParallelDegrees.h"
#include "search/PlanPricing.h"
#include "search/SearchTerms.h"
#include "search/StackSearch.h"
#include "search/StagePartition.h"
#include "target/StackRules.h"
#include "target/StagePlans.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <string>
#include <thread>

namespace tapestry {

namespace {

using Clock = std::chrono::steady_clock;

// What the meshes of one run share; every member behind `lock`.
class SessionState {
public:
    SessionState(const std::vector<std::vector<MeshAxis>>& meshes, const SearchSessionCallbacks& callbacks)
        : callbacks_(callbacks), meshes_(meshes.size()), searched_(meshes.size()), fractions_(meshes.size(), 0.0)
    {
        for (std::size_t i = 0; i < meshes.size(); ++i)
            meshes_[i].axes = meshes[i];
    }

    void report(std::size_t mesh, SearchPhase phase, double meshFraction)
    {
        const std::scoped_lock hold(lock_);
        fractions_[mesh] = meshFraction;
        if (!callbacks_.progress)
            return;
        const double total = std::accumulate(fractions_.begin(), fractions_.end(), 0.0);
        callbacks_.progress({mesh, phase, total / static_cast<double>(fractions_.size())});
    }

    void pricedExperts(std::size_t mesh, const PlanPricing& pricing,
                       std::vector<std::shared_ptr<const PlanCandidate>> experts)
    {
        const std::scoped_lock hold(lock_);
        meshes_[mesh].meshText = pricing.meshText();
        meshes_[mesh].experts = std::move(experts);
        hbmBytes_ = pricing.costs().hbmBytes();
        limitBytes_ = pricing.setup().options.memoryLimitBytes.value_or(hbmBytes_);
        publish();
    }

    void foundSoFar(std::size_t mesh, std::shared_ptr<const PlanCandidate> candidate)
    {
        const std::scoped_lock hold(lock_);
        bestSoFar_ = std::move(candidate);
        bestSoFarMesh_ = mesh;
        publish();
    }

    void searched(std::size_t mesh, SearchResult result, std::optional<SearchResult> baseline,
                  std::vector<std::shared_ptr<const PlanCandidate>> candidates, const Workload& workload)
    {
        const std::scoped_lock hold(lock_);
        meshes_[mesh].search = std::move(result);
        meshes_[mesh].workload = workload;
        meshes_[mesh].baseline = std::move(baseline);
        searched_[mesh] = std::move(candidates);
        bestSoFar_.reset();
        publish();
    }

    void alternatives(std::size_t mesh, std::vector<SearchCandidate> found,
                      std::vector<std::shared_ptr<const PlanCandidate>> candidates)
    {
        const std::scoped_lock hold(lock_);
        meshes_[mesh].search->alternatives = std::move(found);
        searched_[mesh].insert(searched_[mesh].end(), candidates.begin(), candidates.end());
        publish();
    }

    [[nodiscard]] std::shared_ptr<SearchOutcome> snapshot() const
    {
        auto outcome = std::make_shared<SearchOutcome>();
        for (std::size_t i = 0; i < meshes_.size(); ++i) {
            outcome->candidates.insert(outcome->candidates.end(), meshes_[i].experts.begin(), meshes_[i].experts.end());
            outcome->candidates.insert(outcome->candidates.end(), searched_[i].begin(), searched_[i].end());
            outcome->candidateMeshes.resize(outcome->candidates.size(), i);
        }
        if (bestSoFar_) {
            outcome->candidates.push_back(bestSoFar_);
            outcome->candidateMeshes.push_back(bestSoFarMesh_);
        }
        outcome->meshes = meshes_;
        outcome->hbmBytes = hbmBytes_;
        outcome->memoryLimitBytes = limitBytes_;
        return outcome;
    }

    [[nodiscard]] std::shared_ptr<SearchOutcome> finalSnapshot() const
    {
        const std::scoped_lock hold(lock_);
        return snapshot();
    }

private:
    void publish() const
    {
        if (callbacks_.changed)
            callbacks_.changed(snapshot());
    }

    const SearchSessionCallbacks& callbacks_;
    mutable std::mutex lock_;
    std::vector<MeshOutcome> meshes_;
    std::vector<std::vector<std::shared_ptr<const PlanCandidate>>> searched_;
    std::vector<double> fractions_;
    std::shared_ptr<const PlanCandidate> bestSoFar_;
    std::size_t bestSoFarMesh_ = 0;
    double hbmBytes_ = 0;
    double limitBytes_ = 0;
};

// The expert references of each mesh a session searched, priced once: its comparisons
// search a mesh again with another group width or a technique withheld, which the
// references do not read (a session's searches share its workload, cluster and limit).
class ExpertReferences {
public:
    using Plans = std::vector<std::shared_ptr<const PlanCandidate>>;

    // Those of `axes`: priced by `price` the first time (a cancelled pricing's part is
    // not kept).
    Plans of(const std::vector<MeshAxis>& axes, const std::function<Plans()>& price,
             const std::function<bool()>& cancelled)
    {
        const std::string key = meshText(axes);
        {
            const std::scoped_lock hold(lock_);
            if (const auto found = byMesh_.find(key); found != byMesh_.end())
                return found->second;
        }
        Plans priced = price();
        if (cancelled())
            return priced;
        const std::scoped_lock hold(lock_);
        return byMesh_.try_emplace(key, std::move(priced)).first->second;
    }

private:
    std::mutex lock_;
    std::map<std::string, Plans> byMesh_;
};

// What the searches of one session share: each stack's layouts' prices, the expert
// references and the bound shapes.
struct SessionPrices {
    std::array<StackLayoutPrices, 4> layouts;  // by TrainingStack
    ExpertReferences experts;
    SharedBindings& bindings;

    StackLayoutPrices& layoutsOf(TrainingStack stack) { return layouts.at(static_cast<std::size_t>(stack)); }
};

// The best plan of each training stack's own search on `axes` (each stack's layouts,
// priced with its implementations: withStackImplementations) that `best` does not beat,
// with the workload it was priced with and the stack's alternatives to it; none where
// `best` is preferred to them all. Pins, or a workload that names its own implementations
// (DeepSpeed's ZeRO: namesImplementations), keep a search to `any`; a stack that does not
// train the model has no layouts.
StackSearchOutcome bestStackPlan(const std::shared_ptr<const FoldedModel>& model, const SearchSetup& setup,
                                 const std::vector<MeshAxis>& axes, const PlanCandidate* best, double limit,
                                 SessionPrices& prices, StagePlans& stagePlans, const std::function<bool()>& cancelled)
{
    StackSearchOutcome chosen;
    if (!setup.options.pins.empty() || namesImplementations(setup.workload))
        return chosen;
    for (const TrainingStack stack : allTrainingStacks()) {
        if (stack == TrainingStack::Any || !stackModelNotes(stack, *model).empty() || (cancelled && cancelled()))
            continue;
        SearchSetup own = setup;
        own.options.stack = stack;
        own.workload = withStackImplementations(setup.workload, stack);
        StackSearchOutcome found =
            searchStackMesh(model, own, axes, prices.layoutsOf(stack), prices.bindings, stagePlans, cancelled, {});
        const PlanCandidate* incumbent = chosen.best ? chosen.best.get() : best;
        if (found.best && (!incumbent || isPreferred(*found.best, *incumbent, limit)))
            chosen = std::move(found);
    }
    return chosen;
}

// `plan` priced under each of `layouts` (whose stage count is the pricing's), its
// chunks split evenly (as Megatron-LM splits layers); with `balance` the best of them
// again with its chunks balanced by the stages' prices. The best by isPreferred, priced
// by PlanPricing::priceTotals (its breakdowns when asked for).
std::shared_ptr<const PlanCandidate> bestLayout(const PlanPricing& pricing, Plan plan, PlanCandidate::Role role,
                                                const std::vector<PipelineLayout>& layouts, double limit, bool balance)
{
    std::shared_ptr<const PlanCandidate> chosen;
    for (const PipelineLayout& layout : layouts) {
        plan.pipeline = layout;
        // The last layout's plan is not read again (balancing starts from the chosen one).
        auto priced = pricing.priceTotals(&layout == &layouts.back() ? std::move(plan) : plan, role);
        if (!chosen || isPreferred(*priced, *chosen, limit))
            chosen = std::move(priced);
    }
    if (balance && chosen->plan.pipeline.active()) {
        const FoldedModel& model = *pricing.folded();
        plan = chosen->plan;
        // A plan alike across layers is balanced by its blocks' prices by class; any other
        // by its prices node by node.
        const std::optional<CostModel::BlockCosts> blocks = pricing.costs().blockCosts(plan);
        plan.pipeline.chunkStarts =
            blocks ? balancedChunkStarts(*blocks, plan.pipeline, pricing.costs().microSteps(), limit)
                   : balancedChunkStarts(chosen->breakdowns(), plan.pipeline, model.coarse, model.families,
                                         pricing.costs().microSteps(), limit);
        auto balanced = pricing.priceTotals(std::move(plan), role);
        if (isPreferred(*balanced, *chosen, limit))
            chosen = std::move(balanced);
    }
    return chosen;
}

// The best of a plan checked once to be uniform under each of `layouts` (whose stage
// count is the pricing's), its chunks split evenly, priced by PlanPricing::priceTotals.
std::shared_ptr<const PlanCandidate> bestUniformLayout(const PlanPricing& pricing, UniformPlan& plan,
                                                       PlanCandidate::Role role,
                                                       const std::vector<PipelineLayout>& layouts, double limit)
{
    std::shared_ptr<const PlanCandidate> chosen;
    for (const PipelineLayout& layout : layouts) {
        plan.setPipeline(layout);
        auto priced = pricing.priceTotals(plan, role);
        if (!chosen || isPreferred(*priced, *chosen, limit))
            chosen = std::move(priced);
    }
    return chosen;
}

// The pricings of one searched workload: one per micro-batch size to try (the first
// is the one searched with), each with the same training techniques.
using PricingGroup = std::vector<std::unique_ptr<PlanPricing>>;

// The pricings of one training technique (a workload variant): at the whole batch, or
// accumulating gradients over micro-batches of at most `perRank` sequences (built when
// first needed: they matter only where the whole batch does not fit).
struct TechniqueGroup {
    Workload workload;
    bool accumulates = false;
    std::int64_t perRank = 0;
    PricingGroup pricings;
};

// The best of `plan` over a group's micro-batch sizes and `layouts`, and which pricing gave it.
std::pair<std::shared_ptr<const PlanCandidate>, const PlanPricing*> bestOverGroup(
    const PricingGroup& group, const Plan& plan, PlanCandidate::Role role, const std::vector<PipelineLayout>& layouts,
    double limit, bool balance)
{
    std::shared_ptr<const PlanCandidate> chosen;
    const PlanPricing* chosenPricing = nullptr;
    for (const auto& pricing : group) {
        auto priced = bestLayout(*pricing, plan, role, layouts, limit, balance);
        if (!chosen || isPreferred(*priced, *chosen, limit)) {
            chosen = std::move(priced);
            chosenPricing = pricing.get();
        }
    }
    return {chosen, chosenPricing};
}

void searchMesh(const std::shared_ptr<const FoldedModel>& model, const SearchSetup& setup, std::size_t index,
                const std::vector<MeshAxis>& axes, const SearchSessionCallbacks& callbacks, SessionState& state,
                SessionPrices& prices)
{
    state.report(index, SearchPhase::ExpertPlans, 0.0);
    const PipelinedMesh split = splitPipelineAxis(axes);
    const bool pipelined = split.stages > 1;
    std::vector<PipelineLayout> layouts{PipelineLayout{}};
    std::vector<std::int64_t> microBatches{setup.workload.microBatch};
    if (pipelined) {
        const std::size_t blocks = modelBlocks(model->families).size();
        layouts = pipelineLayoutVariants(split.stages, blocks);
        if (layouts.empty())
            throw Error(ErrorCode::InvalidMesh, {},
                        "a pipeline of " + std::to_string(split.stages) + " stages needs at least as many blocks; " +
                            "the model has " + std::to_string(blocks));
        microBatches = setup.pipelineMicroBatches();
    }
    // Per workload the search may choose (training techniques) a group of pricings, one
    // per micro-batch size a pipeline may use. The search runs once per group; the
    // micro-batch sizes and pipeline layouts only re-price what it found. A stack's
    // search prices its own plans: its groups hold only the first pricing each, for the
    // expert plans.
    const bool stackTarget = setup.options.stack != TrainingStack::Any;
    if (stackTarget)
        microBatches.resize(1);
    // Without a pipeline, gradient accumulation is one more way to fit: each technique's
    // group at the whole batch is followed by one at micro-batches of 1, 2, 4 and 8
    // sequences (searched at 1, the least memory, and re-priced at the others, as on a
    // pipeline), built and searched only when the whole batch found nothing that fits
    // (with the same techniques a smaller micro-batch only adds time).
    std::vector<TechniqueGroup> groups;
    const bool accumulate = !pipelined && setup.chooseMicroBatch && setup.workload.microBatch == 0;
    const auto cancelled = [&] { return callbacks.cancelled && callbacks.cancelled(); };
    // The workload variants differ only in recomputation and ZeRO stage: one binding of
    // the shapes per micro-batch size serves them all (CostModel::withTechniques).
    std::map<std::int64_t, std::unique_ptr<PlanPricing>> bindings;
    auto variant = [&](const Workload& workload, std::int64_t microBatch) {
        std::unique_ptr<PlanPricing>& bound = bindings[microBatch];
        if (!bound) {
            SearchSetup chosen = setup;
            chosen.workload = workload;
            chosen.workload.microBatch = microBatch;
            bound = prices.bindings.pricing(model, std::move(chosen), axes, layouts.front());
        }
        return std::make_unique<PlanPricing>(*bound, workload.recompute, workload.zeroStage, workload.zeroReplicas);
    };
    for (const Workload& workload : setup.workloadVariants(pipelined)) {
        // Each pricing binds the whole graph (seconds for 10,000 layers): a cancelled
        // session keeps the groups it has, at least one, for the expert plans.
        if (!groups.empty() && cancelled())
            break;
        TechniqueGroup group{workload, false, 0, {}};
        for (const std::int64_t microBatch : microBatches) {
            auto pricing = variant(workload, microBatch);
            // A micro-batch beyond a rank's share of the batch repeats a smaller one.
            const CostModel& costs = pricing->costs();
            if (!group.pricings.empty() && microBatch * costs.dataParallelDegree() > costs.workload().batch)
                continue;
            group.pricings.push_back(std::move(pricing));
        }
        const CostModel& whole = group.pricings.front()->costs();
        const std::int64_t perRank = whole.workload().batch / std::max(1, whole.dataParallelDegree());
        groups.push_back(std::move(group));
        if (accumulate && perRank >= 2)
            groups.push_back(TechniqueGroup{workload, true, perRank, {}});
    }
    auto pricingsOf = [&](TechniqueGroup& group) -> const PricingGroup& {
        for (std::int64_t microBatch = 1;
             group.pricings.empty() && microBatch <= (stackTarget ? 1 : 8) && microBatch < group.perRank;
             microBatch *= 2)
            group.pricings.push_back(variant(group.workload, microBatch));
        return group.pricings;
    };
    const PlanPricing& first = *groups.front().pricings.front();
    const double limit = setup.options.memoryLimitBytes.value_or(first.costs().hbmBytes());
    // The expert references' Megatron plans and the stacks' stage plans start from the
    // same splits (StagePlans::megatronPlan); the stacks' layouts lay a stage out alike.
    StagePlans stagePlans(model);
    // The expert references, each with the techniques that suit it best, at the
    // smallest micro-batch, their layers split evenly.
    const auto priceExperts = [&] {
        ExpertReferences::Plans experts;
        for (const ExpertPlanKind kind :
             {ExpertPlanKind::DataParallel, ExpertPlanKind::Megatron, ExpertPlanKind::MegatronSequenceParallel}) {
            std::shared_ptr<const PlanCandidate> chosen;
            bool wholeBatchFits = false;
            // Built and checked once, priced under every technique group.
            const Plan expert = kind == ExpertPlanKind::DataParallel
                                    ? makeExpertPlan(kind, model->coarse, split.stageAxes)
                                    : stagePlans.megatronPlan(kind == ExpertPlanKind::MegatronSequenceParallel,
                                                              split.stageAxes);
            std::optional<UniformPlan> uniform = first.costs().uniformPlan(expert);
            for (TechniqueGroup& group : groups) {
                if (group.accumulates && (wholeBatchFits || cancelled()))
                    continue;
                const PlanPricing& pricing = *pricingsOf(group).front();
                // Once one fits, a plan whose memory floor is over the limit (it cannot
                // fit) is not preferred to it: not priced.
                if (uniform && chosen && chosen->memoryBytes() <= limit &&
                    pricing.costs().memoryFloorBytes(*uniform) > limit) {
                    if (!group.accumulates)
                        wholeBatchFits = false;
                    continue;
                }
                auto priced = uniform ? bestUniformLayout(pricing, *uniform, PlanCandidate::Role::Expert, layouts, limit)
                                      : bestLayout(pricing, expert, PlanCandidate::Role::Expert, layouts, limit, false);
                if (!group.accumulates)
                    wholeBatchFits = priced->memoryBytes() <= limit;
                if (!chosen || isPreferred(*priced, *chosen, limit))
                    chosen = std::move(priced);
            }
            experts.push_back(std::move(chosen));
        }
        return experts;
    };
    const ExpertReferences::Plans experts = prices.experts.of(axes, priceExperts, cancelled);
    state.pricedExperts(index, first, experts);

    if (stackTarget) {
        StackSearchOutcome found = searchStackMesh(
            model, setup, axes, prices.layoutsOf(setup.options.stack), prices.bindings, stagePlans, callbacks.cancelled,
            [&](double fraction) { state.report(index, SearchPhase::Searching, fraction); });
        std::vector<std::shared_ptr<const PlanCandidate>> candidates;
        if (found.best)
            candidates.push_back(found.best);
        candidates.insert(candidates.end(), found.alternatives.begin(), found.alternatives.end());
        state.searched(index, std::move(found.result), std::nullopt, std::move(candidates), found.workload);
        return;
    }

    std::optional<SearchResult> result;
    std::shared_ptr<const PlanCandidate> best;
    const PlanPricing* chosenPricing = &first;
    Clock::time_point lastBest;
    SearchOptions options = setup.options;
    options.alternatives = 0;  // searched for the session's best mesh only, at the end
    options.totalsOnly = true;  // what is kept is priced again (bestOverGroup)
    options.conversionTerms = std::make_shared<ConversionTermsCache>();
    bool wholeBatchFits = false;  // the technique's whole-batch group before an accumulating one
    // Searches group `g` with its `pricings`, unless a floor shows it cannot give the
    // best; with `passOver` also unless none of its plans can fit (returns true then).
    const auto searchGroup = [&](std::size_t g, const PricingGroup& pricings, bool passOver) {
        const PlanPricing& pricing = *pricings.front();
        // Techniques that only add time (recomputation, a higher ZeRO stage) cannot beat
        // a plan that fits and is already faster than their compute alone.
        if (best && best->memoryBytes() <= limit) {
            std::optional<double> floor = std::numeric_limits<double>::infinity();
            for (const auto& each : pricings) {
                const std::optional<double> own = each->computeFloorSeconds(cancelled);
                floor = own ? std::optional<double>(std::min(*floor, *own)) : std::nullopt;
                if (!floor)
                    break;
            }
            if (!floor || *floor >= best->stepSeconds())
                return false;  // cancelled, or slower than the best
        }
        if (passOver && std::all_of(pricings.begin(), pricings.end(),
                                    [&](const auto& each) { return each->memoryFloorBytes() > limit; }))
            return true;
        SearchCallbacks search;
        search.cancelled = callbacks.cancelled;
        search.progress = [&](SearchPhase phase, double fraction) {
            state.report(index, phase, (static_cast<double>(g) + fraction) / static_cast<double>(groups.size()));
        };
        if (callbacks.changed) {
            search.bestSoFar = [&](const Plan& plan, double) {
                // The first incumbent at once, later ones a few times a second: the final
                // result replaces them all anyway.
                const Clock::time_point now = Clock::now();
                if (lastBest != Clock::time_point() && now - lastBest < callbacks.bestSoFarInterval)
                    return;
                lastBest = now;
                state.foundSoFar(index, pricing.priceTotals(plan, PlanCandidate::Role::BestSoFar));
            };
        }
        SearchResult found = searchPlan(pricing.costs(), model->coarse, model->families, options, search);
        std::shared_ptr<const PlanCandidate> candidate;
        const PlanPricing* candidatePricing = &pricing;
        if (found.best && cancelled())
            // The plan found so far, priced as searched: pricing it under the group's other
            // micro-batches and pipeline layouts would only delay the end of the search.
            candidate = pricing.priceTotals(found.best->plan, PlanCandidate::Role::Best);
        else if (found.best)
            std::tie(candidate, candidatePricing) =
                bestOverGroup(pricings, found.best->plan, PlanCandidate::Role::Best, layouts, limit, true);
        if (!groups[g].accumulates)
            wholeBatchFits = candidate && candidate->memoryBytes() <= limit;
        if (!result || (candidate && (!best || isPreferred(*candidate, *best, limit)))) {
            result = std::move(found);
            best = std::move(candidate);
            chosenPricing = candidatePricing;
        }
        return false;
    };
    // With `passOver`, the groups none of whose plans can fit (their memory floor is over
    // the limit) are passed over. Where another group finds a plan that fits, that plan is
    // preferred to every plan of theirs, and the compute floor acts only on a best that
    // fits, so the result is the same. Returns whether some group was passed over.
    const auto searchGroups = [&](bool passOver) {
        result.reset();
        best.reset();
        chosenPricing = &first;
        wholeBatchFits = false;
        bool passed = false;
        for (std::size_t g = 0; g < groups.size(); ++g) {
            if (g > 0 && callbacks.cancelled && callbacks.cancelled())
                break;
            if (groups[g].accumulates && wholeBatchFits)
                continue;
            if (!groups[g].accumulates)
                wholeBatchFits = false;
            passed = searchGroup(g, pricingsOf(groups[g]), passOver) || passed;
        }
        return passed;
    };
    // On a pipeline the groups re-price their plans under other micro-batches and stage
    // splits, which the floor does not bound: no group is passed over there.
    if (searchGroups(!pipelined) && !(best && best->memoryBytes() <= limit) && !cancelled())
        searchGroups(false);  // nothing fits: the plans closest to fitting, found in order

    // One price: the search's program is linearized, the exact prices are not; never
    // hand out a plan that an expert plan priced on this mesh beats. (The search's own
    // result stays as it was, for comparing it with the baseline or the solver.)
    // Cancelled (a time limit) before the search found a plan: the best expert plan is
    // the best priced so far.
    const bool nothingYet = !best && result && result->cancelled;
    for (const auto& expert : experts) {
        if (expert && ((setup.options.widestGroup > 0 && widestGroup(expert->plan) > setup.options.widestGroup) ||
                       widestGroup(expert->plan) <= setup.options.groupsWiderThan))
            continue;  // a Megatron reference over other axes than the search may use
        if ((best && isPreferred(*expert, *best, limit)) || (nothingYet && expert && !best)) {
            auto kept = std::make_shared<PlanCandidate>(*expert);
            kept->role = PlanCandidate::Role::Best;
            result->message = "the expert plan '" + kept->plan.name + "' priced better than every searched plan";
            best = std::move(kept);
        }
    }
    if (nothingYet && best)
        result->message = "cancelled before the search found a plan: the expert plan '" + best->plan.name +
                          "' is the best priced so far";
    // `any` is the best plan on any stack: a stack's own plan, priced with that stack's
    // implementations (overlapped pipeline sends, FSDP2, HSDP), where it beats the plans
    // priced with none in particular. The plan says which stack (PlanCandidate::implementations).
    Workload chosenWorkload = chosenPricing->costs().workload();
    std::vector<std::shared_ptr<const PlanCandidate>> stackAlternatives;
    if (StackSearchOutcome stackPlan =
            bestStackPlan(model, setup, axes, best.get(), limit, prices, stagePlans, cancelled);
        stackPlan.best && result) {
        result->message = std::string(trainingStackName(stackPlan.best->implementations)) +
                          "'s own layout, priced with its implementations, priced better than every searched plan";
        result->alternatives = std::move(stackPlan.result.alternatives);
        best = std::move(stackPlan.best);
        chosenWorkload = stackPlan.workload;
        stackAlternatives = std::move(stackPlan.alternatives);
    }

    std::optional<SearchResult> baseline;
    if (setup.wholeGraphBaseline && !(callbacks.cancelled && callbacks.cancelled())) {
        state.report(index, SearchPhase::Baseline, 1.0);
        SearchOptions wholeGraph = setup.options;
        wholeGraph.mode = SearchMode::WholeGraph;
        wholeGraph.alternatives = 0;
        SearchCallbacks quiet;
        quiet.cancelled = callbacks.cancelled;
        baseline = searchPlan(chosenPricing->costs(), model->coarse, model->families, wholeGraph, quiet);
    }

    std::vector<std::shared_ptr<const PlanCandidate>> found;
    if (best)
        found.push_back(best);
    found.insert(found.end(), stackAlternatives.begin(), stackAlternatives.end());
    state.searched(index, std::move(*result), std::move(baseline), std::move(found), chosenWorkload);
}

// Pareto alternatives (plans that use less memory, searched on the workload the mesh's
// best plan was found with) for the mesh of the session's best plan.
void searchAlternatives(const std::shared_ptr<const FoldedModel>& model, const SearchSetup& setup, std::size_t index,
                        const MeshOutcome& mesh, const SearchSessionCallbacks& callbacks, SessionState& state,
                        SharedBindings& shared)
{
    SearchSetup chosen = setup;
    chosen.workload = mesh.workload;
    const PipelinedMesh split = splitPipelineAxis(mesh.axes);
    const std::vector<PipelineLayout> layouts = split.stages > 1
                                                    ? pipelineLayoutVariants(split.stages, modelBlocks(model->families).size())
                                                    : std::vector<PipelineLayout>{PipelineLayout{}};
    const std::unique_ptr<PlanPricing> bound = shared.pricing(model, chosen, mesh.axes, layouts.front());
    const PlanPricing& pricing = *bound;
    const double limit = setup.options.memoryLimitBytes.value_or(pricing.costs().hbmBytes());
    SearchCallbacks quiet;
    quiet.cancelled = callbacks.cancelled;
    quiet.progress = [&](SearchPhase phase, double fraction) { state.report(index, phase, fraction); };
    SearchOptions options = setup.options;
    options.totalsOnly = true;  // each alternative is priced again (bestLayout)
    SearchResult searched = searchPlan(pricing.costs(), model->coarse, model->families, options, quiet);
    std::vector<std::shared_ptr<const PlanCandidate>> alternatives;
    for (const SearchCandidate& alternative : searched.alternatives)
        alternatives.push_back(
            bestLayout(pricing, alternative.plan, PlanCandidate::Role::Alternative, layouts, limit, true));
    state.alternatives(index, std::move(searched.alternatives), std::move(alternatives));
}

// A comparison and the search of the mesh that gave it, with the alternatives a stack's
// own plan came with (bestStackPlan).
struct ComparedSearch {
    TechniqueComparison comparison;
    MeshOutcome mesh;
    std::vector<std::shared_ptr<const PlanCandidate>> alternatives;
};

// The best plan's mesh for its search without `technique`: a training stack's layout
// names an axis for it ("cp", "ep"), which the plan found without it does not use that
// way; then the stage axes are named as an unnamed shape's (namedMeshAxes), so no line
// shows a plan without expert parallelism on an axis called "ep". Names price nothing.
std::vector<MeshAxis> axesWithout(const std::vector<MeshAxis>& axes, ParallelTechnique technique)
{
    const std::string named = technique == ParallelTechnique::Expert ? "ep" : "cp";
    if (std::none_of(axes.begin(), axes.end(), [&](const MeshAxis& axis) { return axis.name == named; }))
        return axes;
    PipelinedMesh split = splitPipelineAxis(axes);
    std::vector<int> sizes;
    for (const MeshAxis& axis : split.stageAxes)
        sizes.push_back(axis.size);
    split.stageAxes = namedMeshAxes(sizes);
    return split.wholeAxes();
}

// The best plan's mesh searched again without each context- or expert-parallel
// technique the best plan uses: what a user asks first about a plan that uses one.
std::vector<ComparedSearch> compareTechniques(const std::shared_ptr<const FoldedModel>& model,
                                              const SearchSetup& setup, std::size_t index, const PlanCandidate& best,
                                              const SearchSessionCallbacks& callbacks, SessionState& state,
                                              SessionPrices& prices)
{
    std::vector<ComparedSearch> comparisons;
    for (const ParallelTechnique technique : {ParallelTechnique::Context, ParallelTechnique::Expert}) {
        const int degree = parallelDegree(best.plan, model->coarse, technique);
        if (degree <= 1 || (callbacks.cancelled && callbacks.cancelled()))
            continue;
        // Pins are kept even without the technique: a split the user pinned that may
        // belong to it leaves no plan "without" it to compare with.
        const AxisSplit split = technique == ParallelTechnique::Expert ? AxisSplit::Expert : AxisSplit::Sequence;
        const bool pinned = std::any_of(setup.options.pins.begin(), setup.options.pins.end(), [&](const Pin& pin) {
            return std::find(pin.strategy.axes.begin(), pin.strategy.axes.end(), split) != pin.strategy.axes.end();
        });
        if (pinned)
            continue;
        state.report(index, SearchPhase::Comparison, 1.0);
        SearchSetup without = setup;
        without.options.withheld.push_back(technique);
        without.wholeGraphBaseline = false;
        const std::vector<MeshAxis> axes = axesWithout(planMeshAxes(best.plan), technique);
        SearchSessionCallbacks quiet;
        quiet.cancelled = callbacks.cancelled;
        SessionState scratch({axes}, quiet);
        searchMesh(model, without, 0, axes, quiet, scratch, prices);
        const std::shared_ptr<SearchOutcome> found = scratch.finalSnapshot();
        const bool cancelled = found->meshes.front().search && found->meshes.front().search->cancelled;
        std::vector<std::shared_ptr<const PlanCandidate>> alternatives;
        std::copy_if(found->candidates.begin(), found->candidates.end(), std::back_inserter(alternatives),
                     [](const auto& candidate) { return candidate->role == PlanCandidate::Role::Alternative; });
        comparisons.push_back(
            {{technique, degree, cancelled ? nullptr : found->best()}, found->meshes.front(), std::move(alternatives)});
    }
    return comparisons;
}

// What a user asks first of a plan on a GB200 rack or across DGX nodes: when the best
// plan spreads experts or tensors beyond a node (over a rack's trays, or InfiniBand), the
// best plan with every group kept inside one node; when it keeps them inside, the best
// plan with a wider group (a stack search's layouts each have one widest group; the
// per-node search cannot be asked for one). The searched meshes' plans on the other side
// and the best plan's mesh searched again with its groups capped at a node, or every
// searched mesh with a group beyond one (their layouts' prices are at hand).
std::optional<GroupWidthComparison> compareWidth(const std::shared_ptr<const FoldedModel>& model,
                                                 const SearchSetup& setup, std::size_t index,
                                                 const SearchOutcome& outcome, const PlanCandidate& best,
                                                 const SearchSessionCallbacks& callbacks, SessionState& state,
                                                 SessionPrices& prices)
{
    GroupWidthComparison comparison{widestGroup(best.plan), setup.cluster.gpusPerNode, nullptr, nullptr};
    const int nodeGpus = comparison.nodeGpus;
    const bool beyond = comparison.reachesBeyondNode();
    // Pins may fix a group's width: no plan on the other side to compare with.
    if (setup.options.widestGroup > 0 || setup.options.groupsWiderThan > 0 || !setup.options.pins.empty())
        return std::nullopt;
    if (!beyond && (setup.options.stack == TrainingStack::Any || setup.cluster.deviceCount() <= nodeGpus))
        return std::nullopt;
    state.report(index, SearchPhase::Comparison, 1.0);
    SearchSetup other = setup;
    (beyond ? other.options.widestGroup : other.options.groupsWiderThan) = nodeGpus;
    other.options.alternatives = 0;
    other.wholeGraphBaseline = false;
    // A group lies inside one pipeline stage: a stage of at most a node's GPUs has none wider.
    auto stageGpus = [](const std::vector<MeshAxis>& axes) {
        int gpus = 1;
        for (const MeshAxis& axis : splitPipelineAxis(axes).stageAxes)
            gpus *= axis.size;
        return gpus;
    };
    std::vector<std::vector<MeshAxis>> meshes;
    for (std::size_t m = 0; m < outcome.meshes.size(); ++m) {
        if (beyond ? m == index : outcome.meshes[m].search && stageGpus(outcome.meshes[m].axes) > nodeGpus)
            meshes.push_back(outcome.meshes[m].axes);
    }
    if (meshes.empty())
        return comparison;
    SearchSessionCallbacks quiet;
    quiet.cancelled = callbacks.cancelled;
    SessionState scratch(meshes, quiet);
    for (std::size_t m = 0; m < meshes.size(); ++m)
        searchMesh(model, other, m, meshes[m], quiet, scratch, prices);
    std::shared_ptr<const PlanCandidate>& found = beyond ? comparison.insideNode : comparison.beyondNode;
    found = scratch.finalSnapshot()->best();
    if (found && (widestGroup(found->plan) > nodeGpus) == beyond)
        found = nullptr;  // the search's fallback (an expert plan) on the wrong side
    for (const auto& candidate : outcome.candidates) {
        if (candidate->isSearched() && (widestGroup(candidate->plan) > nodeGpus) != beyond &&
            (!found || isPreferred(*candidate, *found, outcome.memoryLimitBytes)))
            found = candidate;
    }
    return comparison;
}

}  // namespace

SearchSession::SearchSession(std::shared_ptr<const FoldedModel> model, SearchSetup setup)
    : model_(std::move(model)), setup_(std::move(setup))
{
    // A stack's target prices each technique as that stack implements it.
    setup_.workload = withStackImplementations(setup_.workload, setup_.options.stack);
}

std::shared_ptr<const SearchOutcome> SearchSession::run(const SearchSessionCallbacks& given, unsigned parallelMeshes)
{
    // Cancelled means a poll stopped something short: a limit that runs out after the
    // last step was taken does not make a finished session a cancelled one.
    std::atomic<bool> stopped{false};
    SearchSessionCallbacks callbacks = given;
    if (given.cancelled) {
        callbacks.cancelled = [&stopped, &given] {
            if (!stopped && given.cancelled())
                stopped = true;
            return stopped.load();
        };
    }
    const Clock::time_point start = Clock::now();
    std::vector<std::vector<MeshAxis>> meshes = setup_.meshes();
    if (setup_.mesh.empty()) {  // `auto`: only pipelines the model's blocks can fill
        const std::size_t blocks = modelBlocks(model_->families).size();
        std::erase_if(meshes, [&](const std::vector<MeshAxis>& axes) {
            return static_cast<std::size_t>(splitPipelineAxis(axes).stages) > std::max<std::size_t>(blocks, 1);
        });
    }
    auto cancelled = [&] { return callbacks.cancelled && callbacks.cancelled(); };
    SessionState state(meshes, callbacks);
    SharedBindings& shared = *shared_;
    SessionPrices prices{{}, {}, shared};

    std::atomic<std::size_t> next{0};
    std::vector<std::exception_ptr> failures(meshes.size());
    auto worker = [&] {
        for (std::size_t i = next++; i < meshes.size() && !cancelled(); i = next++) {
            try {
                searchMesh(model_, setup_, i, meshes[i], callbacks, state, prices);
            } catch (...) {
                failures[i] = std::current_exception();
                next = meshes.size();  // the other meshes' results would be thrown away
            }
        }
    };
    const std::size_t threads = std::clamp<std::size_t>(parallelMeshes, 1, std::max<std::size_t>(1, meshes.size()));
    if (threads == 1) {
        worker();
    } else {
        std::vector<std::jthread> workers;
        for (std::size_t t = 0; t < threads; ++t)
            workers.emplace_back(worker);
    }
    for (const std::exception_ptr& failure : failures) {
        if (failure)
            std::rethrow_exception(failure);
    }

    // (A stack's search keeps its alternatives on every mesh as it goes.)
    if (setup_.options.alternatives > 0 && setup_.options.stack == TrainingStack::Any && !cancelled()) {
        const std::shared_ptr<const SearchOutcome> found = state.finalSnapshot();
        if (const std::shared_ptr<const PlanCandidate> best = found->best()) {
            for (std::size_t i = 0; i < found->meshes.size(); ++i) {
                // A stack's own plan came with that stack's alternatives (bestStackPlan).
                if (&found->meshes[i] == found->meshOf(*best) && found->meshes[i].search &&
                    best->implementations == TrainingStack::Any)
                    searchAlternatives(model_, setup_, i, found->meshes[i], callbacks, state, shared);
            }
        }
    }
    std::shared_ptr<SearchOutcome> outcome = state.finalSnapshot();
    std::vector<ComparedSearch> compared;
    if (const std::shared_ptr<const PlanCandidate> best = outcome->best(); best && !cancelled()) {
        const auto mesh = static_cast<std::size_t>(outcome->meshOf(*best) - outcome->meshes.data());
        compared = compareTechniques(model_, setup_, mesh, *best, callbacks, state, prices);
        // The search's program is linearized, its prices are not: searched without a
        // technique, the mesh can give a plan that prices better. Then that plan is the
        // best (with its own alternatives and comparisons), and the comparison is moot.
        const auto faster = std::find_if(compared.begin(), compared.end(), [&](const ComparedSearch& c) {
            return c.comparison.without && isPreferred(*c.comparison.without, *best, outcome->memoryLimitBytes);
        });
        if (faster != compared.end() && faster->mesh.search) {
            auto adopted = std::make_shared<PlanCandidate>(*faster->comparison.without);
            adopted->role = PlanCandidate::Role::Best;
            std::vector<std::shared_ptr<const PlanCandidate>> kept{adopted};
            kept.insert(kept.end(), faster->alternatives.begin(), faster->alternatives.end());
            state.searched(mesh, std::move(*faster->mesh.search), outcome->meshes[mesh].baseline, std::move(kept),
                           faster->mesh.workload);
            outcome = state.finalSnapshot();
            // A stack's own plan came with that stack's alternatives.
            if (setup_.options.alternatives > 0 && !cancelled() && adopted->implementations == TrainingStack::Any)
                searchAlternatives(model_, setup_, mesh, outcome->meshes[mesh], callbacks, state, shared);
            outcome = state.finalSnapshot();
            compared = cancelled() ? std::vector<ComparedSearch>{}
                                   : compareTechniques(model_, setup_, mesh, *adopted, callbacks, state, prices);
        }
    }
    std::optional<GroupWidthComparison> width;
    if (const std::shared_ptr<const PlanCandidate> best = outcome->best(); best && !cancelled()) {
        const auto mesh = static_cast<std::size_t>(outcome->meshOf(*best) - outcome->meshes.data());
        width = compareWidth(model_, setup_, mesh, *outcome, *best, callbacks, state, prices);
    }
    for (ComparedSearch& each : compared)
        outcome->comparisons.push_back(std::move(each.comparison));
    outcome->widthComparison = std::move(width);
    outcome->finished = true;
    outcome->cancelled = stopped;
    for (const MeshOutcome& mesh : outcome->meshes) {
        if (!mesh.search)
            continue;
        outcome->cancelled = outcome->cancelled || mesh.search->cancelled;
        outcome->anyFits = outcome->anyFits || mesh.search->fitsInMemory;
        if (!mesh.search->message.empty())
            outcome->detail = mesh.search->message;
    }
    outcome->seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return outcome;
}

std::unique_ptr<PlanPricing> SearchSession::pricing(SearchSetup setup, const std::vector<MeshAxis>& mesh)
{
    return shared_->pricing(model_, std::move(setup), mesh);
}

}  // namespace tapestry
