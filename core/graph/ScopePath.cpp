#include "graph/ScopePath.h"

namespace tapestry {

ScopePath ScopePath::fromTorchScriptNodeName(std::string_view nodeName)
{
    if (nodeName.empty() || nodeName.front() != '/')
        return {};
    // Calls `each` with every non-empty part between slashes.
    const auto forEachPart = [nodeName](const auto& each) {
        std::size_t start = 1;
        while (start <= nodeName.size()) {
            const std::size_t slash = nodeName.find('/', start);
            const std::size_t end = slash == std::string_view::npos ? nodeName.size() : slash;
            if (end > start && !each(nodeName.substr(start, end - start)))
                return;
            if (slash == std::string_view::npos)
                return;
            start = slash + 1;
        }
    };
    std::size_t count = 0;
    forEachPart([&count](std::string_view) {
        ++count;
        return true;
    });
    // Every part but the last (the op itself), each copied once into its place.
    std::vector<std::string> parts;
    parts.reserve(count > 0 ? count - 1 : 0);
    forEachPart([&parts, count](std::string_view part) {
        if (parts.size() + 1 >= count)
            return false;
        parts.emplace_back(part);
        return true;
    });
    return ScopePath(std::move(parts));
}

ScopePath ScopePath::fromDynamoNameScopes(const std::vector<std::string>& scopes)
{
    std::vector<std::string> parts;
    std::string previous;
    // The last entry is the function the node came from ("linear", "rsqrt").
    const std::size_t moduleEntries = scopes.empty() ? 0 : scopes.size() - 1;
    for (std::size_t i = 0; i < moduleEntries; ++i) {
        const std::string& entry = scopes[i];
        if (entry.empty())
            continue;
        if (!previous.empty() && entry.size() > previous.size() + 1 &&
            entry.compare(0, previous.size(), previous) == 0 && entry[previous.size()] == '.') {
            parts.push_back(entry.substr(previous.size() + 1));
        } else {
            parts.push_back(entry);
        }
        previous = entry;
    }
    return ScopePath(std::move(parts));
}

std::string ScopePath::toString() const
{
    std::string text;
    for (std::size_t i = 0; i < components_.size(); ++i) {
        if (i > 0)
            text += '/';
        text += components_[i];
    }
    return text;
}

std::string ScopePath::toModulePath() const
{
    std::string text;
    for (std::size_t i = 0; i < components_.size(); ++i) {
        if (i > 0)
            text += '.';
        text += components_[i];
    }
    return text;
}

bool parsePythonStringList(std::string_view text, std::vector<std::string>& out)
{
    out.clear();
    std::size_t i = 0;
    auto skipSpace = [&] {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t'))
            ++i;
    };
    skipSpace();
    if (i >= text.size() || text[i] != '[')
        return false;
    ++i;
    skipSpace();
    if (i < text.size() && text[i] == ']')
        return true;
    while (i < text.size()) {
        skipSpace();
        if (i >= text.size() || (text[i] != '\'' && text[i] != '"'))
            return false;
        const char quote = text[i++];
        std::string item;
        while (i < text.size() && text[i] != quote) {
            if (text[i] == '\\' && i + 1 < text.size())
                ++i;
            item += text[i++];
        }
        if (i >= text.size())
            return false;
        ++i;
        out.push_back(std::move(item));
        skipSpace();
        if (i < text.size() && text[i] == ',') {
            ++i;
            continue;
        }
        if (i < text.size() && text[i] == ']')
            return true;
        return false;
    }
    return false;
}

}  // namespace tapestry
