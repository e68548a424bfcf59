#pragma once

#include "cluster/Cluster.h"
#include "cluster/DeviceMesh.h"
#include "cost/Workload.h"
#include "cost/WorkloadCheck.h"
#include "fold/FoldedModel.h"
#include "plan/Plan.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tapestry::cli {

// Whether the option was declared and given on the command line.
[[nodiscard]] inline bool optionGiven(const CLI::Option* option)
{
    return option && option->count() > 0;
}

// What the planning commands share: the model imported and folded (foldModel), the
// cluster, the mesh and the workload chosen on the command line.
[[nodiscard]] FoldedModel loadAndFold(const std::string& modelFile);

// The options evaluate and search share: the cluster, the mesh and the workload.
struct PlanningOptions {
    std::string cluster = "dgx-h100x1";  // a preset from resources/clusters or FILE.json
    int nodes = 0;                       // 0: as many as the cluster has
    std::string mesh;                    // AxB[xC]; empty: one axis over every GPU
    std::string axes;                    // NAME,NAME; empty: the default names
    Workload workload;
    // Set when declared: a search chooses recomputation and the ZeRO stage unless given,
    // and a plan file's workload keeps what no option names (workloadOverPlanFile).
    const CLI::Option* batchOption = nullptr;
    const CLI::Option* sequenceOption = nullptr;
    const CLI::Option* microBatchOption = nullptr;
    const CLI::Option* precisionOption = nullptr;
    const CLI::Option* fp8ParametersOption = nullptr;
    const CLI::Option* optimizerOption = nullptr;
    const CLI::Option* recomputeOption = nullptr;
    const CLI::Option* zeroOption = nullptr;
    const CLI::Option* zero1Option = nullptr;
    const CLI::Option* zeroImplementationOption = nullptr;
    const CLI::Option* zeroReplicasOption = nullptr;
    const CLI::Option* checkpointReplayOption = nullptr;
    const CLI::Option* savedActivationsOption = nullptr;
    const CLI::Option* optimizerStepOption = nullptr;
    const CLI::Option* gradientLifetimeOption = nullptr;
    const CLI::Option* clipGradientsOption = nullptr;
    const CLI::Option* overlapOption = nullptr;
    const CLI::Option* attentionOption = nullptr;
    const CLI::Option* capacityFactorOption = nullptr;

    [[nodiscard]] bool recomputationGiven() const { return optionGiven(recomputeOption); }
    [[nodiscard]] bool zeroStageGiven() const { return optionGiven(zeroOption) || optionGiven(zero1Option); }
};

// `stored` (a plan file's workload) with each field that an option of `options` names
// replaced by the option's value.
[[nodiscard]] Workload workloadOverPlanFile(const Workload& stored, const PlanningOptions& options);

// Refuses (Error naming `source` and the field) a workload that contradicts itself or the
// sizes `plan` runs it with (checkWorkload): a field an option names is named as the
// option, another as the plan file's field (`planFile` empty: every field is an option's).
void checkPlanningWorkload(const Workload& workload, const WorkloadDegrees& degrees, const PlanningOptions& options,
                           const std::string& planFile);

// Declares --cluster NAME|FILE (`clusterHelp` says what it is for) and --nodes N.
void addClusterOptions(CLI::App& command, std::string& cluster, int& nodes, const std::string& clusterHelp);

// Declares --cluster, --nodes, --mesh (with `meshAuto`, also "auto"), --axes and the
// workload's --batch, --seq, --micro-batch, --precision, --optimizer, --zero (--zero1),
// --recompute, --checkpoint-replay, --overlap, --attention and --capacity-factor on `command`, bound to `options`.
void addPlanningOptions(CLI::App& command, PlanningOptions& options, bool meshAuto);

// The folder of cluster presets installed beside the executable `argv0`.
[[nodiscard]] std::filesystem::path clusterPresetFolder(const char* argv0);

// The cluster preset or file `cluster`, with its node count changed to `nodes` (0: its own).
[[nodiscard]] Cluster loadCluster(const std::string& cluster, int nodes, const char* argv0);
[[nodiscard]] Cluster clusterFromOptions(const PlanningOptions& options, const char* argv0);

// What import-plan and export check a plan file against: --cluster when given, else the
// preset the plan names ("dgx-h100x2", or "dgx-h100x1 (4 nodes)" as --nodes names a
// scaled one).
struct PlanClusterOptions {
    std::string cluster;  // empty: the cluster the plan names
    int nodes = 0;
};
void addPlanClusterOptions(CLI::App& command, PlanClusterOptions& options);

// Throws InvalidPlan naming `planFile`, the mesh and the GPU count when the plan's devices
// (pipeline stages x its mesh) are not the cluster's GPUs or do not split over its nodes;
// returns the cluster it checked against. A plan that names no preset, with no
// --cluster, is not checked: a note on stderr (from `command`) says so.
std::optional<Cluster> checkPlanFitsCluster(const Plan& plan, const std::string& namedCluster,
                                            const std::string& planFile, const PlanClusterOptions& options,
                                            const char* argv0, const char* command);

// The mesh AxB[xC] with optional names NAME,NAME; the default names are "d" for a 1-D
// mesh and "dp","tp" for a 2-D mesh (tensor parallelism on the last, fastest axis). An
// empty `mesh` is one axis over every GPU of `cluster`.
[[nodiscard]] std::vector<MeshAxis> meshAxesFromOptions(const std::string& mesh, const std::string& axes,
                                                        const Cluster& cluster);

}  // namespace tapestry::cli
