#pragma once

#include "cost/CostModel.h"
#include "cost/PlanEvaluation.h"
#include "fold/FamilyTable.h"
#include "plan/PipelineLayout.h"

#include <cstddef>
#include <vector>

namespace tapestry {

// The chunk starts of `layout` (its stages, virtual stages and schedule) over the
// model's blocks that make the slowest stage's micro-batch time as short as possible,
// balanced by the cost model's per-node prices in `evaluation` (a plan with the same
// strategies priced on one stage's devices, any chunk starts). The nodes before the
// first block stay with the first chunk and those after the last block with the last.
// With one chunk per stage every stage's memory (its states, its activations times the
// micro-batches it keeps in flight, the largest transient buffer) is kept under
// `memoryLimitBytes` where any partition allows it; with virtual stages the time alone
// is balanced. `microBatches`: per step and data-parallel rank.
[[nodiscard]] std::vector<std::size_t> balancedChunkStarts(const PlanEvaluation& evaluation, const PipelineLayout& layout,
                                                           const CoarseGraph& coarse, const FamilyTable& families,
                                                           int microBatches, double memoryLimitBytes);
// The same balanced by the costs of each block, of the nodes before and after the blocks
// and of the transient buffer (CostModel::blockCosts: a uniform plan priced by classes).
[[nodiscard]] std::vector<std::size_t> balancedChunkStarts(const CostModel::BlockCosts& costs,
                                                           const PipelineLayout& layout, int microBatches,
                                                           double memoryLimitBytes);

}  // namespace tapestry
