#pragma once

#include "solver/CbcSolve.h"

#include <optional>
#include <vector>

namespace tapestry {

// A knapsack row over binaries that come in groups, each group taking exactly one of its
// columns (a multiple-choice knapsack): the exact engine's memory row at one time point,
// where each group's strategies weigh their usage above the least.
struct ChoiceKnapsack {
    std::vector<int> columns;
    std::vector<double> weights;  // per column, > 0 (columns of weight 0 are left out)
    std::vector<int> groups;      // per column, its group
    double room = 0;              // sum of weights <= room
};

// The most violated cover inequality of the row at the point `x` (per column of the
// whole program), when one is violated by more than `minViolation`. A cover is a set C
// of groups with a threshold weight w_g each whose sum exceeds the room: they cannot all
// take a column of at least their threshold, so
//     sum over g in C of (x of g's columns weighing >= w_g) <= |C| - 1.
// Each group's threshold is lowered as far as the sum allows (more columns, a stronger
// cut), and groups are dropped while the rest still exceed the room. Valid for every
// integer point of the row; the point of a linear relaxation can break it.
[[nodiscard]] std::optional<RowCut> violatedCover(const ChoiceKnapsack& row, const double* x, double minViolation);

}  // namespace tapestry
