#pragma once

#include "cluster/DeviceMesh.h"
#include "cost/Workload.h"
#include "history/HistoryIds.h"
#include "plan/Plan.h"
#include "plan/PlanFile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tapestry {

// What the history keeps of a model: enough to name it and to tell when the file
// behind `path` has changed (another fingerprint).
struct ModelRecord {
    ModelRecordId id;
    std::string fingerprint;
    std::string path;
    std::uint64_t opCount = 0;
    std::uint64_t parameters = 0;
    std::string producer;
};

// A cluster by name and its full description (see describeCluster), so that an edited
// preset with the same name is a different cluster.
struct ClusterRecord {
    ClusterRecordId id;
    std::string name;
    std::string description;
};

// Interrupted: the process running it ended without finishing it (killed, crashed);
// set when the history is next opened for writing.
enum class RunStatus : std::uint8_t { Running, Finished, Cancelled, Failed, Interrupted };

[[nodiscard]] const char* runStatusName(RunStatus status);
[[nodiscard]] std::optional<RunStatus> runStatusFromName(std::string_view name);

// What a run was asked to do.
struct RunSettings {
    std::string command;  // "search", "evaluate", ...
    std::string mode;     // "tap", "whole-graph", an expert plan's name, ...
    Workload workload;
    std::vector<std::string> pins;  // as given: "NODE=split,split"
    std::optional<double> memoryLimitBytes;
    std::string target;  // the stack a search was for ("megatron", "any", ...); "" when not recorded
};

struct RunRecord {
    RunId id;
    ModelRecordId model;
    ClusterRecordId cluster;
    RunSettings settings;
    RunStatus status = RunStatus::Running;
    std::string message;
    double startedAt = 0;  // seconds since the Unix epoch
    std::optional<double> finishedAt;
    // Filled when read back.
    std::string modelPath;
    std::string clusterName;
    std::size_t planCount = 0;
};

// A plan as stored. When writing, `parent`, `name`, `origin`, `pins`, `json`, `cost`,
// `meshAxes`, `tags` and `notes` are used; the rest is assigned by the store.
struct PlanRecord {
    PlanRecordId id;
    RunId run;             // invalid for plans made outside a run (edits, re-costs)
    PlanRecordId parent;   // invalid for a plan derived from nothing
    std::string name;
    PlanOrigin origin = PlanOrigin::Search;
    std::vector<std::string> pins;
    std::string json;      // planToJson's text
    std::optional<PlanCostSummary> cost;
    std::vector<MeshAxis> meshAxes;
    std::vector<std::string> tags;
    std::vector<std::string> notes;
    bool stale = false;
    double createdAt = 0;  // seconds since the Unix epoch
    // Filled when read back.
    ModelRecordId model;
    std::string modelPath;
    std::string modelFingerprint;
    std::string clusterName;

    [[nodiscard]] std::optional<bool> fitsInMemory() const
    {
        return cost ? std::optional<bool>(cost->memoryBytes <= cost->hbmBytes) : std::nullopt;
    }
};

// What a plan is checked against to tell whether it is stale.
struct CurrentInputs {
    std::string modelPath;
    std::string modelFingerprint;
    std::string clusterName;
    std::string clusterDescription;
};

}  // namespace tapestry
