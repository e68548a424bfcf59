#pragma once

#include <vector>

namespace tapestry {

// How well runs pin a cluster's figures, judged before fitting them: the least-squares
// fit of the runs' log step errors, linearized in the figures' logarithms,
//   minimize over x  sum_r (logErrors[r] + sum_f elasticities[r][f] x[f])^2,
// where elasticities[r][f] = d ln step_r / d ln figure_f and x[f] is the change of
// ln figure_f. Its standard errors, sigma sqrt(((J^T J)^-1)_ff) with sigma^2 the residual
// sum of squares over (runs - figures), say how far the runs' scatter leaves each figure
// free: large when no run responds to a figure, when two figures move the runs' steps in
// the same proportions, or when the runs disagree.
struct LinearizedFit {
    std::vector<double> shift;          // x: the change of each figure's logarithm
    std::vector<double> standardError;  // of each shift; infinite where J^T J is singular
    double residualSigma = 0;
};

// Requires as many elasticities as log errors, every row as long, and more rows than
// columns.
[[nodiscard]] LinearizedFit linearizedFit(const std::vector<std::vector<double>>& elasticities,
                                          const std::vector<double>& logErrors);

}  // namespace tapestry
