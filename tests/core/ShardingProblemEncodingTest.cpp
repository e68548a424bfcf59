// The searcher's problem encoded for the general solver (ShardingProblemEncoding) is
// exact: on small models the solver's proven optimum equals the integer program's
// (ShardingIlp) in nanoseconds, up to the rounding of each term, with and without a
// binding memory limit, for the whole graph (layouts converted once through hub
// nodes) and for the folded TAP problem; the integer program's own choice costs the
// same in the encoding.
#include "FoldedTestModel.h"
#include "search/PlanSearch.h"
#include "search/ShardingIlp.h"
#include "search/ShardingProblemEncoding.h"
#include "search/StrategySpace.h"
#include "solver/ShardingSolver.h"
#include "solver/SolutionEvaluator.h"

#include <QTest>

#include <cmath>

using namespace tapestry;
using namespace tapestry::test;

namespace {

// One decision per coarse node, as the whole-graph baseline.
std::vector<StrategyGroup> wholeGraphGroups(const CoarseGraph& coarse, const DeviceMesh& mesh)
{
    std::vector<StrategyGroup> groups;
    for (const CoarseNode& node : coarse.nodes)
        groups.push_back({{node.id}, strategiesFor(node.kind, mesh.shape())});
    return groups;
}

// Each node and edge term is rounded to the nearest nanosecond once.
double roundingSeconds(const ShardingProblem& problem)
{
    return 0.5e-9 * static_cast<double>(problem.nodes.size() + problem.edges.size());
}

double secondsOf(CostSum cost)
{
    return static_cast<double>(cost) / ShardingProblemEncoding::kUnitsPerSecond;
}

// The solver's optimum on the encoding; fails the test unless it is proven.
double solverOptimumSeconds(const ShardingProblemEncoding& encoding)
{
    SolverOptions options;
    options.timeLimitSeconds = 60;
    const SolverResult solved = solveShardingProblem(encoding.problem(), options);
    if (!solved.provenOptimal)
        return -1;
    return secondsOf(solved.cost);
}

}  // namespace

class ShardingProblemEncodingTest : public QObject {
    Q_OBJECT

private slots:
    void wholeGraphOptimumEqualsTheIntegerProgramsWithAndWithoutAMemoryLimit()
    {
        const FoldedModel m = foldSynthPreset("gpt2-small", 2);
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(8, 1024));
        const std::vector<StrategyGroup> groups = wholeGraphGroups(m.coarse, mesh);

        const IlpResult free = solveShardingIlp(costs, m.coarse, groups, {});
        QCOMPARE(free.status, IlpStatus::Optimal);
        // A limit below the fastest plan's memory binds.
        IlpOptions limited;
        limited.memoryLimitBytes = 0.9 * free.estimatedMemoryBytes;
        const IlpResult bound = solveShardingIlp(costs, m.coarse, groups, limited);
        QCOMPARE(bound.status, IlpStatus::Optimal);
        QVERIFY(bound.objective > free.objective);

        for (const IlpResult* ilp : {&free, &bound}) {
            const std::optional<double> limit = ilp == &bound ? limited.memoryLimitBytes : std::nullopt;
            const ShardingProblemEncoding encoding(costs, m.coarse, groups, limit, false);
            // Tensors read by several nodes (the residual stream) become hub nodes.
            QVERIFY(encoding.problem().nodes.size() > groups.size());
            const double tolerance = roundingSeconds(encoding.problem());
            const double optimum = solverOptimumSeconds(encoding);
            QVERIFY2(std::abs(optimum - ilp->objective) <= tolerance,
                     qPrintable(QStringLiteral("solver %1 s, integer program %2 s").arg(optimum, 0, 'g', 12)
                                    .arg(ilp->objective, 0, 'g', 12)));
            const SolutionEvaluation ilpChoice =
                evaluateSolution(encoding.problem(), encoding.assignmentOf(ilp->choice));
            QVERIFY(ilpChoice.feasible);
            QVERIFY(std::abs(secondsOf(ilpChoice.cost) - ilp->objective) <= tolerance);
        }
    }

    void tapProblemOptimumEqualsTheSearchs()
    {
        const FoldedModel m = foldSynthPreset("gpt2-small", 3);
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, cluster);
        const CostModel costs(m.graph(), m.coarse, m.families, cluster, mesh, workload(8, 1024));
        SearchOptions options;
        options.alternatives = 0;
        const SearchResult tap = searchPlan(costs, m.coarse, m.families, options);
        QCOMPARE(tap.statistics.status, IlpStatus::Optimal);
        QVERIFY(tap.fitsInMemory);

        const ShardingProblemEncoding encoding = encodeSearchProblem(costs, m.coarse, m.families, options);
        QCOMPARE(encoding.problem().usageLimit, std::optional<std::int64_t>(std::int64_t(costs.hbmBytes())));
        const double tolerance = roundingSeconds(encoding.problem());
        const double optimum = solverOptimumSeconds(encoding);
        QVERIFY2(std::abs(optimum - tap.statistics.objectiveSeconds) <= tolerance,
                 qPrintable(QStringLiteral("solver %1 s, search %2 s").arg(optimum, 0, 'g', 12)
                                .arg(tap.statistics.objectiveSeconds, 0, 'g', 12)));
        const SolutionEvaluation plan = evaluateSolution(encoding.problem(), encoding.assignmentOf(tap.best->plan));
        QVERIFY(plan.feasible);
        QVERIFY(std::abs(secondsOf(plan.cost) - tap.statistics.objectiveSeconds) <= tolerance);
    }
};

QTEST_APPLESS_MAIN(ShardingProblemEncodingTest)
#include "ShardingProblemEncodingTest.moc"
