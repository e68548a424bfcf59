#include "fold/CoarseGraph.h"

namespace tapestry {

const char* coarseNodeKindName(CoarseNodeKind kind)
{
    switch (kind) {
    case CoarseNodeKind::Linear: return "linear";
    case CoarseNodeKind::Conv: return "conv";
    case CoarseNodeKind::Embedding: return "embedding";
    case CoarseNodeKind::BatchedMatMul: return "batched-matmul";
    case CoarseNodeKind::Normalization: return "normalization";
    case CoarseNodeKind::Elementwise: return "elementwise";
    }
    return "unknown";
}

bool isAnchorKind(CoarseNodeKind kind)
{
    return kind != CoarseNodeKind::Normalization && kind != CoarseNodeKind::Elementwise;
}

std::size_t CoarseGraph::anchorCount() const
{
    std::size_t count = 0;
    for (const CoarseNode& node : nodes)
        count += isAnchorKind(node.kind) ? 1 : 0;
    return count;
}

}  // namespace tapestry
