#pragma once

#include <cstddef>

namespace onnx {
class ModelProto;
}

namespace tapestry {

// Exporters compute many shapes at run time: Shape -> Gather -> Div -> Concat -> Reshape
// (torchvision's Swin windows, padding to a multiple of the window). ONNX shape
// inference follows only some of these chains, and a Reshape whose target it cannot
// read leaves every op after it without shapes. This pass evaluates such small integer
// computations itself (constants, the shapes inference found, Gather, Concat, Slice,
// arithmetic, ...) and runs inference again with their values known, until nothing new
// is learned. The shapes found are added to `model`'s value_info; its nodes and
// initializers are not changed. Returns how many tensors gained a shape.
std::size_t inferShapesThroughShapeComputations(onnx::ModelProto& model);

}  // namespace tapestry
