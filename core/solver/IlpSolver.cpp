#include "solver/IlpSolver.h"

#include "solver/CbcSolve.h"
#include "solver/KnapsackCovers.h"
#include "solver/ProblemReducer.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <queue>

namespace tapestry {

namespace {

// A cover is added when the relaxation breaks it by at least this share of one group's
// choice: less moves the bound by less than the extra row costs each LP.
constexpr double kCoverViolation = 0.01;

// An edge whose allowed cells pair each strategy of either end with at most one of the
// other's (a layout that must match): its ends choose together.
bool isForced(const ShardingProblem& problem, const ProblemEdge& edge)
{
    const int rows = problem.nodes[static_cast<std::size_t>(edge.u)].strategyCount();
    const int columns = problem.nodes[static_cast<std::size_t>(edge.v)].strategyCount();
    std::vector<int> perColumn(static_cast<std::size_t>(columns), 0);
    for (int a = 0; a < rows; ++a) {
        int perRow = 0;
        for (int b = 0; b < columns; ++b)
            if (edge.costs[static_cast<std::size_t>(a * columns + b)] < kCostCap) {
                if (++perRow > 1 || ++perColumn[static_cast<std::size_t>(b)] > 1)
                    return false;
            }
    }
    return true;
}

// Nodes joined by forced edges, each group one choice: the strategy of its root. For
// each node, the root strategy each of its strategies goes with (-1: none, the node
// cannot take it) and back. A forced edge that closes a cycle stays an edge inside the
// group, priced (or ruled out) per root strategy like the others.
struct ForcedGroups {
    std::vector<int> root;
    std::vector<std::vector<int>> toRoot;
    std::vector<std::vector<int>> fromRoot;
};

ForcedGroups forcedGroups(const ShardingProblem& problem)
{
    const std::size_t n = problem.nodes.size();
    ForcedGroups groups;
    groups.root.assign(n, -1);
    groups.toRoot.resize(n);
    groups.fromRoot.resize(n);
    std::vector<std::vector<int>> incident(n);
    for (std::size_t e = 0; e < problem.edges.size(); ++e)
        if (isForced(problem, problem.edges[e])) {
            incident[static_cast<std::size_t>(problem.edges[e].u)].push_back(static_cast<int>(e));
            incident[static_cast<std::size_t>(problem.edges[e].v)].push_back(static_cast<int>(e));
        }
    for (std::size_t r = 0; r < n; ++r) {
        if (groups.root[r] >= 0)
            continue;
        groups.root[r] = static_cast<int>(r);
        groups.toRoot[r].resize(static_cast<std::size_t>(problem.nodes[r].strategyCount()));
        for (std::size_t s = 0; s < groups.toRoot[r].size(); ++s)
            groups.toRoot[r][s] = static_cast<int>(s);
        std::queue<int> pending;
        pending.push(static_cast<int>(r));
        while (!pending.empty()) {
            const int x = pending.front();
            pending.pop();
            for (const int e : incident[static_cast<std::size_t>(x)]) {
                const ProblemEdge& edge = problem.edges[static_cast<std::size_t>(e)];
                const int y = edge.u == x ? edge.v : edge.u;
                if (groups.root[static_cast<std::size_t>(y)] >= 0)
                    continue;  // already placed: the edge stays an ordinary one within the group
                groups.root[static_cast<std::size_t>(y)] = static_cast<int>(r);
                const int columns = problem.nodes[static_cast<std::size_t>(edge.v)].strategyCount();
                std::vector<int>& map = groups.toRoot[static_cast<std::size_t>(y)];
                map.assign(static_cast<std::size_t>(problem.nodes[static_cast<std::size_t>(y)].strategyCount()), -1);
                for (std::size_t cell = 0; cell < edge.costs.size(); ++cell) {
                    if (edge.costs[cell] >= kCostCap)
                        continue;
                    const int a = static_cast<int>(cell) / columns;
                    const int b = static_cast<int>(cell) % columns;
                    const int sx = edge.u == x ? a : b;
                    const int sy = edge.u == x ? b : a;
                    map[static_cast<std::size_t>(sy)] = groups.toRoot[static_cast<std::size_t>(x)][static_cast<std::size_t>(sx)];
                }
                pending.push(y);
            }
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t r = static_cast<std::size_t>(groups.root[i]);
        groups.fromRoot[i].assign(static_cast<std::size_t>(problem.nodes[r].strategyCount()), -1);
        for (std::size_t s = 0; s < groups.toRoot[i].size(); ++s)
            if (groups.toRoot[i][s] >= 0)
                groups.fromRoot[i][static_cast<std::size_t>(groups.toRoot[i][s])] = static_cast<int>(s);
    }
    return groups;
}

}  // namespace

std::size_t ilpCellCount(const ShardingProblem& problem)
{
    std::size_t cells = 0;
    for (const ProblemEdge& edge : problem.edges)
        if (!isForced(problem, edge))
            cells += static_cast<std::size_t>(
                std::count_if(edge.costs.begin(), edge.costs.end(), [](std::int64_t c) { return c < kCostCap; }));
    return cells;
}

IlpOutcome solveWithIlp(const ShardingProblem& problem, double timeLimitSeconds, const Assignment* start,
                        std::stop_token stop, bool primalHeuristics, const IlpHooks& hooks)
{
    // The limit covers building the model too (seconds for a large one).
    const auto deadline = std::chrono::steady_clock::now()
                          + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(std::max(0.1, timeLimitSeconds)));
    const std::size_t n = problem.nodes.size();
    const ForcedGroups groups = forcedGroups(problem);
    const auto strategyOf = [&](std::size_t node, int rootStrategy) {
        return groups.fromRoot[node][static_cast<std::size_t>(rootStrategy)];
    };

