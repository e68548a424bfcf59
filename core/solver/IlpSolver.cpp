#include "solver/IlpSolver.h"

#include "solver/CbcSolve.h"
#include "solver/ProblemReducer.h"

#include <algorithm>
#include <chrono>
#include <limits>

namespace tapestry {

IlpOutcome solveWithIlp(const ShardingProblem& problem, double timeLimitSeconds, const Assignment* start,
                        std::stop_token stop)
{
    // The limit covers building the model too (seconds for a large one).
    const auto deadline = std::chrono::steady_clock::now()
                          + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(std::max(0.1, timeLimitSeconds)));
    const std::size_t n = problem.nodes.size();
    std::vector<int> firstColumn(n);
    MixedIntegerProgram program;
    auto addColumn = [&](double cost, bool forbidden, bool binary) {
        return program.addColumn(forbidden ? 0.0 : cost, 0.0, forbidden ? 0.0 : 1.0, binary);
    };

    for (std::size_t i = 0; i < n; ++i) {
        const ProblemNode& node = problem.nodes[i];
        firstColumn[i] = static_cast<int>(program.columnCount());
        for (const std::int64_t cost : node.costs)
            addColumn(static_cast<double>(cost), cost >= kCostCap, true);
    }
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<int> columns;
        for (int s = 0; s < problem.nodes[i].strategyCount(); ++s)
            columns.push_back(firstColumn[i] + s);
        program.addRow(columns, std::vector<double>(columns.size(), 1.0), 1.0, 1.0);
    }
    std::vector<int> edgeColumn(problem.edges.size());
    for (std::size_t e = 0; e < problem.edges.size(); ++e) {
        const ProblemEdge& edge = problem.edges[e];
        const int rows = problem.nodes[static_cast<std::size_t>(edge.u)].strategyCount();
        const int columns = problem.nodes[static_cast<std::size_t>(edge.v)].strategyCount();
        edgeColumn[e] = static_cast<int>(program.columnCount());
        for (const std::int64_t cost : edge.costs)
            addColumn(static_cast<double>(cost), cost >= kCostCap, false);
        for (int a = 0; a < rows; ++a) {
            std::vector<int> cols{firstColumn[static_cast<std::size_t>(edge.u)] + a};
            std::vector<double> values{-1.0};
            for (int b = 0; b < columns; ++b) {
                cols.push_back(edgeColumn[e] + a * columns + b);
                values.push_back(1.0);
            }
            program.addRow(cols, values, 0.0, 0.0);
        }
        for (int b = 0; b < columns; ++b) {
            std::vector<int> cols{firstColumn[static_cast<std::size_t>(edge.v)] + b};
            std::vector<double> values{-1.0};
            for (int a = 0; a < rows; ++a) {
                cols.push_back(edgeColumn[e] + a * columns + b);
                values.push_back(1.0);
            }
            program.addRow(cols, values, 0.0, 0.0);
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
                program.addRow(cols, values, -std::numeric_limits<double>::max(), room);
        }
    }

    CbcSettings settings;
    settings.timeLimitSeconds = std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    settings.deadline = deadline;
    settings.stopRequested = [&stop] { return stop.stop_requested(); };
    settings.solverDefaults = true;
    std::vector<double> values;
    if (start) {
        values.assign(program.columnCount(), 0.0);
        double cost = 0;
        bool allowed = true;  // a start using a forbidden cell is not a solution of this model
        auto use = [&](std::size_t column) {
            values[column] = 1.0;
            cost += program.objective[column];
            allowed = allowed && program.upper[column] > 0;
        };
        for (std::size_t i = 0; i < n; ++i)
            use(static_cast<std::size_t>(firstColumn[i] + (*start)[i]));
        for (std::size_t e = 0; e < problem.edges.size(); ++e) {
            const ProblemEdge& edge = problem.edges[e];
            const int columns = problem.nodes[static_cast<std::size_t>(edge.v)].strategyCount();
            use(static_cast<std::size_t>(edgeColumn[e] + (*start)[static_cast<std::size_t>(edge.u)] * columns
                                         + (*start)[static_cast<std::size_t>(edge.v)]));
        }
        if (allowed) {
            settings.start = &values;
            settings.startObjective = cost;
        }
    }
    const CbcOutcome solved = solveWithCbc(program, settings);

    IlpOutcome outcome;
    if (solved.values.empty())
        return outcome;
    Assignment x(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        int choice = 0;
        for (int s = 1; s < problem.nodes[i].strategyCount(); ++s)
            if (solved.values[static_cast<std::size_t>(firstColumn[i] + s)]
                > solved.values[static_cast<std::size_t>(firstColumn[i] + choice)])
                choice = s;
        x[i] = choice;
    }
    outcome.assignment = std::move(x);
    outcome.provenOptimal = solved.provenOptimal;
    outcome.lowerBound = solved.provenOptimal ? solved.objective : solved.bound;
    return outcome;
}

}  // namespace tapestry
