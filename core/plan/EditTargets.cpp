#include "plan/EditTargets.h"

#include "fold/FamilyTable.h"

namespace tapestry {

std::vector<EditTarget> editTargets(const CoarseGraph& coarse, const FamilyTable& families)
{
    std::vector<EditTarget> targets;
    for (const Family& family : families.families) {
        if (family.parent.isValid())
            continue;  // nested families lie inside a top-level representative
        const BlockInstance& representative = family.representative();
        for (std::size_t position = 0; position < representative.nodes.size(); ++position) {
            const CoarseNode& node = coarse.node(representative.nodes[position]);
            EditTarget target;
            target.kind = node.kind;
            // Every instance has the same nodes in the same order (FamilyTable's invariant).
            target.name = node.name.starts_with(representative.scope)
                              ? family.name + node.name.substr(representative.scope.size())
                              : node.name;
            for (const BlockInstance& instance : family.instances)
                target.nodes.push_back(instance.nodes.at(position));
            targets.push_back(std::move(target));
        }
    }
    for (const CoarseNodeId id : families.unfoldedNodes) {
        const CoarseNode& node = coarse.node(id);
        targets.push_back({node.name, node.kind, {id}});
    }
    return targets;
}

}  // namespace tapestry
