#include "history/HistorySnapshot.h"

#include "history/HistoryStore.h"

#include <algorithm>
#include <map>
#include <optional>

namespace tapestry {

HistorySnapshot HistorySnapshot::read(const std::filesystem::path& file, std::size_t limit)
{
    HistoryStoreOptions options;
    options.readOnly = true;
    const HistoryStore store(file, options);
    HistorySnapshot snapshot = build(store.recentRuns(limit), store.recentPlans(limit));
    snapshot.file = file;
    return snapshot;
}

HistorySnapshot HistorySnapshot::build(std::vector<RunRecord> runs, std::vector<PlanRecord> plans)
{
    HistorySnapshot snapshot;
    snapshot.nodes.emplace_back();
    auto add = [&](Node node) {
        const std::size_t index = snapshot.nodes.size();
        snapshot.nodes[node.parent].children.push_back(index);
        snapshot.nodes.push_back(std::move(node));
        return index;
    };
    std::map<RunId, std::size_t> runNodes;
    for (RunRecord& run : runs) {
        const RunId id = run.id;
        Node node;
        node.kind = Node::Kind::Run;
        node.run = std::move(run);
        runNodes[id] = add(std::move(node));
    }
    // Oldest first, so a parent (always older) is placed before its children.
    std::sort(plans.begin(), plans.end(), [](const PlanRecord& a, const PlanRecord& b) { return a.id < b.id; });
    std::map<PlanRecordId, std::size_t> planNodes;
    std::optional<std::size_t> others;
    for (PlanRecord& plan : plans) {
        Node node;
        node.kind = Node::Kind::Plan;
        if (const auto parent = planNodes.find(plan.parent); plan.parent.isValid() && parent != planNodes.end()) {
            node.parent = parent->second;
        } else if (const auto run = runNodes.find(plan.run); plan.run.isValid() && run != runNodes.end()) {
            node.parent = run->second;
        } else {
            if (!others) {
                Node group;
                group.kind = Node::Kind::Others;
                others = add(std::move(group));
            }
            node.parent = *others;
        }
        const PlanRecordId id = plan.id;
        node.plan = std::move(plan);
        planNodes[id] = add(std::move(node));
    }
    return snapshot;
}

}  // namespace tapestry
