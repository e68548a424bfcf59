#pragma once

#include "cost/Workload.h"
#include "fold/FamilyTable.h"
#include "plan/Plan.h"
#include "target/TrainingStack.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tapestry {

struct PlanCostSummary {
    double stepSeconds = 0;
    double computeSeconds = 0;
    double communicationSeconds = 0;
    double memoryBytes = 0;
    double hbmBytes = 0;
    bool operator==(const PlanCostSummary&) const = default;
};

// A plan with what it was made for: the file form of core/plan/plan.proto.
struct PlanDocument {
    Plan plan;
    std::string modelFingerprint;
    std::string clusterName;
    Workload workload;
    // The stack whose implementations `workload` names (PlanCandidate::implementations:
    // a stack's own search found the plan, or it was read from that stack's file); Any:
    // none in particular, also for files written before the field existed.
    TrainingStack implementations = TrainingStack::Any;
    std::optional<PlanCostSummary> cost;  // the breakdown it was priced with
};

inline constexpr int kPlanSchemaVersion = 1;

// The plan as JSON (protobuf's JSON mapping of tapestry.planfile.Plan). Strategies are
// written per top-level family (relative node names, once for all instances), with the
// instances that differ and the nodes outside families listed by full name.
[[nodiscard]] std::string planToJson(const PlanDocument& document, const CoarseGraph& coarse,
                                     const FamilyTable& families);

// Reads a plan for this model. Throws Error(InvalidPlan, fileName, ...) for JSON that
// is not a plan, a key the plan has no field for (naming the nearest field), an unknown
// split name or family, nodes the model does not have or
// nodes the plan leaves out (naming the first few), or a split count that does not
// match the mesh. Whether the fingerprint matches is the caller's to check (stale).
[[nodiscard]] PlanDocument planFromJson(std::string_view json, const std::string& fileName,
                                        const CoarseGraph& coarse, const FamilyTable& families);

// A workload alone as one line of JSON, the plan file's `workload` object (what a history
// run keeps), and back: workloadFromJson checks it as planFromJson checks a plan's
// workload (Error(InvalidPlan, fileName, ...) naming the field).
[[nodiscard]] std::string workloadToJson(const Workload& workload);
[[nodiscard]] Workload workloadFromJson(std::string_view json, const std::string& fileName);

[[nodiscard]] PlanDocument loadPlanFile(const std::filesystem::path& file, const CoarseGraph& coarse,
                                        const FamilyTable& families);
// Writes atomically (a temporary file renamed over the target).
void savePlanFile(const std::filesystem::path& file, const PlanDocument& document, const CoarseGraph& coarse,
                  const FamilyTable& families);

}  // namespace tapestry
