#include "graph/ScopeTree.h"

#include "graph/Graph.h"

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
    for (const Op& op : graph.ops()) {
        ScopeNodeId current = tree.root();
        std::string path;
        for (const std::string& component : op.scope.components()) {
            path += path.empty() ? component : "/" + component;
            const auto [it, inserted] = byPath.try_emplace(path, ScopeNodeId{tree.nodes_.size()});
            if (inserted) {
                ScopeNode child;
                child.id = it->second;
                child.parent = current;
                child.name = component;
                child.path = path;
                tree.rows_.push_back(tree.nodes_[current.index()].children.size());
                tree.nodes_[current.index()].children.push_back(child.id);
                tree.nodes_.push_back(std::move(child));
            }
            current = it->second;
        }
        tree.nodes_[current.index()].ops.push_back(op.id);
        for (ScopeNodeId up = current; up.isValid(); up = tree.nodes_[up.index()].parent)
            ++tree.nodes_[up.index()].totalOpCount;
    }
    return tree;
}

}  // namespace tapestry
