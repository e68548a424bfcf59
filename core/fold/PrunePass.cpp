#include "fold/PrunePass.h"

#include "fold/BlockSignature.h"
#include "graph/Graph.h"
#include "graph/ScopeTree.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>

namespace tapestry {

std::string indexPattern(const std::string& name)
{
    std::string out;
    out.reserve(name.size());
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (std::isdigit(static_cast<unsigned char>(name[i]))) {
            while (i + 1 < name.size() && std::isdigit(static_cast<unsigned char>(name[i + 1])))
                ++i;
            out += '#';
        } else {
            out += name[i];
        }
    }
    return out;
}

namespace {

class Pruning {
public:
    Pruning(const Graph& graph, const CoarseGraph& coarse, std::size_t minDuplicates)
        : graph_(graph), coarse_(coarse), tree_(ScopeTree::build(graph)), minDuplicates_(minDuplicates)
    {
        // Coarse nodes by the scope node they sit in (their first op's scope).
        std::unordered_map<std::string, ScopeNodeId> byPath;
        for (const ScopeNode& node : tree_.nodes())
            byPath.emplace(node.path, node.id);
        nodesAt_.resize(tree_.nodes().size());
        for (const CoarseNode& node : coarse.nodes) {
            const auto it = byPath.find(node.scope.toString());
            nodesAt_[it == byPath.end() ? 0 : it->second.index()].push_back(node.id);
        }
    }

    FamilyTable run()
    {
        std::vector<bool> folded(coarse_.nodes.size(), false);
        discover(tree_.root(), FamilyId{}, folded);
        for (const CoarseNode& node : coarse_.nodes) {
            if (!folded[node.id.index()])
                table_.unfoldedNodes.push_back(node.id);
        }
        table_.decisionAnchors = countDecisionAnchors();
        return std::move(table_);
    }

private:
    std::vector<CoarseNodeId> nodesWithin(ScopeNodeId scope) const
    {
        std::vector<CoarseNodeId> out;
        std::vector<ScopeNodeId> stack = {scope};
        while (!stack.empty()) {
            const ScopeNodeId current = stack.back();
            stack.pop_back();
            out.insert(out.end(), nodesAt_[current.index()].begin(), nodesAt_[current.index()].end());
            for (const ScopeNodeId child : tree_.node(current).children)
                stack.push_back(child);
        }
        std::sort(out.begin(), out.end());
        return out;
    }

    void discover(ScopeNodeId scope, FamilyId parent, std::vector<bool>& folded)
    {
        // Children grouped by index pattern, in order of first appearance.
        std::vector<std::pair<std::string, std::vector<ScopeNodeId>>> groups;
        for (const ScopeNodeId child : tree_.node(scope).children) {
            const std::string pattern = indexPattern(tree_.node(child).name);
            if (pattern == tree_.node(child).name)
                continue;
            auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == pattern; });
            if (it == groups.end())
                groups.push_back({pattern, {child}});
            else
                it->second.push_back(child);
        }

