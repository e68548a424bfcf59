#pragma once

#include "plan/ParallelDegrees.h"
#include "plan/Plan.h"

#include <array>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace tapestry {

struct FoldedModel;

// Stage plans planFromTrainingStackSettings built and checked for one model, kept by
// what their strategies depend on besides the axis sizes: a search that builds a plan per
// layout (data, tensor and context sizes) builds one per kind of layout, and copies it.
// Plans with expert parallelism are not kept (they depend on the workload's routing).
// Beside them, the splits of the model's Megatron plans (megatronPlan), which every stage
// plan and the expert references start from. It holds the model, so no other model can
// take its address while it lives. Not for several threads.
class StagePlans {
public:
    struct Kind {
        bool sequenceParallel = false;
        ContextParallelVariant context = ContextParallelVariant::None;  // None: no context parallelism
        bool operator==(const Kind&) const = default;
    };

    explicit StagePlans(std::shared_ptr<const FoldedModel> model) : model_(std::move(model)) {}

    // Whether these are plans of `model` (the same object).
    [[nodiscard]] bool of(const FoldedModel& model) const { return model_.get() == &model; }
    // The strategies of the plan of `kind`, or nullptr when none was built yet.
    [[nodiscard]] const std::vector<NodeStrategy>* find(const Kind& kind) const;
    void add(const Kind& kind, std::vector<NodeStrategy> strategies);
    // How many plans were built.
    [[nodiscard]] std::size_t size() const { return plans_.size(); }

    // makeExpertPlan(Megatron, or MegatronSequenceParallel, the model's coarse graph,
    // `mesh`). That plan splits only the last axis of a mesh, each node alike on any mesh
    // (makeTensorParallelPlan): the splits are found once, and laid out on each mesh.
    [[nodiscard]] Plan megatronPlan(bool sequenceParallel, const std::vector<MeshAxis>& mesh);

private:
    std::shared_ptr<const FoldedModel> model_;
    std::vector<std::pair<Kind, std::vector<NodeStrategy>>> plans_;
    std::array<std::optional<std::vector<AxisSplit>>, 2> megatronSplits_;  // without, with SP
};

}  // namespace tapestry
