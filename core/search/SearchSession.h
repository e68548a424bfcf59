#pragma once

#include "search/SearchOutcome.h"
#include "search/SearchPhase.h"
#include "search/SearchSetup.h"
#include "search/SharedBindings.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

namespace tapestry {

struct FoldedModel;

struct SearchProgress {
    std::size_t mesh = 0;  // index into SearchSetup::meshes()
    SearchPhase phase = SearchPhase::ExpertPlans;
    double fraction = 0;   // of the whole session, in [0, 1]
};

struct SearchSessionCallbacks {
    // Polled between meshes and by every search; a cancelled session keeps what it found.
    std::function<bool()> cancelled;
    std::function<void(const SearchProgress&)> progress;
    // A new snapshot: a mesh's expert plans priced, a better plan so far, a mesh searched.
    std::function<void(std::shared_ptr<const SearchOutcome>)> changed;
    // The least time between two best-so-far snapshots (each prices its plan).
    std::chrono::milliseconds bestSoFarInterval{300};
};

// The one search orchestration of the CLI (`search`) and the GUI (its search job): for
// every mesh of the setup it builds the cost models (one per training technique the
// search chooses), prices the expert plans (dp, megatron, megatron-sp) as references,
// searches (TAP or whole-graph, by the setup's options) and, if asked, runs the
// whole-graph baseline too. On a mesh with a pipeline axis it also chooses the
// micro-batch size, the schedule and virtual stages (SearchSetup.h) and balances the
// stages (StagePartition.h). The Pareto alternatives are searched at the end, for the
// mesh of the best plan only. The outcome's best() is the plan both show first.
// A stack's search prices each technique as that stack implements it
// (withStackImplementations; searchedSetup() says so).
// Callbacks are called from the threads that search, one at a time.
class SearchSession {
public:
    SearchSession(std::shared_ptr<const FoldedModel> model, SearchSetup setup);

    // Searches every mesh, `parallelMeshes` at a time (each search is single-threaded),
    // and returns the final outcome. Throws what the searches throw (Error(InvalidMesh),
    // Error(InvalidArgument) for bad pins), after every running search has ended.
    [[nodiscard]] std::shared_ptr<const SearchOutcome> run(const SearchSessionCallbacks& callbacks = {},
                                                           unsigned parallelMeshes = 1);

    // What PlanPricing(model, setup, mesh) builds, with the shapes the session's runs
    // bound when they are the same (SharedBindings): pricing a plan the search found
    // again costs no binding, which grows with the model's depth.
    [[nodiscard]] std::unique_ptr<PlanPricing> pricing(SearchSetup setup, const std::vector<MeshAxis>& mesh);

private:
    std::shared_ptr<const FoldedModel> model_;
    SearchSetup setup_;
    std::shared_ptr<SharedBindings> shared_ = std::make_shared<SharedBindings>();
};

}  // namespace tapestry
