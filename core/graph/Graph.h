#pragma once

#include "graph/Ids.h"
#include "graph/Initializer.h"
#include "graph/ModelInfo.h"
#include "graph/Op.h"
#include "graph/Tensor.h"

#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tapestry {

// An immutable dataflow graph of ops and tensors, built only by GraphBuilder.
// Invariants (checked by GraphBuilder::finish):
// - ids are dense: ops()[i].id.index() == i, likewise tensors and initializers;
// - tensor names are unique; every intermediate tensor has exactly one producer;
// - the ops form a DAG and topologicalOrder() lists each op after all its producers,
//   keeping file order among independent ops.
class Graph {
public:
    Graph() = default;

    [[nodiscard]] const ModelInfo& info() const { return info_; }
    [[nodiscard]] std::span<const Op> ops() const { return ops_; }
    [[nodiscard]] std::span<const Tensor> tensors() const { return tensors_; }
    [[nodiscard]] std::span<const Initializer> initializers() const { return initializers_; }
    [[nodiscard]] std::span<const TensorId> inputs() const { return inputs_; }
    [[nodiscard]] std::span<const TensorId> outputs() const { return outputs_; }
    [[nodiscard]] std::span<const OpId> topologicalOrder() const { return topologicalOrder_; }

    [[nodiscard]] const Op& op(OpId id) const { return ops_.at(id.index()); }
    [[nodiscard]] const Tensor& tensor(TensorId id) const { return tensors_.at(id.index()); }
    [[nodiscard]] const Initializer& initializer(InitializerId id) const
    {
        return initializers_.at(id.index());
    }
    // Invalid id when no tensor has that name.
    [[nodiscard]] TensorId findTensor(std::string_view name) const;
    [[nodiscard]] std::size_t opCount() const { return ops_.size(); }

private:
    friend class GraphBuilder;

    ModelInfo info_;
    std::vector<Op> ops_;
    std::vector<Tensor> tensors_;
    std::vector<Initializer> initializers_;
    std::vector<TensorId> inputs_;
    std::vector<TensorId> outputs_;
    std::vector<OpId> topologicalOrder_;
    std::unordered_map<std::string, TensorId> tensorsByName_;
};

}  // namespace tapestry
