// Tap mode's exact engine (TermElimination) against brute force and against the integer
// program it replaced: on random programs of up to seven groups (pair terms, shared
// conversions read by several groups, a ring through the groups as folded blocks make)
// every goal's answer equals the best of all choices, for every memory limit, under a
// bound on the seconds and with memory priced by a Lagrange multiplier; on
// GPT-2's whole graph (a group per coarse node) its optimum equals CBC's proven optimum,
// with and without a binding limit; a program too entangled for its tables is refused, not solved slowly;
// a folded group's memory term is its members' sum.
#include "FoldedTestModel.h"
#include "base/Error.h"
#include "search/ShardingIlp.h"
#include "search/StrategySpace.h"
#include "search/TermElimination.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace tapestry;
using namespace tapestry::test;

namespace {

// SearchTerms.h's objective, written out.
double secondsOf(const SearchTerms& terms, const std::vector<std::size_t>& choice)
{
    double seconds = 0;
    for (std::size_t g = 0; g < choice.size(); ++g)
        seconds += terms.nodeSeconds[g][choice[g]];
    for (const SearchTerms::PairTerm& pair : terms.pairs)
        seconds += pair.seconds[choice[pair.producer]][choice[pair.consumer]];
    for (const SearchTerms::SharedConversion& conversion : terms.sharedConversions) {
        bool needed = false;
        for (const auto& [group, candidates] : conversion.needing)
            needed = needed || std::find(candidates.begin(), candidates.end(), choice[group]) != candidates.end();
        if (!needed)
            continue;
        for (const auto& [p, price] : conversion.price) {
            if (p == choice[conversion.producer])
                seconds += price;
        }
    }
    return seconds;
}

double bytesOf(const SearchTerms& terms, const std::vector<std::size_t>& choice)
{
    double bytes = 0;
    for (std::size_t g = 0; g < choice.size(); ++g)
        bytes += terms.memoryBytes[g][choice[g]];
    return bytes;
}

// Every choice, in counting order.
std::vector<std::vector<std::size_t>> allChoices(const SearchTerms& terms)
{
    std::vector<std::vector<std::size_t>> all;
    std::vector<std::size_t> choice(terms.nodeSeconds.size(), 0);
    while (true) {
        all.push_back(choice);
        std::size_t g = 0;
        for (; g < choice.size(); ++g) {
            if (++choice[g] < terms.nodeSeconds[g].size())
                break;
            choice[g] = 0;
        }
        if (g == choice.size())
            return all;
    }
}

// A random program: groups on a ring (group g feeds g + 1, the last feeds the first, as
// a folded block's output feeds its next instance), extra pair terms, and shared
// conversions whose consumers are up to three other groups. Memory on a coarse grid so
// that exact ties occur.
SearchTerms randomTerms(std::mt19937& random)
{
    auto below = [&](std::size_t n) { return static_cast<std::size_t>(random() % n); };
    auto seconds = [&] { return static_cast<double>(random() % 1000) * 1e-4; };
    SearchTerms terms;
    const std::size_t groups = 2 + below(6);
    for (std::size_t g = 0; g < groups; ++g) {
        const std::size_t candidates = 1 + below(4);
        terms.nodeSeconds.emplace_back();
        terms.memoryBytes.emplace_back();
        for (std::size_t c = 0; c < candidates; ++c) {
            terms.nodeSeconds[g].push_back(seconds());
            terms.memoryBytes[g].push_back(static_cast<double>(1 + below(8)) * 1e9);
        }
    }
    auto addPair = [&](std::size_t producer, std::size_t consumer) {
        SearchTerms::PairTerm term{producer, consumer, {}};
        for (std::size_t p = 0; p < terms.nodeSeconds[producer].size(); ++p) {
            term.seconds.emplace_back();
            for (std::size_t c = 0; c < terms.nodeSeconds[consumer].size(); ++c)
                term.seconds[p].push_back(below(3) == 0 ? 0.0 : seconds());
        }
        terms.pairs.push_back(std::move(term));
    };
    for (std::size_t g = 0; g < groups; ++g)
        addPair(g, (g + 1) % groups);
    for (std::size_t extra = below(3); extra > 0; --extra) {
        const std::size_t a = below(groups);
        const std::size_t b = below(groups);
        if (a != b)
            addPair(a, b);
    }
    for (std::size_t shared = below(4); shared > 0; --shared) {
        SearchTerms::SharedConversion conversion;
        conversion.producer = below(groups);
        for (std::size_t p = 0; p < terms.nodeSeconds[conversion.producer].size(); ++p) {
            if (below(2) == 0)
                conversion.price.emplace_back(p, seconds() + 1e-4);
        }
        for (std::size_t k = 1 + below(3); k > 0; --k) {
            const std::size_t g = below(groups);
            std::vector<std::size_t> needing;
            for (std::size_t c = 0; c < terms.nodeSeconds[g].size(); ++c) {
                if (below(2) == 0)
                    needing.push_back(c);
            }
            if (!needing.empty() && std::none_of(conversion.needing.begin(), conversion.needing.end(),
                                                 [&](const auto& n) { return n.first == g; }))
                conversion.needing.emplace_back(g, std::move(needing));
        }
        terms.sharedConversions.push_back(std::move(conversion));
    }
    return terms;
}

bool near(double a, double b)
{
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}

// The least seconds over the choices within `limit`; infinity when none.
double bruteFastest(const SearchTerms& terms, double limit)
{
    double best = std::numeric_limits<double>::infinity();
    for (const std::vector<std::size_t>& choice : allChoices(terms)) {
        if (bytesOf(terms, choice) <= limit)
            best = std::min(best, secondsOf(terms, choice));
    }
    return best;
}

// Two GPT-2 layers with one group per coarse node, as the whole-graph baseline poses it.
struct Gpt2Program {
    FoldedModel model = foldSynthPreset("gpt2-small", 2);
    Cluster cluster = testCluster("dgx-h100x1");
    DeviceMesh mesh{{{"dp", 2}, {"tp", 4}}, cluster};
    CostModel costs{model.graph(), model.coarse, model.families, cluster, mesh, workload(8, 1024)};
    std::vector<StrategyGroup> groups;

