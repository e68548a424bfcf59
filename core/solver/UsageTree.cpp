#include "solver/UsageTree.h"

#include <algorithm>
#include <limits>

namespace tapestry {

namespace {
constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::min() / 4;
}

UsageTree::UsageTree(std::int64_t size) : size_(std::max<std::int64_t>(size, 1))
{
    maxima_.assign(static_cast<std::size_t>(4 * size_), 0);
    pending_.assign(static_cast<std::size_t>(4 * size_), 0);
}

void UsageTree::add(std::int64_t lo, std::int64_t hi, std::int64_t amount)
{
    if (lo < hi && amount != 0)
        add(1, 0, size_, lo, hi, amount);
}

void UsageTree::add(int node, std::int64_t nodeLo, std::int64_t nodeHi, std::int64_t lo, std::int64_t hi,
                    std::int64_t amount)
{
    if (hi <= nodeLo || nodeHi <= lo)
        return;
    const auto n = static_cast<std::size_t>(node);
    if (lo <= nodeLo && nodeHi <= hi) {
        maxima_[n] += amount;
        pending_[n] += amount;
        return;
    }
    const std::int64_t mid = (nodeLo + nodeHi) / 2;
    add(2 * node, nodeLo, mid, lo, hi, amount);
    add(2 * node + 1, mid, nodeHi, lo, hi, amount);
    maxima_[n] = std::max(maxima_[2 * n], maxima_[2 * n + 1]) + pending_[n];
}

std::int64_t UsageTree::max(std::int64_t lo, std::int64_t hi) const
{
    return max(1, 0, size_, lo, hi);
}

std::int64_t UsageTree::max(int node, std::int64_t nodeLo, std::int64_t nodeHi, std::int64_t lo,
                            std::int64_t hi) const
{
    if (hi <= nodeLo || nodeHi <= lo)
        return kNone;
    const auto n = static_cast<std::size_t>(node);
    if (lo <= nodeLo && nodeHi <= hi)
        return maxima_[n];
    const std::int64_t mid = (nodeLo + nodeHi) / 2;
    return std::max(max(2 * node, nodeLo, mid, lo, hi), max(2 * node + 1, mid, nodeHi, lo, hi)) + pending_[n];
}

std::int64_t UsageTree::argMax(std::int64_t lo, std::int64_t hi) const
{
    return argMax(1, 0, size_, lo, hi, max(lo, hi), 0);
}

std::int64_t UsageTree::argMax(int node, std::int64_t nodeLo, std::int64_t nodeHi, std::int64_t lo, std::int64_t hi,
                               std::int64_t target, std::int64_t above) const
{
    // `above`: pending adds of the ancestors. Returns -1 when the target is not here.
    const auto n = static_cast<std::size_t>(node);
    if (hi <= nodeLo || nodeHi <= lo || maxima_[n] + above < target)
        return -1;
    if (nodeHi - nodeLo == 1)
        return nodeLo;
    const std::int64_t mid = (nodeLo + nodeHi) / 2;
    const std::int64_t left = argMax(2 * node, nodeLo, mid, lo, hi, target, above + pending_[n]);
    return left >= 0 ? left : argMax(2 * node + 1, mid, nodeHi, lo, hi, target, above + pending_[n]);
}

}  // namespace tapestry
