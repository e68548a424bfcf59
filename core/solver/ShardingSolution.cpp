#include "solver/ShardingSolution.h"

namespace tapestry {

ShardingSolution ShardingSolution::evaluate(const ShardingProblem& problem, Assignment assignment)
{
    ShardingSolution solution;
    solution.evaluation = evaluateSolution(problem, assignment);
    solution.usage = usageProfile(problem, assignment);
    solution.assignment = std::move(assignment);
    return solution;
}

}  // namespace tapestry
