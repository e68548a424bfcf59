#include "plan/PipelineLayout.h"

#include "base/Error.h"

#include <algorithm>
#include <string>

namespace tapestry {

const char* pipelineScheduleName(PipelineSchedule schedule)
{
    switch (schedule) {
    case PipelineSchedule::GPipe: return "gpipe";
    case PipelineSchedule::OneFOneB: return "1f1b";
    case PipelineSchedule::Interleaved: return "interleaved";
    }
    return "1f1b";
}

std::optional<PipelineSchedule> pipelineScheduleFromName(std::string_view name)
{
    for (const PipelineSchedule s : {PipelineSchedule::GPipe, PipelineSchedule::OneFOneB, PipelineSchedule::Interleaved}) {
        if (name == pipelineScheduleName(s))
            return s;
    }
    return std::nullopt;
}

std::vector<const BlockInstance*> modelBlocks(const FamilyTable& families)
{
    std::vector<const BlockInstance*> blocks;
    for (const Family& family : families.families) {
        if (family.parent.isValid())
            continue;
        for (const BlockInstance& instance : family.instances)
            blocks.push_back(&instance);
    }
    std::sort(blocks.begin(), blocks.end(),
              [](const BlockInstance* a, const BlockInstance* b) { return a->nodes.front() < b->nodes.front(); });
    return blocks;
}

void validatePipelineLayout(const PipelineLayout& layout)
{
    if (layout.stages < 1 || layout.virtualStages < 1)
        throw Error(ErrorCode::InvalidPlan, {},
                    "a pipeline has " + std::to_string(layout.stages) + " stages and " +
                        std::to_string(layout.virtualStages) + " virtual stages; both are at least 1");
    if (layout.virtualStages > 1 && layout.schedule != PipelineSchedule::Interleaved)
        throw Error(ErrorCode::InvalidPlan, {},
                    std::string("virtual stages need the interleaved schedule, not ") +
                        pipelineScheduleName(layout.schedule));
}

std::vector<std::size_t> chunkStarts(const PipelineLayout& layout, std::size_t blockCount)
{
    validatePipelineLayout(layout);
    const auto chunks = static_cast<std::size_t>(layout.chunks());
    if (blockCount < chunks)
        throw Error(ErrorCode::InvalidPlan, {},
                    "a pipeline of " + std::to_string(layout.stages) + " stages x " +
                        std::to_string(layout.virtualStages) + " chunks needs " + std::to_string(chunks) +
                        " blocks; the model has " + std::to_string(blockCount));
    if (layout.chunkStarts.empty()) {
        std::vector<std::size_t> starts(chunks);
        for (std::size_t c = 0; c < chunks; ++c)
            starts[c] = c * blockCount / chunks;
        return starts;
    }
    const std::vector<std::size_t>& starts = layout.chunkStarts;
    bool ascending = starts.size() == chunks && starts.front() == 0 && starts.back() < blockCount;
    for (std::size_t c = 1; ascending && c < starts.size(); ++c)
        ascending = starts[c - 1] < starts[c];
    if (!ascending)
        throw Error(ErrorCode::InvalidPlan, {},
                    "the pipeline's chunk starts are not " + std::to_string(chunks) +
                        " ascending block indices from 0 below " + std::to_string(blockCount));
    return starts;
}

std::vector<std::size_t> chunkOfNodes(const PipelineLayout& layout, const FamilyTable& families, std::size_t nodeCount)
{
    const std::vector<const BlockInstance*> blocks = modelBlocks(families);
    const std::vector<std::size_t> starts = chunkStarts(layout, blocks.size());
    const std::size_t chunks = starts.size();
    std::vector<std::size_t> chunkOf(nodeCount, chunks - 1);
    const std::size_t firstBlockNode = blocks.front()->nodes.front().index();
    std::fill(chunkOf.begin(), chunkOf.begin() + static_cast<std::ptrdiff_t>(std::min(firstBlockNode, nodeCount)), 0);
    for (std::size_t c = 0; c < chunks; ++c) {
        const std::size_t end = c + 1 < chunks ? starts[c + 1] : blocks.size();
        for (std::size_t b = starts[c]; b < end; ++b) {
            for (const CoarseNodeId id : blocks[b]->nodes)
                chunkOf[id.index()] = c;
        }
    }
    return chunkOf;
}

std::vector<std::int64_t> chunkBlockCounts(const std::vector<std::size_t>& starts, std::int64_t blocks)
{
    std::vector<std::int64_t> counts;
    for (std::size_t c = 0; c < starts.size(); ++c)
        counts.push_back((c + 1 < starts.size() ? static_cast<std::int64_t>(starts[c + 1]) : blocks) -
                         static_cast<std::int64_t>(starts[c]));
    return counts;
}

bool equalBlockCounts(const std::vector<std::int64_t>& counts, std::size_t from, std::size_t to)
{
    return from >= to || std::all_of(counts.begin() + static_cast<std::ptrdiff_t>(from),
                                     counts.begin() + static_cast<std::ptrdiff_t>(to),
                                     [&](std::int64_t c) { return c == counts[from]; });
}

}  // namespace tapestry
