// bench_iopddl: the general solver on every IOPDDL contest problem in a folder
// (default: the shared public subset beside the source tree) at the contest's time
// limit per problem (A 60 s, G 120 s, M 180 s, S 240 s), or scaled by --time-scale.
// Prints problem, size, cost, best known, score (best known / cost), feasibility, time.
#include "iopddl/IopddlReader.h"
#include "solver/ShardingSolver.h"
#include "solver/SolutionEvaluator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace {

struct Contest {
    double seconds;
    double bestKnown;
};

// From shared/iopddl/README.md: the contest's time limit and the best final cost.
const std::map<std::string, Contest> kContest = {
    {"asplos-2025-iopddl-A", {60, 6548641531.0}},
    {"asplos-2025-iopddl-G", {120, 217039.0}},
    {"asplos-2025-iopddl-M", {180, 49928460991.0}},
    {"asplos-2025-iopddl-S", {240, 1534613444.0}},
};

std::string stem(const std::filesystem::path& file)
{
    std::string name = file.filename().string();
    for (const char* suffix : {".gz", ".json"})
        if (name.size() > std::string(suffix).size() && name.ends_with(suffix))
            name.resize(name.size() - std::string(suffix).size());
    return name;
}

}  // namespace

int main(int argc, char** argv)
{
    std::filesystem::path folder = TAPESTRY_IOPDDL_DIR;
    double scale = 1.0;
    std::uint64_t seed = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--time-scale" && i + 1 < argc)
            scale = std::atof(argv[++i]);
        else if (arg == "--seed" && i + 1 < argc)
            seed = std::strtoull(argv[++i], nullptr, 10);
        else
            folder = arg;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        if (kContest.contains(stem(entry.path())))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "bench_iopddl: no contest problems in %s\n", folder.string().c_str());
        return 1;
    }

    std::printf("%-22s %7s %7s %16s %16s %7s %9s %8s\n", "problem", "nodes", "edges", "cost", "best known", "score",
                "feasible", "time s");
    for (const auto& file : files) {
        const Contest contest = kContest.at(stem(file));
        const auto start = std::chrono::steady_clock::now();
        const tapestry::ShardingProblem problem = tapestry::readIopddlFile(file);
        const double loaded = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        tapestry::SolverOptions options;
        options.timeLimitSeconds = std::max(0.1, contest.seconds * scale - loaded - 0.5);
        options.seed = seed;
        const tapestry::SolverResult result = tapestry::solveShardingProblem(problem, options);
        const tapestry::SolutionEvaluation check = tapestry::evaluateSolution(problem, result.assignment);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("%-22s %7zu %7zu %16s %16.0f %7.4f %9s %8.1f\n", stem(file).c_str(), problem.nodes.size(),
                    problem.edges.size(), tapestry::costToString(check.cost).c_str(), contest.bestKnown,
                    contest.bestKnown / static_cast<double>(check.cost), check.feasible ? "yes" : "NO", seconds);
        std::fflush(stdout);
    }
    return 0;
}
