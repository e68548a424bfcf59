#include "export/ModuleStyleTable.h"

#include "graph/Graph.h"

#include <algorithm>
#include <map>
#include <optional>

namespace tapestry {

namespace {

bool isTensorParallelAxis(const Plan& plan, std::size_t axis)
{
    return std::any_of(plan.strategies.begin(), plan.strategies.end(),
                       [axis](const NodeStrategy& s) { return splitsWeights(s.axes.at(axis)); });
}

// The one layout all of `layouts` agree on; Replicated when they disagree or there are
// none (graph inputs and outputs are whole tensors).
AxisLayout agreedLayout(const std::vector<AxisLayout>& layouts)
{
    if (layouts.empty() || std::any_of(layouts.begin(), layouts.end(), [&](AxisLayout l) { return l != layouts.front(); }))
        return AxisLayout::Replicated;
    return layouts.front();
}

// Where a node sits in a top-level family: which instance, and its scope depth.
struct FamilyPlace {
    const Family* family = nullptr;
    std::size_t instance = 0;
};

std::vector<FamilyPlace> familyPlaces(const CoarseGraph& coarse, const FamilyTable& families)
{
    std::vector<FamilyPlace> places(coarse.nodes.size());
    for (const Family& family : families.families) {
        if (family.parent.isValid())
            continue;
        for (std::size_t i = 0; i < family.instances.size(); ++i)
            for (const CoarseNodeId id : family.instances[i].nodes)
                places[id.index()] = {&family, i};
    }
    return places;
}

// "model/layers.#" over the instance's leading components: model.layers.*.self_attn.q_proj
std::string familyPattern(const ScopePath& scope, const Family& family)
{
    std::vector<std::string> parts = scope.components();
    std::size_t component = 0;
    std::size_t start = 0;
    while (component < parts.size()) {
        const std::size_t slash = family.name.find('/', start);
        std::string part = family.name.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
        std::replace(part.begin(), part.end(), '#', '*');
        parts[component++] = std::move(part);
        if (slash == std::string::npos)
            break;
        start = slash + 1;
    }
    return ScopePath(parts).toModulePath();
}

BoundaryLayout boundary(AxisLayout layout, AxisLayout styleDefault)
{
    if (layout == styleDefault)
        return BoundaryLayout::Default;
    if (layout == AxisLayout::Sequence)
        return BoundaryLayout::SequenceSharded;
    if (layout == AxisLayout::Replicated)
        return BoundaryLayout::Replicated;
    return BoundaryLayout::Default;
}

// The entry for one node on `axis`, or nothing when the node needs none (replicated,
// or a follower whose layout the styles around it already produce).
std::optional<ModuleStyleEntry> entryFor(const CoarseNode& node, AxisSplit split, AxisLayout in, AxisLayout out)
{
    ModuleStyleEntry entry;
    if (node.kind == CoarseNodeKind::Linear && split == AxisSplit::Column) {
        entry.style = ModuleStyle::Colwise;
        entry.input = boundary(in, AxisLayout::Replicated);
        entry.output = boundary(out, AxisLayout::Hidden);
    } else if (node.kind == CoarseNodeKind::Linear && split == AxisSplit::Row) {
        entry.style = ModuleStyle::Rowwise;
        entry.input = boundary(in, AxisLayout::Hidden);
        entry.output = boundary(out, AxisLayout::Replicated);
    } else if (node.kind == CoarseNodeKind::Embedding && split == AxisSplit::Row) {
        entry.style = ModuleStyle::EmbeddingRowwise;
        entry.output = boundary(out, AxisLayout::Replicated);
    } else if (node.kind == CoarseNodeKind::Embedding && split == AxisSplit::Column) {
        entry.style = ModuleStyle::EmbeddingColwise;
        entry.output = boundary(out, AxisLayout::Hidden);
    } else if (node.kind == CoarseNodeKind::Normalization && split == AxisSplit::Sequence) {
        entry.style = ModuleStyle::SequenceParallel;
    } else {
        return std::nullopt;
    }
    return entry;
}

// Splits on a tensor-parallel axis that no module style carries.
bool isUnexpressed(const CoarseNode& node, AxisSplit split)
{
    switch (node.kind) {
    case CoarseNodeKind::Linear:
    case CoarseNodeKind::Embedding: return split == AxisSplit::Batch;
    case CoarseNodeKind::Conv: return split != AxisSplit::None;
    case CoarseNodeKind::Normalization: return split == AxisSplit::Batch;
    case CoarseNodeKind::BatchedMatMul:
    case CoarseNodeKind::Elementwise: return false;
    }
    return false;
}

ModuleStyleTable tableFor(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families,
                          const Plan& plan, std::size_t axis)
{
    ModuleStyleTable table;
    table.axis = axis;
    table.axisName = plan.mesh.at(axis).name;
    std::vector<std::vector<AxisLayout>> inputs(coarse.nodes.size());
    std::vector<std::vector<AxisLayout>> needed(coarse.nodes.size());
    for (const CoarseEdge& edge : coarse.edges) {
        const AxisSplit from = plan.strategy(edge.from).axes.at(axis);
        const CoarseNode& to = coarse.node(edge.to);
        inputs[edge.to.index()].push_back(outputLayout(from));
        needed[edge.from.index()].push_back(requiredInputLayout(to.kind, plan.strategy(edge.to).axes.at(axis)));
    }

    // Entries grouped by module path, family instances under one "*" pattern.
    struct Group {
        std::string pattern;
        const Family* family = nullptr;
        std::map<std::size_t, ModuleStyleEntry> byInstance;  // the entry of each instance that has one
        std::vector<ModuleStyleEntry> concrete;              // every entry under its own path
    };
    std::vector<Group> groups;
    const std::vector<FamilyPlace> places = familyPlaces(coarse, families);
    for (const CoarseNode& node : coarse.nodes) {
        const AxisSplit split = plan.strategy(node.id).axes.at(axis);
        if (isUnexpressed(node, split)) {
            table.unexpressed.push_back(node.id);
            continue;
        }
        std::optional<ModuleStyleEntry> entry =
            entryFor(node, split, agreedLayout(inputs[node.id.index()]), agreedLayout(needed[node.id.index()]));
        if (!entry)
            continue;
        const ScopePath& scope = node.anchor.isValid() ? graph.op(node.anchor).scope : node.scope;
        entry->modulePath = scope.toModulePath();
        entry->feedsGraphOutput = needed[node.id.index()].empty();
        const FamilyPlace& place = places[node.id.index()];
        const std::string pattern = place.family ? familyPattern(scope, *place.family) : entry->modulePath;
        auto group = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.pattern == pattern; });
        if (group == groups.end())
            group = groups.insert(groups.end(), Group{pattern, place.family, {}, {}});
        // Two anchors in one module (a fused projection split twice) keep the first entry.
        if (std::any_of(group->concrete.begin(), group->concrete.end(),
                        [&](const ModuleStyleEntry& e) { return e.modulePath == entry->modulePath; }))
            continue;
        group->concrete.push_back(*entry);
        group->byInstance.emplace(place.instance, *entry);
    }

    for (const Group& group : groups) {
        const ModuleStyleEntry& first = group.concrete.front();
        const bool allAgree =
            group.family && group.byInstance.size() == group.family->multiplicity() &&
            std::all_of(group.byInstance.begin(), group.byInstance.end(), [&](const auto& item) {
                return item.second.style == first.style && item.second.input == first.input &&
                       item.second.output == first.output;
            });
        if (allAgree) {
            ModuleStyleEntry entry = first;
            entry.modulePath = group.pattern;
            table.entries.push_back(entry);
        } else {
            table.entries.insert(table.entries.end(), group.concrete.begin(), group.concrete.end());
        }
    }
    return table;
}

}  // namespace

std::vector<ModuleStyleTable> moduleStyleTables(const Graph& graph, const CoarseGraph& coarse,
                                                const FamilyTable& families, const Plan& plan)
{
    std::vector<ModuleStyleTable> tables;
    for (std::size_t axis = 0; axis < plan.mesh.size(); ++axis)
        if (isTensorParallelAxis(plan, axis))
            tables.push_back(tableFor(graph, coarse, families, plan, axis));
    return tables;
}

}  // namespace tapestry
