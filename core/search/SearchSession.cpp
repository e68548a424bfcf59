#include "search/SearchSession.h"

#include "fold/FoldedModel.h"
#include "plan/ExpertPlans.h"
#include "search/PlanPricing.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <numeric>
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
        meshes_[mesh].meshText = pricing.mesh().toString();
        meshes_[mesh].experts = std::move(experts);
        hbmBytes_ = pricing.costs().hbmBytes();
        limitBytes_ = pricing.setup().options.memoryLimitBytes.value_or(hbmBytes_);
        publish();
    }

    void foundSoFar(std::shared_ptr<const PlanCandidate> candidate)
    {
        const std::scoped_lock hold(lock_);
        bestSoFar_ = std::move(candidate);
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

    [[nodiscard]] std::shared_ptr<SearchOutcome> snapshot() const
    {
        auto outcome = std::make_shared<SearchOutcome>();
        for (std::size_t i = 0; i < meshes_.size(); ++i) {
            outcome->candidates.insert(outcome->candidates.end(), meshes_[i].experts.begin(), meshes_[i].experts.end());
            outcome->candidates.insert(outcome->candidates.end(), searched_[i].begin(), searched_[i].end());
        }
        if (bestSoFar_)
            outcome->candidates.push_back(bestSoFar_);
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
    double hbmBytes_ = 0;
    double limitBytes_ = 0;
};

// The one rule of SearchOutcome::best on two plans: fitting before not fitting, then
// the faster; among plans that do not fit, the smaller.
bool better(const PlanCandidate& a, const PlanCandidate& b, double limitBytes)
{
    const bool aFits = a.memoryBytes() <= limitBytes;
    const bool bFits = b.memoryBytes() <= limitBytes;
    if (aFits != bFits)
        return aFits;
    return aFits ? a.stepSeconds() < b.stepSeconds() : a.memoryBytes() < b.memoryBytes();
}

void searchMesh(const std::shared_ptr<const FoldedModel>& model, const SearchSetup& setup, std::size_t index,
                const std::vector<MeshAxis>& axes, const SearchSessionCallbacks& callbacks, SessionState& state)
{
    state.report(index, SearchPhase::ExpertPlans, 0.0);
    // One pricing per workload the search may choose (training techniques).
    std::vector<std::unique_ptr<PlanPricing>> pricings;
    for (const Workload& workload : setup.workloadVariants()) {
        SearchSetup variant = setup;
        variant.workload = workload;
        pricings.push_back(std::make_unique<PlanPricing>(model, std::move(variant), axes));
    }
    const double limit = setup.options.memoryLimitBytes.value_or(pricings.front()->costs().hbmBytes());
    // The expert references, each with the techniques that suit it best.
    std::vector<std::shared_ptr<const PlanCandidate>> experts;
    for (const ExpertPlanKind kind :
         {ExpertPlanKind::DataParallel, ExpertPlanKind::Megatron, ExpertPlanKind::MegatronSequenceParallel}) {
        std::shared_ptr<const PlanCandidate> chosen;
        for (const auto& pricing : pricings) {
            auto priced = pricing->price(makeExpertPlan(kind, model->coarse, axes), PlanCandidate::Role::Expert);
            if (!chosen || better(*priced, *chosen, limit))
                chosen = std::move(priced);
        }
        experts.push_back(std::move(chosen));
    }
    state.pricedExperts(index, *pricings.front(), experts);

    std::optional<SearchResult> result;
    std::shared_ptr<const PlanCandidate> best;
    std::size_t chosenVariant = 0;
    Clock::time_point lastBest;
    for (std::size_t v = 0; v < pricings.size(); ++v) {
        if (v > 0 && callbacks.cancelled && callbacks.cancelled())
            break;
        const PlanPricing& pricing = *pricings[v];
        SearchCallbacks search;
        search.cancelled = callbacks.cancelled;
        search.progress = [&](SearchPhase phase, double fraction) {
            state.report(index, phase, (static_cast<double>(v) + fraction) / static_cast<double>(pricings.size()));
        };
        if (callbacks.changed) {
            search.bestSoFar = [&](const Plan& plan, double) {
                // The first incumbent at once, later ones a few times a second: the final
                // result replaces them all anyway.
                const Clock::time_point now = Clock::now();
                if (lastBest != Clock::time_point() && now - lastBest < callbacks.bestSoFarInterval)
                    return;
                lastBest = now;
                state.foundSoFar(pricing.price(plan, PlanCandidate::Role::BestSoFar));
            };
        }
        SearchResult found = searchPlan(pricing.costs(), model->coarse, model->families, setup.options, search);
        std::shared_ptr<const PlanCandidate> candidate =
            found.best ? pricing.candidate(PlanCandidate::Role::Best, found.best->plan, found.best->evaluation) : nullptr;
        if (!result || (candidate && (!best || better(*candidate, *best, limit)))) {
            result = std::move(found);
            best = std::move(candidate);
            chosenVariant = v;
        }
    }
    // One price: the search's program is linearized, the exact prices are not; never
    // hand out a plan that an expert plan priced on this mesh beats. (The search's own
    // result stays as it was, for comparing it with the baseline or the solver.)
    for (const auto& expert : experts) {
        if (best && better(*expert, *best, limit)) {
            auto kept = std::make_shared<PlanCandidate>(*expert);
            kept->role = PlanCandidate::Role::Best;
            result->message = "the expert plan '" + kept->plan.name + "' priced better than every searched plan";
            best = std::move(kept);
        }
    }

    std::optional<SearchResult> baseline;
    if (setup.wholeGraphBaseline && !(callbacks.cancelled && callbacks.cancelled())) {
        state.report(index, SearchPhase::Baseline, 1.0);
        SearchOptions options = setup.options;
        options.mode = SearchMode::WholeGraph;
        options.alternatives = 0;
        SearchCallbacks quiet;
        quiet.cancelled = callbacks.cancelled;
        baseline = searchPlan(pricings[chosenVariant]->costs(), model->coarse, model->families, options, quiet);
    }

    std::vector<std::shared_ptr<const PlanCandidate>> found;
    if (best)
        found.push_back(best);
    for (const SearchCandidate& alternative : result->alternatives)
        found.push_back(
            pricings[chosenVariant]->candidate(PlanCandidate::Role::Alternative, alternative.plan, alternative.evaluation));
    state.searched(index, std::move(*result), std::move(baseline), std::move(found),
                   pricings[chosenVariant]->costs().workload());
}

}  // namespace

SearchSession::SearchSession(std::shared_ptr<const FoldedModel> model, SearchSetup setup)
    : model_(std::move(model)), setup_(std::move(setup))
{
}

std::shared_ptr<const SearchOutcome> SearchSession::run(const SearchSessionCallbacks& callbacks, unsigned parallelMeshes)
{
    const Clock::time_point start = Clock::now();
    const std::vector<std::vector<MeshAxis>> meshes = setup_.meshes();
    auto cancelled = [&] { return callbacks.cancelled && callbacks.cancelled(); };
    SessionState state(meshes, callbacks);

    std::atomic<std::size_t> next{0};
    std::vector<std::exception_ptr> failures(meshes.size());
    auto worker = [&] {
        for (std::size_t i = next++; i < meshes.size() && !cancelled(); i = next++) {
            try {
                searchMesh(model_, setup_, i, meshes[i], callbacks, state);
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

    std::shared_ptr<SearchOutcome> outcome = state.finalSnapshot();
    outcome->finished = true;
    outcome->cancelled = cancelled();
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

}  // namespace tapestry