    // Per root strategy: allowed for every member (and every edge inside the group) and
    // its cost over them.
    std::vector<std::vector<CostSum>> groupCost(n);
    std::vector<std::vector<char>> alive(n);
    for (std::size_t i = 0; i < n; ++i)
        if (groups.root[i] == static_cast<int>(i)) {
            groupCost[i].assign(static_cast<std::size_t>(problem.nodes[i].strategyCount()), 0);
            alive[i].assign(groupCost[i].size(), 1);
        }
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t r = static_cast<std::size_t>(groups.root[i]);
        for (std::size_t R = 0; R < groupCost[r].size(); ++R) {
            const int s = strategyOf(i, static_cast<int>(R));
            const std::int64_t cost = s < 0 ? kCostCap : problem.nodes[i].costs[static_cast<std::size_t>(s)];
            alive[r][R] = static_cast<char>(alive[r][R] && cost < kCostCap);
            groupCost[r][R] += alive[r][R] ? cost : 0;
        }
    }
    // Edges between two groups, parallel ones merged (root pair -> cost table by root strategies).
    std::map<std::pair<int, int>, std::vector<CostSum>> between;
    for (std::size_t e = 0; e < problem.edges.size(); ++e) {
        const ProblemEdge& edge = problem.edges[e];
        const auto u = static_cast<std::size_t>(edge.u);
        const auto v = static_cast<std::size_t>(edge.v);
        const int columns = problem.nodes[v].strategyCount();
        const auto cell = [&](int a, int b) { return edge.costs[static_cast<std::size_t>(a * columns + b)]; };
        const int ru = groups.root[u];
        const int rv = groups.root[v];
        if (ru == rv) {
            for (std::size_t R = 0; R < groupCost[static_cast<std::size_t>(ru)].size(); ++R) {
                if (!alive[static_cast<std::size_t>(ru)][R])
                    continue;
                const std::int64_t cost = cell(strategyOf(u, static_cast<int>(R)), strategyOf(v, static_cast<int>(R)));
                alive[static_cast<std::size_t>(ru)][R] = static_cast<char>(cost < kCostCap);
                groupCost[static_cast<std::size_t>(ru)][R] += cost < kCostCap ? cost : 0;
            }
            continue;
        }
        const bool flip = ru > rv;
        const std::size_t first = static_cast<std::size_t>(flip ? rv : ru);
        const std::size_t second = static_cast<std::size_t>(flip ? ru : rv);
        const std::size_t width = groupCost[second].size();
        std::vector<CostSum>& table = between[{static_cast<int>(first), static_cast<int>(second)}];
        table.resize(groupCost[first].size() * width, 0);
        for (std::size_t A = 0; A < groupCost[first].size(); ++A)
            for (std::size_t B = 0; B < width; ++B) {
                const int su = strategyOf(u, static_cast<int>(flip ? B : A));
                const int sv = strategyOf(v, static_cast<int>(flip ? A : B));
                CostSum& total = table[A * width + B];
                total = su < 0 || sv < 0 || total >= kCostCap ? kCostCap : std::min<CostSum>(kCostCap, total + cell(su, sv));
            }
    }

