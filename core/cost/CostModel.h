#pragma once

#include "cluster/CollectiveCost.h"
#include "cluster/DeviceMesh.h"
#include "cost/PlanEvaluation.h"
#include "cost/ShapeBinder.h"
#include "cost/Workload.h"
#include "fold/FamilyTable.h"
#include "plan/Plan.h"

#include <optional>
#include <vector>

namespace tapestry {

class Graph;

// Prices plans for one model, cluster, mesh and workload (cost-model.md). Everything
// that does not depend on the plan (flops, bytes, parameters, tensors crossing coarse
// nodes) is computed once here, so evaluating a plan is a pass over nodes and edges.
//
// Per device and training step:
// - compute: anchors 3 x flops / (peak x achievable fraction) (forward and two backward
//   matmuls); other ops are memory-bound, 3 x bytes touched / HBM bandwidth; both divided
//   by the product of the axes the node splits.
// - resharding on every tensor that crosses coarse nodes, per mesh axis: the producer's
//   output layout converted to each distinct layout its consumers need (forward), and
//   each distinct input-gradient layout converted back (backward, only for tensors that
//   carry gradients); conversions are the collectives of cost-model.md.
// - gradient synchronization: the gradients of weights replicated over a data-split axis
//   are all-reduced once per axis in one bucket, attributed to nodes by their bytes.
// - memory: parameters, gradients (compute dtype each), optimizer states (ZeRO-1: divided
//   by the data-parallel degree), saved activations (inputs of anchors and
//   normalizations, softmax outputs), and the largest anchor output as transient buffer.
// All activations are counted at the workload's compute dtype.
class CostModel {
public:
    // Keeps references to all arguments; they must outlive the model.
    CostModel(const Graph& graph, const CoarseGraph& coarse, const FamilyTable& families, const Cluster& cluster,
              const DeviceMesh& mesh, const Workload& workload);

    // Throws Error(InvalidPlan) if the plan does not fit the coarse graph or the mesh.
    [[nodiscard]] PlanEvaluation evaluate(const Plan& plan) const;

    // A tensor leaving its producer's coarse node.
    struct CrossingTensor {
        double bytes = 0;
        bool carriesGradient = false;
        CoarseNodeId producer;
        OpId producerOp;
        std::vector<std::pair<CoarseNodeId, OpId>> consumers;  // distinct nodes, first reading op
    };

    // The terms evaluate() adds up, for searchers that price choices one by one.
    struct StrategyTerms {
        double computeSeconds = 0;
        // Gradient synchronization, linearized: the bandwidth term of this node's share
        // of the bucketed all-reduce (evaluate() adds the per-axis latency once).
        double gradientSyncSeconds = 0;
        // Parameters, gradients, optimizer states and saved activations (everything
        // evaluate() counts except the one largest transient buffer).
        double memoryBytes = 0;
    };
    [[nodiscard]] StrategyTerms strategyTerms(CoarseNodeId node, const NodeStrategy& strategy) const;
    [[nodiscard]] const std::vector<CrossingTensor>& crossingTensors() const { return crossing_; }
    // Time of converting `tensor` from `from` to `to` along `axis` when its producer
    // uses `producer` (which fixes how the other axes shard it). Zero if no collective.
    [[nodiscard]] double conversionSeconds(const CrossingTensor& tensor, std::size_t axis, const NodeStrategy& producer,
                                           AxisLayout from, AxisLayout to) const;

    [[nodiscard]] const ShapeBinder& shapes() const { return binder_; }
    [[nodiscard]] const DeviceMesh& mesh() const { return mesh_; }
    [[nodiscard]] double hbmBytes() const;

    // Plan-independent facts of a coarse node (exposed for tests and the GUI).
    struct NodeFacts {
        double flops = 0;              // forward flops of the anchor
        double memoryBoundBytes = 0;   // forward bytes touched by the other ops
        double parameterElements = 0;
        // Activations kept for the backward pass: (tensor, bytes). A tensor read by
        // several anchors (q, k and v read one norm output) is kept once, listed at the
        // first of them in node order.
        std::vector<std::pair<TensorId, double>> savedActivations;
        double transientBytes = 0;
        OpId costOp;                   // the op that carries the node's own costs
    };
    [[nodiscard]] const NodeFacts& facts(CoarseNodeId id) const { return nodeFacts_.at(id.index()); }

private:
    struct OpFacts {
        double flops = 0;
        double memoryBoundBytes = 0;
    };
    // How a strategy divides a node's work and data.
    struct Divisors {
        double compute = 1;  // every split axis
        double weights = 1;  // axes that shard the weights
        double data = 1;     // axes over which the weights are replicated and gradients summed
        double input = 1;    // axes that shard the node's activation input
        double output = 1;   // axes that shard its output
    };
    [[nodiscard]] Divisors divisorsOf(CoarseNodeKind kind, const NodeStrategy& strategy) const;
    struct PricedConversion {
        CollectiveKind kind;
        CollectiveBreakdown price;
    };
    [[nodiscard]] std::optional<PricedConversion> conversion(const CrossingTensor& tensor, std::size_t axis,
                                                             const NodeStrategy& producer, AxisLayout from,
                                                             AxisLayout to) const;

    void computeOpFacts();
    void computeNodeFacts();
    void computeCrossingTensors();

    const Graph& graph_;
    const CoarseGraph& coarse_;
    const FamilyTable& families_;
    const Cluster& cluster_;
    const DeviceMesh& mesh_;
    Workload workload_;
    ShapeBinder binder_;
    CollectiveCost collectives_;
    double dtypeBytes_ = 2;
    std::vector<OpFacts> opFacts_;
    std::vector<NodeFacts> nodeFacts_;
    std::vector<CrossingTensor> crossing_;
};

}  // namespace tapestry