        std::vector<FamilyId> found;
        std::vector<bool> childFolded(tree_.nodes().size(), false);
        for (const auto& [pattern, members] : groups) {
            if (members.size() < minDuplicates_)
                continue;
            foldGroup(scope, pattern, members, parent, childFolded, found);
        }
        for (const ScopeNodeId child : tree_.node(scope).children) {
            if (!childFolded[child.index()])
                discover(child, parent, folded);
        }
        for (const FamilyId id : found) {
            for (const BlockInstance& instance : table_.families[id.index()].instances) {
                for (const CoarseNodeId node : instance.nodes)
                    folded[node.index()] = true;
            }
        }
        // Nested families live inside the representative only; the other instances
        // repeat them by construction.
        for (const FamilyId id : found) {
            std::vector<bool> inner(coarse_.nodes.size(), false);
            discover(representativeScope_.at(id.index()), id, inner);
        }
    }

    void foldGroup(ScopeNodeId scope, const std::string& pattern, const std::vector<ScopeNodeId>& members,
                   FamilyId parent, std::vector<bool>& childFolded, std::vector<FamilyId>& found)
    {
        struct Candidate {
            ScopeNodeId scope;
            std::vector<CoarseNodeId> nodes;
            std::string signature;
        };
        std::vector<Candidate> candidates;
        for (const ScopeNodeId member : members) {
            std::vector<CoarseNodeId> nodes = nodesWithin(member);
            if (nodes.empty())
                continue;
            std::string signature = blockSignature(graph_, coarse_, nodes);
            candidates.push_back({member, std::move(nodes), std::move(signature)});
        }
        // Bucket by signature (its hash, then the full text: the exact check).
        std::map<std::size_t, std::vector<std::size_t>> buckets;
        std::vector<std::vector<std::size_t>> exact;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
            auto& bucket = buckets[std::hash<std::string>{}(candidates[i].signature)];
            bool placed = false;
            for (const std::size_t group : bucket) {
                if (candidates[exact[group].front()].signature == candidates[i].signature) {
                    exact[group].push_back(i);
                    placed = true;
                    break;
                }
            }
            if (!placed) {
                bucket.push_back(exact.size());
                exact.push_back({i});
            }
        }
        // Exact groups that share a structural signature fold together: they differ
        // only in plan-neutral ops. Clusters in order of first appearance.
        std::vector<std::vector<std::size_t>> clusters;  // of exact groups
        std::map<std::string, std::size_t> clusterOf;
        for (std::size_t g = 0; g < exact.size(); ++g) {
            // A block without anchors leaves the searcher nothing to decide.
            if (anchorsOf(candidates[exact[g].front()].nodes) == 0)
                continue;
            const std::string structure = structuralSignature(graph_, coarse_, candidates[exact[g].front()].nodes);
            const auto [it, added] = clusterOf.emplace(structure, clusters.size());
            if (added)
                clusters.emplace_back();
            clusters[it->second].push_back(g);
        }
        std::vector<std::size_t> unmatched;
        std::vector<std::size_t> familyOfGroup(exact.size(), SIZE_MAX);
        for (const std::vector<std::size_t>& cluster : clusters) {
            std::vector<std::size_t> clustered;
            for (const std::size_t g : cluster)
                clustered.insert(clustered.end(), exact[g].begin(), exact[g].end());
            if (clustered.size() < minDuplicates_) {
                unmatched.insert(unmatched.end(), clustered.begin(), clustered.end());
                continue;
            }
            std::sort(clustered.begin(), clustered.end());
            Family family;
            family.id = FamilyId{table_.families.size()};
            family.parent = parent;
            const std::string& prefix = tree_.node(scope).path;
            family.name = prefix.empty() ? pattern : prefix + "/" + pattern;
            const Candidate& representative = candidates[clustered.front()];
            for (const std::size_t i : clustered) {
                BlockInstance instance{tree_.node(candidates[i].scope).path, candidates[i].nodes};
                if (candidates[i].signature != representative.signature)
                    family.foldedVariants.push_back(
                        {instance, describeBlockDifference(graph_, coarse_, candidates[i].nodes, representative.nodes)});
                family.instances.push_back(std::move(instance));
                childFolded[candidates[i].scope.index()] = true;
            }
            for (const CoarseNodeId node : family.instances.front().nodes) {
                if (isAnchorKind(coarse_.node(node).kind))
                    family.anchors.push_back(node);
            }
            representativeScope_.push_back(representative.scope);
            for (const std::size_t g : cluster)
                familyOfGroup[g] = family.id.index();
            found.push_back(family.id);
            table_.families.push_back(std::move(family));
        }
        // Near-identical leftovers: same anchors as a family, something else differs.
        for (const std::size_t i : unmatched) {
            const std::string anchors = anchorSignature(graph_, coarse_, candidates[i].nodes);
            for (std::size_t g = 0; g < exact.size(); ++g) {
                if (familyOfGroup[g] == SIZE_MAX)
                    continue;
                Family& family = table_.families[familyOfGroup[g]];
                if (anchorSignature(graph_, coarse_, family.representative().nodes) != anchors)
                    continue;
                family.variants.push_back({{tree_.node(candidates[i].scope).path, candidates[i].nodes},
                                           describeBlockDifference(graph_, coarse_, candidates[i].nodes,
                                                                   family.representative().nodes)});
                break;
            }
        }
    }

    std::size_t anchorsOf(const std::vector<CoarseNodeId>& nodes) const
    {
        return static_cast<std::size_t>(std::count_if(nodes.begin(), nodes.end(), [&](CoarseNodeId id) {
            return isAnchorKind(coarse_.node(id).kind);
        }));
    }

    // Anchors of a family's representative, with nested families decided once.
    std::size_t familyDecisionAnchors(const Family& family) const
    {
        std::size_t anchors = family.anchors.size();
        for (const Family& nested : table_.families) {
            if (nested.parent == family.id)
                anchors = anchors - nested.anchors.size() * nested.multiplicity() + familyDecisionAnchors(nested);
        }
        return anchors;
    }

    std::size_t countDecisionAnchors() const
    {
        std::size_t anchors = anchorsOf(table_.unfoldedNodes);
        for (const Family& family : table_.families) {
            if (!family.parent.isValid())
                anchors += familyDecisionAnchors(family);
        }
        return anchors;
    }

    const Graph& graph_;
    const CoarseGraph& coarse_;
    ScopeTree tree_;
    std::size_t minDuplicates_;
    std::vector<std::vector<CoarseNodeId>> nodesAt_;
    std::vector<ScopeNodeId> representativeScope_;  // by FamilyId
    FamilyTable table_;
};

}  // namespace

FamilyTable PrunePass::apply(const Graph& graph, const CoarseGraph& coarse) const
{
    return Pruning(graph, coarse, minDuplicates_).run();
}

}  // namespace tapestry
