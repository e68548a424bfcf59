#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <vector>

namespace tapestry {

// A mixed-integer program in memory, rows in compressed form: built by the TAP
// search's program (ShardingIlp) and the general solver's (IlpSolver).
struct MixedIntegerProgram {
    std::vector<double> objective;
    std::vector<double> lower;
    std::vector<double> upper;
    std::vector<int> integers;
    std::vector<int> rowStarts{0};
    std::vector<int> rowColumns;
    std::vector<double> rowValues;
    std::vector<double> rowLower;
    std::vector<double> rowUpper;

    int addColumn(double cost, double lo, double hi, bool integer);
    void addRow(const std::vector<int>& columns, const std::vector<double>& values, double lo, double hi);
    [[nodiscard]] std::size_t columnCount() const { return objective.size(); }
    [[nodiscard]] std::size_t rowCount() const { return rowLower.size(); }
};

// A row sum of values * columns <= upper that every integer solution of a program keeps.
struct RowCut {
    std::vector<int> columns;
    std::vector<double> values;
    double upper = 0;
};

struct CbcSettings {
    // Counted from when CBC is free (it is not reentrant: one solve at a time in the
    // process, the others wait).
    double timeLimitSeconds = 60;
    // An end the solve never passes, waiting for CBC included; past it the result has no
    // solution. Unset: wait for CBC as long as it takes.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    // Polled between branch-and-bound nodes and simplex iterations (and while waiting).
    std::function<bool()> stopRequested;
    // CBC's standalone defaults (cuts, heuristics, as the cbc program runs) instead of a
    // plain branch and bound.
    bool solverDefaults = false;
    // With solverDefaults: CBC's primal heuristics (feasibility pump, RINS, ...). On a
    // large model whose LP is nearly integral they take most of the time (a 0.2 M
    // column sharding model: proven optimal in 22 s without, 71 s with them).
    bool heuristics = true;
    // A known solution (every column's value) and its objective, as the first incumbent.
    const std::vector<double>* start = nullptr;
    double startObjective = 0;
    // Each new incumbent's column values and objective, from the solving thread.
    std::function<void(const double* values, double objective)> onSolution;
    // CBC's bound on the optimum each time it rises, from the root's (after its cuts)
    // on, and the optimum when proven, from the solving thread: a solve cut off by the
    // time still certifies what it had.
    std::function<void(double bound)> onBound;
    // With solverDefaults: the root's linear relaxation after its cuts (every column's
    // value), once, as the tree begins (the plain branch and bound keeps no copy of it).
    std::function<void(const double* values)> onRootRelaxation;
    // The objective of a solution known elsewhere (a search running beside CBC), polled
    // between the tree's nodes: CBC then drops every node whose bound is not below it,
    // as if it held that solution.
    std::function<double()> knownObjective;
    // Valid inequalities that the caller can separate and CBC's own generators do not
    // find (covers of knapsack rows whose binaries come in choose-one groups): asked
    // with the LP solution at every cut pass, at the root and in the tree.
    std::function<std::vector<RowCut>(const double* values)> separate;
};

struct CbcOutcome {
    std::vector<double> values;  // the best solution's columns; empty when none
    double objective = 0;
    double bound = 0;  // CBC's best possible objective
    bool provenOptimal = false;
    bool provenInfeasible = false;
    bool stopped = false;  // by stopRequested or the time (then nothing is proven)
    // The search ran to its end: no solution is cheaper than both `values` (when any)
    // and the last knownObjective it read.
    bool complete = false;
    int branchNodes = 0;
};

// The one CBC front end: loads the program, runs CBC quietly (stdout stays clean) with
// wall-clock limits, under the process-wide lock CBC needs.
[[nodiscard]] CbcOutcome solveWithCbc(const MixedIntegerProgram& program, const CbcSettings& settings);

}  // namespace tapestry
