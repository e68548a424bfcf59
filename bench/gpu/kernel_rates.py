#!/usr/bin/env python3
"""Measure the kernel rates the cost model assumes, on the GPU at hand.

cost/KernelTime.h prices a GEMM as a roofline at gpu.achievableFraction of the peak,
fused attention by cost/AttentionKernelRate.h's curves (sequence length, head dimension,
causal mask; forward and backward), memory-bound kernels at kHbmShare of the HBM peak,
and FP8 GEMMs at gpu.fp8.achievableFraction. This script times those kernels through
PyTorch (cuBLAS GEMMs, SDPA's FlashAttention-2 and cuDNN backends, torch._scaled_mm) so
the assumptions can be set against one GPU's own figures. It needs a CUDA GPU; nothing in
the build or the tests runs it.

    python3 bench/gpu/kernel_rates.py -o rates.json [--quick]

Each figure is the median of three timed loops of at least 3 ms each, after a warm-up
call; CUDA events around the loop, so launch gaps of tiny kernels are included as a
training step would see them back to back. The JSON is written after every section, so a
run cut short keeps what it measured.

Backward times are (forward + backward) - forward. The gradients of q, k and v are
returned (torch.autograd.grad), not accumulated into .grad: an accumulating .backward()
adds three in-place adds of the q, k and v gradients to every timed call (about 141 us at
16k tokens x hidden 2,048 on an H200), which the figures of 2026-11 still hold
(backward_includes_grad_accumulation in their file).
"""
import argparse
import json
import math
import statistics
import subprocess
import time

import torch
import torch.nn.functional as F

LOOP_SECONDS = 3e-3
REPEATS = 3


def seconds_per_call(fn):
    fn()
    torch.cuda.synchronize()
    start = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    estimate = max(time.perf_counter() - start, 1e-6)
    calls = max(1, math.ceil(LOOP_SECONDS / estimate))
    samples = []
    for _ in range(REPEATS):
        begin = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        begin.record()
        for _ in range(calls):
            fn()
        end.record()
        end.synchronize()
        samples.append(begin.elapsed_time(end) / 1e3 / calls)
    return statistics.median(samples)


def gpu_facts():
    query = "name,power.limit,clocks.max.sm,clocks.max.memory,memory.total,driver_version"
    try:
        text = subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as error:
        text = f"nvidia-smi failed: {error}"
    props = torch.cuda.get_device_properties(0)
    return {"nvidia_smi": dict(zip(query.split(","), [t.strip() for t in text.split(",")])),
            "torch": torch.__version__, "cuda": torch.version.cuda,
            "cudnn": torch.backends.cudnn.version(), "sm_count": props.multi_processor_count,
            "capability": f"{props.major}.{props.minor}"}


def gemms(quick):
    # Forward Y = X Wᵀ as F.linear runs it, and the weight gradient dW = dYᵀ X, whose
    # reduction runs over the tokens: the two layouts a thin micro-batch stresses.
    tokens = [128, 256, 512, 1024, 2048, 4096, 8192, 16384]
    shapes = [(h, h) for h in (512, 1024, 2048, 3072, 4096, 5120, 8192, 12288)]
    shapes += [(r * h, h) for r in (3, 4) for h in (1024, 2048, 4096, 8192)]
    shapes += [(h, 4 * h) for h in (1024, 2048, 4096, 8192)]
    if quick:
        tokens, shapes = [256, 1024], [(1024, 1024)]
    rows = []
    for n, k in shapes:
        weight = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
        for m in tokens:
            x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
            dy = torch.randn(m, n, device="cuda", dtype=torch.bfloat16)
            flops = 2.0 * m * n * k
            forward = seconds_per_call(lambda: F.linear(x, weight))
            wgrad = seconds_per_call(lambda: dy.t() @ x)
            dgrad = seconds_per_call(lambda: dy @ weight)
            rows.append({"tokens": m, "out": n, "in": k, "flops": flops,
                         "forward_s": forward, "dgrad_s": dgrad, "wgrad_s": wgrad})
            print(f"gemm m={m} n={n} k={k}: fwd {flops / forward / 1e12:.0f} "
                  f"dgrad {flops / dgrad / 1e12:.0f} wgrad {flops / wgrad / 1e12:.0f} TFLOP/s", flush=True)
    return rows


def fp8_gemms(quick):
    if not hasattr(torch, "_scaled_mm") or not hasattr(torch, "float8_e4m3fn"):
        return {"skipped": "no torch._scaled_mm"}
    tokens = [1024, 2048, 4096, 8192] if not quick else [1024]
    sizes = [2048, 4096, 8192] if not quick else [1024]
    rows = []
    one = torch.tensor(1.0, device="cuda")
    for h in sizes:
        b = torch.randn(h, h, device="cuda").to(torch.float8_e4m3fn).t()  # column-major, as cuBLASLt needs
        for m in tokens:
            a = torch.randn(m, h, device="cuda").to(torch.float8_e4m3fn)
            try:
                s = seconds_per_call(lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one,
                                                              out_dtype=torch.bfloat16))
            except RuntimeError as error:
                return {"skipped": str(error)[:300], "rows": rows}
            flops = 2.0 * m * h * h
            rows.append({"tokens": m, "out": h, "in": h, "flops": flops, "seconds": s})
            print(f"fp8 m={m} n=k={h}: {flops / s / 1e12:.0f} TFLOP/s", flush=True)
    return rows


