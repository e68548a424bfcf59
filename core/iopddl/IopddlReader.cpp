#include "iopddl/IopddlReader.h"

#include "base/Error.h"
#include "base/JsonReader.h"
#include "iopddl/GzipTextFile.h"

#include <optional>

namespace tapestry {

namespace {

// "[7]". Built by appending: GCC 12 warns falsely (-Wrestrict) on "[" + to_string(i).
std::string bracketed(std::size_t i)
{
    std::string text = "[";
    text += std::to_string(i);
    text += ']';
    return text;
}

class Converter {
public:
    explicit Converter(const std::string& fileName) : fileName_(fileName) {}

    [[noreturn]] void fail(const std::string& what) const
    {
        throw Error(ErrorCode::InvalidShardingProblem, fileName_, what);
    }

    const JsonValue& member(const JsonValue& object, std::string_view key, const std::string& where) const
    {
        const JsonValue* value = object.find(key);
        if (!value)
            fail(where + " has no \"" + std::string(key) + "\"");
        return *value;
    }

    const JsonValue::Array& array(const JsonValue& value, const std::string& where) const
    {
        if (!value.isArray())
            fail(where + " must be an array, not " + value.kindName());
        return value.asArray();
    }

    std::int64_t integer(const JsonValue& value, const std::string& where) const
    {
        if (!value.isNumber())
            fail(where + " must be a number, not " + value.kindName());
        const std::optional<std::int64_t> number = value.asInteger();
        if (!number)
            fail(where + " must be a whole number that fits in 64 bits");
        return *number;
    }

    // Costs and usages: the contest's are >= 0 (forbidden pairs carry a huge cost, not a
    // negative one), and the solver's sums rely on it.
    std::vector<std::int64_t> integers(const JsonValue& value, const std::string& where, bool nonNegative = false) const
    {
        const JsonValue::Array& items = array(value, where);
        std::vector<std::int64_t> out;
        out.reserve(items.size());
        for (std::size_t k = 0; k < items.size(); ++k) {
            const std::string entry = where + bracketed(k);
            out.push_back(integer(items[k], entry));
            if (nonNegative && out.back() < 0)
                fail(entry + " = " + std::to_string(out.back()) + " is negative");
        }
        return out;
    }

    const JsonValue::Array& sized(const JsonValue& value, const std::string& where, std::size_t expected,
                                  const std::string& expectedWhat) const
    {
        const JsonValue::Array& items = array(value, where);
        if (items.size() != expected)
            fail(where + " has " + std::to_string(items.size()) + " entries but there are " + std::to_string(expected)
                 + " " + expectedWhat);
        return items;
    }

private:
    const std::string& fileName_;
};

}  // namespace

ShardingProblem parseIopddl(std::string_view text, const std::string& fileName)
{
    const JsonValue root = parseJson(text, fileName);
    const Converter in(fileName);
    if (!root.isObject())
        in.fail("the document must be an object with a \"problem\" member");
    const JsonValue& problemJson = in.member(root, "problem", "the document");
    if (!problemJson.isObject())
        in.fail("\"problem\" must be an object");

    ShardingProblem problem;
    if (const JsonValue* name = problemJson.find("name"); name && name->isString())
        problem.name = name->asString();

    const JsonValue& nodesJson = in.member(problemJson, "nodes", "\"problem\"");
    const JsonValue::Array& intervals = in.array(in.member(nodesJson, "intervals", "\"nodes\""), "nodes.intervals");
    const std::size_t count = intervals.size();
    const JsonValue::Array& costs = in.sized(in.member(nodesJson, "costs", "\"nodes\""), "nodes.costs", count,
                                             "intervals");
    const JsonValue::Array& usages = in.sized(in.member(nodesJson, "usages", "\"nodes\""), "nodes.usages", count,
                                              "intervals");
    problem.nodes.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        ProblemNode& node = problem.nodes[i];
        const std::string index = bracketed(i);
        const std::vector<std::int64_t> interval = in.integers(intervals[i], "nodes.intervals" + index);
        if (interval.size() != 2)
            in.fail("nodes.intervals" + index + " must be [lo, hi], not " + std::to_string(interval.size())
                    + " numbers");
        node.lo = interval[0];
        node.hi = interval[1];
        if (node.lo < 0 || node.hi < node.lo)
            in.fail("nodes.intervals" + index + " = [" + std::to_string(node.lo) + ", " + std::to_string(node.hi)
                    + "] is negative or reversed");
        node.costs = in.integers(costs[i], "nodes.costs" + index, true);
        node.usages = in.integers(usages[i], "nodes.usages" + index, true);
        if (node.costs.empty())
            in.fail("nodes.costs" + index + " is empty: node " + std::to_string(i) + " has no strategy");
        if (node.usages.size() != node.costs.size())
            in.fail("nodes.usages" + index + " has " + std::to_string(node.usages.size())
                    + " entries but nodes.costs" + index + " has " + std::to_string(node.costs.size()));
    }

    const JsonValue& edgesJson = in.member(problemJson, "edges", "\"problem\"");
    const JsonValue::Array& ends = in.array(in.member(edgesJson, "nodes", "\"edges\""), "edges.nodes");
    const JsonValue::Array& edgeCosts = in.sized(in.member(edgesJson, "costs", "\"edges\""), "edges.costs",
                                                 ends.size(), "edges in edges.nodes");
    problem.edges.resize(ends.size());
    for (std::size_t e = 0; e < ends.size(); ++e) {
        ProblemEdge& edge = problem.edges[e];
        const std::string index = bracketed(e);
        const std::vector<std::int64_t> pair = in.integers(ends[e], "edges.nodes" + index);
        if (pair.size() != 2)
            in.fail("edges.nodes" + index + " must be [u, v], not " + std::to_string(pair.size()) + " numbers");
        for (const std::int64_t end : pair)
            if (end < 0 || end >= static_cast<std::int64_t>(count))
                in.fail("edges.nodes" + index + " names node " + std::to_string(end) + ", but there are "
                        + std::to_string(count) + " nodes");
        edge.u = static_cast<int>(pair[0]);
        edge.v = static_cast<int>(pair[1]);
        if (edge.u == edge.v)
            in.fail("edges.nodes" + index + " joins node " + std::to_string(edge.u) + " to itself");
        edge.costs = in.integers(edgeCosts[e], "edges.costs" + index, true);
        const std::size_t rows = problem.nodes[static_cast<std::size_t>(edge.u)].costs.size();
        const std::size_t columns = problem.nodes[static_cast<std::size_t>(edge.v)].costs.size();
        if (edge.costs.size() != rows * columns)
            in.fail("edges.costs" + index + " has " + std::to_string(edge.costs.size()) + " entries, but nodes "
                    + std::to_string(edge.u) + " and " + std::to_string(edge.v) + " have " + std::to_string(rows)
                    + " x " + std::to_string(columns) + " strategy pairs");
    }

    if (const JsonValue* limit = problemJson.find("usage_limit"); limit && !limit->isNull()) {
        problem.usageLimit = in.integer(*limit, "usage_limit");
        if (*problem.usageLimit < 0)
            in.fail("usage_limit " + std::to_string(*problem.usageLimit) + " is negative");
    }
    problem.validate(fileName);
    return problem;
}

ShardingProblem readIopddlFile(const std::filesystem::path& file)
{
    return parseIopddl(readGzipOrTextFile(file), file.string());
}

}  // namespace tapestry
