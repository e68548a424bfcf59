#pragma once

namespace tapestry {

// Eager PyTorch launches every kernel from Python: the op's dispatch, autograd's bookkeeping
// and the CUDA launch take host time, and a kernel whose GPU work is shorter than that costs
// the host's time instead (a small model, a thin micro-batch, a high tensor-parallel degree:
// the work per kernel shrinks, the kernels do not). 20 us: bench/gpu/kernel_rates.py on one
// H200 SXM with torch 2.11 timed every GEMM call below about 25 us at 13-24 us, the
// 128 x 512 x 512 and 1024 x 1024 x 1024 ones both at about 20 us (tests/data/kernels/README.md).
inline constexpr double kEagerKernelHostSeconds = 20e-6;

// The least time `kernels` eager kernels take, launched one after another by the host.
[[nodiscard]] inline double eagerLaunchFloorSeconds(double kernels)
{
    return kernels * kEagerKernelHostSeconds;
}

}  // namespace tapestry
