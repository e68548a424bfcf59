#include "solver/ShardingSolver.h"

#include "base/Error.h"
#include "solver/IlpNeighbourhoodSearch.h"
#include "solver/IlpSolver.h"
#include "solver/LagrangianSearch.h"
#include "solver/LocalSearch.h"
#include "solver/SolutionEvaluator.h"
#include "solver/StartPlan.h"
#include "solver/ThreadCpuClock.h"
#include "solver/TimeHorizon.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>
#include <vector>

namespace tapestry {

namespace {

using Clock = std::chrono::steady_clock;

// The exact engine (CBC on the whole reduced problem) gets a core when the reduced
// problem has at most this many nodes with a choice and its model at most this many
// edge columns (ilpCellCount). Generated Transformer-inference problems of 816 nodes
// (705 and 744 with a choice, 0.02 M and 0.19 M columns) are proven optimal in 12 and
// 22 s on a machine loaded 20-35 on two cores; with 1,762 nodes (0.39 M columns) CBC
// found nothing in 150 s, nor on the public A, M and S (1.6-2.7 M).
constexpr std::size_t kExactNodes = 1'200;
constexpr std::size_t kExactCells = 1'000'000;
// CBC's share of the time: generated Transformer-inference problems of 816 nodes are
// proven within a third of their limit on a machine loaded 13-35, and G in a tenth.
constexpr double kExactShare = 0.5;
// Past it CBC goes on while its bound is within this share of the best plan and its
// root's relaxation agrees with that plan (otherwise that neighbourhood is re-solved
// first, see runExactWorker); then its tree is the search that finds the plans. A memory-tight generated diffusion problem of
// 589 nodes after reduction, 2-3 % apart at half of 60 s, is proven optimal at 55 s when
// kept (load 3-9); ended at 1 %, it stayed 2 % above the optimum (load 10-20).
constexpr double kExactGapToKeep = 0.05;
// And whatever its node count when its edges have at most this many cells in all: the
// search's whole-graph problems (a few thousand nodes of few strategies) are proven
// optimal in seconds.
constexpr std::size_t kExactAnyNodesCells = 600'000;
// CBC on the whole problem runs its primal heuristics (CbcSettings::heuristics) when its
// model has at most this many edge columns (ilpCellCount). On such a model they cost
// little and find the plans its tree does not. Generated 1,000-node problems of the 2-D
// families (17-28 k columns), CBC alone, in CPU-seconds with / without them: gns-2d-35k 11.0 / 37.9, gemma-2d-33k 19.5 / 50.0,
// ti-2d-816 11.1 / 12.6, unet-2d-28k 12.7 / 27.9, diffusion-2d-65k 17.3 / not in 16.6.
// The whole solver at the family's 60 s limit (pinned, load 4-7) proved gns-2d-35k@1000
// with 18-19 CPU-seconds, where the build without them ended 0.5 % above its bound. On
// larger models they take the time: the 0.18 M-column diffusion-3d-1k-plain@1000
// reached its root in 70.6 CPU-seconds with them (the feasibility pump: 7.9 with only it
// off), 6.6 without; generated ti-3d-816 (0.23 M) was proven in 22 s without, 71 s with.
// Nothing between 28 k and 179 k columns was measured both ways: the threshold sits in
// that gap, which keeps the problems there (diffusion-3d-600-plain@1000 at 56 k and
// ti-3d-2k-plain@1000 at 90 k, proven without them) on the path they were proven on.
constexpr std::size_t kExactHeuristicsCells = 50'000;
// Without them, on a model of at least this many edge columns CBC stops as soon as its
// root's relaxation disagrees with the best plan, and that neighbourhood is solved first
// (PortfolioChoice::neighbourhoodAtRoot): there CBC's tree finds no plan near the
// optimum. Whole solver beside main, pinned, load 9-20: diffusion-3d-1k-plain@1000
// (179 k columns) proven with 30-34 CPU-seconds instead of 57-64, ti-3d-816@1000 (234 k)
// with 31-32 instead of 45-52; gns-3d-4k@1000 (159 k) at 120 s ended 0.0001 % above its
// root's bound (94,794,510) where main, its root not reached by half the time, ended at
// 96,292,996. On smaller models the tree finds the optimum soon after the root and the
// detour costs: ti-3d-2k-plain@1000 (90 k) 11.4 CPU-seconds instead of 7.0,
// diffusion-3d-1k-plain at 400 nodes (85 k) 10.4 instead of 7.1. Nothing between 90 k
// and 152 k was measured (so public G, 113 k, keeps its path by this threshold, not by a
// measurement); gemma-3d-3k@1000 (152 k) at 120 s, load 20, reached CBC's root in neither
// build, where this changes nothing.
constexpr std::size_t kNeighbourhoodAtRootCells = 150'000;
// The neighbourhood where CBC's root relaxation disagrees with the best plan is
// re-solved while that gains, each solve taking at most this share of the time left. On
// generated diffusion problems of 600, 800 and 1,200 nodes, from plans 3.5, 1.9 and
// 1.8 % above their optimum or best known, the first solve took 2.6, 7 and 15 s (load
// 6) and came within 0.46, 0.0 and 0.11 % of it (where the 1,200-node one's CBC tree
// finds no plan in a whole limit).
constexpr double kRelaxationShare = 0.8;
// Large problems: share of the time for the Lagrangian phase, then rounds in which
// one thread re-solves regions exactly and the other runs the tree local search,
// exchanging the best assignment between rounds.
constexpr double kLagrangianShare = 0.25;
// While its own repaired plans still pay forbidden costs the Lagrangian search has not
// settled and goes on, up to this share (the feasibility-first plan is the fallback),
constexpr double kLagrangianMostShare = 0.6;
// and up to this one while the best plan in hand costs more than the lower bound over
// (1 - kFarFromBound): then the other searches are stuck far from what the relaxation
// says is possible. With a tenth of a core per worker, public A's first allowed
// Lagrangian plan takes about 5.5 CPU-seconds, past 60 % of its 60 s; the local search
// takes it within 0.1 % of its best in seconds, while from the fallback plan (twice the
// cost, 64-73 % above the bound) the rest of the time gains under 1 %. The fallback of
// the planted diffusion-2d-65k, 17 % above its bound, is worth the searches' time instead
// (they take it to 0.999 of the optimum).
constexpr double kLagrangianFarShare = 0.85;
constexpr double kFarFromBound = 0.3;
constexpr double kRoundSeconds = 8.0;
constexpr std::int64_t kMovesPerCheck = 2000;
// Beside the exact engine the watch measures, over windows of this many seconds, the
// CPU time both workers' threads got. Where it is under one core between them (a loaded
// machine: the scheduler gives a process's threads one share, see
// /proc/sys/kernel/sched_autogroup_enabled), every second the other search runs is
// taken from CBC: once CBC's root is in, the Lagrangian ends and the local search steps
// aside, polishing only the plans CBC's tree finds, until CBC's search on the whole
// problem ends. Every generated family at 600 and 1,000 nodes, 60 s, each run pinned to
// one core, two runs: 24 of 24 proven at 600 nodes (the build before 23), 15 of the 22
// exact-path runs at 1,000 (before 10); on two cores shared at load 17-21 all 12 at 600
// nodes (before 10); proof times where both prove about the same in sum (README,
// session 16). With a core each the measure stays near two and nothing changes.
constexpr double kShareWindowSeconds = 1.0;
constexpr double kSharedCores = 1.0;
// How often the calling thread looks at the clock and the workers' findings, and how
// often at most it reports a better cost (each report expands and checks it).
constexpr auto kPoll = std::chrono::milliseconds(20);
constexpr auto kReportEvery = std::chrono::milliseconds(250);
// How long to wait for workers to notice the stop before leaving them running (CBC can
// overrun by seconds on a big region: model copies, LP start-ups it does not time).
constexpr double kStopGraceSeconds = 0.2;

// What the portfolio decides by, measured on the reduced problem.
struct ProblemFeatures {
    std::size_t choices = 0;  // nodes with more than one strategy
    std::size_t cells = 0;    // edge cells in all
    // The exact engine's model size (ilpCellCount), which grows with the edges and the
    // square of the strategies per node; above a few million edge cells in all it is
    // not computed (far too large either way).
    std::size_t exactCells = 0;
    // Whether the cheapest strategy of every node together overflows the limit (if not,
    // the memory limit plays no part and the Lagrangian search has nothing to price).
    bool limitBinds = false;
};

ProblemFeatures measureFeatures(const ShardingProblem& problem)
{
    constexpr std::size_t kCountCellsUpTo = 8'000'000;
    std::size_t cells = 0;
    for (const ProblemEdge& edge : problem.edges)
        cells += edge.costs.size();
    ProblemFeatures features;
    features.choices = static_cast<std::size_t>(std::count_if(
        problem.nodes.begin(), problem.nodes.end(), [](const ProblemNode& node) { return node.strategyCount() > 1; }));
    features.cells = cells;
    features.exactCells = cells <= kCountCellsUpTo ? ilpCellCount(problem) : cells;
    Assignment cheapest(problem.nodes.size());
    for (std::size_t i = 0; i < problem.nodes.size(); ++i)
        cheapest[i] = static_cast<int>(std::min_element(problem.nodes[i].costs.begin(), problem.nodes[i].costs.end())
                                       - problem.nodes[i].costs.begin());
    features.limitBinds = !evaluateSolution(problem, cheapest).feasible;
    return features;
}

PortfolioChoice portfolioChoice(const ProblemFeatures& features)
{
    PortfolioChoice choice;
    choice.exactEngine = (features.choices <= kExactNodes && features.exactCells <= kExactCells)
                         || features.cells <= kExactAnyNodesCells;
    choice.exactHeuristics = choice.exactEngine && features.exactCells <= kExactHeuristicsCells;
    choice.neighbourhoodAtRoot =
        choice.exactEngine && !choice.exactHeuristics && features.exactCells >= kNeighbourhoodAtRootCells;
    return choice;
}

Clock::time_point after(Clock::time_point from, double seconds)
{
    return from + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

double secondsBetween(Clock::time_point from, Clock::time_point to)
{
    return std::chrono::duration<double>(to - from).count();
}

// What the call and its workers share. Each worker holds it by shared_ptr, so a worker
// still busy at the deadline can be left to finish on its own while the call returns.
class SharedSearch {
public:
    // Shared with the reducer, not copied: with the reducer moving its edge matrices
    // rather than copying them, public A from read to first plan 0.53 CPU-seconds instead
    // of 0.92 (one thread, load 4).
    SharedSearch(std::shared_ptr<const ShardingProblem> problem, const Assignment& start) : held_(std::move(problem))
    {
        best_ = start;
        bestCost_ = evaluateSolution(problem_, start).cost;
        improvements_ = 1;  // the start is reported too
    }

    [[nodiscard]] const ShardingProblem& problem() const { return problem_; }
    [[nodiscard]] std::stop_token stopToken() const { return stop_.get_token(); }
    void stop()
    {
        stop_.request_stop();
        lagrangian_.request_stop();
        exact_.request_stop();
    }
    // The main Lagrangian search watches this token (and the search's stop).
    [[nodiscard]] std::stop_token lagrangianToken() const { return lagrangian_.get_token(); }
    void endLagrangian() { lagrangian_.request_stop(); }
    // The exact engine on the whole problem watches this one (and the search's stop).
    [[nodiscard]] std::stop_token exactToken() const { return exact_.get_token(); }
    void endExact() { exact_.request_stop(); }

    // Evaluated on the worker's thread; kept (returns true) when feasible and cheaper.
    bool offer(const Assignment& x)
    {
        const SolutionEvaluation e = evaluateSolution(problem_, x);
        const std::lock_guard lock(mutex_);
        if (!e.feasible || e.cost >= bestCost_)
            return false;
        best_ = x;
        bestCost_ = e.cost;
        ++improvements_;
        return true;
    }

    void raiseBound(double bound)
    {
        const std::lock_guard lock(mutex_);
        bound_ = std::max(bound_, bound);
    }
    void markOptimal()
    {
        const std::lock_guard lock(mutex_);
        provenOptimal_ = true;
    }
    // CBC's root relaxation (per node, each strategy's weight), the first one handed on.
    void keepRelaxation(const std::vector<std::vector<double>>& weights)
    {
        const std::lock_guard lock(mutex_);
        if (relaxation_.empty())
            relaxation_ = weights;
        rootIn_ = true;
    }
    [[nodiscard]] std::vector<std::vector<double>> relaxation() const
    {
        const std::lock_guard lock(mutex_);
        return relaxation_;
    }
    [[nodiscard]] bool rootIn() const { return rootIn_; }
    // How many plans better than the shared best CBC's search on the whole problem found.
    void markTreeFound() { ++treePlans_; }
    [[nodiscard]] int treePlans() const { return treePlans_; }
    // Whether CBC on the whole problem, or on its root's neighbourhood, is searching now.
    void setExactRunning(bool running) { exactRunning_ = running; }
    [[nodiscard]] bool exactRunning() const { return exactRunning_; }
    // Whether the local search beside it waits (the watch decides, by measured CPU share).
    void setStepAside(bool aside) { stepAside_ = aside; }
    [[nodiscard]] bool stepAside() const { return stepAside_; }

    struct Snapshot {
        Assignment best;
        CostSum cost = 0;
        int improvements = 0;
        double bound = 0;
        bool provenOptimal = false;
    };
    [[nodiscard]] Snapshot snapshot() const
    {
        const std::lock_guard lock(mutex_);
        return {best_, bestCost_, improvements_, bound_, provenOptimal_};
    }
    [[nodiscard]] CostSum bestCost() const
    {
        const std::lock_guard lock(mutex_);
        return bestCost_;
    }
    [[nodiscard]] Assignment best() const
    {
        const std::lock_guard lock(mutex_);
        return best_;
    }

private:
    const std::shared_ptr<const ShardingProblem> held_;
    const ShardingProblem& problem_ = *held_;
    std::stop_source stop_;
    std::stop_source lagrangian_;
    std::stop_source exact_;
    mutable std::mutex mutex_;
    Assignment best_;
    CostSum bestCost_ = 0;
    int improvements_ = 0;
    double bound_ = -std::numeric_limits<double>::infinity();
    bool provenOptimal_ = false;
    std::vector<std::vector<double>> relaxation_;
    std::atomic<bool> rootIn_ = false;
    std::atomic<int> treePlans_ = 0;
    std::atomic<bool> exactRunning_ = false;
    std::atomic<bool> stepAside_ = false;
};

// A thread that may be joined or left running at the deadline.
class Worker {
public:
    Worker(std::shared_ptr<SharedSearch> search, std::function<void(SharedSearch&)> task)
        : finished_(std::make_shared<std::atomic<bool>>(false)), failure_(std::make_shared<std::exception_ptr>()),
          spent_(std::make_shared<double>(0.0))
    {
        thread_ = std::thread([search = std::move(search), task = std::move(task), finished = finished_,
                               failure = failure_, spent = spent_] {
            try {
                task(*search);
            } catch (...) {
                *failure = std::current_exception();
            }
            *spent = callingThreadCpuSeconds();
            *finished = true;
        });
        cpu_.emplace(thread_);
    }
    Worker(Worker&&) = default;
    Worker& operator=(Worker&&) = default;
    ~Worker()
    {
        if (thread_.joinable())
            thread_.detach();
    }

    [[nodiscard]] bool finished() const { return *finished_; }
    // Joins a finished worker; returns false (and leaves it running) otherwise.
    bool release()
    {
        if (!finished())
            return false;
        thread_.join();
        return true;
    }
    // What the task threw, after release().
    [[nodiscard]] std::exception_ptr failure() const { return *failure_; }
    // CPU seconds it has had, while it runs.
    [[nodiscard]] std::optional<double> cpuSeconds() const { return finished() ? std::nullopt : cpu_->seconds(); }
    // CPU seconds its task took in all, once finished.
    [[nodiscard]] std::optional<double> spentSeconds() const { return finished() ? std::optional(*spent_) : std::nullopt; }

private:
    std::thread thread_;
    std::optional<ThreadCpuClock> cpu_;
    std::shared_ptr<std::atomic<bool>> finished_;
    std::shared_ptr<std::exception_ptr> failure_;
    std::shared_ptr<double> spent_;
};

// The Lagrangian search from the shared best, sharing what it finds. Past `softEnd` it
// goes on while no plan it found avoids the forbidden costs.
void runLagrangian(SharedSearch& search, std::uint64_t seed, Clock::time_point softEnd, Clock::time_point end,
                   std::stop_token stop)
{
    const Assignment found = searchLagrangian(
        search.problem(), search.best(), seed, softEnd, end, std::move(stop),
        [&](const Assignment& x) { search.offer(x); }, [&](double bound) { search.raiseBound(bound); });
    search.offer(found);
}

// Feasibility first: the local search from the shared best (which fits the memory)
// until it avoids every forbidden cost and has made a move per node, so that a good
// plan exists within a second or two whatever the later phases take. The start
// (startAssignment) mostly avoids them already; the moves then polish it, which is
// what a starved run at a quarter of the limit returns (gns-2d-35k, one thread: the
// start 5.94e9 at 2.4 CPU-seconds of the process, 4.29e9 after the moves at 3.3; the
// build before, whose start paid 1,825 forbidden cells, had its first plan, 3.91e9, at
// 3.3).
void runFeasibilityFirst(SharedSearch& search, std::uint64_t seed, Clock::time_point deadline)
{
    const std::stop_token stop = search.stopToken();
    LocalSearch local(search.problem(), search.best(), seed);
    const auto polish = std::max<std::int64_t>(kMovesPerCheck, static_cast<std::int64_t>(search.problem().nodes.size()));
    CostSum offered = local.bestCost();
    for (std::int64_t moves = 0; (local.bestCost() >= kCostCap || moves < polish) && Clock::now() < deadline
                                 && !stop.stop_requested();
         moves += kMovesPerCheck) {
        local.run(kMovesPerCheck);
        if (local.bestCost() < offered && local.bestCost() < kCostCap) {
            offered = local.bestCost();
            search.offer(local.best());
        }
    }
    search.offer(local.best());
}

// While the watch has the local search step aside for the exact engine: waits until
// CBC's tree finds a better plan, the step aside ends, or `deadline`.
void waitBesideExact(SharedSearch& search, Clock::time_point deadline, const std::stop_token& stop)
{
    const int seen = search.treePlans();
    while (search.stepAside() && search.treePlans() == seen && Clock::now() < deadline && !stop.stop_requested())
        std::this_thread::sleep_for(kPoll);
}

// Rounds of the feasible local search, each starting from the shared best. While it
// steps aside (see the watch in solveShardingProblem) it only polishes, one whole round
// each, the plans CBC's tree finds; a round begun before the step aside ends with it.
void runLocalSearch(SharedSearch& search, std::uint64_t seed, Clock::time_point deadline)
{
    const std::stop_token stop = search.stopToken();
    LocalSearch local(search.problem(), search.best(), seed);
    bool polish = false;
    while (Clock::now() < deadline && !stop.stop_requested()) {
        if (search.stepAside() && !polish) {
            waitBesideExact(search, deadline, stop);
            local.restartFrom(search.best());
            polish = true;
            continue;
        }
        polish = false;
        const auto roundEnd = std::min(deadline, after(Clock::now(), kRoundSeconds));
        // Each better plan is handed on at once: one still held when the deadline
        // stops the worker in a batch would be lost.
        CostSum offered = local.bestCost();
        const bool whole = search.stepAside();
        while (Clock::now() < roundEnd && !stop.stop_requested() && (whole || !search.stepAside())) {
            local.run(kMovesPerCheck);
            if (local.bestCost() < offered) {
                offered = local.bestCost();
                search.offer(local.best());
            }
        }
        local.restartFrom(search.best());
    }
}

// Rounds of exact region re-solves, each starting from the shared best.
void runRegions(SharedSearch& search, std::uint64_t seed, Clock::time_point deadline)
{
    const std::stop_token stop = search.stopToken();
    for (std::uint64_t round = 0; Clock::now() < deadline && !stop.stop_requested(); ++round) {
        Assignment regions = search.best();
        improveWithIlpRegions(search.problem(), regions, seed + round, std::min(deadline, after(Clock::now(), kRoundSeconds)),
                              stop);
        search.offer(regions);
    }
}

// Costs are whole numbers, so the optimum is at least the bound rounded up, less what
// rounding in its double arithmetic may have added. Costs are >= 0, so is the optimum.
CostSum wholeBound(double bound)
{
    if (!(bound > 0))
        return 0;
    return static_cast<CostSum>(std::ceil(bound - 1e-9 * bound - 1e-6));
}

// CBC on the whole problem from the shared best until `deadline` or a stop on `stop`,
// handing on its incumbents, bound and root relaxation, and pruning by the shared best.
// With `endAtDisagreeingRoot` it ends itself (SharedSearch::endExact) as soon as its
// root's relaxation disagrees with the shared best, unless its bound proves that plan
// optimal. Returns whether its search ran to the end, which proves the shared best
// optimal (then the search stops).
bool runExact(SharedSearch& search, Clock::time_point deadline, std::stop_token stop, bool heuristics,
              bool endAtDisagreeingRoot = false)
{
    const Assignment incumbent = search.best();
    IlpHooks hooks;
    hooks.improved = [&search](const Assignment& x) {
        if (search.offer(x))
            search.markTreeFound();
    };
    hooks.bounded = [&search](double bound) { search.raiseBound(bound); };
    hooks.knownCost = [&search] { return search.bestCost(); };
    hooks.relaxed = [&search, endAtDisagreeingRoot](const std::vector<std::vector<double>>& weights) {
        search.keepRelaxation(weights);
        // (The bound, handed on just before, may already prove the shared best.)
        const SharedSearch::Snapshot now = search.snapshot();
        if (endAtDisagreeingRoot && now.cost > wholeBound(now.bound)
            && !disagreeingNodes(search.problem(), now.best, weights).empty())
            search.endExact();
    };
    search.setExactRunning(true);
    const IlpOutcome exact =
        solveWithIlp(search.problem(), secondsBetween(Clock::now(), deadline), &incumbent, std::move(stop), heuristics, hooks);
    search.setExactRunning(false);
    if (exact.assignment)
        search.offer(*exact.assignment);
    if (!exact.complete) {
        if (exact.assignment)
            search.raiseBound(exact.lowerBound);
        return false;
    }
    search.markOptimal();
    search.stop();
    return true;
}

// After the exact engine was ended short of its proof: region re-solves from the shared
// best, and once that plan is within kExactGapToKeep of the bound (in the reduced
// problem's costs, which makes the gap larger), CBC on the whole problem once more for
// the rest of the time. Its cutoff then fixes most columns by reduced cost at the root:
// the memory-tight generated 600-node diffusion problem, proven in 12 s from its
// optimum, is not proven in 60 s from a plan 3 % above it.
void runRegionsThenExact(SharedSearch& search, std::uint64_t seed, Clock::time_point deadline, bool heuristics)
{
    const std::stop_token stop = search.stopToken();
    for (std::uint64_t round = 0; Clock::now() < deadline && !stop.stop_requested(); ++round) {
        Assignment regions = search.best();
        improveWithIlpRegions(search.problem(), regions, seed + round,
                              std::min(deadline, after(Clock::now(), kRoundSeconds)), stop);
        search.offer(regions);
        const SharedSearch::Snapshot now = search.snapshot();
        if (optimalityGap(now.cost, wholeBound(now.bound)) <= kExactGapToKeep) {
            if (!runExact(search, deadline, stop, heuristics))
                runRegions(search, seed + round + 1, deadline);
            return;
        }
    }
}

// The exact engine's worker. CBC on the whole problem until the watch in
// solveShardingProblem ends it short of its proof (at kExactShare of the time, when its
// bound is far, or when its tree has found no better plan and its root's relaxation
// disagrees with the shared best), or, where the portfolio says so
// (PortfolioChoice::neighbourhoodAtRoot), until its root's relaxation disagrees with
// the shared best: CBC's tree without its heuristics finds no plan near the optimum of
// diffusion-3d-1k-plain@1000 (none below 69.0 M in 28 CPU-seconds), where that
// neighbourhood, solved from the Lagrangian's plan 3 % above, gave the optimum in 3-7
// CPU-seconds (and 181,574,148 on ti-3d-816@1000 in 1.6, 0.002 % above). Then that
// neighbourhood is re-solved exactly (improveWithRelaxation, each solve up to
// kRelaxationShare of the time left, again from each better plan while one gains),
// and CBC on the whole once more, pruning by the better plan; or, with no neighbourhood
// to solve, region re-solves (runRegionsThenExact). CBC's tree goes on while it finds
// plans, since it then proves them (ti-3d-816: its root's bound 0.013 % below the
// optimum, proven 13 s later, load 8); where the memory rows bind hard it finds none (the
// 800-node diffusion problem: none below 80.14 M, 0.30 % above its bound, in a whole
// limit, where the neighbourhood found 79,904,804, 0.0003 % above the optimum).
void runExactWorker(SharedSearch& search, std::uint64_t seed, Clock::time_point deadline, PortfolioChoice choice)
{
    const bool heuristics = choice.exactHeuristics;
    if (runExact(search, deadline, search.exactToken(), heuristics, choice.neighbourhoodAtRoot))
        return;
    const std::stop_token stop = search.stopToken();
    const std::vector<std::vector<double>> relaxation = search.relaxation();
    if (!relaxation.empty() && !disagreeingNodes(search.problem(), search.best(), relaxation).empty()) {
        // The local search stays aside for this solve as for CBC's (runExact ends it).
        search.setExactRunning(true);
        while (Clock::now() < deadline && !stop.stop_requested()) {
            Assignment plan = search.best();
            const auto roundEnd = after(Clock::now(), kRelaxationShare * secondsBetween(Clock::now(), deadline));
            if (!improveWithRelaxation(search.problem(), plan, relaxation, roundEnd, stop))
                break;
            search.offer(plan);
        }
        // To its end this time: its root's relaxation is the one just used.
        if (runExact(search, deadline, stop, heuristics, /*endAtDisagreeingRoot=*/false))
            return;
    }
    runRegionsThenExact(search, seed + 3, deadline, heuristics);
}

}  // namespace

PortfolioChoice portfolioChoice(const ShardingProblem& reduced)
{
    return portfolioChoice(measureFeatures(reduced));
}

double optimalityGap(CostSum cost, CostSum lowerBound)
{
    return cost > 0 ? static_cast<double>(cost - std::min(cost, lowerBound)) / static_cast<double>(cost) : 0.0;
}

SolverResult solveShardingProblem(const ShardingProblem& problem, const SolverOptions& options)
{
    const auto start = options.startedAt.value_or(Clock::now());
    const auto limit = after(start, options.timeLimitSeconds);
    if (const auto overload = firstUnavoidableOverload(problem)) {
        std::int64_t least = 0;
        for (const ProblemNode& node : problem.nodes)
            if (node.lo <= *overload && *overload < node.hi)
                least += *std::min_element(node.usages.begin(), node.usages.end());
        throw Error(ErrorCode::InfeasibleProblem, problem.name,
                    "at time point " + std::to_string(*overload) + " the smallest usages of the live nodes sum to "
                        + std::to_string(least) + ", above the usage limit " + std::to_string(*problem.usageLimit));
    }

    // The searches keep data per time point; only interval ends matter.
    const bool sparseTime = timeHorizon(problem) > 2 * static_cast<std::int64_t>(problem.nodes.size()) + 2;
    const ShardingProblem compact = sparseTime ? withCompressedTime(problem) : ShardingProblem{};
    // A cancel, or most of the time gone on a huge problem, ends the reductions early.
    const auto reductionsEnd = after(limit, -0.5 * options.timeLimitSeconds);
    const ProblemReducer reducer(sparseTime ? compact : problem, [&] {
        return options.stop.stop_requested() || Clock::now() >= reductionsEnd;
    });
    const ShardingProblem& reduced = reducer.reduced();
    SolverResult result;
    result.reduction = reducer.stats();
    result.reducedNodes = reduced.nodes.size();
    result.reducedEdges = reduced.edges.size();
    const ProblemFeatures features = measureFeatures(reduced);
    const PortfolioChoice choice = portfolioChoice(features);
    result.exactEngine = choice.exactEngine;

    const Assignment first = startAssignment(reduced);
    // Returning takes a moment after the workers stop: expanding and checking the
    // answer (timed here on the first assignment, so it grows with the problem and the
    // machine's load), printing it, and waiting briefly for the workers to stop.
    const auto finishBegan = Clock::now();
    // The reductions decided every node (they are exact): the one plan left is the
    // optimum, with nothing to search (the workers would only wait for the limit).
    if (features.choices == 0) {
        result.assignment = reducer.expand(first);
        result.cost = evaluateSolution(problem, result.assignment).cost;
        result.lowerBound = result.cost;
        result.provenOptimal = true;
        result.cancelled = options.stop.stop_requested();
        const double elapsed = secondsBetween(start, Clock::now());
        if (options.progress)
            options.progress(elapsed, result.cost);
        if (options.bounded)
            options.bounded(elapsed, result.lowerBound);
        return result;
    }
    (void)evaluateSolution(problem, reducer.expand(first));
    const double finishSeconds = secondsBetween(finishBegan, Clock::now());
    const double grace = std::min(kStopGraceSeconds, 0.1 * options.timeLimitSeconds);
    // On a loaded machine the calling thread may wait a while for a core, hence the
    // share of the limit.
    const double margin = std::min(0.25 * options.timeLimitSeconds,
                                   0.2 + std::min(0.04 * options.timeLimitSeconds, 1.5) + 4 * finishSeconds);
    const auto deadline = after(limit, -margin - grace);
    const auto search = std::make_shared<SharedSearch>(reducer.sharedReduced(), first);
    const std::uint64_t seed = options.seed * 7919;
    const int threads = std::max(1, options.threads);
    std::vector<Worker> workers;
    // When the large path's Lagrangian search, still without a plan free of forbidden
    // costs, is ended unless the plans in hand are far above the bound.
    auto lagrangianEnd = Clock::time_point::max();
    // When the exact engine is ended unless it is near its proof.
    auto exactCheck = Clock::time_point::max();
    if (options.stop.stop_requested() || Clock::now() >= deadline) {
        // Stopped (or out of time) while reducing: the first assignment is the answer.
    } else if (result.exactEngine) {
        // Exact: CBC on the whole reduced problem, handing on its incumbents and bound;
        // beside it the Lagrangian search (where the limit binds) until kExactShare of
        // the time and then the local search. CBC still far from done then is ended (see
        // the watch below) and its thread turns to exact region re-solves. Where the two
        // threads get under a core between them, the second steps aside once CBC's root
        // is in (kSharedCores).
        const auto exactEnd = after(Clock::now(), secondsBetween(Clock::now(), deadline) * kExactShare);
        exactCheck = exactEnd;
        workers.emplace_back(search, [deadline, seed, choice](SharedSearch& s) { runExactWorker(s, seed, deadline, choice); });
        for (int k = 1; k < threads; ++k)
            workers.emplace_back(search, [seed, k, exactEnd, deadline, binds = features.limitBinds](SharedSearch& s) {
                runFeasibilityFirst(s, seed + 100 + static_cast<std::uint64_t>(k), deadline);
                if (binds)
                    runLagrangian(s, seed + static_cast<std::uint64_t>(k), exactEnd, exactEnd, s.lagrangianToken());
                runLocalSearch(s, seed + 200 + static_cast<std::uint64_t>(k), deadline);
            });
    } else {
        const auto phaseEnd = after(Clock::now(), secondsBetween(Clock::now(), deadline) * kLagrangianShare);
        lagrangianEnd = after(Clock::now(), secondsBetween(Clock::now(), deadline) * kLagrangianMostShare);
        const auto farEnd = after(Clock::now(), secondsBetween(Clock::now(), deadline) * kLagrangianFarShare);
        for (int k = 0; k < threads; ++k) {
            const std::uint64_t own = seed + 10 * static_cast<std::uint64_t>(k);
            const bool regions = k == 1;
            const bool feasibilityFirst = k == threads - 1;
            // Both run the Lagrangian search for the phase: their polished plans fall in
            // different basins (their local searches differ), and which basin the phase
            // finds decides the rest (S at 60 s, seed 1: 1.544e9 with one, 1.529e9 with two).
            // The region worker then leaves: CBC on regions, which never uses a forbidden
            // cell, clears them where repairs of Lagrangian solutions leave them.
            workers.emplace_back(search, [own, regions, feasibilityFirst, phaseEnd, farEnd, deadline](SharedSearch& s) {
                if (feasibilityFirst)
                    runFeasibilityFirst(s, own + 4, deadline);
                if (regions) {
                    runLagrangian(s, own + 1, phaseEnd, phaseEnd, s.stopToken());
                    runRegions(s, own + 3, deadline);
                } else {
                    runLagrangian(s, own + 1, phaseEnd, farEnd, s.lagrangianToken());
                    runLocalSearch(s, own + 2, deadline);
                }
            });
        }
    }

    // The calling thread only watches: progress on improvement, a stop at the deadline.
    int reported = 0;
    double boundReported = -std::numeric_limits<double>::infinity();
    auto lastReport = Clock::time_point{};
    const auto report = [&](bool final) {
        const SharedSearch::Snapshot now = search->snapshot();
        if (options.progress && now.improvements != reported && (final || Clock::now() - lastReport >= kReportEvery)) {
            reported = now.improvements;
            lastReport = Clock::now();
            options.progress(secondsBetween(start, lastReport), evaluateSolution(problem, reducer.expand(now.best)).cost);
        }
        if (options.bounded && now.bound > boundReported) {
            boundReported = now.bound;
            options.bounded(secondsBetween(start, Clock::now()), wholeBound(now.bound) + reducer.offset());
        }
    };
    const auto allFinished = [&] {
        return std::all_of(workers.begin(), workers.end(), [](const Worker& w) { return w.finished(); });
    };
    // Beside the exact engine, the CPU time both workers got in the last window (their
    // threads' CPU clocks), to decide whether the other search steps aside.
    const auto workersCpu = [&]() -> std::optional<double> {
        if (!result.exactEngine || workers.size() != 2)
            return std::nullopt;
        const auto exact = workers[0].cpuSeconds();
        const auto other = workers[1].cpuSeconds();
        return exact && other ? std::optional(*exact + *other) : std::nullopt;
    };
    auto windowStart = Clock::now();
    std::optional<double> windowCpu = workersCpu();
    const auto watchShare = [&] {
        const std::optional<double> cpu = workersCpu();
        const double wall = secondsBetween(windowStart, Clock::now());
        if (!search->stepAside()) {
            const bool shared = cpu && *cpu - *windowCpu < kSharedCores * wall;
            if (shared && search->exactRunning() && search->rootIn()) {
                search->setStepAside(true);
                search->endLagrangian();
            }
        } else if (!search->exactRunning()) {
            search->setStepAside(false);
        }
        windowStart = Clock::now();
        windowCpu = cpu;
    };
    while (Clock::now() < deadline && !options.stop.stop_requested() && !allFinished()) {
        std::this_thread::sleep_for(kPoll);
        if (windowCpu && secondsBetween(windowStart, Clock::now()) >= kShareWindowSeconds)
            watchShare();
        if (Clock::now() >= lagrangianEnd) {
            lagrangianEnd = Clock::time_point::max();
            const SharedSearch::Snapshot now = search->snapshot();
            const auto cost = static_cast<double>(now.cost) + static_cast<double>(reducer.offset());
            const double bound = now.bound + static_cast<double>(reducer.offset());
            if (now.cost < kCostCap && cost * (1 - kFarFromBound) <= bound)
                search->endLagrangian();
        }
        if (Clock::now() >= exactCheck) {
            exactCheck = Clock::time_point::max();
            const SharedSearch::Snapshot now = search->snapshot();
            const CostSum cost = now.cost + reducer.offset();
            const bool far = optimalityGap(cost, wholeBound(now.bound) + reducer.offset()) > kExactGapToKeep;
            const std::vector<std::vector<double>> relaxation = search->relaxation();
            const bool neighbourhood = search->treePlans() == 0 && !relaxation.empty()
                                       && !disagreeingNodes(reduced, now.best, relaxation).empty();
            if (!now.provenOptimal && (far || neighbourhood))
                search->endExact();
        }
        report(false);
    }
    search->stop();
    // Workers check the stop often; one that has not stopped after a moment is left.
    const auto graceEnd = after(Clock::now(), grace);
    while (!allFinished() && Clock::now() < graceEnd)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    if (result.exactEngine && !workers.empty())
        result.exactCpuSeconds = workers.front().spentSeconds();
    for (Worker& worker : workers) {
        const bool joined = worker.release();
        result.workLeftRunning |= !joined;
        if (joined && worker.failure())
            std::rethrow_exception(worker.failure());
    }
    report(true);

    const SharedSearch::Snapshot final = search->snapshot();
    result.cancelled = options.stop.stop_requested();
    result.provenOptimal = final.provenOptimal;
    result.assignment = reducer.expand(final.best);
    result.cost = evaluateSolution(problem, result.assignment).cost;
    result.lowerBound = result.provenOptimal ? result.cost
                                             : std::min(result.cost, wholeBound(final.bound) + reducer.offset());
    return result;
}

}  // namespace tapestry
