#pragma once

#include "graph/Graph.h"
#include "synth/ModelSpec.h"

#include <string>

namespace tapestry {

// ResNet with bottleneck blocks as torchvision exports it: conv1, bn1, relu, maxpool,
// layerS/layerS.B/{conv1, bn1, relu, conv2, bn2, relu_1, conv3, bn3, Add, relu_2} with
// downsample.{0: Conv, 1: BatchNormalization} in the first block of every stage,
// avgpool, Flatten and an fc Gemm. Stage S (from 1) has width hidden * 2^(S-1) and
// output 4x that; every stage after the first halves the image on conv2 (v1.5).
// BatchNormalization reads running_mean and running_var initializers, as in
// a real export. Expects a valid spec.
[[nodiscard]] Graph buildResNet(const ModelSpec& spec, const std::string& graphName);

}  // namespace tapestry