    MixedIntegerProgram program;
    std::vector<int> firstColumn(n, -1);
    std::vector<int> groupOfColumn;  // the group columns come first
    for (std::size_t r = 0; r < n; ++r) {
        if (groups.root[r] != static_cast<int>(r))
            continue;
        firstColumn[r] = static_cast<int>(program.columnCount());
        std::vector<int> columns;
        for (std::size_t R = 0; R < groupCost[r].size(); ++R) {
            columns.push_back(program.addColumn(alive[r][R] ? static_cast<double>(groupCost[r][R]) : 0.0, 0.0,
                                                alive[r][R] ? 1.0 : 0.0, true));
            groupOfColumn.push_back(static_cast<int>(r));
        }
        program.addRow(columns, std::vector<double>(columns.size(), 1.0), 1.0, 1.0);
    }
    // Each allowed cell of an edge between groups is a continuous column tied to both
    // ends by marginal equalities (its row sums to the first end's binary, its column
    // to the second's); forbidden cells have no column, so their ends cannot pair.
    struct CellColumns {
        std::size_t first;
        std::size_t second;
        std::map<std::size_t, int> column;  // cell -> column
    };
    std::vector<CellColumns> cellColumns;
    for (const auto& [ends, table] : between) {
        const auto first = static_cast<std::size_t>(ends.first);
        const auto second = static_cast<std::size_t>(ends.second);
        const std::size_t rows = groupCost[first].size();
        const std::size_t width = groupCost[second].size();
        CellColumns cells{first, second, {}};
        std::vector<std::vector<int>> rowColumns(rows);
        std::vector<std::vector<int>> columnColumns(width);
        for (std::size_t A = 0; A < rows; ++A)
            for (std::size_t B = 0; B < width; ++B) {
                const CostSum cost = table[A * width + B];
                if (cost >= kCostCap || !alive[first][A] || !alive[second][B])
                    continue;
                const int column = program.addColumn(static_cast<double>(cost), 0.0, 1.0, false);
                cells.column[A * width + B] = column;
                rowColumns[A].push_back(column);
                columnColumns[B].push_back(column);
            }
        const auto tie = [&](std::vector<int> columns, int binary) {
            std::vector<double> values(columns.size(), 1.0);
            columns.push_back(binary);
            values.push_back(-1.0);
            program.addRow(columns, values, 0.0, 0.0);
        };
        for (std::size_t A = 0; A < rows; ++A)
            if (alive[first][A])
                tie(rowColumns[A], firstColumn[first] + static_cast<int>(A));
        for (std::size_t B = 0; B < width; ++B)
            if (alive[second][B])
                tie(columnColumns[B], firstColumn[second] + static_cast<int>(B));
        cellColumns.push_back(std::move(cells));
    }
    std::vector<ChoiceKnapsack> knapsacks;  // the memory rows, for their covers
    if (problem.usageLimit) {
        // Usage only rises at interval starts, so those are the time points to check.
        std::vector<std::int64_t> starts;
        for (const ProblemNode& node : problem.nodes)
            if (node.usesMemory())
                starts.push_back(node.lo);
        std::sort(starts.begin(), starts.end());
        starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
        for (const std::int64_t t : starts) {
            std::map<int, double> terms;  // group column -> usage above the least
            double fixed = 0;
            double spread = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const ProblemNode& node = problem.nodes[i];
                if (!(node.lo <= t && t < node.hi))
                    continue;
                const std::int64_t least = *std::min_element(node.usages.begin(), node.usages.end());
                const std::int64_t most = *std::max_element(node.usages.begin(), node.usages.end());
                fixed += static_cast<double>(least);
                spread += static_cast<double>(most - least);
                const auto r = static_cast<std::size_t>(groups.root[i]);
                for (std::size_t R = 0; R < groupCost[r].size(); ++R) {
                    const int s = strategyOf(i, static_cast<int>(R));
                    if (alive[r][R] && s >= 0 && node.usages[static_cast<std::size_t>(s)] > least)
                        terms[firstColumn[r] + static_cast<int>(R)] +=
                            static_cast<double>(node.usages[static_cast<std::size_t>(s)] - least);
                }
            }
            const double room = static_cast<double>(*problem.usageLimit) - fixed;
            if (spread <= room)
                continue;  // this point can never overflow
            ChoiceKnapsack knapsack;
            knapsack.room = room;
            // A choice that alone takes more than the room is ruled out, and no choice
            // counts for more than the room (each group takes one): the same integer
            // points, a much tighter relaxation where the limit binds hard (a generated
            // 800-node diffusion problem: root bound 5 % below the best plan instead of 11 %).
            for (const auto& [column, value] : terms) {
                knapsack.columns.push_back(column);
                knapsack.weights.push_back(std::min(value, room));
                knapsack.groups.push_back(groupOfColumn[static_cast<std::size_t>(column)]);
                if (value > room)
                    program.upper[static_cast<std::size_t>(column)] = 0.0;
            }
            program.addRow(knapsack.columns, knapsack.weights, -std::numeric_limits<double>::max(), room);
            knapsacks.push_back(std::move(knapsack));
        }
    }

    CbcSettings settings;
    settings.timeLimitSeconds = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    settings.deadline = deadline;
    settings.stopRequested = [&stop] { return stop.stop_requested(); };
    settings.solverDefaults = true;
    settings.heuristics = primalHeuristics;
    // The memory rows' covers: CBC's knapsack cuts know nothing of the groups' choose-one
    // rows and find none there. On a generated 800-node diffusion problem (790 after
    // reduction, the limit binding at every time point) they raise the root's bound after
    // CBC's cuts from 79.64 M to 79.89 M, 0.02 % below the optimum (79.90 M), which CBC
    // alone then found and proved in 52 s (load 2-4); before, its bound stayed at
    // 79.64 M for minutes and its tree found nothing near.
    if (!knapsacks.empty())
        settings.separate = [&knapsacks](const double* x) {
            std::vector<RowCut> cuts;
            for (const ChoiceKnapsack& knapsack : knapsacks)
                if (std::optional<RowCut> cut = violatedCover(knapsack, x, kCoverViolation))
                    cuts.push_back(std::move(*cut));
            return cuts;
        };
    // A plan's column values and objective in this model; false when the model has no
    // such point (a forbidden cost, or members of a group that disagree).
    const auto columnsFor = [&](const Assignment& plan, std::vector<double>& values, double& cost) {
        values.assign(program.columnCount(), 0.0);
        cost = 0;
        std::vector<int> rootChoice(n, -1);
        for (std::size_t i = 0; i < n; ++i) {
            const auto r = static_cast<std::size_t>(groups.root[i]);
            const int R = groups.toRoot[i][static_cast<std::size_t>(plan[i])];
            if (R < 0 || !alive[r][static_cast<std::size_t>(R)] || (rootChoice[r] >= 0 && rootChoice[r] != R))
                return false;
            rootChoice[r] = R;
        }
        for (std::size_t r = 0; r < n; ++r)
            if (groups.root[r] == static_cast<int>(r)) {
                const auto column = static_cast<std::size_t>(firstColumn[r] + rootChoice[r]);
                values[column] = 1.0;
                cost += program.objective[column];
            }
        for (const CellColumns& cells : cellColumns) {
            const std::size_t width = groupCost[cells.second].size();
            const auto found = cells.column.find(static_cast<std::size_t>(rootChoice[cells.first]) * width
                                                 + static_cast<std::size_t>(rootChoice[cells.second]));
            if (found == cells.column.end())
                return false;
            values[static_cast<std::size_t>(found->second)] = 1.0;
            cost += program.objective[static_cast<std::size_t>(found->second)];
        }
        return true;
    };
    std::vector<double> values;
    if (start && columnsFor(*start, values, settings.startObjective))
        settings.start = &values;
    const auto decode = [&](const double* solution) {
        Assignment x(n, 0);
        for (std::size_t i = 0; i < n; ++i) {
            const auto r = static_cast<std::size_t>(groups.root[i]);
            int choice = 0;
            for (int R = 1; R < static_cast<int>(groupCost[r].size()); ++R)
                if (solution[firstColumn[r] + R] > solution[firstColumn[r] + choice])
                    choice = R;
            x[i] = strategyOf(i, choice);
        }
        return x;
    };
    if (hooks.improved)
        settings.onSolution = [&](const double* solution, double) { hooks.improved(decode(solution)); };
    settings.onBound = hooks.bounded;
    if (hooks.relaxed)
        settings.onRootRelaxation = [&](const double* solution) {
            std::vector<std::vector<double>> weights(n);
            for (std::size_t i = 0; i < n; ++i) {
                const auto r = static_cast<std::size_t>(groups.root[i]);
                weights[i].assign(static_cast<std::size_t>(problem.nodes[i].strategyCount()), 0.0);
                for (std::size_t R = 0; R < groupCost[r].size(); ++R)
                    if (const int s = strategyOf(i, static_cast<int>(R)); s >= 0)
                        weights[i][static_cast<std::size_t>(s)] = solution[firstColumn[r] + static_cast<int>(R)];
            }
            hooks.relaxed(weights);
        };
    if (hooks.knownCost)
        settings.knownObjective = [&hooks] {
            const CostSum known = hooks.knownCost();
            return known < kCostCap ? static_cast<double>(known) : std::numeric_limits<double>::infinity();
        };
    const CbcOutcome solved = solveWithCbc(program, settings);

    IlpOutcome outcome;
    outcome.complete = solved.complete;
    if (solved.values.empty())
        return outcome;
    outcome.assignment = decode(solved.values.data());
    outcome.provenOptimal = solved.provenOptimal;
    outcome.lowerBound = solved.provenOptimal ? solved.objective : solved.bound;
    return outcome;
}

}  // namespace tapestry