def attention(quick):
    # FlashAttention-3 paper's setting (Figs. 5-6): batch x sequence = 16k tokens, hidden
    # 2,048; heads = 2,048 / head dim. 32k runs one sequence of 32k tokens.
    from torch.nn.attention import SDPBackend, sdpa_kernel
    backends = {"flash2": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}
    lengths = [512, 1024, 2048, 4096, 8192, 16384, 32768] if not quick else [512, 1024]
    rows = []
    for name, backend in backends.items():
        for head_dim in (64, 128):
            for causal in (False, True):
                for length in lengths:
                    batch = max(1, 16384 // length)
                    heads = 2048 // head_dim
                    shape = (batch, heads, length, head_dim)
                    q, k, v = (torch.randn(shape, device="cuda", dtype=torch.bfloat16, requires_grad=True)
                               for _ in range(3))
                    grad = torch.randn(shape, device="cuda", dtype=torch.bfloat16)

                    def forward():
                        with sdpa_kernel(backend):
                            return F.scaled_dot_product_attention(q, k, v, is_causal=causal)

                    def forward_backward():
                        torch.autograd.grad(forward(), (q, k, v), grad)

                    flops = 4.0 * batch * heads * length * length * head_dim * (0.5 if causal else 1.0)
                    try:
                        with torch.no_grad():
                            fwd = seconds_per_call(forward)
                        both = seconds_per_call(forward_backward)
                    except RuntimeError as error:
                        rows.append({"kernel": name, "head_dim": head_dim, "causal": causal, "keys": length,
                                     "error": str(error)[:200]})
                        continue
                    bwd = both - fwd
                    rows.append({"kernel": name, "head_dim": head_dim, "causal": causal, "keys": length,
                                 "batch": batch, "heads": heads, "forward_flops": flops,
                                 "forward_s": fwd, "backward_s": bwd})
                    print(f"{name} d={head_dim} causal={causal} L={length}: fwd {flops / fwd / 1e12:.0f} "
                          f"bwd {2.5 * flops / bwd / 1e12:.0f} TFLOP/s", flush=True)
                    del q, k, v, grad
    return rows


def unfused_attention(quick):
    # Megatron-LM's unfused path: QKᵀ batched GEMM, softmax, dropout, PV batched GEMM,
    # with the s x s scores in HBM. Hidden 2,048, head dim 128, 16k tokens.
    lengths = [512, 1024, 2048, 4096] if not quick else [512]
    rows = []
    for dropout in (0.0, 0.1):
        for length in lengths:
            batch, heads, head_dim = max(1, 16384 // length), 16, 128
            shape = (batch * heads, length, head_dim)
            q, k, v = (torch.randn(shape, device="cuda", dtype=torch.bfloat16, requires_grad=True) for _ in range(3))
            grad = torch.randn(shape, device="cuda", dtype=torch.bfloat16)
            scale = 1.0 / math.sqrt(head_dim)

            def forward():
                scores = torch.baddbmm(torch.empty(1, device="cuda", dtype=torch.bfloat16), q, k.transpose(1, 2),
                                       beta=0.0, alpha=scale)
                probs = F.dropout(torch.softmax(scores, dim=-1), p=dropout, training=dropout > 0)
                return torch.bmm(probs, v)

            def forward_backward():
                torch.autograd.grad(forward(), (q, k, v), grad)

            with torch.no_grad():
                fwd = seconds_per_call(forward)
            both = seconds_per_call(forward_backward)
            flops = 4.0 * batch * heads * length * length * head_dim
            rows.append({"dropout": dropout, "keys": length, "batch": batch, "heads": heads, "head_dim": head_dim,
                         "forward_flops": flops, "forward_s": fwd, "backward_s": both - fwd})
            print(f"unfused p={dropout} L={length}: fwd {fwd * 1e3:.2f} ms bwd {(both - fwd) * 1e3:.2f} ms", flush=True)
            del q, k, v, grad
    return rows


def memory_bound(quick):
    elements = (1 << 28) if not quick else (1 << 20)  # 512 MiB of bf16
    x = torch.randn(elements, device="cuda", dtype=torch.bfloat16)
    y = torch.randn(elements, device="cuda", dtype=torch.bfloat16)
    out = torch.empty_like(x)
    rows2d = x.view(-1, 4096)
    ln_weight = torch.ones(4096, device="cuda", dtype=torch.bfloat16)
    cases = {
        "copy": (lambda: out.copy_(x), 4.0),
        "add": (lambda: torch.add(x, y, out=out), 6.0),
        "layer_norm": (lambda: F.layer_norm(rows2d, (4096,), ln_weight), 4.0),
        "softmax": (lambda: torch.softmax(rows2d, dim=-1), 4.0),
        "gelu": (lambda: F.gelu(x), 4.0),
    }
    result = {}
    for name, (fn, bytes_per_element) in cases.items():
        s = seconds_per_call(fn)
        result[name] = {"bytes": bytes_per_element * elements, "seconds": s}
        print(f"{name}: {bytes_per_element * elements / s / 1e12:.2f} TB/s", flush=True)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--quick", action="store_true", help="a few shapes only, to check the script")
    args = parser.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    result = {"gpu": gpu_facts(), "backward_includes_grad_accumulation": False}
    print(json.dumps(result["gpu"]), flush=True)
    for section, measure in (("memory_bound", memory_bound), ("attention", attention),
                             ("unfused_attention", unfused_attention), ("gemm", gemms), ("fp8_gemm", fp8_gemms)):
        started = time.time()
        try:
            result[section] = measure(args.quick)
        except Exception as error:  # one section's failure (an unsupported kernel) keeps the others
            result[section] = {"error": repr(error)[:500]}
            print(f"-- {section} failed: {error!r}", flush=True)
        print(f"-- {section}: {time.time() - started:.1f} s", flush=True)
        with open(args.output, "w") as file:
            json.dump(result, file, indent=1)


if __name__ == "__main__":
    main()
