#pragma once

#include "graph/Graph.h"

#include <string>
#include <vector>

namespace tapestry {

// Assembles a Graph by tensor names, the way ONNX files and test graphs describe it.
// Ops may be added in any order; finish() resolves names, checks the invariants of
// Graph and computes the topological order. Errors are tapestry::Error with
// ErrorCode::InvalidModel naming the offending op or tensor.
class GraphBuilder {
public:
    // `allowOuterScope`: names used but defined nowhere become OuterScope tensors
    // (subgraph bodies read values of their enclosing graph); otherwise an error.
    explicit GraphBuilder(ModelInfo info = {}, bool allowOuterScope = false);

    TensorId addInput(std::string name, DataType dtype, TensorShape shape);
    InitializerId addInitializer(Initializer initializer);
    // Inputs may contain "" for an omitted optional input.
    OpId addOp(std::string type, std::string name, const std::vector<std::string>& inputs,
               const std::vector<std::string>& outputs, std::vector<Attribute> attributes = {},
               ScopePath scope = {}, std::string domain = {});
    // For attributes that refer to the op's own subgraphs, known only after addOp.
    void setAttributes(OpId op, std::vector<Attribute> attributes);
    void addSubgraph(OpId op, std::shared_ptr<const Graph> subgraph);
    void markOutput(const std::string& name);
    // Type and shape of any tensor by name (value_info, graph outputs, inference).
    void setTensorType(const std::string& name, DataType dtype, TensorShape shape);
    void setShapesInferred(bool inferred) { graph_.info_.shapesInferred = inferred; }

    [[nodiscard]] Graph finish();

private:
    TensorId tensorNamed(const std::string& name);
    void computeTopologicalOrder();

    Graph graph_;
    bool allowOuterScope_;
    std::vector<std::string> pendingOutputs_;
    struct PendingType {
        std::string name;
        DataType dtype;
        TensorShape shape;
    };
    std::vector<PendingType> pendingTypes_;
};

}  // namespace tapestry
