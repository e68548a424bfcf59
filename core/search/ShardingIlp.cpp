#include "search/ShardingIlp.h"

#include "search/SearchTerms.h"

#include <CbcEventHandler.hpp>
#include <CbcModel.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>


namespace tapestry {

namespace {

// Objective in milliseconds and memory in GB keep CBC's coefficients near 1.
constexpr double kObjectiveScale = 1e3;
constexpr double kMemoryScale = 1e-9;

struct Program {
    std::vector<double> objective;
    std::vector<double> lower;
    std::vector<double> upper;
    std::vector<int> integers;
    CoinPackedMatrix rows{false, 0, 0};
    std::vector<double> rowLower;
    std::vector<double> rowUpper;

    int column(double cost, bool integer)
    {
        objective.push_back(cost);
        lower.push_back(0);
        upper.push_back(1);
        const int index = static_cast<int>(objective.size()) - 1;
        if (integer)
            integers.push_back(index);
        return index;
    }
    void row(const std::vector<int>& indices, const std::vector<double>& values, double lo, double hi)
    {
        rows.setDimensions(rows.getNumRows(), static_cast<int>(objective.size()));
        rows.appendRow(static_cast<int>(indices.size()), indices.data(), values.data());
        rowLower.push_back(lo);
        rowUpper.push_back(hi);
    }
};

class Handler : public CbcEventHandler {
public:
    Handler(const IlpOptions& options, const std::vector<std::vector<int>>& xColumns, bool* cancelled)
        : options_(options), xColumns_(xColumns), cancelled_(cancelled)
    {
    }
    CbcAction event(CbcEvent whichEvent) override
    {
        if (options_.cancelled && options_.cancelled()) {
            *cancelled_ = true;
            return stop;
        }
        if ((whichEvent == solution || whichEvent == heuristicSolution) && options_.onIncumbent && model_ &&
            model_->bestSolution()) {
            options_.onIncumbent(model_->getObjValue() / kObjectiveScale, decode(model_->bestSolution(), xColumns_));
        }
        return noAction;
    }
    CbcEventHandler* clone() const override { return new Handler(*this); }

