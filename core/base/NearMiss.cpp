#include "base/NearMiss.h"

#include <algorithm>

namespace tapestry {

namespace {

// Short names sit within two edits of each other (fp16 and bf16).
constexpr std::size_t kShortestMisspelling = 8;
constexpr std::size_t kMostEdits = 2;

// The edit distance of `a` and `b` (Levenshtein) when it is at most kMostEdits, else
// kMostEdits + 1. Only cells within kMostEdits of the diagonal can stay that close, so
// each row costs a handful of cells whatever the lengths.
std::size_t editsBetween(std::string_view a, std::string_view b)
{
    const std::size_t far = kMostEdits + 1;
    if (a.size() > b.size() + kMostEdits || b.size() > a.size() + kMostEdits)
        return far;
    std::vector<std::size_t> previous(b.size() + 1, far);
    std::vector<std::size_t> current(b.size() + 1, far);
    for (std::size_t j = 0; j <= std::min(b.size(), kMostEdits); ++j)
        previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        const std::size_t first = i > kMostEdits ? i - kMostEdits : 1;
        const std::size_t last = std::min(b.size(), i + kMostEdits);
        std::fill(current.begin(), current.end(), far);
        current[0] = i <= kMostEdits ? i : far;
        std::size_t best = current[0];
        for (std::size_t j = first; j <= last; ++j) {
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1] ? 1 : 0),
                                   far});
            best = std::min(best, current[j]);
        }
        if (best >= far)
            return far;
        std::swap(previous, current);
    }
    return std::min(previous[b.size()], far);
}

}  // namespace

std::optional<std::string> nearestName(std::string_view word, const std::vector<std::string>& known)
{
    if (std::find(known.begin(), known.end(), word) != known.end())
        return std::nullopt;
    std::optional<std::string> closest;
    std::size_t fewest = std::min(kMostEdits, word.size() / 2) + 1;
    for (const std::string& name : known) {
        const std::size_t edits = editsBetween(word, name);
        if (edits < fewest) {
            fewest = edits;
            closest = name;
        }
    }
    return closest;
}

std::optional<std::string> misspeltName(std::string_view word, const std::vector<std::string>& known)
{
    if (word.size() < kShortestMisspelling)
        return std::nullopt;
    return nearestName(word, known);
}

}  // namespace tapestry
