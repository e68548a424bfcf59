// bench_search: TAP search time against the whole-graph (Alpa-style) baseline for
// GPT-3-175B-shaped models at 12, 24, 48 and 96 layers on 16 DGX-H100 nodes, side by
// side in one run. TAP should stay flat in the layer count (one decision per family
// position) and be at least 20x faster than the baseline from 24 layers on, with a
// plan as good where the baseline proves optimality.
//   bench_search [--runs N] [--baseline-seconds S] [--max-layers L] [--batch B]
#include "cluster/ClusterFile.h"
#include "cost/CostModel.h"
#include "fold/FoldedModel.h"
#include "graph/Graph.h"
#include "search/PlanSearch.h"
#include "search/SearchSetup.h"
#include "synth/ModelSynthesizer.h"
#include "synth/SynthPresets.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Stats {
    double min = 0;
    double median = 0;
    double max = 0;
};

Stats summarize(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return {values.front(), values[values.size() / 2], values.back()};
}

}  // namespace

int main(int argc, char** argv)
{
    using namespace tapestry;
    int runs = 5;
    double baselineSeconds = 60;
    std::int64_t maxLayers = 96;
    std::int64_t batch = 16;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--runs")
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (flag == "--baseline-seconds")
            baselineSeconds = std::atof(argv[i + 1]);
        else if (flag == "--max-layers")
            maxLayers = std::atoll(argv[i + 1]);
        else if (flag == "--batch")
            batch = std::max<std::int64_t>(1, std::atoll(argv[i + 1]));
    }
    const Cluster cluster =
        loadClusterPreset(std::filesystem::path(TAPESTRY_SOURCE_DIR) / "resources" / "clusters", "dgx-h100x16");
    Workload workload;
    workload.batch = batch;
    workload.sequence = 2048;
    workload.zeroStage = 1;

    std::printf("GPT-3 175B shape (h = 12288), %s, batch %lld x %lld tokens, ZeRO-1; TAP: %d runs; baseline limit %.0f s\n\n",
                cluster.name.c_str(), static_cast<long long>(workload.batch), static_cast<long long>(workload.sequence),
                runs, baselineSeconds);
    std::printf("%6s %6s %7s | %9s %9s %9s %9s %10s | %10s %9s %10s %10s | %8s %8s\n", "layers", "ops", "coarse",
                "tap min", "median", "max", "decisions", "tap ms", "base s", "status", "base ms", "bound ms",
                "speedup", "quality");

    const SynthPreset* preset = findSynthPreset("gpt3-175b");
    double tapAt12 = 0;
    double tapAt96 = 0;
    for (const std::int64_t layers : {12, 24, 48, 96}) {
        if (layers > maxLayers)
            break;
        ModelSpec spec = preset->spec;
        spec.layers = layers;
        const FoldedModel model = foldModel(synthesizeModel(spec, "gpt3"));
        const Graph& graph = model.graph();
        const CoarseGraph& coarse = model.coarse;
        const FamilyTable& families = model.families;
        const DeviceMesh mesh({{"dp", 16}, {"tp", 8}}, cluster);
        const CostModel costs(graph, coarse, families, cluster, mesh, workload);

        std::vector<double> tapSeconds;
        SearchResult tap;
        for (int r = 0; r < runs; ++r) {
            const Clock::time_point start = Clock::now();
            tap = searchPlan(costs, coarse, families, fastestPlanOnly());
            tapSeconds.push_back(since(start));
        }
        const Stats t = summarize(tapSeconds);
        SearchOptions wholeOptions;
        wholeOptions.mode = SearchMode::WholeGraph;
        wholeOptions.alternatives = 0;
        wholeOptions.timeLimitSeconds = baselineSeconds;
        const Clock::time_point start = Clock::now();
        const SearchResult whole = searchPlan(costs, coarse, families, wholeOptions);
        const double wholeSeconds = since(start);
        const double tapMs = tap.best ? tap.best->evaluation.total.time.stepSeconds() * 1e3 : 0.0;
        const double baseMs = whole.best ? whole.best->evaluation.total.time.stepSeconds() * 1e3 : 0.0;
        std::printf("%6lld %6zu %7zu | %8.3fs %8.3fs %8.3fs %9zu %10.2f | %9.1fs %9s %10.2f %10.2f | %7.1fx %8.4f\n",
                    static_cast<long long>(layers), graph.opCount(), coarse.nodes.size(), t.min, t.median, t.max,
                    tap.statistics.decisionGroups, tapMs, wholeSeconds, ilpStatusName(whole.statistics.status), baseMs,
                    whole.statistics.boundSeconds * 1e3, wholeSeconds / t.median,
                    baseMs > 0 ? tapMs / baseMs : 0.0);
        std::fflush(stdout);
        if (layers == 12)
            tapAt12 = t.median;
        if (layers == 96)
            tapAt96 = t.median;
    }
    if (tapAt12 > 0 && tapAt96 > 0)
        std::printf("\nTAP median at 96 layers / at 12 layers: %.2f (target <= 1.5); at 96 layers %.3f s (target < 1 s)\n",
                    tapAt96 / tapAt12, tapAt96);
    std::printf("quality = TAP plan step time / baseline plan step time (<= 1.01 where the baseline is optimal)\n");

    // --mesh auto at 96 layers: every factorization of the 128 GPUs, TAP only.
    if (maxLayers >= 96) {
        ModelSpec spec = preset->spec;
        const FoldedModel model = foldModel(synthesizeModel(spec, "gpt3"));
        const Graph& graph = model.graph();
        const CoarseGraph& coarse = model.coarse;
        const FamilyTable& families = model.families;
        std::printf("\nmesh auto, 96 layers (TAP):\n");
        const Clock::time_point all = Clock::now();
        for (const std::vector<int>& shape : meshShapes(cluster)) {
            const DeviceMesh mesh(namedMeshAxes(shape), cluster);
            const CostModel costs(graph, coarse, families, cluster, mesh, workload);
            const Clock::time_point start = Clock::now();
            const SearchResult result = searchPlan(costs, coarse, families, fastestPlanOnly());
            std::printf("  %-22s %8.3f s  step %12.2f ms  memory %8.2f GB %s\n", mesh.toString().c_str(), since(start),
                        result.best ? result.best->evaluation.total.time.stepSeconds() * 1e3 : 0.0,
                        result.best ? result.best->evaluation.total.memory.total() / 1e9 : 0.0,
                        result.fitsInMemory ? "" : "(does not fit)");
        }
        std::printf("  all meshes: %.3f s\n", since(all));
    }
    return 0;
}
