#include "graph/GraphBuilder.h"

#include "base/Error.h"

#include <functional>
#include <queue>

namespace tapestry {

GraphBuilder::GraphBuilder(ModelInfo info, bool allowOuterScope) : allowOuterScope_(allowOuterScope)
{
    graph_.info_ = std::move(info);
}

TensorId GraphBuilder::tensorNamed(const std::string& name)
{
    const auto [it, inserted] = graph_.tensorsByName_.try_emplace(name, TensorId{graph_.tensors_.size()});
    if (inserted) {
        Tensor tensor;
        tensor.id = it->second;
        tensor.name = name;
        graph_.tensors_.push_back(std::move(tensor));
    }
    return it->second;
}

TensorId GraphBuilder::addInput(std::string name, DataType dtype, TensorShape shape)
{
    const bool exists = graph_.tensorsByName_.contains(name);
    const TensorId id = tensorNamed(name);
    Tensor& tensor = graph_.tensors_[id.index()];
    if (exists && (tensor.role != TensorRole::Intermediate || tensor.producer.isValid()))
        throw Error(ErrorCode::InvalidModel, graph_.info_.sourcePath, "graph input '" + name + "' is defined twice");
    tensor.role = TensorRole::GraphInput;
    tensor.dtype = dtype;
    tensor.shape = std::move(shape);
    graph_.inputs_.push_back(id);
    return id;
}

InitializerId GraphBuilder::addInitializer(Initializer initializer)
{
    const bool exists = graph_.tensorsByName_.contains(initializer.name);
    const TensorId tensorId = tensorNamed(initializer.name);
    Tensor& tensor = graph_.tensors_[tensorId.index()];
    if (exists && (tensor.role != TensorRole::Intermediate || tensor.producer.isValid()))
        throw Error(ErrorCode::InvalidModel, graph_.info_.sourcePath,
                    "initializer '" + initializer.name + "' is defined twice");
    const InitializerId id{graph_.initializers_.size()};
    initializer.id = id;
    initializer.tensor = tensorId;
    tensor.role = TensorRole::Initializer;
    tensor.dtype = initializer.dtype;
    tensor.shape = TensorShape::ofExtents(initializer.dims);
    tensor.initializer = id;
    graph_.initializers_.push_back(std::move(initializer));
    return id;
}

OpId GraphBuilder::addOp(std::string type, std::string name, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs, std::vector<Attribute> attributes,
                         ScopePath scope, std::string domain)
{
    const OpId id{graph_.ops_.size()};
    Op op;
    op.id = id;
    op.type = std::move(type);
    op.name = std::move(name);
    op.domain = std::move(domain);
    op.attributes = std::move(attributes);
    op.scope = std::move(scope);
    op.inputs.reserve(inputs.size());
    for (const std::string& input : inputs) {
        if (input.empty()) {
            op.inputs.emplace_back();
            continue;
        }
        const TensorId tensorId = tensorNamed(input);
        op.inputs.push_back(tensorId);
        graph_.tensors_[tensorId.index()].consumers.push_back(id);
    }
    op.outputs.reserve(outputs.size());
    for (const std::string& output : outputs) {
        if (output.empty()) {
            op.outputs.emplace_back();
            continue;
        }
        const TensorId tensorId = tensorNamed(output);
        Tensor& tensor = graph_.tensors_[tensorId.index()];
        if (tensor.producer.isValid() || tensor.role != TensorRole::Intermediate)
            throw Error(ErrorCode::InvalidModel, graph_.info_.sourcePath,
                        "tensor '" + output + "' is written by op '" + op.name +
                            "' but is already defined elsewhere");
        tensor.producer = id;
        op.outputs.push_back(tensorId);
    }
    graph_.ops_.push_back(std::move(op));
    return id;
}

void GraphBuilder::setAttributes(OpId op, std::vector<Attribute> attributes)
{
    graph_.ops_.at(op.index()).attributes = std::move(attributes);
}

void GraphBuilder::addSubgraph(OpId op, std::shared_ptr<const Graph> subgraph)
{
    graph_.ops_.at(op.index()).subgraphs.push_back(std::move(subgraph));
}

void GraphBuilder::markOutput(const std::string& name)
{
    pendingOutputs_.push_back(name);
}

void GraphBuilder::setTensorType(const std::string& name, DataType dtype, TensorShape shape)
{
    pendingTypes_.push_back({name, dtype, std::move(shape)});
}

Graph GraphBuilder::finish()
{
    for (Tensor& tensor : graph_.tensors_) {
        if (tensor.role != TensorRole::Intermediate || tensor.producer.isValid())
            continue;
        if (!allowOuterScope_) {
            const std::string reader =
                tensor.consumers.empty() ? std::string("a graph output") : "op '" + graph_.ops_[tensor.consumers.front().index()].name + "'";
            throw Error(ErrorCode::InvalidModel, graph_.info_.sourcePath,
                        reader + " reads tensor '" + tensor.name +
                            "', which no op, graph input or initializer defines");
        }
        tensor.role = TensorRole::OuterScope;
    }
    // Looked up by the names kept, not by copies of them (findTensor makes one).
    for (PendingType& pending : pendingTypes_) {
        const auto found = graph_.tensorsByName_.find(pending.name);
        if (found == graph_.tensorsByName_.end())
            continue;  // value_info for a tensor the graph does not use
        Tensor& tensor = graph_.tensors_[found->second.index()];
        if (tensor.role == TensorRole::Initializer)
            continue;  // an initializer's own dims are authoritative
        if (pending.dtype != DataType::Undefined)
            tensor.dtype = pending.dtype;
        if (pending.shape.isRankKnown())
            tensor.shape = std::move(pending.shape);
    }
    pendingTypes_.clear();
    for (const std::string& name : pendingOutputs_) {
        const auto found = graph_.tensorsByName_.find(name);
        if (found == graph_.tensorsByName_.end())
            throw Error(ErrorCode::InvalidModel, graph_.info_.sourcePath,
                        "graph output '" + name + "' is not defined by any op, input or initializer");
        graph_.tensors_[found->second.index()].isGraphOutput = true;
        graph_.outputs_.push_back(found->second);
    }
    pendingOutputs_.clear();
    computeTopologicalOrder();
    return std::move(graph_);
}

void GraphBuilder::computeTopologicalOrder()
{
    const std::size_t n = graph_.ops_.size();
    std::vector<std::uint32_t> pendingInputs(n, 0);
    for (const Op& op : graph_.ops_) {
        for (const TensorId input : op.inputs) {
            if (input.isValid() && graph_.tensors_[input.index()].producer.isValid())
                ++pendingInputs[op.id.index()];
        }
    }
    // Min-heap on the op index keeps file order among ops that are ready together.
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> ready;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (pendingInputs[i] == 0)
            ready.push(i);
    }
    graph_.topologicalOrder_.clear();
    graph_.topologicalOrder_.reserve(n);
    while (!ready.empty()) {
        const std::uint32_t index = ready.top();
        ready.pop();
        graph_.topologicalOrder_.emplace_back(index);
        for (const TensorId output : graph_.ops_[index].outputs) {
            if (!output.isValid())
                continue;
            for (const OpId consumer : graph_.tensors_[output.index()].consumers) {
                if (--pendingInputs[consumer.index()] == 0)
                    ready.push(consumer.value());
            }
        }
    }
    if (graph_.topologicalOrder_.size() != n) {
        for (std::size_t i = 0; i < n; ++i) {
            if (pendingInputs[i] > 0)
                throw Error(ErrorCode::InvalidModel, graph_.info_.sourcePath,
                            "the graph has a cycle through op '" + graph_.ops_[i].name + "'");
        }
    }
}

}  // namespace tapestry
