#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "target/TrainingStack.h"

namespace tapestry {
class CostModel;
struct CoarseGraph;
struct Plan;
}

namespace tapestry::cli {

// "8.03 B", "124.4 M", "512"
[[nodiscard]] std::string humanCount(std::uint64_t count);
// "16.06 GB" (decimal units, as model cards quote them)
[[nodiscard]] std::string humanBytes(std::uint64_t bytes);
// The workload a cost model prices `plan` with, and where its batch and sequence come from:
// "batch 16 x sequence 2048, micro-batch 2 per data-parallel rank (4 micro-steps of 2
//  ranks), bf16, adam, ZeRO-1, recompute selective, overlap on, flash2 attention"
[[nodiscard]] std::string describeWorkload(const CostModel& costs, const Plan& plan);
// "449 tokens/s per GPU, MFU 47.6 %" for a step of `stepSeconds` (cost/Throughput.h).
[[nodiscard]] std::string describeThroughput(const CostModel& costs, const CoarseGraph& coarse,
                                             double peakFlopsPerSecond, double stepSeconds);
// "runs as is on pytorch, megatron", or "not runnable as is on any training stack".
[[nodiscard]] std::string runnableStacksText(const std::vector<TrainingStack>& stacks);

}  // namespace tapestry::cli
