#include "search/ShardingIlp.h"

#include "search/SearchTerms.h"

#include "solver/CbcSolve.h"

#include <limits>

namespace tapestry {

namespace {

// Objective in milliseconds and memory in GB keep CBC's coefficients near 1.
constexpr double kObjectiveScale = 1e3;
constexpr double kMemoryScale = 1e-9;

// The choice per group: the candidate whose column is largest.
std::vector<std::size_t> decode(const double* values, const std::vector<std::vector<int>>& xColumns)
{
    std::vector<std::size_t> choice(xColumns.size(), 0);
    for (std::size_t g = 0; g < xColumns.size(); ++g) {
        double best = -1;
        for (std::size_t c = 0; c < xColumns[g].size(); ++c) {
            if (values[xColumns[g][c]] > best) {
                best = values[xColumns[g][c]];
                choice[g] = c;
            }
        }
    }
    return choice;
}

// One pair term: a column per candidate pair with the local marginal constraints (tight
// for chains and trees), so the pair's column that is 1 carries the table's cost.
void addPairTerm(MixedIntegerProgram& program, const std::vector<std::vector<int>>& xColumns, const SearchTerms::PairTerm& term)
{
    const std::size_t producerCount = term.seconds.size();
    const std::size_t consumerCount = term.seconds.front().size();
    std::vector<std::vector<int>> pairs(producerCount, std::vector<int>(consumerCount));
    for (std::size_t p = 0; p < producerCount; ++p) {
        for (std::size_t c = 0; c < consumerCount; ++c)
            pairs[p][c] = program.addColumn(term.seconds[p][c] * kObjectiveScale, 0, 1, false);
    }
    for (std::size_t p = 0; p < producerCount; ++p) {
        std::vector<int> indices = {xColumns[term.producer][p]};
        std::vector<double> values = {-1.0};
        for (std::size_t c = 0; c < consumerCount; ++c) {
            indices.push_back(pairs[p][c]);
            values.push_back(1.0);
        }
        program.addRow(indices, values, 0.0, 0.0);
    }
    for (std::size_t c = 0; c < consumerCount; ++c) {
        std::vector<int> indices = {xColumns[term.consumer][c]};
        std::vector<double> values = {-1.0};
        for (std::size_t p = 0; p < producerCount; ++p) {
            indices.push_back(pairs[p][c]);
            values.push_back(1.0);
        }
        program.addRow(indices, values, 0.0, 0.0);
    }
}

// One shared conversion: a variable that is at least every needing consumer column, and
// per priced producer candidate a cost column that is at least "needed and chosen".
void addSharedConversion(MixedIntegerProgram& program, const std::vector<std::vector<int>>& xColumns,
                         const SearchTerms::SharedConversion& conversion)
{
    const int needed = program.addColumn(0.0, 0, 1, false);
    for (const auto& [group, candidates] : conversion.needing) {
        std::vector<int> indices = {needed};
        std::vector<double> values = {1.0};
        for (const std::size_t c : candidates) {
            indices.push_back(xColumns[group][c]);
            values.push_back(-1.0);
        }
        program.addRow(indices, values, 0.0, std::numeric_limits<double>::max());
    }
    for (const auto& [p, seconds] : conversion.price) {
        const int paid = program.addColumn(seconds * kObjectiveScale, 0, 1, false);
        program.addRow({paid, needed, xColumns[conversion.producer][p]}, {1.0, -1.0, -1.0}, -1.0, std::numeric_limits<double>::max());
    }
}

}  // namespace

const char* ilpStatusName(IlpStatus status)
{
    switch (status) {
    case IlpStatus::Optimal: return "optimal";
    case IlpStatus::Feasible: return "feasible";
    case IlpStatus::Infeasible: return "infeasible";
    case IlpStatus::NoSolution: return "no solution";
    }
    return "no solution";
}

IlpResult solveShardingIlp(const CostModel& costs, const CoarseGraph& coarse, const std::vector<StrategyGroup>& groups,
                           const IlpOptions& options)
{
    if (options.cancelled && options.cancelled()) {
        IlpResult result;
        result.cancelled = true;
        return result;  // nothing priced, built or solved
    }
    const SearchTerms terms = priceSearchTerms(costs, coarse, groups, !options.minimizeMemory);

    MixedIntegerProgram program;
    std::vector<std::vector<int>> xColumns(groups.size());
    std::vector<int> memoryIndices;
    std::vector<double> memoryValues;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        std::vector<int> indices;
        for (std::size_t c = 0; c < groups[g].candidates.size(); ++c) {
            const double bytes = terms.memoryBytes[g][c];
            const int column = program.addColumn(options.minimizeMemory ? bytes * kMemoryScale
                                                                        : terms.nodeSeconds[g][c] * kObjectiveScale,
                                                 0, 1, true);
            xColumns[g].push_back(column);
            indices.push_back(column);
            memoryIndices.push_back(column);
            memoryValues.push_back(bytes * kMemoryScale);
        }
        program.addRow(indices, std::vector<double>(indices.size(), 1.0), 1.0, 1.0);
    }
    if (options.memoryLimitBytes && !options.minimizeMemory)
        program.addRow(memoryIndices, memoryValues, -std::numeric_limits<double>::max(), *options.memoryLimitBytes * kMemoryScale);
    for (const SearchTerms::PairTerm& term : terms.pairs)
        addPairTerm(program, xColumns, term);
    for (const SearchTerms::SharedConversion& conversion : terms.sharedConversions)
        addSharedConversion(program, xColumns, conversion);

    bool cancelled = false;
    CbcSettings settings;
    settings.timeLimitSeconds = options.timeLimitSeconds;
    settings.stopRequested = [&] {
        cancelled = cancelled || (options.cancelled && options.cancelled());
        return cancelled;
    };
    if (options.onIncumbent)
        settings.onSolution = [&](const double* values, double objective) {
            options.onIncumbent(objective / kObjectiveScale, decode(values, xColumns));
        };
    const CbcOutcome solved = solveWithCbc(program, settings);

    IlpResult result;
    result.columns = program.columnCount();
    result.rows = program.rowCount();
    result.branchNodes = solved.branchNodes;
    result.cancelled = cancelled;
    result.bound = solved.bound / kObjectiveScale;
    if (!solved.values.empty()) {
        result.choice = decode(solved.values.data(), xColumns);
        result.objective = solved.objective / (options.minimizeMemory ? kMemoryScale : kObjectiveScale);
        result.status = solved.provenOptimal ? IlpStatus::Optimal : IlpStatus::Feasible;
        for (std::size_t g = 0; g < groups.size(); ++g)
            result.estimatedMemoryBytes += terms.memoryBytes[g][result.choice[g]];
    } else {
        result.status = solved.provenInfeasible ? IlpStatus::Infeasible : IlpStatus::NoSolution;
    }
    return result;
}

}  // namespace tapestry
