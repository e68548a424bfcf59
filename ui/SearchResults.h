#pragma once

#include "cost/PlanEvaluation.h"
#include "plan/Plan.h"

#include <QString>

#include <memory>
#include <vector>

namespace tapestry {

// One plan on the results list and chart: a searched plan or an expert reference,
// priced by the cost model of its mesh.
struct PlanCandidate {
    // Opened: a plan outside the search's results (edited, imported, started from an
    // expert annotation, opened from the history or a file); its plan's origin says which.
    enum class Role { Best, Alternative, BestSoFar, Expert, Opened };

    Role role = Role::Best;
    Plan plan;  // carries its name, origin and mesh axes
    PlanEvaluation evaluation;
    QString meshText;  // "[2, 8] (dp, tp)"

    [[nodiscard]] double stepSeconds() const { return evaluation.total.time.stepSeconds(); }
    [[nodiscard]] double memoryBytes() const { return evaluation.total.memory.total(); }
};

// What one search has produced so far, or in the end. Immutable once published: the
// job publishes a new snapshot for every change, the views swap it in whole.
struct SearchResults {
    std::vector<std::shared_ptr<const PlanCandidate>> candidates;
    double hbmBytes = 0;          // capacity per device
    double memoryLimitBytes = 0;  // what the search had to fit in
    bool finished = false;
    bool cancelled = false;
    QString message;  // translated: why nothing fits, or how the search ended

    // The fastest candidate that fits the memory limit (searched plans first); null if none.
    [[nodiscard]] std::shared_ptr<const PlanCandidate> best() const;
};

}  // namespace tapestry