    Gpt2Program()
    {
        for (const CoarseNode& node : model.coarse.nodes)
            groups.push_back({{node.id}, strategiesFor(node.kind, mesh.shape())});
    }
};

}  // namespace

class TermEliminationTest : public QObject {
    Q_OBJECT

private slots:
    void everyGoalEqualsBruteForceOnRandomPrograms()
    {
        std::mt19937 random(26);
        for (int trial = 0; trial < 300; ++trial) {
            const SearchTerms terms = randomTerms(random);
            const std::vector<std::vector<std::size_t>> all = allChoices(terms);

            const auto fastest = TermElimination::solve(terms, EliminationGoal::Fastest);
            QVERIFY(fastest);
            QCOMPARE(fastest->pointCount(), std::size_t{1});
            const double optimum = bruteFastest(terms, std::numeric_limits<double>::infinity());
            QVERIFY(near(fastest->seconds(0), optimum));
            QVERIFY(near(secondsOf(terms, fastest->choice(0)), optimum));
            QCOMPARE(bytesOf(terms, fastest->choice(0)), fastest->memoryBytes(0));

            const auto least = TermElimination::solve(terms, EliminationGoal::LeastMemory);
            QVERIFY(least);
            double leastBytes = std::numeric_limits<double>::infinity();
            for (const auto& choice : all)
                leastBytes = std::min(leastBytes, bytesOf(terms, choice));
            QCOMPARE(least->memoryBytes(0), leastBytes);
            QCOMPARE(bytesOf(terms, least->choice(0)), leastBytes);
            // Among the least-memory choices, the fastest.
            QVERIFY(near(least->seconds(0), bruteFastest(terms, leastBytes)));

            // Every limit from below the least memory to above the fastest choice's.
            const double cap = fastest->memoryBytes(0) - 1e9;
            const auto frontier = TermElimination::solve(terms, EliminationGoal::Frontier, {.memoryCapBytes = cap});
            QVERIFY(frontier);
            for (double limit = leastBytes - 1e9; limit <= cap; limit += 0.5e9) {
                const double expected = bruteFastest(terms, limit);
                const std::optional<std::size_t> point = frontier->fastestWithin(limit);
                QCOMPARE(point.has_value(), std::isfinite(expected));
                if (!point)
                    continue;
                QVERIFY(near(frontier->seconds(*point), expected));
                const std::vector<std::size_t> choice = frontier->choice(*point);
                QVERIFY(bytesOf(terms, choice) <= limit);
                QVERIFY(near(secondsOf(terms, choice), expected));
            }
            // The points are the Pareto points: by memory up, strictly faster each.
            for (std::size_t i = 1; i < frontier->pointCount(); ++i) {
                QVERIFY(frontier->memoryBytes(i) > frontier->memoryBytes(i - 1));
                QVERIFY(frontier->seconds(i) < frontier->seconds(i - 1));
            }
            // Bounded by the seconds of a middle point, the frontier keeps exactly the
            // points at most that slow.
            if (frontier->pointCount() > 0) {
                const std::size_t middle = frontier->pointCount() / 2;
                const auto bounded = TermElimination::solve(
                    terms, EliminationGoal::Frontier, {.memoryCapBytes = cap, .secondsBound = frontier->seconds(middle)});
                QVERIFY(bounded);
                QCOMPARE(bounded->pointCount(), frontier->pointCount() - middle);
                for (std::size_t i = 0; i < bounded->pointCount(); ++i) {
                    QCOMPARE(bounded->memoryBytes(i), frontier->memoryBytes(middle + i));
                    QVERIFY(near(bounded->seconds(i), frontier->seconds(middle + i)));
                }
            }
            // With memory priced (a Lagrange multiplier), the least seconds + price x bytes.
            for (const double price : {1e-11, 1e-10, 1e-9}) {
                const auto priced = TermElimination::solve(terms, EliminationGoal::Fastest, {.secondsPerByte = price});
                QVERIFY(priced);
                double expected = std::numeric_limits<double>::infinity();
                for (const auto& choice : all)
                    expected = std::min(expected, secondsOf(terms, choice) + price * bytesOf(terms, choice));
                QVERIFY(near(priced->seconds(0) + price * priced->memoryBytes(0), expected));
            }
        }
    }

