#pragma once

#include "fold/FamilyTable.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tapestry {

// Pipeline schedules (training.md, "Pipeline parallelism"; Narayanan et al., SC'21).
enum class PipelineSchedule : std::uint8_t {
    GPipe,        // all forwards, then all backwards: m micro-batches of activations in flight
    OneFOneB,     // one forward, one backward: at most p in flight on the first stage
    Interleaved,  // 1F1B over v chunks per device: bubble (p - 1)/(v m), p2p x v
};

[[nodiscard]] const char* pipelineScheduleName(PipelineSchedule schedule);
[[nodiscard]] std::optional<PipelineSchedule> pipelineScheduleFromName(std::string_view name);

// How a plan runs as a pipeline: `stages` groups of devices (the mesh's "pp" axis,
// outermost, so a stage is a contiguous range of devices), each running the plan's
// strategies on the stage mesh (Plan::mesh) for `virtualStages` chunks of consecutive
// blocks. Blocks are the model's top-level repeated block instances in order
// (modelBlocks); chunk c runs on stage c mod stages. The nodes before the first block
// (embedding) run with the first chunk, the nodes after the last (head, loss) with the
// last chunk.
struct PipelineLayout {
    int stages = 1;         // p; 1: no pipeline
    int virtualStages = 1;  // v: chunks per stage (Interleaved only)
    PipelineSchedule schedule = PipelineSchedule::OneFOneB;
    // The first block of each of the p x v chunks (ascending, the first 0); empty: as
    // even as the counts allow.
    std::vector<std::size_t> chunkStarts;

    [[nodiscard]] bool active() const { return stages > 1; }
    [[nodiscard]] int chunks() const { return stages * virtualStages; }
    bool operator==(const PipelineLayout&) const = default;
};

// The model's blocks in order: each top-level family instance.
[[nodiscard]] std::vector<const BlockInstance*> modelBlocks(const FamilyTable& families);

// The first block of every chunk, `layout.chunkStarts` or the even split of `blockCount`
// blocks. Throws Error(InvalidPlan) when there are fewer blocks than chunks, or the
// starts are not p x v ascending block indices from 0.
[[nodiscard]] std::vector<std::size_t> chunkStarts(const PipelineLayout& layout, std::size_t blockCount);
// The blocks of each chunk that starts at `starts` (ascending) among `blocks` blocks.
[[nodiscard]] std::vector<std::int64_t> chunkBlockCounts(const std::vector<std::size_t>& starts, std::int64_t blocks);
// Whether counts[from, to) are all equal (an empty range is).
[[nodiscard]] bool equalBlockCounts(const std::vector<std::int64_t>& counts, std::size_t from, std::size_t to);

// The chunk that runs each of `nodeCount` coarse nodes (indexed by CoarseNodeId): a
// block's nodes with the chunk that holds the block, the nodes before the first block
// (embedding) with the first chunk, every other node outside blocks (head, loss) with
// the last. The node's stage is its chunk mod stages. Throws as chunkStarts does.
[[nodiscard]] std::vector<std::size_t> chunkOfNodes(const PipelineLayout& layout, const FamilyTable& families,
                                                    std::size_t nodeCount);

// Throws Error(InvalidPlan) for stages or virtual stages below 1, or virtual stages
// without the interleaved schedule.
void validatePipelineLayout(const PipelineLayout& layout);

}  // namespace tapestry
