#include "iopddl/IopddlWriter.h"

#include "base/JsonWriter.h"
#include "base/AtomicFile.h"

namespace tapestry {

namespace {

void writeIntegers(JsonWriter& json, const std::vector<std::int64_t>& values)
{
    json.beginArray();
    for (const std::int64_t value : values)
        json.value(value);
    json.endArray();
}

}  // namespace

std::string iopddlText(const ShardingProblem& problem)
{
    JsonWriter json;
    json.beginObject().key("problem").beginObject();
    json.key("name").value(problem.name);
    json.key("nodes").beginObject();
    json.key("intervals").beginArray();
    for (const ProblemNode& node : problem.nodes)
        writeIntegers(json, {node.lo, node.hi});
    json.endArray();
    json.key("costs").beginArray();
    for (const ProblemNode& node : problem.nodes)
        writeIntegers(json, node.costs);
    json.endArray();
    json.key("usages").beginArray();
    for (const ProblemNode& node : problem.nodes)
        writeIntegers(json, node.usages);
    json.endArray();
    json.endObject();
    json.key("edges").beginObject();
    json.key("nodes").beginArray();
    for (const ProblemEdge& edge : problem.edges)
        writeIntegers(json, {edge.u, edge.v});
    json.endArray();
    json.key("costs").beginArray();
    for (const ProblemEdge& edge : problem.edges)
        writeIntegers(json, edge.costs);
    json.endArray();
    json.endObject();
    if (problem.usageLimit)
        json.key("usage_limit").value(*problem.usageLimit);
    json.endObject().endObject();
    return json.text() + "\n";
}

void writeIopddlFile(const ShardingProblem& problem, const std::filesystem::path& file)
{
    writeFileAtomically(file, iopddlText(problem));
}

}  // namespace tapestry
