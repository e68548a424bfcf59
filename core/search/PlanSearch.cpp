#include "search/PlanSearch.h"

#include "base/Error.h"
#include "search/SearchTerms.h"
#include "search/StrategySpace.h"
#include "search/TermElimination.h"
#include "solver/ShardingSolver.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <stop_token>
#include <thread>

namespace tapestry {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Each node's canonical representative: itself, or the node at the same position of
// its family's representative instance (nested families applied in turn).
std::vector<CoarseNodeId> canonicalNodes(const CoarseGraph& coarse, const FamilyTable& families)
{
    std::vector<CoarseNodeId> canonical(coarse.nodes.size());
    for (const CoarseNode& node : coarse.nodes)
        canonical[node.id.index()] = node.id;
    for (const Family& family : families.families) {
        const auto& representative = family.representative().nodes;
        for (std::size_t i = 1; i < family.instances.size(); ++i) {
            const auto& nodes = family.instances[i].nodes;
            for (std::size_t p = 0; p < nodes.size() && p < representative.size(); ++p)
                canonical[nodes[p].index()] = representative[p];
        }
    }
    for (CoarseNodeId& target : canonical) {
        while (canonical[target.index()] != target)
            target = canonical[target.index()];
    }
    return canonical;
}

struct ResolvedPins {
    std::vector<std::optional<NodeStrategy>> strategy;  // by node
    std::vector<bool> individual;                        // pinned by full name: untied
};

ResolvedPins resolvePins(const std::vector<Pin>& pins, const CoarseGraph& coarse, const FamilyTable& families,
                         std::size_t axisCount, const std::vector<MeshAxis>& mesh)
{
    ResolvedPins resolved{std::vector<std::optional<NodeStrategy>>(coarse.nodes.size()),
                          std::vector<bool>(coarse.nodes.size(), false)};
    if (pins.empty())
        return resolved;  // no index of every node's name (a deep model has thousands)
    std::map<std::string, CoarseNodeId> byName;
    for (const CoarseNode& node : coarse.nodes)
        byName.emplace(node.name, node.id);
    for (const Pin& pin : pins) {
        if (pin.strategy.axes.size() != axisCount)
            throw Error(ErrorCode::InvalidArgument, {},
                        "pin '" + pin.target + "' gives " + std::to_string(pin.strategy.axes.size()) + " splits for " +
                            std::to_string(axisCount) + " mesh axes");
        std::vector<CoarseNodeId> targets;
        if (const auto it = byName.find(pin.target); it != byName.end()) {
            targets.push_back(it->second);
            resolved.individual[it->second.index()] = true;
        } else {
            for (const Family& family : families.families) {
                // A family position is the family's name with what follows the instance's
                // scope in its node's name, as editTargets names it: "FAMILY/mlp/up_proj",
                // or "FAMILY#2" for the second node named by the scope alone.
                if (pin.target.rfind(family.name, 0) != 0)
                    continue;
                const std::string suffix = pin.target.substr(family.name.size());
                for (const BlockInstance& instance : family.instances) {
                    for (const CoarseNodeId id : instance.nodes) {
                        if (coarse.node(id).name == instance.scope + suffix)
                            targets.push_back(id);
                    }
                }
            }
        }
        if (targets.empty())
            throw Error(ErrorCode::InvalidArgument, {},
                        "pin '" + pin.target + "' names no coarse node and no family position of this model");
        for (const CoarseNodeId id : targets) {
            const CoarseNode& node = coarse.node(id);
            for (std::size_t a = 0; a < axisCount; ++a) {
                if (!isLegalSplit(node.kind, pin.strategy.axes[a]))
                    throw Error(ErrorCode::InvalidArgument, {},
                                std::string("infeasible pin: '") + node.name + "' is a " + coarseNodeKindName(node.kind) +
                                    " node and cannot take the split '" + axisSplitName(pin.strategy.axes[a]) +
                                    "' on axis '" + mesh[a].name + "'");
            }
            resolved.strategy[id.index()] = pin.strategy;
        }
    }
    return resolved;
}

std::vector<StrategyGroup> buildGroups(const CostModel& costs, const CoarseGraph& coarse, const FamilyTable& families,
                                       SearchMode mode, const ResolvedPins& pins, const std::vector<int>& axisSizes,
                                       const std::vector<ParallelTechnique>& withheld, int widest)
{
    std::vector<CoarseNodeId> canonical = mode == SearchMode::Tap ? canonicalNodes(coarse, families)
                                                                  : std::vector<CoarseNodeId>{};
    std::map<std::pair<CoarseNodeId, std::string>, std::size_t> index;  // (canonical, pin) -> group
    std::vector<StrategyGroup> groups;
    for (const CoarseNode& node : coarse.nodes) {
        CoarseNodeId key = mode == SearchMode::Tap && !pins.individual[node.id.index()] ? canonical[node.id.index()]
                                                                                          : node.id;
        const auto& pinned = pins.strategy[node.id.index()];
        // Nodes pinned by full name stand alone; the rest of their family stays tied.
        std::string pinKey;
        if (pins.individual[node.id.index()]) {
            pinKey = '#';
            pinKey += std::to_string(node.id.value());
        }
        const auto [it, inserted] = index.try_emplace({key, pinKey}, groups.size());
        if (inserted) {
            StrategyGroup group;
            if (pinned && !costs.accepts(node.id, *pinned))
                throw Error(ErrorCode::InvalidArgument, {},
                            "infeasible pin: '" + node.name + "' is no expert of a mixture-of-experts layer and "
                            "cannot take the split 'expert'");
            group.candidates = pinned ? std::vector<NodeStrategy>{*pinned}
                                      : strategiesFor(node.kind, axisSizes, costs.facts(node.id).experts > 0);
            if (!pinned) {
                std::erase_if(group.candidates,
                              [&](const NodeStrategy& strategy) { return !costs.accepts(node.id, strategy); });
                for (const ParallelTechnique technique : withheld)
                    std::erase_if(group.candidates, [&](const NodeStrategy& strategy) {
                        return usesTechnique(node.kind, strategy, technique);
                    });
                if (widest > 0)
                    std::erase_if(group.candidates, [&](const NodeStrategy& strategy) {
                        return groupWidth(strategy, axisSizes) > widest;
                    });
            }
            groups.push_back(std::move(group));
        }
        groups[it->second].members.push_back(node.id);
    }
    return groups;
}

std::vector<StrategyGroup> groupsFor(const CostModel& costs, const CoarseGraph& coarse, const FamilyTable& families,
                                     const SearchOptions& options)
{
    const DeviceMesh& mesh = costs.mesh();
    const ResolvedPins pins = resolvePins(options.pins, coarse, families, mesh.axisCount(), mesh.axes());
    return buildGroups(costs, coarse, families, options.mode, pins, mesh.shape(), options.withheld,
                       options.widestGroup);
}

// Where a solve's progress falls in the whole search's.
struct ProgressSpan {
    SearchPhase phase = SearchPhase::Searching;
    double from = 0;
    double to = 0;
};

// One solve of the encoded problem by the general solver, reported in IlpResult's terms.
// The solver takes a stop token, not a callback: a helper thread polls `cancelled`.
IlpResult solveEncoded(const ShardingProblemEncoding& encoding, bool minimizeMemory, double timeLimitSeconds,
                       const SearchCallbacks& callbacks, const ProgressSpan& span, SearchStatistics& stats)
{
    std::stop_source stop;
    std::jthread watcher;
    if (callbacks.cancelled) {
        watcher = std::jthread([&](std::stop_token done) {
            while (!done.stop_requested()) {
                if (callbacks.cancelled()) {
                    stop.request_stop();
                    return;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
        });
    }
    SolverOptions solverOptions;
    solverOptions.timeLimitSeconds = timeLimitSeconds;
    solverOptions.stop = stop.get_token();
    if (callbacks.progress) {
        solverOptions.progress = [&](double elapsedSeconds, CostSum) {
            const double done = std::min(1.0, elapsedSeconds / timeLimitSeconds);
            callbacks.progress(span.phase, span.from + (span.to - span.from) * done);
        };
    }
    stats.problemNodes = std::max(stats.problemNodes, encoding.problem().nodes.size());
    stats.problemEdges = std::max(stats.problemEdges, encoding.problem().edges.size());
    IlpResult result;
    SolverResult solved;
    try {
        solved = solveShardingProblem(encoding.problem(), solverOptions);
    } catch (const Error& error) {
        if (error.code() != ErrorCode::InfeasibleProblem)
            throw;
        result.status = IlpStatus::Infeasible;
        return result;
    }
    stats.reducedNodes = std::max(stats.reducedNodes, solved.reducedNodes);
    const double unitsPerObjective = minimizeMemory ? 1.0 : ShardingProblemEncoding::kUnitsPerSecond;
    result.status = solved.provenOptimal ? IlpStatus::Optimal : IlpStatus::Feasible;
    result.cancelled = solved.cancelled;
    result.choice = encoding.choiceOf(solved.assignment);
    result.objective = static_cast<double>(solved.cost) / unitsPerObjective;
    result.bound = static_cast<double>(solved.lowerBound) / unitsPerObjective;
    return result;
}

// The plan of a choice, on the cost model's mesh and (even) pipeline.
Plan expand(const std::vector<StrategyGroup>& groups, const std::vector<std::size_t>& choice, const CoarseGraph& coarse,
            const CostModel& costs, const std::vector<Pin>& pins, std::string name)
{
    Plan plan;
    plan.name = std::move(name);
    plan.origin = PlanOrigin::Search;
    plan.mesh = costs.mesh().axes();
    plan.pipeline = costs.pipeline().layout;
    plan.strategies.resize(coarse.nodes.size());
    for (std::size_t g = 0; g < groups.size(); ++g) {
        for (const CoarseNodeId member : groups[g].members)
            plan.strategies[member.index()] = groups[g].candidates[choice[g]];
    }
    for (const Pin& pin : pins)
        plan.pins.push_back(pin.target);
    return plan;
}

// Tap mode's solves of one search, exact by elimination (TermElimination): the terms are
// priced once and each goal eliminated once. Where the fastest choice does not fit, the
// Pareto points up to the limit answer it, their tables bounded in seconds by a choice
// that fits (from memory priced by Lagrange multipliers); the same points answer every
// lower limit whose answer is within that bound. The tables' seconds are kept for the
// later eliminations (EliminationSeconds) and each chord's corner by its price, so that a
// lower limit (a Pareto alternative) recomputes neither. Where the elimination's
// tables would be too large, the integer program (ShardingIlp) solves instead.
class TapSolves {
public:
    // `alternatives`: the search will ask for lower limits too (its Pareto alternatives).
    TapSolves(const CostModel& costs, const CoarseGraph& coarse, const std::vector<StrategyGroup>& groups,
              std::function<bool()> cancelled, ConversionTermsCache* conversions, bool alternatives)
        : costs_(costs), coarse_(coarse), groups_(groups), conversions_(conversions), keepFirst_(alternatives)
    {
        limits_.cancelled = std::move(cancelled);
    }

    // nullopt when the elimination cannot answer (too entangled, or cancelled).
    std::optional<IlpResult> solve(std::optional<double> limit, bool minimizeMemory, SearchStatistics& stats)
    {
        if (tooWide_)
            return std::nullopt;
        if (!terms_)
            terms_ = conversions_ ? priceSearchTerms(costs_, coarse_, groups_, conversions_->of(costs_, coarse_, groups_))
                                  : priceSearchTerms(costs_, coarse_, groups_, true);
        if (minimizeMemory || !limit) {
            const auto goal = minimizeMemory ? EliminationGoal::LeastMemory : EliminationGoal::Fastest;
            const TermElimination* found = eliminated(minimizeMemory ? leastMemory_ : fastest_, goal, {}, stats);
            if (!found)
                return std::nullopt;
            return answer(*found, 0, minimizeMemory);
        }
        const TermElimination* fastest = eliminated(fastest_, EliminationGoal::Fastest, {}, stats);
        if (!fastest)
            return std::nullopt;
        if (fastest->memoryBytes(0) <= *limit)
            return answer(*fastest, 0, false);
        if (frontier_ && frontierCap_ >= *limit) {
            if (const std::optional<std::size_t> point = frontier_->fastestWithin(*limit))
                return answer(*frontier_, *point, false);
        }
        const TermElimination* least = eliminated(leastMemory_, EliminationGoal::LeastMemory, {}, stats);
        if (!least)
            return std::nullopt;
        if (least->memoryBytes(0) > *limit)
            return infeasible();
        // A bound on the answer: the fastest choice that fits among those that minimize
        // seconds + price x bytes, the price found by chords between a choice that fits
        // and one that does not (each chord's price moves to a corner of their hull).
        double fitsSeconds = least->seconds(0);
        double fitsBytes = least->memoryBytes(0);
        double overSeconds = fastest->seconds(0);
        double overBytes = fastest->memoryBytes(0);
        for (int chord = 0; chord < 32; ++chord) {
            const double price = (fitsSeconds - overSeconds) / (overBytes - fitsBytes);
            // Lower limits start from the same two choices: their first chords repeat.
            auto corner = corners_.find(price);
            if (corner == corners_.end()) {
                std::optional<TermElimination> priced;
                if (!eliminated(priced, EliminationGoal::Fastest, {.secondsPerByte = price}, stats))
                    return std::nullopt;
                corner = corners_.try_emplace(price, priced->seconds(0), priced->memoryBytes(0)).first;
            }
            const auto [seconds, bytes] = corner->second;
            // No corner below the chord: the hull's edge between the two.
            if (seconds + price * bytes >= overSeconds + price * overBytes - 1e-12 * overSeconds)
                break;
            if (bytes <= *limit) {
                fitsSeconds = seconds;
                fitsBytes = bytes;
            } else {
                overSeconds = seconds;
                overBytes = bytes;
            }
        }
        // The Pareto points up to the limit no slower than that choice: the answer is one.
        frontier_.reset();
        frontierCap_ = *limit;
        const TermElimination* frontier = eliminated(
            frontier_, EliminationGoal::Frontier, {.memoryCapBytes = *limit, .secondsBound = fitsSeconds}, stats);
        if (!frontier)
            return std::nullopt;
        if (const std::optional<std::size_t> point = frontier->fastestWithin(*limit))
            return answer(*frontier, *point, false);
        return infeasible();  // (unreachable: the choice that fits is within its bound)
    }

private:
    static IlpResult infeasible()
    {
        IlpResult result;
        result.status = IlpStatus::Infeasible;
        return result;
    }

    IlpResult answer(const TermElimination& elimination, std::size_t point, bool minimizeMemory) const
    {
        IlpResult result;
        result.status = IlpStatus::Optimal;
        result.choice = elimination.choice(point);
        result.objective = minimizeMemory ? elimination.memoryBytes(point) : elimination.seconds(point);
        result.bound = result.objective;
        result.estimatedMemoryBytes = elimination.memoryBytes(point);
        return result;
    }

    const TermElimination* eliminated(std::optional<TermElimination>& slot, EliminationGoal goal,
                                      const EliminationBounds& bounds, SearchStatistics& stats)
    {
        if (!slot) {
            // The tables' seconds are kept from the first elimination of a search with
            // alternatives, else from the second on (such a search mostly needs one: its
            // fastest choice fits).
            if (!seconds_ && (keepFirst_ || eliminations_ > 0))
                seconds_.emplace(*terms_);
            ++eliminations_;
            slot = TermElimination::solve(*terms_, goal, bounds, limits_, seconds_ ? &*seconds_ : nullptr);
            if (!slot) {
                tooWide_ = !(limits_.cancelled && limits_.cancelled());
                return nullptr;
            }
            stats.eliminationStates += slot->states();
        }
        return &*slot;
    }

    const CostModel& costs_;
    const CoarseGraph& coarse_;
    const std::vector<StrategyGroup>& groups_;
    EliminationLimits limits_;
    ConversionTermsCache* conversions_;
    std::optional<SearchTerms> terms_;
    std::optional<EliminationSeconds> seconds_;  // of terms_
    bool keepFirst_ = false;
    std::size_t eliminations_ = 0;
    std::optional<TermElimination> fastest_;
    std::optional<TermElimination> leastMemory_;
    std::optional<TermElimination> frontier_;
    double frontierCap_ = 0;
    // The least seconds + price x bytes, by price: (seconds, bytes) of its choice.
    std::map<double, std::pair<double, double>> corners_;
    bool tooWide_ = false;
};

}  // namespace

Pin parsePin(std::string_view text)
{
    const std::size_t equals = text.rfind('=');
    if (equals == std::string_view::npos || equals == 0 || equals + 1 >= text.size())
        throw Error(ErrorCode::InvalidArgument, {},
                    "a pin is NODE=SPLIT[,SPLIT...] (one split per mesh axis), not '" + std::string(text) + "'");
    Pin pin;
    pin.target = std::string(text.substr(0, equals));
    std::string_view rest = text.substr(equals + 1);
    while (true) {
        const std::size_t comma = rest.find(',');
        const std::string_view name = rest.substr(0, comma);
        const auto split = axisSplitFromName(name);
        if (!split)
            throw Error(ErrorCode::InvalidArgument, {},
                        "pin '" + std::string(text) + "': unknown split '" + std::string(name) +
                            "' (none, batch, sequence, column, row, head, hidden)");
        pin.strategy.axes.push_back(*split);
        if (comma == std::string_view::npos)
            break;
        rest = rest.substr(comma + 1);
    }
    return pin;
}

SearchResult searchPlan(const CostModel& costs, const CoarseGraph& coarse, const FamilyTable& families,
                        const SearchOptions& options, const SearchCallbacks& callbacks)
{
    const Clock::time_point start = Clock::now();
    auto progress = [&](SearchPhase phase, double fraction) {
        if (callbacks.progress)
            callbacks.progress(phase, fraction);
    };
    auto cancelled = [&] { return callbacks.cancelled && callbacks.cancelled(); };

    SearchResult result;
    SearchStatistics& stats = result.statistics;
    progress(SearchPhase::Grouping, 0.0);
    const std::vector<StrategyGroup> groups = groupsFor(costs, coarse, families, options);
    stats.coarseNodes = coarse.nodes.size();
    stats.families = families.families.size();
    stats.decisionGroups = groups.size();
    for (const StrategyGroup& group : groups)
        stats.anchorGroups += isAnchorKind(coarse.node(group.members.front()).kind) ? 1 : 0;
    stats.groupingSeconds = secondsSince(start);

    result.memoryLimitBytes = options.memoryLimitBytes.value_or(costs.hbmBytes());

    const std::string prefix = options.mode == SearchMode::Tap ? "tap" : "whole-graph";
    TapSolves tap(costs, coarse, groups, callbacks.cancelled, options.conversionTerms.get(), options.alternatives > 0);
    auto solveIlp = [&](std::optional<double> limit, bool minimizeMemory, const std::string& name) {
        IlpOptions ilp;
        ilp.memoryLimitBytes = limit;
        ilp.minimizeMemory = minimizeMemory;
        ilp.timeLimitSeconds = options.timeLimitSeconds;
        ilp.cancelled = callbacks.cancelled;
        if (callbacks.bestSoFar && !minimizeMemory) {
            ilp.onIncumbent = [&](double objective, const std::vector<std::size_t>& choice) {
                callbacks.bestSoFar(expand(groups, choice, coarse, costs, options.pins, name), objective);
            };
        }
        const IlpResult ilpResult = solveShardingIlp(costs, coarse, groups, ilp);
        stats.ilpColumns = std::max(stats.ilpColumns, ilpResult.columns);
        stats.ilpRows = std::max(stats.ilpRows, ilpResult.rows);
        stats.branchNodes += ilpResult.branchNodes;
        return ilpResult;
    };
    auto solve = [&](std::optional<double> limit, bool minimizeMemory, const std::string& name,
                     const ProgressSpan& span) -> std::optional<SearchCandidate> {
        const Clock::time_point solveStart = Clock::now();
        std::optional<IlpResult> exact;
        if (options.mode == SearchMode::Tap) {
            exact = tap.solve(limit, minimizeMemory, stats);
            // An elimination stopped by a cancel does not hand over to the integer
            // program, which prices and builds the whole program before it polls again.
            if (!exact && cancelled()) {
                result.cancelled = true;
                return std::nullopt;
            }
        }
        const IlpResult solved =
            exact ? *exact
            : options.mode == SearchMode::Tap
                ? solveIlp(limit, minimizeMemory, name)
                : solveEncoded(ShardingProblemEncoding(costs, coarse, groups, limit, minimizeMemory), minimizeMemory,
                               options.timeLimitSeconds, callbacks, span, stats);
        stats.solveSeconds += secondsSince(solveStart);
        ++stats.solves;
        result.cancelled = result.cancelled || solved.cancelled;
        if (!minimizeMemory && name == prefix) {
            stats.status = solved.status;
            stats.objectiveSeconds = solved.objective;
            stats.boundSeconds = solved.bound;
        }
        if (solved.choice.empty())
            return std::nullopt;
        const Clock::time_point evaluateStart = Clock::now();
        SearchCandidate candidate;
        candidate.plan = expand(groups, solved.choice, coarse, costs, options.pins, name);
        if (options.totalsOnly)
            costs.evaluateTotals(candidate.plan, candidate.evaluation);
        else
            costs.evaluate(candidate.plan, candidate.evaluation);
        stats.evaluateSeconds += secondsSince(evaluateStart);
        // (The integer program publishes its incumbents as it finds them.)
        if ((exact || options.mode == SearchMode::WholeGraph) && callbacks.bestSoFar && !minimizeMemory)
            callbacks.bestSoFar(candidate.plan, solved.objective);
        return candidate;
    };

    progress(SearchPhase::Searching, 0.1);
    // The program's memory row is an estimate (no transient buffer, shared activations
    // counted twice); tighten the limit by what the exact evaluation overshoots, by more
    // on each retry: a new plan at the tightened limit can overshoot by a new amount
    // (the whole-graph baseline's did, three times in a row, on GPT-3 at 96 layers).
    double limit = result.memoryLimitBytes;
    std::optional<SearchCandidate> best;
    for (int attempt = 0; attempt < 3 && !cancelled(); ++attempt) {
        best = solve(limit, false, prefix, {SearchPhase::Searching, 0.1, 0.5});
        if (!best || best->evaluation.total.memory.total() <= result.memoryLimitBytes)
            break;
        limit -= (attempt + 1) * (best->evaluation.total.memory.total() - result.memoryLimitBytes);
    }
    if (best && best->evaluation.total.memory.total() <= result.memoryLimitBytes) {
        result.fitsInMemory = true;
    } else if (!cancelled()) {
        progress(SearchPhase::SmallestPeak, 0.5);
        std::optional<SearchCandidate> smallest = solve(std::nullopt, true, prefix + "-min-memory", {SearchPhase::SmallestPeak, 0.5, 0.6});
        if (smallest && smallest->evaluation.total.memory.total() <= result.memoryLimitBytes) {
            best = std::move(smallest);  // the row over-counts it (gradients freed between steps)
            result.fitsInMemory = true;
        } else if (smallest) {
            char text[200];
            std::snprintf(text, sizeof text,
                          "no plan fits in %.2f GB per device under these pins and mesh; the smallest peak is %.2f GB",
                          result.memoryLimitBytes / 1e9, smallest->evaluation.total.memory.total() / 1e9);
            result.message = text;
            best = std::move(smallest);
        }
    }
    if (!best) {
        result.cancelled = result.cancelled || cancelled();  // also when no solve began
        result.message = result.cancelled ? "cancelled before any plan was found"
                                          : "the search found no plan within its time limit";
        stats.totalSeconds = secondsSince(start);
        return result;
    }

    // Pareto points: the fastest plans under successively smaller memory budgets.
    if (result.fitsInMemory) {
        double budget = best->evaluation.total.memory.total();
        for (std::size_t k = 0; k < options.alternatives && !cancelled(); ++k) {
            const double share = 0.3 / static_cast<double>(options.alternatives);
            const double from = 0.6 + share * static_cast<double>(k);
            progress(SearchPhase::Alternatives, from);
            budget *= 0.75;
            std::optional<SearchCandidate> alternative =
                solve(budget, false, prefix + "-" + std::to_string(k + 1), {SearchPhase::Alternatives, from, from + share});
            if (!alternative || alternative->evaluation.total.memory.total() >= best->evaluation.total.memory.total())
                break;
            const bool seen = std::any_of(result.alternatives.begin(), result.alternatives.end(), [&](const auto& c) {
                return c.plan.strategies == alternative->plan.strategies;
            });
            if (!seen)
                result.alternatives.push_back(std::move(*alternative));
        }
    }
    result.best = std::move(best);
    result.cancelled = result.cancelled || cancelled();  // what the cancel left out
    if (result.cancelled && result.message.empty())
        result.message = "cancelled; the best plan found so far is kept";
    progress(SearchPhase::Done, 1.0);
    stats.totalSeconds = secondsSince(start);
    return result;
}

ShardingProblemEncoding encodeSearchProblem(const CostModel& costs, const CoarseGraph& coarse,
                                            const FamilyTable& families, const SearchOptions& options)
{
    return ShardingProblemEncoding(costs, coarse, groupsFor(costs, coarse, families, options),
                                   options.memoryLimitBytes.value_or(costs.hbmBytes()), false);
}

}  // namespace tapestry
