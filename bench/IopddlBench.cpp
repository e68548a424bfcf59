// bench_iopddl: the general solver on the IOPDDL contest problems in a folder (default:
// the shared public subset beside the source tree), each at the contest's time limit
// (A 60 s, G 120 s, M 180 s, S 240 s) and at a quarter of it, and with --stress on
// generated stress problems (generateStressProblem) of 30k, 60k and 100k nodes.
// Prints per run: the limit, cost, best known and score (best known / cost), the lower
// bound and gap, feasibility, and the wall time from before reading the file to the
// answer, which must stay within the limit.
// --problem FILE SECONDS adds any problem file (e.g. one written by `tapestry-cli search
// --baseline --emit-iopddl`) with its limit.
//   bench_iopddl [FOLDER] [--scales 1,0.25] [--seed N] [--stress] [--only NAME]
//                [--problem FILE SECONDS ...] [--write-stress FOLDER]
#include "iopddl/IopddlReader.h"
#include "iopddl/IopddlWriter.h"
#include "iopddl/StressProblem.h"
#include "solver/ShardingSolver.h"
#include "solver/SolutionEvaluator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

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

struct Stress {
    int nodes;
    double seconds;
};
const std::vector<Stress> kStress = {{30'000, 60}, {60'000, 120}, {100'000, 180}};

struct Run {
    std::string name;
    double seconds;                     // the limit
    std::optional<double> bestKnown;    // contest problems only
    std::function<tapestry::ShardingProblem()> load;
};

std::string stem(const std::filesystem::path& file)
{
    std::string name = file.filename().string();
    for (const char* suffix : {".gz", ".json"})
        if (name.size() > std::string(suffix).size() && name.ends_with(suffix))
            name.resize(name.size() - std::string(suffix).size());
    return name;
}

std::vector<double> parseScales(const std::string& text)
{
    std::vector<double> scales;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        scales.push_back(std::atof(item.c_str()));
    return scales;
}

}  // namespace

int main(int argc, char** argv)
{
    std::filesystem::path folder = TAPESTRY_IOPDDL_DIR;
    std::vector<double> scales{1.0, 0.25};
    std::uint64_t seed = 1;
    bool stress = false;
    std::string only;
    std::optional<std::filesystem::path> writeStress;
    std::vector<Run> extra;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--scales" && i + 1 < argc)
            scales = parseScales(argv[++i]);
        else if (arg == "--seed" && i + 1 < argc)
            seed = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--stress")
            stress = true;
        else if (arg == "--only" && i + 1 < argc)
            only = argv[++i];
        else if (arg == "--write-stress" && i + 1 < argc)
            writeStress = argv[++i];
        else if (arg == "--problem" && i + 2 < argc) {
            const std::filesystem::path file = argv[++i];
            extra.push_back({stem(file), std::atof(argv[++i]), std::nullopt, [file] { return tapestry::readIopddlFile(file); }});
        }
        else
            folder = arg;
    }
    if (writeStress) {
        for (const Stress& shape : kStress) {
            const tapestry::ShardingProblem problem = tapestry::generateStressProblem(shape.nodes, 1);
            const std::filesystem::path file = *writeStress / (problem.name + ".json");
            tapestry::writeIopddlFile(problem, file);
            std::printf("%s: %zu nodes, %zu edges\n", file.string().c_str(), problem.nodes.size(), problem.edges.size());
        }
        return 0;
    }

    std::vector<Run> runs;
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(folder))
        for (const auto& entry : std::filesystem::directory_iterator(folder))
            if (kContest.contains(stem(entry.path())))
                files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
        const Contest contest = kContest.at(stem(file));
        runs.push_back({stem(file), contest.seconds, contest.bestKnown, [file] { return tapestry::readIopddlFile(file); }});
    }
    if (stress)
        for (const Stress& shape : kStress)
            runs.push_back({"stress-" + std::to_string(shape.nodes), shape.seconds, std::nullopt,
                            [shape] { return tapestry::generateStressProblem(shape.nodes, 1); }});
    runs.insert(runs.end(), extra.begin(), extra.end());
    std::erase_if(runs, [&](const Run& run) { return !only.empty() && run.name.find(only) == std::string::npos; });
    if (runs.empty()) {
        std::fprintf(stderr, "bench_iopddl: no contest problems in %s (and no --stress)\n", folder.string().c_str());
        return 1;
    }

    std::printf("%-22s %7s %7s %6s %24s %7s %16s %8s %4s %8s %s\n", "problem", "nodes", "edges", "limit", "cost", "score",
                "lower bound", "gap", "fits", "wall s", "");
    for (const double scale : scales) {
        for (const Run& run : runs) {
            const double limit = run.seconds * scale;
            // The wall counts reading (or generating) the problem, as the contest's does.
            const auto start = Clock::now();
            const tapestry::ShardingProblem problem = run.load();
            tapestry::SolverOptions options;
            options.timeLimitSeconds = limit;
            options.startedAt = start;
            options.seed = seed;
            const tapestry::SolverResult result = tapestry::solveShardingProblem(problem, options);
            const tapestry::SolutionEvaluation check = tapestry::evaluateSolution(problem, result.assignment);
            const double wall = std::chrono::duration<double>(Clock::now() - start).count();
            const std::string score =
                run.bestKnown ? std::to_string(*run.bestKnown / static_cast<double>(check.cost)).substr(0, 6) : "-";
            std::printf("%-22s %7zu %7zu %6.0f %24s %7s %16s %7.4f%% %4s %8.1f %s%s\n", run.name.c_str(),
                        problem.nodes.size(), problem.edges.size(), limit, tapestry::costToString(check.cost).c_str(),
                        score.c_str(), tapestry::costToString(result.lowerBound).c_str(),
                        100.0 * tapestry::optimalityGap(check.cost, result.lowerBound), check.feasible ? "yes" : "NO",
                        wall, wall <= limit ? "in time" : "LATE",
                        result.workLeftRunning ? " (a worker was left winding down)" : "");
            std::fflush(stdout);
        }
    }
    return 0;
}
