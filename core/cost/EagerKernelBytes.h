#pragma once

#include <string_view>
#include <vector>

namespace tapestry {

// What one memory-bound op moves through HBM when eager PyTorch runs it as a kernel of its
// own (SavedActivations::Eager: the model's modules run op by op), forward and in backward,
// from the op's type and the bytes of its tensors at the types it runs them in. Nothing is
// fitted: a kernel reads each tensor it takes and writes each it makes, once.
//
// Forward: the activation inputs read and the output written; views (Reshape, Transpose,
// Unsqueeze, Squeeze, Flatten, Identity, Slice) move nothing.
// Backward: one kernel per input that needs a gradient, as autograd's derivative of the op
// computes it (PyTorch's tools/autograd/derivatives.yaml), reading the output gradient
// (`outputBytes`) and what the derivative needs, writing the input's gradient:
// - Add (and Sub's first input, Sum): the gradient itself, no kernel; into a broadcast
//   (smaller) input, a reduction that reads the gradient and writes the input's.
// - Sub's second input, Neg, Cast, Expand (its backward sums the repeats): read, write.
// - Concat: its inputs' gradients are views of the output gradient, no kernel; Slice
//   (slice_backward): a zero tensor of the input's size written, the slice copied in.
// - Mul: the gradient times the other factor; into a broadcast factor (a norm's weight, an
//   RMS norm's per-row scale) the product is written at the output's size and summed.
//   Div likewise; its divisor's gradient reads both operands.
// - ReduceMean, ReduceSum: the gradient expanded to the input's size (one write).
// - Every other op (element-wise functions: Sigmoid, Pow, Sqrt, Tanh, Softmax, ...): the
//   gradient and the op's input (or output) read, the input's gradient written.
// Gradients that meet at a tensor read by several consumers are summed apart
// (eagerGradientSumBytes).
// With the bytes, the kernels that move them (each launched from the host: EagerLaunchFloor.h).
struct EagerKernelBytes {
    double forward = 0;
    double backward = 0;
    int forwardKernels = 0;
    int backwardKernels = 0;
};

// Whether the op's forward kernel reads its inputs (every op but the views, which move
// nothing): then eagerKernelBytes' forward holds each of `inputBytes` once.
[[nodiscard]] bool eagerKernelReadsInputs(std::string_view type);

// `inputBytes[i]`: input i's bytes as the kernel reads it (0 for a constant it does not
// stream: a scalar, a shape); `inputGradient[i]`: whether autograd computes its gradient
// (an activation on the gradient path, or a parameter); `outputBytes`: the op's output.
[[nodiscard]] EagerKernelBytes eagerKernelBytes(std::string_view type, const std::vector<double>& inputBytes,
                                                const std::vector<bool>& inputGradient, double outputBytes);

// Autograd sums the gradients of a tensor read by `consumers` ops (each its own kernel)
// one addition at a time: consumers - 1 kernels (eagerGradientSumKernels), each reading two
// and writing one.
[[nodiscard]] double eagerGradientSumBytes(int consumers, double tensorBytes);
[[nodiscard]] int eagerGradientSumKernels(int consumers);

// The loss as eager PyTorch computes it from logits of `elements` elements of
// `logitElementBytes` each: cross_entropy on the logits cast to fp32 (what transformers'
// models and torchtitan do). Forward: the cast (read, write 4 bytes), log_softmax (read 4,
// write 4); nll_loss reads one log-probability per row. Backward: nll_loss's gradient (the
// log-probabilities' size, written), log_softmax's (reads that and its output, writes
// 4 bytes), the cast's (reads 4, writes the logits' type). Three kernels each way.
[[nodiscard]] EagerKernelBytes eagerLossBytes(double elements, double logitElementBytes);

}  // namespace tapestry
