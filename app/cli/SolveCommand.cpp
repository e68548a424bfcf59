// `tapestry-cli solve FILE [--time-limit S] [--seed N] [--threads N] [--json]`: the
// general solver on a problem in the IOPDDL contest format, within the time limit
// counted from the process start. Progress goes to stderr; the last line on stdout is
// the solution as the contest prints it, `[s0, s1, ...]`.
#include "cli/Commands.h"

#include "base/Error.h"
#include "base/JsonWriter.h"
#include "iopddl/IopddlReader.h"
#include "iopddl/SolutionLine.h"
#include "solver/ProblemReducer.h"
#include "solver/ShardingSolver.h"
#include "solver/SolutionEvaluator.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace tapestry::cli {

namespace {

// Set before main runs: the contest's limit counts from the process start.
const auto processStart = std::chrono::steady_clock::now();

struct SolveCommandOptions {
    std::string file;
    SolverOptions solver;
    bool json = false;
};

int solve(const SolveCommandOptions& commandOptions)
{
    const std::string& file = commandOptions.file;
    SolverOptions options = commandOptions.solver;

    const ShardingProblem problem = readIopddlFile(file);
    const double loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - processStart).count();
    std::fprintf(stderr, "%s: %zu nodes, %zu edges, read in %.2f s\n", file.c_str(), problem.nodes.size(),
                 problem.edges.size(), loadSeconds);
    options.startedAt = processStart;
    options.progress = [](double seconds, CostSum cost) {
        std::fprintf(stderr, "%8.2f s  cost %s\n", seconds, costToString(cost).c_str());
    };
    options.bounded = [](double seconds, CostSum bound) {
        std::fprintf(stderr, "%8.2f s  lower bound %s\n", seconds, costToString(bound).c_str());
    };
    const SolverResult result = solveShardingProblem(problem, options);
    const SolutionEvaluation check = evaluateSolution(problem, result.assignment);
    // Only a limit shorter than reading the file (or a machine too busy to let the
    // solver return) passes it: say so rather than leave the user guessing.
    if (const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - processStart).count();
        took > options.timeLimitSeconds)
        std::fprintf(stderr, "returned after %.2f s, past the %.2f s limit (reading the file took %.2f s)\n", took,
                     options.timeLimitSeconds, loadSeconds);
    const double gap = optimalityGap(check.cost, result.lowerBound);
    std::fprintf(stderr, "reduced to %zu nodes, %zu edges (%d nodes eliminated, %d strategies dominated)\n",
                 result.reducedNodes, result.reducedEdges, result.reduction.eliminatedNodes,
                 result.reduction.removedStrategies);

    if (commandOptions.json) {
        std::printf("{\"file\": %s, \"nodes\": %zu, \"edges\": %zu, \"cost\": %s, \"lower_bound\": %s, "
                    "\"gap\": %.6g, \"feasible\": %s, \"pays_forbidden_costs\": %s, \"peak_usage\": %lld, "
                    "\"proven_optimal\": %s, \"seconds\": %.3f}\n",
                    jsonEscaped(file).c_str(), problem.nodes.size(), problem.edges.size(), costToString(check.cost).c_str(),
                    costToString(result.lowerBound).c_str(), gap, check.feasible ? "true" : "false",
                    check.cost >= kCostCap ? "true" : "false",
                    static_cast<long long>(check.peakUsage), result.provenOptimal ? "true" : "false",
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - processStart).count());
    } else {
        // A cost of kCostCap or more holds a forbidden strategy or pair: within the
        // memory limit, but no plan to run.
        const char* verdict = !check.feasible ? "INFEASIBLE"
                              : check.cost < kCostCap ? "feasible"
                              : result.provenOptimal
                                  ? "fits the memory limit but pays forbidden costs (every plan does)"
                                  : "fits the memory limit but pays forbidden costs (a longer time limit may avoid them)";
        std::printf("cost %s, %s, peak usage %lld, lower bound %s (gap %.3g %%)%s\n", costToString(check.cost).c_str(),
                    verdict, static_cast<long long>(check.peakUsage), costToString(result.lowerBound).c_str(),
                    100.0 * gap, result.provenOptimal ? ", proven optimal" : "");
    }
    std::printf("%s\n", solutionLine(result.assignment).c_str());
    // The answer is out. Freeing a problem of millions of cells takes a noticeable
    // moment on a loaded machine, and a solver worker may still be winding down (CBC
    // between its checks) with statics it uses: the limit counts until the process ends.
    std::fflush(nullptr);
    std::_Exit(check.feasible ? 0 : 1);
}

}  // namespace

Command declareSolve(CLI::App& app)
{
    auto options = std::make_shared<SolveCommandOptions>();
    CLI::App* command = app.add_subcommand(
        "solve", "choose one strategy per node of a sharding problem in the IOPDDL contest format (JSON, plain or "
                 "gzip) within the memory limit; progress on stderr, the solution [s0, s1, ...] as the last line");
    command->add_option("FILE", options->file, "the problem (.json or .json.gz)")->required();
    command->add_option("--time-limit", options->solver.timeLimitSeconds,
                        "seconds from the process start, reading included (default 60)")
        ->type_name("S")
        ->check(positiveNumber(kMaxSeconds));
    command->add_option("--seed", options->solver.seed, "the random seed (default 1)")
        ->type_name("N")
        ->check(wholeNumber(1));
    command->add_option("--threads", options->solver.threads, "threads the solver uses (default 2)")
        ->type_name("N")
        ->check(wholeNumber(1, 256));
    command->add_flag("--json", options->json, "print the result as JSON");
    return {command, [options] { return solve(*options); }};
}

}  // namespace tapestry::cli
