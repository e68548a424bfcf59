#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

// The name in `known` that `word` misspells: one within two single-character edits
// (an insertion, a deletion or a substitution each) of a word of 8 characters or more,
// the closest one if several are.
// nullopt when `word` is one of them, or near none. Readers use it to refuse a field or
// flag that their stack would refuse too, where ignoring it would leave the field it
// means at its default.
[[nodiscard]] std::optional<std::string> misspeltName(std::string_view word, const std::vector<std::string>& known);

// The name in `known` nearest `word`, for a "did you mean" hint on a word already
// refused: within two single-character edits and at most half of `word`'s characters
// ("mseh" -> "mesh"), the closest one if several are. nullopt when `word` is one of them,
// or near none.
[[nodiscard]] std::optional<std::string> nearestName(std::string_view word, const std::vector<std::string>& known);

}  // namespace tapestry
