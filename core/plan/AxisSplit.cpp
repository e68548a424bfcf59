#include "plan/AxisSplit.h"

#include <algorithm>
#include <array>

namespace tapestry {

namespace {

constexpr std::array<std::pair<AxisSplit, std::string_view>, 8> kNames = {{
    {AxisSplit::None, "none"},
    {AxisSplit::Batch, "batch"},
    {AxisSplit::Sequence, "sequence"},
    {AxisSplit::Column, "column"},
    {AxisSplit::Row, "row"},
    {AxisSplit::Head, "head"},
    {AxisSplit::Hidden, "hidden"},
    {AxisSplit::Expert, "expert"},
}};

}  // namespace

const char* axisSplitName(AxisSplit split)
{
    for (const auto& [value, name] : kNames) {
        if (value == split)
            return name.data();
    }
    return "none";
}

std::optional<AxisSplit> axisSplitFromName(std::string_view name)
{
    for (const auto& [value, text] : kNames) {
        if (text == name)
            return value;
    }
    return std::nullopt;
}

const char* axisLayoutName(AxisLayout layout)
{
    switch (layout) {
    case AxisLayout::Replicated: return "replicated";
    case AxisLayout::Batch: return "batch-sharded";
    case AxisLayout::Sequence: return "sequence-sharded";
    case AxisLayout::Hidden: return "hidden-sharded";
    case AxisLayout::Partial: return "partial";
    case AxisLayout::Expert: return "expert-routed";
    }
    return "replicated";
}

const std::vector<AxisSplit>& legalSplits(CoarseNodeKind kind)
{
    // Linear layers and embeddings also run on a sequence chunk (context parallelism);
    // a convolution's spatial split would need halo exchanges, which nothing prices.
    static const std::vector<AxisSplit> linear = {AxisSplit::None,   AxisSplit::Batch, AxisSplit::Sequence,
                                                  AxisSplit::Column, AxisSplit::Row,   AxisSplit::Expert};
    static const std::vector<AxisSplit> embedding = {AxisSplit::None, AxisSplit::Batch, AxisSplit::Sequence,
                                                     AxisSplit::Column, AxisSplit::Row};
    static const std::vector<AxisSplit> convolution = {AxisSplit::None, AxisSplit::Batch, AxisSplit::Column,
                                                       AxisSplit::Row};
    static const std::vector<AxisSplit> batched = {AxisSplit::None, AxisSplit::Batch, AxisSplit::Sequence,
                                                   AxisSplit::Head};
    static const std::vector<AxisSplit> normalization = {AxisSplit::None, AxisSplit::Batch, AxisSplit::Sequence};
    static const std::vector<AxisSplit> elementwise = {AxisSplit::None, AxisSplit::Batch, AxisSplit::Sequence,
                                                       AxisSplit::Hidden, AxisSplit::Expert};
    switch (kind) {
    case CoarseNodeKind::Linear: return linear;
    case CoarseNodeKind::Embedding: return embedding;
    case CoarseNodeKind::Conv: return convolution;
    case CoarseNodeKind::BatchedMatMul: return batched;
    case CoarseNodeKind::Normalization: return normalization;
    case CoarseNodeKind::Elementwise: return elementwise;
    }
    return elementwise;
}

bool isLegalSplit(CoarseNodeKind kind, AxisSplit split)
{
    // Per kind, a bit per legal split: every node of every plan a search builds is checked.
    constexpr std::size_t kinds = static_cast<std::size_t>(CoarseNodeKind::Elementwise) + 1;  // the last kind
    static const std::array<std::uint32_t, kinds> legal = [] {
        std::array<std::uint32_t, kinds> masks{};
        for (std::size_t k = 0; k < masks.size(); ++k) {
            for (const AxisSplit each : legalSplits(static_cast<CoarseNodeKind>(k)))
                masks[k] |= 1u << static_cast<unsigned>(each);
        }
        return masks;
    }();
    const auto k = static_cast<std::size_t>(kind);
    return k < kinds && (legal[k] >> static_cast<unsigned>(split) & 1u) != 0;
}

AxisLayout requiredInputLayout(CoarseNodeKind kind, AxisSplit split)
{
    switch (split) {
    case AxisSplit::None:
    case AxisSplit::Column: return AxisLayout::Replicated;
    case AxisSplit::Batch: return AxisLayout::Batch;
    case AxisSplit::Expert: return AxisLayout::Expert;
    case AxisSplit::Sequence: return AxisLayout::Sequence;
    // A vocabulary-parallel embedding looks up replicated ids in its own rows.
    case AxisSplit::Row: return kind == CoarseNodeKind::Embedding ? AxisLayout::Replicated : AxisLayout::Hidden;
    case AxisSplit::Head:
    case AxisSplit::Hidden: return AxisLayout::Hidden;
    }
    return AxisLayout::Replicated;
}

AxisLayout outputLayout(AxisSplit split)
{
    switch (split) {
    case AxisSplit::None: return AxisLayout::Replicated;
    case AxisSplit::Batch: return AxisLayout::Batch;
    case AxisSplit::Expert: return AxisLayout::Expert;
    case AxisSplit::Sequence: return AxisLayout::Sequence;
    case AxisSplit::Column:
    case AxisSplit::Head:
    case AxisSplit::Hidden: return AxisLayout::Hidden;
    case AxisSplit::Row: return AxisLayout::Partial;
    }
    return AxisLayout::Replicated;
}

AxisLayout inputGradientLayout(CoarseNodeKind kind, AxisSplit split)
{
    // dX = dY W^T with W split by columns sums over the split: partial.
    if (split == AxisSplit::Column && kind != CoarseNodeKind::Embedding)
        return AxisLayout::Partial;
    return requiredInputLayout(kind, split);
}

bool splitsWeights(AxisSplit split)
{
    return split == AxisSplit::Column || split == AxisSplit::Row;
}

bool synchronizesGradients(AxisSplit split)
{
    return split == AxisSplit::Batch || split == AxisSplit::Sequence;
}

}  // namespace tapestry