    static std::vector<std::size_t> decode(const double* values, const std::vector<std::vector<int>>& xColumns)
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

private:
    const IlpOptions& options_;
    const std::vector<std::vector<int>>& xColumns_;
    bool* cancelled_;
};

// One pair term: a column per candidate pair with the local marginal constraints (tight
// for chains and trees), so the pair's column that is 1 carries the table's cost.
void addPairTerm(Program& program, const std::vector<std::vector<int>>& xColumns, const SearchTerms::PairTerm& term)
{
    const std::size_t producerCount = term.seconds.size();
    const std::size_t consumerCount = term.seconds.front().size();
    std::vector<std::vector<int>> pairs(producerCount, std::vector<int>(consumerCount));
    for (std::size_t p = 0; p < producerCount; ++p) {
        for (std::size_t c = 0; c < consumerCount; ++c)
            pairs[p][c] = program.column(term.seconds[p][c] * kObjectiveScale, false);
    }
    for (std::size_t p = 0; p < producerCount; ++p) {
        std::vector<int> indices = {xColumns[term.producer][p]};
        std::vector<double> values = {-1.0};
        for (std::size_t c = 0; c < consumerCount; ++c) {
            indices.push_back(pairs[p][c]);
            values.push_back(1.0);
        }
        program.row(indices, values, 0.0, 0.0);
    }
    for (std::size_t c = 0; c < consumerCount; ++c) {
        std::vector<int> indices = {xColumns[term.consumer][c]};
        std::vector<double> values = {-1.0};
        for (std::size_t p = 0; p < producerCount; ++p) {
            indices.push_back(pairs[p][c]);
            values.push_back(1.0);
        }
        program.row(indices, values, 0.0, 0.0);
    }
}

// One shared conversion: a variable that is at least every needing consumer column, and
// per priced producer candidate a cost column that is at least "needed and chosen".
void addSharedConversion(Program& program, const std::vector<std::vector<int>>& xColumns,
                         const SearchTerms::SharedConversion& conversion)
{
    const int needed = program.column(0.0, false);
    for (const auto& [group, candidates] : conversion.needing) {
        std::vector<int> indices = {needed};
        std::vector<double> values = {1.0};
        for (const std::size_t c : candidates) {
            indices.push_back(xColumns[group][c]);
            values.push_back(-1.0);
        }
        program.row(indices, values, 0.0, COIN_DBL_MAX);
    }
    for (const auto& [p, seconds] : conversion.price) {
        const int paid = program.column(seconds * kObjectiveScale, false);
        program.row({paid, needed, xColumns[conversion.producer][p]}, {1.0, -1.0, -1.0}, -1.0, COIN_DBL_MAX);
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
    const SearchTerms terms = priceSearchTerms(costs, coarse, groups, !options.minimizeMemory);

    Program program;
    std::vector<std::vector<int>> xColumns(groups.size());
    std::vector<int> memoryIndices;
    std::vector<double> memoryValues;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        std::vector<int> indices;
        for (std::size_t c = 0; c < groups[g].candidates.size(); ++c) {
            const double bytes = terms.memoryBytes[g][c];
            const int column = program.column(options.minimizeMemory ? bytes * kMemoryScale
                                                                     : terms.nodeSeconds[g][c] * kObjectiveScale,
                                              true);
            xColumns[g].push_back(column);
            indices.push_back(column);
            memoryIndices.push_back(column);
            memoryValues.push_back(bytes * kMemoryScale);
        }
        program.row(indices, std::vector<double>(indices.size(), 1.0), 1.0, 1.0);
    }
    if (options.memoryLimitBytes && !options.minimizeMemory)
        program.row(memoryIndices, memoryValues, -COIN_DBL_MAX, *options.memoryLimitBytes * kMemoryScale);
    for (const SearchTerms::PairTerm& term : terms.pairs)
        addPairTerm(program, xColumns, term);
    for (const SearchTerms::SharedConversion& conversion : terms.sharedConversions)
        addSharedConversion(program, xColumns, conversion);

    program.rows.setDimensions(program.rows.getNumRows(), static_cast<int>(program.objective.size()));
    OsiClpSolverInterface solver;
    solver.messageHandler()->setLogLevel(0);
    solver.loadProblem(program.rows, program.lower.data(), program.upper.data(), program.objective.data(),
                       program.rowLower.data(), program.rowUpper.data());
    for (const int column : program.integers)
        solver.setInteger(column);

    CbcModel model(solver);
    model.setLogLevel(0);
    model.messageHandler()->setLogLevel(0);
    // Wall-clock: by default CBC counts the process's CPU time, which runs faster when
    // searches for several meshes share the process.
    model.setUseElapsedTime(true);
    model.setMaximumSeconds(options.timeLimitSeconds);
    bool cancelled = false;
    Handler handler(options, xColumns, &cancelled);
    model.passInEventHandler(&handler);
    model.branchAndBound();

    IlpResult result;
    result.columns = program.objective.size();
    result.rows = program.rowLower.size();
    result.branchNodes = model.getNodeCount();
    result.cancelled = cancelled;
    result.bound = model.getBestPossibleObjValue() / kObjectiveScale;
    if (model.bestSolution()) {
        result.choice = Handler::decode(model.bestSolution(), xColumns);
        result.objective = model.getObjValue() / (options.minimizeMemory ? kMemoryScale : kObjectiveScale);
        result.status = model.isProvenOptimal() ? IlpStatus::Optimal : IlpStatus::Feasible;
        for (std::size_t g = 0; g < groups.size(); ++g)
            result.estimatedMemoryBytes += terms.memoryBytes[g][result.choice[g]];
    } else {
        result.status = model.isProvenInfeasible() ? IlpStatus::Infeasible : IlpStatus::NoSolution;
    }
    return result;
}

}  // namespace tapestry
