#include "fold/FoldedGraph.h"

#include <map>
#include <unordered_map>

namespace tapestry {

namespace {

struct Membership {
    std::size_t instance = 0;
    std::size_t position = 0;
};

class Folding {
public:
    Folding(const CoarseGraph& coarse, const FamilyTable& families, const std::set<FamilyId>& expanded)
        : coarse_(coarse), families_(families), expanded_(expanded), members_(families.families.size())
    {
        for (const Family& family : families.families) {
            for (std::size_t i = 0; i < family.instances.size(); ++i) {
                const auto& nodes = family.instances[i].nodes;
                for (std::size_t p = 0; p < nodes.size(); ++p)
                    members_[family.id.index()][nodes[p].value()] = {i, p};
            }
        }
    }

    FoldedGraph run()
    {
        std::vector<std::size_t> viewOf(coarse_.nodes.size());
        std::vector<std::vector<std::pair<FamilyId, std::size_t>>> paths(coarse_.nodes.size());
        for (const CoarseNode& node : coarse_.nodes) {
            const Target target = resolve(node.id, paths[node.id.index()]);
            viewOf[node.id.index()] = viewIndex(target);
        }
        std::set<std::pair<std::size_t, std::size_t>> seen;
        for (const CoarseEdge& edge : coarse_.edges) {
            const std::size_t from = viewOf[edge.from.index()];
            const std::size_t to = viewOf[edge.to.index()];
            if (from == to || crossesInstances(paths[edge.from.index()], paths[edge.to.index()]))
                continue;
            if (seen.insert({from, to}).second)
                result_.edges.push_back({from, to});
        }
        return std::move(result_);
    }

private:
    struct Target {
        FoldedNode node;
        std::uint64_t key;  // identity for de-duplication
    };

    // The family instances `id` sits in (outermost first) and what it is drawn as.
    Target resolve(CoarseNodeId id, std::vector<std::pair<FamilyId, std::size_t>>& path) const
    {
        FamilyId scope;  // search families whose parent is `scope`
        FamilyId enclosing;
        CoarseNodeId current = id;
        while (true) {
            const Family* owner = nullptr;
            Membership where;
            for (const Family& family : families_.families) {
                if (family.parent != scope)
                    continue;
                const auto it = members_[family.id.index()].find(current.value());
                if (it != members_[family.id.index()].end()) {
                    owner = &family;
                    where = it->second;
                    break;
                }
            }
            if (!owner) {
                FoldedNode node;
                node.coarse = current;
                node.enclosing = enclosing;
                return {node, current.value()};
            }
            path.emplace_back(owner->id, where.instance);
            if (!expanded_.contains(owner->id)) {
                FoldedNode node;
                node.kind = FoldedNode::Kind::Family;
                node.family = owner->id;
                node.enclosing = enclosing;
                return {node, (std::uint64_t{1} << 40) | owner->id.value()};
            }
            current = owner->representative().nodes[where.position];
            enclosing = owner->id;
            scope = owner->id;
        }
    }

    // Two coarse nodes in different instances of one family: the edge is implied.
    static bool crossesInstances(const std::vector<std::pair<FamilyId, std::size_t>>& a,
                                 const std::vector<std::pair<FamilyId, std::size_t>>& b)
    {
        for (const auto& [family, instance] : a) {
            for (const auto& [otherFamily, otherInstance] : b) {
                if (family == otherFamily && instance != otherInstance)
                    return true;
            }
        }
        return false;
    }

    std::size_t viewIndex(const Target& target)
    {
        const auto [it, inserted] = indexByKey_.try_emplace(target.key, result_.nodes.size());
        if (inserted)
            result_.nodes.push_back(target.node);
        return it->second;
    }

    const CoarseGraph& coarse_;
    const FamilyTable& families_;
    const std::set<FamilyId>& expanded_;
    std::vector<std::unordered_map<std::uint32_t, Membership>> members_;
    std::unordered_map<std::uint64_t, std::size_t> indexByKey_;
    FoldedGraph result_;
};

}  // namespace

FoldedGraph buildFoldedGraph(const CoarseGraph& coarse, const FamilyTable& families,
                             const std::set<FamilyId>& expanded)
{
    return Folding(coarse, families, expanded).run();
}

}  // namespace tapestry
