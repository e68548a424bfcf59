#include "cost/EagerKernelBytes.h"

#include <algorithm>
#include <array>
#include <cstddef>

namespace tapestry {

namespace {

bool isView(std::string_view type)
{
    constexpr std::array<std::string_view, 7> views{"Reshape", "Transpose", "Unsqueeze", "Squeeze",
                                                    "Flatten", "Identity",  "Slice"};
    return std::find(views.begin(), views.end(), type) != views.end();
}

// The derivative's kernel into input `i` of a product (Mul, Div): reads the gradient and
// `factors` bytes of operands; into a broadcast input the full-size product is written and
// summed (read again) before the input's gradient is written.
double productBackward(double gradient, double factors, double input)
{
    return input < gradient ? gradient + factors + gradient + gradient + input : gradient + factors + input;
}

}  // namespace

bool eagerKernelReadsInputs(std::string_view type)
{
    return !isView(type);
}

EagerKernelBytes eagerKernelBytes(std::string_view type, const std::vector<double>& inputBytes,
                                  const std::vector<bool>& inputGradient, double outputBytes)
{
    EagerKernelBytes bytes;
    const double dy = outputBytes;
    if (eagerKernelReadsInputs(type)) {
        for (const double input : inputBytes)
            bytes.forward += input;
        bytes.forward += outputBytes;
        bytes.forwardKernels = 1;
    }
    auto backwardKernel = [&](double moved) {
        bytes.backward += moved;
        ++bytes.backwardKernels;
    };
    for (std::size_t i = 0; i < inputBytes.size() && i < inputGradient.size(); ++i) {
        if (!inputGradient[i])
            continue;
        const double dx = inputBytes[i];
        const double other = inputBytes.size() == 2 ? inputBytes[1 - i] : 0.0;
        if (type == "Add" || type == "Sum" || (type == "Sub" && i == 0)) {
            if (dx < dy)
                backwardKernel(dy + dx);
        } else if (type == "Sub" || type == "Neg" || type == "Cast" || type == "Expand") {
            backwardKernel(dy + dx);
        } else if (type == "Concat" || (isView(type) && type != "Slice")) {
            continue;
        } else if (type == "Slice") {
            backwardKernel(dx + 2 * dy);
        } else if (type == "Mul") {
            backwardKernel(productBackward(dy, other, dx));
        } else if (type == "Div") {
            backwardKernel(productBackward(dy, i == 0 ? other : inputBytes[0] + inputBytes[1], dx));
        } else if (type == "ReduceMean" || type == "ReduceSum") {
            backwardKernel(dy + dx);
        } else {
            backwardKernel(dy + dx + dx);
        }
    }
    return bytes;
}

double eagerGradientSumBytes(int consumers, double tensorBytes)
{
    return eagerGradientSumKernels(consumers) * 3 * tensorBytes;
}

int eagerGradientSumKernels(int consumers)
{
    return consumers > 1 ? consumers - 1 : 0;
}

EagerKernelBytes eagerLossBytes(double elements, double logitElementBytes)
{
    return {elements * (logitElementBytes + 4 + 4 + 4), elements * (4 + 4 + 4 + 4 + 4 + logitElementBytes), 3, 3};
}

}  // namespace tapestry
