#include "graph/ScopeTree.h"

#include "graph/Graph.h"

#include <algorithm>
#include <unordered_map>

namespace tapestry {

ScopeTree ScopeTree::build(const Graph& graph)
{
    ScopeTree tree;
    ScopeNode root;
    root.id = tree.root();
    tree.nodes_.push_back(std::move(root));
    tree.rows_.push_back(0);

    // Keyed by the full path so that equal names under different parents stay apart.
    std::unordered_map<std::string, ScopeNodeId> byPath;
    // The previous op's scope, one node per depth: consecutive ops mostly share their
    // scope or its outer part, which is then neither spelled out nor looked up again.
    const std::vector<std::string>* previous = nullptr;
    std::vector<ScopeNodeId> chain;
    for (const Op& op : graph.ops()) {
        const std::vector<std::string>& components = op.scope.components();
        std::size_t shared = 0;
        if (previous != nullptr) {
            const std::size_t most = std::min(previous->size(), components.size());
            while (shared < most && (*previous)[shared] == components[shared])
                ++shared;
        }
        chain.resize(shared);
        ScopeNodeId current = shared == 0 ? tree.root() : chain.back();
        for (std::size_t depth = shared; depth < components.size(); ++depth) {
            const std::string& component = components[depth];
            const std::string& parentPath = tree.nodes_[current.index()].path;
            std::string path;
            path.reserve(parentPath.size() + 1 + component.size());
            path += parentPath;
            if (!path.empty())
                path += '/';
            path += component;
            const auto [it, inserted] = byPath.try_emplace(std::move(path), ScopeNodeId{tree.nodes_.size()});
            if (inserted) {
                ScopeNode child;
                child.id = it->second;
                child.parent = current;
                child.name = component;
                child.path = it->first;
                tree.rows_.push_back(tree.nodes_[current.index()].children.size());
                tree.nodes_[current.index()].children.push_back(child.id);
                tree.nodes_.push_back(std::move(child));
            }
            current = it->second;
            chain.push_back(current);
        }
        previous = &components;
        tree.nodes_[current.index()].ops.push_back(op.id);
        for (ScopeNodeId up = current; up.isValid(); up = tree.nodes_[up.index()].parent)
            ++tree.nodes_[up.index()].totalOpCount;
    }
    return tree;
}

}  // namespace tapestry
