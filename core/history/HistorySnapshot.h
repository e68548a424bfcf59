#pragma once

#include "history/HistoryRecords.h"

#include <filesystem>
#include <vector>

namespace tapestry {

// The history as a lineage tree, read once and then immutable: runs newest first, each
// with the plans it produced; a plan derived from another (an edit, a re-cost, a
// completion) sits under its parent; plans with neither a run nor a parent on record
// sit under one "other plans" row at the end.
// Invariants: nodes[0] is the invisible root; every other node's parent precedes it.
struct HistorySnapshot {
    struct Node {
        enum class Kind { Root, Run, Plan, Others };
        Kind kind = Kind::Root;
        std::size_t parent = 0;
        std::vector<std::size_t> children;
        RunRecord run;    // Kind::Run
        PlanRecord plan;  // Kind::Plan
    };
    std::filesystem::path file;
    std::vector<Node> nodes;

    // Reads `file` (read-only). Throws Error for a file that is not a history.
    [[nodiscard]] static HistorySnapshot read(const std::filesystem::path& file, std::size_t limit = 2000);
    // The tree of these records (what read() builds).
    [[nodiscard]] static HistorySnapshot build(std::vector<RunRecord> runs, std::vector<PlanRecord> plans);
};

}  // namespace tapestry
