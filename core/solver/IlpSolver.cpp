#include "solver/IlpSolver.h"

#include "solver/ProblemReducer.h"

#include <CbcEventHandler.hpp>
#include <ClpEventHandler.hpp>
#include <ClpSimplex.hpp>
#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>

namespace tapestry {

namespace {

// CBC is not reentrant. Never destroyed: a solve abandoned at its caller's deadline may
// still hold it while the process exits.
std::timed_mutex& cbcMutex()
{
    static auto* mutex = new std::timed_mutex;
    return *mutex;
}

// When to give up: on a stop request, or shortly after the time limit (CBC checks its
// own limit only between nodes, and the root LP of a large problem can take longer).
struct Interrupt {
    std::stop_token stop;
    std::chrono::steady_clock::time_point deadline;
    bool fired = false;

    bool due()
    {
        fired = fired || stop.stop_requested() || std::chrono::steady_clock::now() > deadline;
        return fired;
    }
};

// Ends the branch and bound between nodes.
class BranchStopHandler : public CbcEventHandler {
public:
    explicit BranchStopHandler(Interrupt* interrupt) : interrupt_(interrupt) {}
    CbcAction event(CbcEvent /*whichEvent*/) override { return interrupt_->due() ? stop : noAction; }
    CbcEventHandler* clone() const override { return new BranchStopHandler(*this); }

private:
    Interrupt* interrupt_;
};

// Ends a simplex solve between iterations (the root LP, strong branching, heuristics).
class LpStopHandler : public ClpEventHandler {
public:
    explicit LpStopHandler(Interrupt* interrupt) : interrupt_(interrupt) {}
    int event(Event whichEvent) override { return whichEvent == endOfIteration && interrupt_->due() ? 0 : -1; }
    ClpEventHandler* clone() const override { return new LpStopHandler(*this); }

private:
    Interrupt* interrupt_;
};

}  // namespace

IlpOutcome solveWithIlp(const ShardingProblem& problem, double timeLimitSeconds, const Assignment* start,
                        std::stop_token stop)
{
    // The limit covers building the model too (seconds for a large one).
    const auto deadline = std::chrono::steady_clock::now()
                          + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(std::max(0.1, timeLimitSeconds)));
    const std::size_t n = problem.nodes.size();
    std::vector<int> firstColumn(n);
    std::vector<double> lower;
    std::vector<double> upper;
    std::vector<double> objective;
    // Rows in compressed form, made into a CoinPackedMatrix once (appending row by row
    // reallocates it each time).
    std::vector<CoinBigIndex> rowStarts{0};
    std::vector<int> rowColumns;
    std::vector<double> rowValues;
    std::vector<double> rowLower;
    std::vector<double> rowUpper;
    auto addRow = [&](const std::vector<int>& columns, const std::vector<double>& values, double lo, double hi) {
        rowColumns.insert(rowColumns.end(), columns.begin(), columns.end());
        rowValues.insert(rowValues.end(), values.begin(), values.end());
        rowStarts.push_back(static_cast<CoinBigIndex>(rowColumns.size()));
        rowLower.push_back(lo);
        rowUpper.push_back(hi);
    };
    auto addColumn = [&](double cost, bool forbidden) {
        objective.push_back(forbidden ? 0.0 : cost);
        lower.push_back(0.0);
        upper.push_back(forbidden ? 0.0 : 1.0);
        return static_cast<int>(objective.size()) - 1;
    };

