#include "iopddl/SolutionLine.h"

#include "base/Error.h"
#include "base/JsonReader.h"

#include <climits>
#include <cmath>

namespace tapestry {

namespace {

std::string_view lastNonEmptyLine(std::string_view text)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    std::size_t end = text.size();
    while (end > 0 && blank(text[end - 1]))
        --end;
    if (end == 0)
        return {};
    const std::size_t newline = text.find_last_of('\n', end - 1);
    const std::size_t begin = newline == std::string_view::npos ? 0 : newline + 1;
    return text.substr(begin, end - begin);
}

}  // namespace

std::string solutionLine(const Assignment& assignment)
{
    std::string line = "[";
    for (std::size_t i = 0; i < assignment.size(); ++i) {
        if (i > 0)
            line += ", ";
        line += std::to_string(assignment[i]);
    }
    return line + "]";
}

Assignment parseSolutionText(std::string_view text, const std::string& fileName)
{
    JsonValue list;
    try {
        list = parseJson(lastNonEmptyLine(text), fileName);
    } catch (Error& error) {
        error.addContext("reading the solution on its last line");
        throw;
    }
    if (!list.isArray())
        throw Error(ErrorCode::InvalidArgument, fileName,
                    std::string("the last line is a JSON ") + list.kindName() + ", not a list of strategies");
    Assignment assignment;
    assignment.reserve(list.asArray().size());
    for (const JsonValue& entry : list.asArray()) {
        const double strategy = entry.isNumber() ? entry.asNumber() : -1;
        if (strategy < 0 || strategy > INT_MAX || std::floor(strategy) != strategy)
            throw Error(ErrorCode::InvalidArgument, fileName,
                        "entry " + std::to_string(assignment.size()) + " is not a strategy index");
        assignment.push_back(static_cast<int>(strategy));
    }
    return assignment;
}

}  // namespace tapestry