    // The Pareto alternatives of a search come from eliminations of one program that
    // read the seconds an earlier one kept (EliminationSeconds): on a chain of three
    // groups, each fast (1 s, 4 GB) or small (2 s, 1 GB), resharding between neighbours
    // that differ 0.5 s, the choices are 3 s at 12 GB (all fast); 4.5 s at 9 GB (an end
    // group small, two choices tie; the middle one small is 5 s); 5.5 s at 6 GB (two
    // neighbours small, two tie; the ends small is 6 s); 6 s at 3 GB (all small). The
    // search asks for the fastest within 3/4 of 12 GB, then 3/4 of that, and so on. Each
    // answer, and each choice among the ties, equals a fresh elimination's.
    void alternativesFromKeptSecondsEqualFreshOnes()
    {
        SearchTerms terms;
        terms.nodeSeconds.assign(3, {1.0, 2.0});
        terms.memoryBytes.assign(3, {4e9, 1e9});
        for (std::size_t g = 0; g + 1 < 3; ++g)
            terms.pairs.push_back({g, g + 1, {{0.0, 0.5}, {0.5, 0.0}}});
        EliminationSeconds kept(terms);
        const auto fastest = TermElimination::solve(terms, EliminationGoal::Fastest, {}, {}, &kept);
        QVERIFY(fastest && kept.kept());
        QCOMPARE(fastest->seconds(0), 3.0);
        QCOMPARE(fastest->memoryBytes(0), 12e9);
        const auto least = TermElimination::solve(terms, EliminationGoal::LeastMemory, {}, {}, &kept);
        QVERIFY(least);
        QCOMPARE(least->seconds(0), 6.0);
        QCOMPARE(least->memoryBytes(0), 3e9);
        const std::vector<std::pair<double, double>> expected{{4.5, 9e9}, {5.5, 6e9}, {6.0, 3e9}};
        double budget = 12e9;
        for (const auto& [seconds, bytes] : expected) {
            budget *= 0.75;
            const EliminationBounds bounds{.memoryCapBytes = budget, .secondsBound = least->seconds(0)};
            const auto reused = TermElimination::solve(terms, EliminationGoal::Frontier, bounds, {}, &kept);
            const auto fresh = TermElimination::solve(terms, EliminationGoal::Frontier, bounds);
            QVERIFY(reused && fresh);
            const std::optional<std::size_t> point = reused->fastestWithin(budget);
            QVERIFY(point && point == fresh->fastestWithin(budget));
            QCOMPARE(reused->seconds(*point), seconds);
            QCOMPARE(reused->memoryBytes(*point), bytes);
            QCOMPARE(reused->choice(*point), fresh->choice(*point));
            QCOMPARE(secondsOf(terms, reused->choice(*point)), seconds);
        }
        // Priced memory (the chords that bound a frontier) likewise.
        for (const double price : {1e-10, 0.5e-9, 1e-9}) {
            const auto reused = TermElimination::solve(terms, EliminationGoal::Fastest, {.secondsPerByte = price}, {}, &kept);
            const auto fresh = TermElimination::solve(terms, EliminationGoal::Fastest, {.secondsPerByte = price});
            QVERIFY(reused && fresh);
            QCOMPARE(reused->seconds(0), fresh->seconds(0));
            QCOMPARE(reused->choice(0), fresh->choice(0));
        }
        // Seconds kept for one program are not read for another.
        const SearchTerms other = terms;
        QVERIFY_THROWS_EXCEPTION(Error, (void)TermElimination::solve(other, EliminationGoal::Fastest, {}, {}, &kept));
    }

