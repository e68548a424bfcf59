#include "search/ShardingIlp.h"

#include "base/Error.h"

#include <CbcEventHandler.hpp>
#include <CbcModel.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>

#include <functional>
#include <map>
#include <set>

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

// A tensor pattern after grouping: producer group, consumer groups, and how many
// tensors of the unfolded graph it stands for.
struct Pattern {
    const CostModel::CrossingTensor* tensor = nullptr;
    std::size_t producer = 0;
    std::vector<std::size_t> consumers;
    double weight = 0;
};


using KindOf = std::function<CoarseNodeKind(std::size_t)>;

AxisLayout gradientTarget(AxisLayout produced)
{
    return produced == AxisLayout::Partial ? AxisLayout::Replicated : produced;
}

// One consumer group: the exact pairwise cost table between the two groups' candidates,
// with the local marginal constraints (tight for chains and trees).
void addPairwiseTerms(Program& program, const CostModel& costs, const std::vector<StrategyGroup>& groups,
                      const std::vector<std::vector<int>>& xColumns, const Pattern& pattern, const KindOf& kindOf)
{
    const std::size_t producer = pattern.producer;
    const std::size_t consumer = pattern.consumers.front();
    const auto& producerCandidates = groups[producer].candidates;
    const auto& consumerCandidates = groups[consumer].candidates;
    const CoarseNodeKind consumerKind = kindOf(consumer);
    const std::size_t axisCount = costs.mesh().axisCount();
    auto pairCost = [&](const NodeStrategy& p, const NodeStrategy& c) {
        double seconds = 0;
        for (std::size_t a = 0; a < axisCount; ++a) {
            const AxisLayout produced = outputLayout(p.axes[a]);
            seconds += costs.conversionSeconds(*pattern.tensor, a, p, produced, requiredInputLayout(consumerKind, c.axes[a]));
            if (pattern.tensor->carriesGradient)
                seconds += costs.conversionSeconds(*pattern.tensor, a, p, inputGradientLayout(consumerKind, c.axes[a]),
                                                   gradientTarget(produced));
        }
        return seconds * pattern.weight * kObjectiveScale;
    };
    if (producer == consumer) {
        for (std::size_t p = 0; p < producerCandidates.size(); ++p)
            program.objective[static_cast<std::size_t>(xColumns[producer][p])] += pairCost(producerCandidates[p], producerCandidates[p]);
        return;
    }
    std::vector<std::vector<double>> table(producerCandidates.size(), std::vector<double>(consumerCandidates.size()));
    bool anyCost = false;
    for (std::size_t p = 0; p < producerCandidates.size(); ++p) {
        for (std::size_t c = 0; c < consumerCandidates.size(); ++c) {
            table[p][c] = pairCost(producerCandidates[p], consumerCandidates[c]);
            anyCost = anyCost || table[p][c] > 0;
        }
    }
    if (!anyCost)
        return;
    std::vector<std::vector<int>> pairs(producerCandidates.size(), std::vector<int>(consumerCandidates.size()));
    for (std::size_t p = 0; p < producerCandidates.size(); ++p) {
        for (std::size_t c = 0; c < consumerCandidates.size(); ++c)
            pairs[p][c] = program.column(table[p][c], false);
    }
    for (std::size_t p = 0; p < producerCandidates.size(); ++p) {
        std::vector<int> indices = {xColumns[producer][p]};
        std::vector<double> values = {-1.0};
        for (std::size_t c = 0; c < consumerCandidates.size(); ++c) {
            indices.push_back(pairs[p][c]);
            values.push_back(1.0);
        }
        program.row(indices, values, 0.0, 0.0);
    }
    for (std::size_t c = 0; c < consumerCandidates.size(); ++c) {
        std::vector<int> indices = {xColumns[consumer][c]};
        std::vector<double> values = {-1.0};
        for (std::size_t p = 0; p < producerCandidates.size(); ++p) {
            indices.push_back(pairs[p][c]);
            values.push_back(1.0);
        }
        program.row(indices, values, 0.0, 0.0);
    }
}

