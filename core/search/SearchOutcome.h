#pragma once

#include "search/PlanCandidate.h"
#include "search/PlanSearch.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tapestry {

// What a search session found on one mesh.
struct MeshOutcome {
    std::vector<MeshAxis> axes;
    std::string meshText;                            // "[2, 8] (dp, tp)"
    std::vector<std::shared_ptr<const PlanCandidate>> experts;  // dp, megatron, megatron-sp
    std::optional<SearchResult> search;             // unset until the mesh is searched
    std::optional<SearchResult> baseline;           // with SearchSetup::wholeGraphBaseline
    Workload workload;  // what `search` and `baseline` priced: techniques chosen, batch resolved
};

// Why the best plan uses a parallelism technique: the best plan of its mesh searched
// again without it (null when that search was cancelled or found nothing).
struct TechniqueComparison {
    ParallelTechnique technique = ParallelTechnique::Context;
    int degree = 1;  // the best plan's
    std::shared_ptr<const PlanCandidate> without;
};

// Why the best plan's tensor-, context- or expert-parallel groups reach beyond one node
// (over a GB200 NVL72 rack's NVLink, or over InfiniBand), or why they keep to one: the
// best plan that does the other (null when that search was cancelled or found nothing).
struct GroupWidthComparison {
    int width = 1;     // the best plan's widest group (widestGroup), in GPUs
    int nodeGpus = 1;  // the cluster's GPUs per node
    // When the best plan's groups reach beyond a node: the best plan whose groups keep to one.
    std::shared_ptr<const PlanCandidate> insideNode;
    // When they keep to a node (stack searches, on more than one node): the best plan with
    // a group wider than a node.
    std::shared_ptr<const PlanCandidate> beyondNode;

    [[nodiscard]] bool reachesBeyondNode() const { return width > nodeGpus; }
};

// What one search session has produced so far, or in the end. Immutable once
// published: the session publishes a new snapshot for every change.
struct SearchOutcome {
    // Every mesh's expert plans, then its best plan and alternatives, mesh by mesh;
    // while running, the latest best-so-far plan last.
    std::vector<std::shared_ptr<const PlanCandidate>> candidates;
    // The index into `meshes` of each candidate's mesh (parallel to `candidates`): a
    // training stack's plan lies on the stack's own stage mesh, not the searched one.
    std::vector<std::size_t> candidateMeshes;
    std::vector<MeshOutcome> meshes;
    double hbmBytes = 0;          // capacity per device
    double memoryLimitBytes = 0;  // what the search had to fit in
    bool finished = false;
    bool cancelled = false;  // the cancel callback stopped a search or a later comparison short
    bool anyFits = false;         // some mesh's search found a plan under the limit
    std::string detail;           // the last search message (why nothing fits, why it stopped)
    double seconds = 0;           // the session's wall time, once finished
    // Once finished: one per context- or expert-parallel technique the best plan uses.
    std::vector<TechniqueComparison> comparisons;
    // Once finished, when the best plan has a group wider than a node.
    std::optional<GroupWidthComparison> widthComparison;

    // The one best-plan rule of the CLI and the GUI: among the searched plans of every
    // mesh (best, alternatives, best so far; never an expert reference), the fastest
    // that fits the memory limit; when none fits, the one that uses the least memory
    // (the closest to fitting). Null when no plan was searched yet.
    [[nodiscard]] std::shared_ptr<const PlanCandidate> best() const;
    // The best plan of meshes[mesh]: its search's, or an expert's or a stack's own plan
    // that priced better (what the mesh's step is). Null before the mesh is searched.
    [[nodiscard]] std::shared_ptr<const PlanCandidate> bestOn(std::size_t mesh) const;
    // How many meshes are searched to the end (or as far as a cancelled search got):
    // the "k" of "k of N meshes" progress.
    [[nodiscard]] std::size_t meshesSearched() const;
    // The mesh `candidate` belongs to; null when it is not one of this outcome's.
    [[nodiscard]] const MeshOutcome* meshOf(const PlanCandidate& candidate) const;
    // What a history records of a finished search: every candidate but best-so-far ones
    // (the expert references too, so that edits of them have a parent).
    [[nodiscard]] std::vector<std::shared_ptr<const PlanCandidate>> recordedCandidates() const;
};

}  // namespace tapestry
