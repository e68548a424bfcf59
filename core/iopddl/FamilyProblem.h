#pragma once

#include "solver/ShardingProblem.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tapestry {

// The shape of one family of the IOPDDL contest's problems (XLA compilations of GNS,
// Transformer inference, Gemma SFT, U-Net and Diffusion models on 2-D or 3-D device
// meshes), as measured on the public four: most nodes are short-lived views of a
// tensor tied to it by a must-match edge (diagonal free, the rest forbidden), a few
// per cent are parameters alive throughout, most strategies cost nothing, and the
// memory limit sits 2-6 % of the way from the smallest possible peak to the cheapest
// plan's peak.
struct ContestFamily {
    std::string name;   // e.g. "ti-3d-816"
    std::string model;  // e.g. "Transformer inference"
    std::vector<int> mesh;  // device mesh axes, e.g. {2, 16} or {2, 4, 4}
    int nodes = 0;
    // Share of the nodes that are views (must-match leaves of a tensor).
    double viewShare = 0.5;
    // Share of the operations that also read a tensor made hundreds to thousands of
    // positions before (skip connections, attention caches): 0 for none.
    double crossCutShare = 0;
    // A training step: the backward half reads the forward half's activations (the
    // cross-cut comes from the mirrored position), so many tensors live for thousands
    // of positions.
    bool training = false;
    // Share of the strategies whose cost is forbidden ("infinity eliminations"): 0 for none.
    double forbiddenStrategyShare = 0;
    // Share of the operations whose strategies cost something (compute, reductions).
    double computeShare = 0.5;
    // Share of the nodes that are parameters, alive at every time point.
    double parameterShare = 0.04;
    // Node ids in another order than time (GNS's are), else topological.
    bool shuffledIds = false;
    // Where the limit sits between the smallest possible peak (0) and the cheapest
    // plan's peak (1); never below the planted plan's peak.
    double limitTightness = 0.04;
    // A contest-like time limit for it.
    double seconds = 60;
    // Strategies per node at most (3-D meshes give up to 125).
    int maxStrategies = 40;
};

// At least one family per model, on 2-D and 3-D meshes, with and without cross-cuts
// and infinity eliminations, from 600 to 65,000 nodes.
[[nodiscard]] const std::vector<ContestFamily>& contestFamilies();

// A problem of the family: tensors in topological order, each with a rank and
// power-of-two dimensions, whose strategies map every mesh axis to a dimension it
// divides (or to none: replicated along it); usage is the tensor's bytes over its
// shards; an edge charges the re-layout from the producer's sharding to the consumer's
// (by the bytes moved along each mesh axis whose mapping differs), views and
// elementwise operations keep their input's strategies (some must match it exactly).
// A planted plan (each operation's smallest allowed usage, each view its tensor's
// strategy) avoids every forbidden cost and fits the limit. Deterministic for a
// family and seed.
[[nodiscard]] ShardingProblem generateFamilyProblem(const ContestFamily& family, std::uint64_t seed);

// A family problem whose optimum is known by construction.
struct PlantedProblem {
    ShardingProblem problem;
    Assignment optimum;
    CostSum optimalCost = 0;
};

// The family's problem (same graph, usages and intervals) with costs and limit changed
// so that a plan is optimal by a Lagrangian certificate: the limit is the plan's peak,
// and with memory priced at one rate at its peak time only, every must-match group's
// priced cost and every edge's cost is least at the plan (groups live at the peak keep
// their smallest strategy, the others their cheapest; strategies that undercut the plan
// are raised, the plan's edge cells lowered to their edge's least, and the groups live
// at the peak pay part of their margin more, so the limit binds). Unlike the plain
// families, these have a tight linear relaxation, so a solver's bound can meet the
// optimum; they measure how close a solver gets, not the bound's strength on real problems.
[[nodiscard]] PlantedProblem generatePlantedFamilyProblem(const ContestFamily& family, std::uint64_t seed);

}  // namespace tapestry