// Several consumer groups: per axis and layout a variable that is 1 when some consumer
// needs that layout, so each distinct layout is paid for once.
void addLayoutSetTerms(Program& program, const CostModel& costs, const std::vector<StrategyGroup>& groups,
                       const std::vector<std::vector<int>>& xColumns, const Pattern& pattern, const KindOf& kindOf)
{
    const auto& producerCandidates = groups[pattern.producer].candidates;
    for (std::size_t a = 0; a < costs.mesh().axisCount(); ++a) {
        if (costs.mesh().axis(a).size <= 1)
            continue;
        for (const bool backward : {false, true}) {
            if (backward && !pattern.tensor->carriesGradient)
                continue;
            // The layouts consumers may need (forward) or hand back (backward).
            auto layoutOf = [&](std::size_t g, const NodeStrategy& c) {
                return backward ? inputGradientLayout(kindOf(g), c.axes[a]) : requiredInputLayout(kindOf(g), c.axes[a]);
            };
            std::set<AxisLayout> layouts;
            for (const std::size_t g : pattern.consumers) {
                for (const NodeStrategy& c : groups[g].candidates)
                    layouts.insert(layoutOf(g, c));
            }
            for (const AxisLayout layout : layouts) {
                std::vector<std::pair<std::size_t, double>> priced;
                for (std::size_t p = 0; p < producerCandidates.size(); ++p) {
                    const AxisLayout produced = outputLayout(producerCandidates[p].axes[a]);
                    const AxisLayout from = backward ? layout : produced;
                    const AxisLayout to = backward ? gradientTarget(produced) : layout;
                    const double seconds = costs.conversionSeconds(*pattern.tensor, a, producerCandidates[p], from, to);
                    if (seconds > 0)
                        priced.emplace_back(p, seconds * pattern.weight * kObjectiveScale);
                }
                if (priced.empty())
                    continue;
                const int needed = program.column(0.0, false);
                for (const std::size_t g : pattern.consumers) {
                    std::vector<int> indices = {needed};
                    std::vector<double> values = {1.0};
                    for (std::size_t c = 0; c < groups[g].candidates.size(); ++c) {
                        if (layoutOf(g, groups[g].candidates[c]) == layout) {
                            indices.push_back(xColumns[g][c]);
                            values.push_back(-1.0);
                        }
                    }
                    if (indices.size() > 1)
                        program.row(indices, values, 0.0, COIN_DBL_MAX);
                }
                for (const auto& [p, cost] : priced) {
                    const int paid = program.column(cost, false);
                    program.row({paid, needed, xColumns[pattern.producer][p]}, {1.0, -1.0, -1.0}, -1.0, COIN_DBL_MAX);
                }
            }
        }
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
    std::vector<std::size_t> groupOf(coarse.nodes.size(), SIZE_MAX);
    for (std::size_t g = 0; g < groups.size(); ++g) {
        for (const CoarseNodeId member : groups[g].members)
            groupOf[member.index()] = g;
    }
    for (const CoarseNode& node : coarse.nodes) {
        if (groupOf[node.id.index()] == SIZE_MAX)
            throw Error(ErrorCode::InvalidArgument, {}, "search: coarse node '" + node.name + "' is in no group");
    }
    const KindOf kindOf = [&](std::size_t g) { return coarse.node(groups[g].members.front()).kind; };

    Program program;
    std::vector<std::vector<int>> xColumns(groups.size());
    std::vector<std::vector<double>> memory(groups.size());
    std::vector<int> memoryIndices;
    std::vector<double> memoryValues;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const double weight = static_cast<double>(groups[g].members.size());
        std::vector<int> indices;
        for (const NodeStrategy& candidate : groups[g].candidates) {
            // Every member has the same facts up to its own weights; price the first.
            const CostModel::StrategyTerms terms = costs.strategyTerms(groups[g].members.front(), candidate);
            double bytes = 0;
            for (const CoarseNodeId member : groups[g].members)
                bytes += costs.strategyTerms(member, candidate).memoryBytes;
            const double cost = options.minimizeMemory ? bytes * kMemoryScale
                                                       : weight * (terms.computeSeconds + terms.gradientSyncSeconds) * kObjectiveScale;
            const int column = program.column(cost, true);
            xColumns[g].push_back(column);
            memory[g].push_back(bytes);
            indices.push_back(column);
            memoryIndices.push_back(column);
            memoryValues.push_back(bytes * kMemoryScale);
        }
        program.row(indices, std::vector<double>(indices.size(), 1.0), 1.0, 1.0);
    }
    if (options.memoryLimitBytes && !options.minimizeMemory)
        program.row(memoryIndices, memoryValues, -COIN_DBL_MAX, *options.memoryLimitBytes * kMemoryScale);

    if (!options.minimizeMemory) {
        // Merge tensors that connect the same groups the same way.
        std::map<std::tuple<std::size_t, std::vector<std::size_t>, double, bool>, Pattern> patterns;
        for (const CostModel::CrossingTensor& tensor : costs.crossingTensors()) {
            std::set<std::size_t> consumerGroups;
            for (const auto& consumer : tensor.consumers)
                consumerGroups.insert(groupOf[consumer.first.index()]);
            const std::vector<std::size_t> consumers(consumerGroups.begin(), consumerGroups.end());
            const std::size_t producer = groupOf[tensor.producer.index()];
            Pattern& pattern = patterns[{producer, consumers, tensor.bytes, tensor.carriesGradient}];
            pattern.tensor = &tensor;
            pattern.producer = producer;
            pattern.consumers = consumers;
            pattern.weight += 1;
        }
        for (const auto& [key, pattern] : patterns) {
            if (pattern.consumers.size() == 1)
                addPairwiseTerms(program, costs, groups, xColumns, pattern, kindOf);
            else
                addLayoutSetTerms(program, costs, groups, xColumns, pattern, kindOf);
        }
    }

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
            result.estimatedMemoryBytes += memory[g][result.choice[g]];
    } else {
        result.status = model.isProvenInfeasible() ? IlpStatus::Infeasible : IlpStatus::NoSolution;
    }
    return result;
}

}  // namespace tapestry
