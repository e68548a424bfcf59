#pragma once

namespace tapestry {

class Graph;

// Checks what a planner prices: every MatMul, Gemm and Conv of the main graph whose
// operand shapes are known must be a valid one. MatMul and Gemm operands have rank >= 1
// (Gemm: exactly 2) and inner dimensions that agree; Gemm's transA/transB are 0 or 1;
// Conv's group, strides and dilations are >= 1, its pads >= 0 and its channels match
// the weight's. Operands have no empty dimension, and every tensor's element count
// fits in int64. Throws InvalidModel naming the file, the op and the problem.
void checkPlanningOps(const Graph& graph);

}  // namespace tapestry