    // On random programs every goal and bound, eliminated with the seconds another
    // elimination kept, gives a fresh elimination's points and choices to the last bit.
    void keptSecondsGiveFreshAnswersOnRandomPrograms()
    {
        std::mt19937 random(2026);
        for (int trial = 0; trial < 200; ++trial) {
            const SearchTerms terms = randomTerms(random);
            EliminationSeconds kept(terms);
            const auto first = TermElimination::solve(terms, EliminationGoal::LeastMemory, {}, {}, &kept);
            QVERIFY(first && kept.kept());
            const auto fastest = TermElimination::solve(terms, EliminationGoal::Fastest);
            QVERIFY(fastest);
            const double cap = (first->memoryBytes(0) + fastest->memoryBytes(0)) / 2;
            const std::vector<std::pair<EliminationGoal, EliminationBounds>> asked{
                {EliminationGoal::Fastest, {}},
                {EliminationGoal::LeastMemory, {}},
                {EliminationGoal::Fastest, {.secondsPerByte = 1e-10}},
                {EliminationGoal::Frontier, {.memoryCapBytes = cap}},
                {EliminationGoal::Frontier, {.memoryCapBytes = cap, .secondsBound = first->seconds(0)}},
            };
            for (const auto& [goal, bounds] : asked) {
                const auto reused = TermElimination::solve(terms, goal, bounds, {}, &kept);
                const auto fresh = TermElimination::solve(terms, goal, bounds);
                QVERIFY(reused && fresh);
                QCOMPARE(reused->pointCount(), fresh->pointCount());
                QCOMPARE(reused->states(), fresh->states());
                for (std::size_t i = 0; i < fresh->pointCount(); ++i) {
                    QCOMPARE(reused->seconds(i), fresh->seconds(i));
                    QCOMPARE(reused->memoryBytes(i), fresh->memoryBytes(i));
                    QCOMPARE(reused->choice(i), fresh->choice(i));
                }
            }
        }
    }

    // A group of a block position across the layers holds every layer's node: its
    // memory under each candidate is the sum of its members' (priced once per pricing
    // class: the same sum, to the bit).
    void aFoldedGroupsMemoryIsItsMembersSum()
    {
        const FoldedModel model = foldSynthPreset("gpt2-small", 4);
        const Cluster cluster = testCluster("dgx-h100x1");
        const DeviceMesh mesh({{"dp", 2}, {"tp", 4}}, cluster);
        const CostModel costs(model.graph(), model.coarse, model.families, cluster, mesh, workload(8, 1024));
        std::vector<StrategyGroup> groups;
        std::vector<bool> grouped(model.coarse.nodes.size(), false);
        for (const Family& family : model.families.families) {
            if (family.parent.isValid())
                continue;
            const std::vector<CoarseNodeId>& first = family.representative().nodes;
            for (std::size_t k = 0; k < first.size(); ++k) {
                StrategyGroup group{{}, strategiesFor(model.coarse.node(first[k]).kind, mesh.shape())};
                for (const BlockInstance& instance : family.instances) {
                    if (k < instance.nodes.size() && !grouped[instance.nodes[k].index()] &&
                        model.coarse.node(instance.nodes[k]).kind == model.coarse.node(first[k]).kind) {
                        group.members.push_back(instance.nodes[k]);
                        grouped[instance.nodes[k].index()] = true;
                    }
                }
                if (!group.members.empty())
                    groups.push_back(std::move(group));
            }
        }
        for (const CoarseNode& node : model.coarse.nodes) {
            if (!grouped[node.id.index()])
                groups.push_back({{node.id}, strategiesFor(node.kind, mesh.shape())});
        }
        const SearchTerms terms = priceSearchTerms(costs, model.coarse, groups, false);
        std::size_t widest = 0;
        for (std::size_t g = 0; g < groups.size(); ++g) {
            widest = std::max(widest, groups[g].members.size());
            for (std::size_t c = 0; c < groups[g].candidates.size(); ++c) {
                double bytes = 0;
                for (const CoarseNodeId member : groups[g].members)
                    bytes += costs.strategyMemoryBytes(member, groups[g].candidates[c]);
                QVERIFY(terms.memoryBytes[g][c] == bytes);
            }
        }
        QCOMPARE(widest, std::size_t{4});
    }