    for (std::size_t i = 0; i < n; ++i) {
        const ProblemNode& node = problem.nodes[i];
        firstColumn[i] = static_cast<int>(objective.size());
        for (const std::int64_t cost : node.costs)
            addColumn(static_cast<double>(cost), cost >= kCostCap);
    }
    const int binaries = static_cast<int>(objective.size());
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<int> columns;
        for (int s = 0; s < problem.nodes[i].strategyCount(); ++s)
            columns.push_back(firstColumn[i] + s);
        addRow(columns, std::vector<double>(columns.size(), 1.0), 1.0, 1.0);
    }
    std::vector<int> edgeColumn(problem.edges.size());
    for (std::size_t e = 0; e < problem.edges.size(); ++e) {
        const ProblemEdge& edge = problem.edges[e];
        const int rows = problem.nodes[static_cast<std::size_t>(edge.u)].strategyCount();
        const int columns = problem.nodes[static_cast<std::size_t>(edge.v)].strategyCount();
        edgeColumn[e] = static_cast<int>(objective.size());
        for (const std::int64_t cost : edge.costs)
            addColumn(static_cast<double>(cost), cost >= kCostCap);
        for (int a = 0; a < rows; ++a) {
            std::vector<int> cols{firstColumn[static_cast<std::size_t>(edge.u)] + a};
            std::vector<double> values{-1.0};
            for (int b = 0; b < columns; ++b) {
                cols.push_back(edgeColumn[e] + a * columns + b);
                values.push_back(1.0);
            }
            addRow(cols, values, 0.0, 0.0);
        }
        for (int b = 0; b < columns; ++b) {
            std::vector<int> cols{firstColumn[static_cast<std::size_t>(edge.v)] + b};
            std::vector<double> values{-1.0};
            for (int a = 0; a < rows; ++a) {
                cols.push_back(edgeColumn[e] + a * columns + b);
                values.push_back(1.0);
            }
            addRow(cols, values, 0.0, 0.0);
        }
    }
    if (problem.usageLimit) {
        // Usage only rises at interval starts, so those are the time points to check.
        std::vector<std::int64_t> starts;
        for (const ProblemNode& node : problem.nodes)
            if (node.usesMemory())
                starts.push_back(node.lo);
        std::sort(starts.begin(), starts.end());
        starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
        for (const std::int64_t t : starts) {
            std::vector<int> cols;
            std::vector<double> values;
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
                for (int s = 0; s < node.strategyCount(); ++s)
                    if (node.usages[static_cast<std::size_t>(s)] > least) {
                        cols.push_back(firstColumn[i] + s);
                        values.push_back(static_cast<double>(node.usages[static_cast<std::size_t>(s)] - least));
                    }
            }
            const double room = static_cast<double>(*problem.usageLimit) - fixed;
            if (spread > room)  // otherwise this point can never overflow
                addRow(cols, values, -COIN_DBL_MAX, room);
        }
    }
    const CoinPackedMatrix matrix(false, static_cast<int>(objective.size()), static_cast<int>(rowLower.size()),
                                  rowStarts.back(), rowValues.data(), rowColumns.data(), rowStarts.data(), nullptr);

    // A solve abandoned by an earlier caller may still hold CBC; wait no longer than ours.
    std::unique_lock lock(cbcMutex(), std::defer_lock);
    if (!lock.try_lock_until(deadline))
        return {};
    Interrupt interrupt{std::move(stop), deadline};
    LpStopHandler lpHandler(&interrupt);
    OsiClpSolverInterface solver;
    solver.loadProblem(matrix, lower.data(), upper.data(), objective.data(), rowLower.data(), rowUpper.data());
    for (int c = 0; c < binaries; ++c)
        solver.setInteger(c);
    solver.messageHandler()->setLogLevel(0);
    solver.getModelPtr()->passInEventHandler(&lpHandler);
    CbcModel model(solver);
    model.messageHandler()->setLogLevel(0);
    CbcSolverUsefulData data;
    data.noPrinting_ = true;
    CbcMain0(model, data);
    // CbcMain0 restores chatty defaults; the CLI's stdout must stay clean.
    model.messageHandler()->setLogLevel(0);
    model.solver()->messageHandler()->setLogLevel(0);
    if (start) {
        std::vector<double> values(objective.size(), 0.0);
        double cost = 0;
        bool allowed = true;  // a start using a forbidden cell is not a solution of this model
        auto use = [&](std::size_t column) {
            values[column] = 1.0;
            cost += objective[column];
            allowed = allowed && upper[column] > 0;
        };
        for (std::size_t i = 0; i < n; ++i)
            use(static_cast<std::size_t>(firstColumn[i] + (*start)[i]));
        for (std::size_t e = 0; e < problem.edges.size(); ++e) {
            const ProblemEdge& edge = problem.edges[e];
            const int columns = problem.nodes[static_cast<std::size_t>(edge.v)].strategyCount();
            use(static_cast<std::size_t>(edgeColumn[e] + (*start)[static_cast<std::size_t>(edge.u)] * columns
                                         + (*start)[static_cast<std::size_t>(edge.v)]));
        }
        // Unchecked: CBC would re-solve an LP of the whole model to confirm what the caller
        // already knows (the start fits the limit); on G that took seconds.
        if (allowed)
            model.setBestSolution(values.data(), static_cast<int>(values.size()), cost, false);
    }
    BranchStopHandler branchHandler(&interrupt);
    model.passInEventHandler(&branchHandler);
    const std::string seconds =
        std::to_string(std::max(0.1, std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count()));
    // Wall-clock seconds: CBC counts CPU time of the whole process by default, which
    // runs twice as fast while the other thread searches.
    const char* argv[] = {"tapestry", "-log", "0", "-slog", "0", "-preprocess", "off", "-timeMode", "elapsed",
                          "-sec", seconds.c_str(), "-solve", "-quit"};
    CbcMain1(static_cast<int>(std::size(argv)), argv, model, nullptr, data);

    IlpOutcome outcome;
    // After a stop on the time limit the model may hold no solution, or one of the
    // presolved model; only a full-width one is ours.
    const double* best = model.bestSolution();
    if (!best || model.getNumCols() != static_cast<int>(objective.size()))
        return outcome;
    Assignment x(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        int choice = 0;
        for (int s = 1; s < problem.nodes[i].strategyCount(); ++s)
            if (best[firstColumn[i] + s] > best[firstColumn[i] + choice])
                choice = s;
        x[i] = choice;
    }
    outcome.assignment = std::move(x);
    // An interrupted simplex solve can look like a proof; only an uninterrupted one is.
    outcome.provenOptimal = model.isProvenOptimal() && !interrupt.fired;
    outcome.lowerBound = outcome.provenOptimal ? model.getObjValue() : model.getBestPossibleObjValue();
    return outcome;
}

}  // namespace tapestry