    void optimumEqualsTheIntegerProgramsOnGpt2()
    {
        const Gpt2Program program;
        const SearchTerms terms = priceSearchTerms(program.costs, program.model.coarse, program.groups, true);
        const IlpResult free = solveShardingIlp(program.costs, program.model.coarse, program.groups, {});
        QCOMPARE(free.status, IlpStatus::Optimal);
        const auto fastest = TermElimination::solve(terms, EliminationGoal::Fastest);
        QVERIFY(fastest);
        // CBC's optimum is proven within its tolerance; the elimination's is exact.
        QVERIFY(fastest->seconds(0) <= free.objective * (1 + 1e-9));
        QVERIFY(fastest->seconds(0) >= free.objective * (1 - 1e-6));

        IlpOptions limited;
        limited.memoryLimitBytes = 0.9 * free.estimatedMemoryBytes;
        const IlpResult bound = solveShardingIlp(program.costs, program.model.coarse, program.groups, limited);
        QCOMPARE(bound.status, IlpStatus::Optimal);
        QVERIFY(bound.objective > free.objective);
        const auto frontier = TermElimination::solve(terms, EliminationGoal::Frontier, {.memoryCapBytes = *limited.memoryLimitBytes});
        QVERIFY(frontier);
        const std::optional<std::size_t> point = frontier->fastestWithin(*limited.memoryLimitBytes);
        QVERIFY(point);
        QVERIFY(frontier->seconds(*point) <= bound.objective * (1 + 1e-9));
        QVERIFY(frontier->seconds(*point) >= bound.objective * (1 - 1e-6));
        QVERIFY(frontier->memoryBytes(*point) <= *limited.memoryLimitBytes);
    }

    void aProgramTooEntangledForTheTablesIsRefused()
    {
        const Gpt2Program program;
        const SearchTerms terms = priceSearchTerms(program.costs, program.model.coarse, program.groups, true);
        EliminationLimits tight;
        tight.maxStates = 10;  // fewer than one pair of 4 x 4 candidates
        QVERIFY(!TermElimination::solve(terms, EliminationGoal::Fastest, {}, tight));
        EliminationLimits cancelled;
        cancelled.cancelled = [] { return true; };
        QVERIFY(!TermElimination::solve(terms, EliminationGoal::Fastest, {}, cancelled));
    }

    // One table of many candidates, too few entries for a poll per entry to come often:
    // the first group's table over the second's 1,024 candidates has 1,024 entries of
    // 1,024 candidates each. The elimination still asks whether it was cancelled at
    // least once per EliminationLimits::kPollWork candidate pairs.
    void aLargeTablePollsForCancelWhileFilled()
    {
        constexpr std::size_t candidates = 1024;
        SearchTerms terms;
        terms.nodeSeconds.assign(2, std::vector<double>(candidates, 1.0));
        terms.memoryBytes.assign(2, std::vector<double>(candidates, 1.0));
        SearchTerms::PairTerm pair{0, 1, std::vector<std::vector<double>>(candidates, std::vector<double>(candidates))};
        for (std::size_t a = 0; a < candidates; ++a) {
            for (std::size_t b = 0; b < candidates; ++b)
                pair.seconds[a][b] = a == b ? 0.0 : 1.0;
        }
        terms.pairs.push_back(std::move(pair));
        std::size_t polls = 0;
        EliminationLimits counted;
        counted.cancelled = [&] {
            ++polls;
            return false;
        };
        const auto solved = TermElimination::solve(terms, EliminationGoal::Fastest, {}, counted);
        QVERIFY(solved);
        QCOMPARE(solved->seconds(0), 2.0);  // equal candidates: no pair cost
        QVERIFY2(polls >= candidates * candidates / EliminationLimits::kPollWork,
                 qPrintable(QString::number(polls)));
        // Cancelled at the first poll inside the table: nothing is returned.
        std::size_t asked = 0;
        EliminationLimits cancelledInside;
        cancelledInside.cancelled = [&] { return ++asked > 1; };
        QVERIFY(!TermElimination::solve(terms, EliminationGoal::Fastest, {}, cancelledInside));
        QCOMPARE(asked, std::size_t{2});
    }
};

QTEST_APPLESS_MAIN(TermEliminationTest)
#include "TermEliminationTest.moc"
