#!/usr/bin/env python3
"""Where a training step of bench/gpu/train_step.py spends its GPU time and memory, phase by phase:
CUDA kernel time summed by kernel class (GEMM, attention forward/backward, loss, elementwise,
reductions, gathers, copies, optimizer) for each phase of the step, and the allocator's
allocated bytes and peaks at the phase boundaries, to set against what `tapestry-cli evaluate`
prices for each part (bench/gpu/price_train_step.sh prices the same cases).

    python3 bench/gpu/step_profile.py -o profile.json                 # the chosen cases, CUDA
    python3 bench/gpu/step_profile.py --set heldout --only 160m -o p.json   # train_step.py's held-out cases
    python3 bench/gpu/step_profile.py --device cpu --tiny -o p.json   # the same code at toy sizes
    python3 bench/gpu/step_profile.py --self-test                     # the kernel classifier

A step has four phases, each a torch.profiler.record_function range: forward (the model to fp32
logits), loss (cross-entropy), backward, optimizer (per module group: bf16 gradients cast to the
fp32 masters, AdamW, the masters copied back to the bf16 weights). Per case: the model and
trainer of train_step.py, WARMUP steps, one step measured for memory (peaks reset at every phase
boundary, so a phase's peak is its own; its phase wall times from CUDA events), then STEPS steps
under torch.profiler. A kernel belongs to the phase its launch (the CUDA runtime call, CPU clock)
falls in: backward kernels are launched from autograd's own thread while the main thread sits in
loss.backward(), inside the backward range. The JSON keeps every kernel name with its class, so a
name this classifier puts in the wrong class can be re-summed afterwards. On CPU (--device cpu)
the kernel and memory parts are skipped: it checks the code path only."""
import argparse
import collections
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_step  # noqa: E402  (the same model, trainer and cases)

WARMUP = 2
STEPS = 3
PHASES = ("forward", "loss", "backward", "optimizer")

CASES = [
    ("llama-1b", 4, 2048, "none", "master", "flash", "fp32"),
    ("llama-1b", 4, 2048, "full", "master", "flash", "fp32"),
    ("llama-1b", 4, 2048, "none", "master", "flash", "bf16"),
    ("llama-1b", 1, 8192, "none", "master", "cudnn", "fp32"),
    ("llama-3b", 1, 8192, "none", "master", "flash", "fp32"),
]
TINY_CASES = [
    ("tiny", 2, 32, "none", "master", "flash", "fp32"),
    ("tiny", 2, 32, "full", "master", "flash", "bf16"),
]


def kernel_class(name, category="kernel"):
    """The class of one GPU activity from its (demangled) kernel name and trace category."""
    if category == "gpu_memcpy":
        return "memcpy"
    if category == "gpu_memset":
        return "memset"
    n = name.lower()
    if "flash_fwd" in n or ("fmha" in n and "fwd" in n):
        return "attention_fwd"
    if "flash_bwd" in n or ("fmha" in n and "bwd" in n):
        return "attention_bwd"
    if "sdpa" in n or "fort_native" in n or ("cudnn" in n and "attention" in n):
        return "attention_cudnn"  # cuDNN's names do not always say the direction: the phase does
    if any(k in n for k in ("gemm", "nvjet", "xmma", "cublas", "cutlass", "gemv", "splitk")):
        return "gemm"
    if any(k in n for k in ("softmax", "nll_loss", "cross_entropy")):
        return "loss"
    if "adam" in n:
        return "optimizer"
    if "catarray" in n:
        return "elementwise"  # torch.cat of the rotary half-rotation
    if any(k in n for k in ("indexselect", "index_select", "indexfunc", "index_add", "embedding", "cub::", "radix",
                            "scatter", "gather")):
        return "gather_scatter"  # embedding and its backward, repeat_interleave (an index_select) and its backward
    if "copy" in n:
        return "copy"  # dtype casts and contiguous copies
    if "reduce_kernel" in n or "reduction" in n:
        return "reduce"
    if "elementwise" in n or "vectorized" in n or "unrolled" in n or "fill" in n:
        return "elementwise"
    return "other"


def attribute(trace_events):
    """Kernel time by (phase, class) and by kernel name, in microseconds, from a Chrome trace's
    events: each kernel's launch (runtime event with the same correlation id) placed in the
    record_function range of a phase."""
    ranges = []  # (start, end, phase)
    launches = {}  # correlation id -> launch time (CPU clock)
    kernels = []
    for event in trace_events:
        if event.get("ph") != "X":
            continue
        category = event.get("cat", "")
        args = event.get("args", {})
        if category == "user_annotation" and event.get("name", "").startswith("phase:"):
            ranges.append((event["ts"], event["ts"] + event["dur"], event["name"][len("phase:"):]))
        elif category in ("cuda_runtime", "cuda_driver") and "correlation" in args:
            launches[args["correlation"]] = event["ts"]
        elif category in ("kernel", "gpu_memcpy", "gpu_memset"):
            kernels.append(event)
    ranges.sort()
    by_phase = collections.defaultdict(lambda: collections.defaultdict(float))
    by_name = {}
    for event in kernels:
        launched = launches.get(event.get("args", {}).get("correlation"))
        phase = "unplaced"
        if launched is not None:
            for start, end, name in ranges:
                if start <= launched <= end:
                    phase = name
                    break
        klass = kernel_class(event["name"], event["cat"])
        if klass == "attention_cudnn":
            klass = "attention_fwd" if phase == "forward" else "attention_bwd" if phase == "backward" else klass
        by_phase[phase][klass] += event["dur"]
        entry = by_name.setdefault(event["name"][:400], {"class": klass, "us": 0.0, "count": 0,
                                                          "phases": collections.Counter()})
        entry["us"] += event["dur"]
        entry["count"] += 1
        entry["phases"][phase] += 1
    return by_phase, by_name


class PhaseMemory:
    """Allocated bytes at each phase's end and the peak within it (CUDA only)."""

    def __init__(self, torch, cuda):
        self.torch, self.cuda = torch, cuda
        self.record = {}
        self.marks = {}

    def begin(self, phase):
        if self.cuda:
            self.torch.cuda.reset_peak_memory_stats()
            self.marks[phase] = [self.torch.cuda.Event(enable_timing=True), self.torch.cuda.Event(enable_timing=True)]
            self.marks[phase][0].record()

    def end(self, phase):
        if self.cuda:
            self.marks[phase][1].record()
            self.record[phase] = {"allocated_after_bytes": self.torch.cuda.memory_allocated(),
                                  "peak_allocated_bytes": self.torch.cuda.max_memory_allocated()}

    def times(self):
        if self.cuda:
            self.torch.cuda.synchronize()
            for phase, (start, stop) in self.marks.items():
                self.record[phase]["wall_ms"] = start.elapsed_time(stop)
        return self.record


def phased_step(torch, trainer, memory=None):
    """One training step, each phase in a profiler range (and measured by memory when given)."""
    from torch.profiler import record_function

    def run(phase, work):
        if memory:
            memory.begin(phase)
        with record_function("phase:" + phase):
            result = work()
        if memory:
            memory.end(phase)
        return result

    with trainer.attention_backends():  # backward replays attention under full recomputation
        logits = run("forward", trainer.forward)
        loss = run("loss", lambda: trainer.loss(logits))
        del logits  # what the loss saved stays alive; nothing else holds the logits
        run("backward", loss.backward)
    run("optimizer", trainer.optimizer_step)
    return loss


def profile_case(torch, model_class, case, device, keep_trace=None):
    cuda = device.type == "cuda"
    trainer = train_step.Trainer(torch, model_class, case, device)
    for _ in range(WARMUP):
        phased_step(torch, trainer)
    if cuda:
        torch.cuda.synchronize()
    memory = PhaseMemory(torch, cuda)
    memory.begin("step")
    before = torch.cuda.memory_allocated() if cuda else None
    phased_step(torch, trainer, memory)
    memory.end("step")
    result = {"parameters": trainer.parameter_count, "allocated_before_step_bytes": before,
              "phases_memory": memory.times()}

    from torch.profiler import ProfilerActivity, profile
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    walls = []
    with profile(activities=activities) as profiler:
        for _ in range(STEPS):
            began = time.perf_counter()
            phased_step(torch, trainer)
            if cuda:
                torch.cuda.synchronize()
            walls.append(time.perf_counter() - began)
    handle, path = tempfile.mkstemp(suffix=".json")
    os.close(handle)
    try:
        profiler.export_chrome_trace(path)
        with open(path) as trace:
            events = json.load(trace)
        events = events["traceEvents"] if isinstance(events, dict) else events
    finally:
        if keep_trace:
            os.replace(path, keep_trace)
        else:
            os.remove(path)
    by_phase, by_name = attribute(events)
    per_step = lambda us: us / STEPS / 1e3  # noqa: E731  (microseconds over STEPS steps -> ms per step)
    result["profiled_step_ms"] = statistics.median(walls) * 1e3
    result["kernel_ms_per_step"] = {phase: {k: per_step(v) for k, v in sorted(classes.items())}
                                    for phase, classes in by_phase.items()}
    totals = collections.defaultdict(float)
    for classes in by_phase.values():
        for klass, us in classes.items():
            totals[klass] += us
    result["kernel_ms_per_step_by_class"] = {k: per_step(v) for k, v in sorted(totals.items(), key=lambda kv: -kv[1])}
    result["kernel_ms_per_step_total"] = per_step(sum(totals.values()))
    result["kernels"] = [{"name": name, "class": e["class"], "ms_per_step": per_step(e["us"]),
                          "count_per_step": e["count"] / STEPS, "phases": dict(e["phases"])}
                         for name, e in sorted(by_name.items(), key=lambda kv: -kv[1]["us"])]
    return result


def summary(name, result):
    lines = [f"{name}: profiled step {result['profiled_step_ms']:.1f} ms, kernels "
             f"{result['kernel_ms_per_step_total']:.1f} ms/step"]
    classes = ", ".join(f"{k} {v:.1f}" for k, v in result["kernel_ms_per_step_by_class"].items())
    lines.append(f"  by class (ms/step): {classes}")
    for phase in PHASES:
        memory = result["phases_memory"].get(phase, {})
        kernels = result["kernel_ms_per_step"].get(phase, {})
        text = f"  {phase:16s} kernels {sum(kernels.values()):7.1f} ms"
        if memory:
            text += (f", wall {memory['wall_ms']:7.1f} ms, peak {memory['peak_allocated_bytes'] / 1e9:6.2f} GB, "
                     f"after {memory['allocated_after_bytes'] / 1e9:6.2f} GB")
        lines.append(text)
    return "\n".join(lines)


def self_test():
    """The classifier and the phase attribution on names the H100/H200 stacks print."""
    names = {
        "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, "
        "cutlass::bfloat16_t>, false, true, false, false, true, true, false, false>(Flash_fwd_params)": "attention_fwd",
        "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, "
        "2, 4, 2, false, false, cutlass::bfloat16_t>>(Flash_bwd_params)": "attention_bwd",
        "nvjet_tst_256x128_64x4_1x2_h_bz_coopA_NNT": "gemm",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off": "gemm",
        "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
        "at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)": "loss",
        "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::"
        "FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, "
        "(at::native::ADAM_MODE)1, false>, double*, double, double, double, double, double, bool, float*, "
        "float*>": "optimizer",
        "void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous namespace)::OpaqueType<2u>, "
        "unsigned int, 4, 64, 64>(...)": "elementwise",
        "void at::native::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, -2, true>(...)": "gather_scatter",
        "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)"
        "::{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, ...>": "copy",
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, "
        "float>, unsigned int, float, 4, 4>>(...)": "reduce",
        "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, "
        "c10::BFloat16, at::native::binary_internal::MulFunctor<float>>, ...>": "elementwise",
    }
    for name, expected in names.items():
        assert kernel_class(name) == expected, (name, kernel_class(name), expected)
    assert kernel_class("Memcpy DtoD (Device -> Device)", "gpu_memcpy") == "memcpy"
    events = [
        {"ph": "X", "cat": "user_annotation", "name": "phase:forward", "ts": 0, "dur": 10},
        {"ph": "X", "cat": "user_annotation", "name": "phase:backward", "ts": 20, "dur": 10},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 5, "dur": 1, "args": {"correlation": 1}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 25, "dur": 1, "args": {"correlation": 2}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 26, "dur": 1, "args": {"correlation": 3}},
        # Kernels run after their launch, past the end of the range: the launch decides.
        {"ph": "X", "cat": "kernel", "name": "nvjet_x", "ts": 40, "dur": 7, "args": {"correlation": 1}},
        {"ph": "X", "cat": "kernel", "name": "nvjet_x", "ts": 50, "dur": 3, "args": {"correlation": 2}},
        {"ph": "X", "cat": "kernel", "name": "cudnn_generated_fort_native_sdpa_sm90", "ts": 60, "dur": 2,
         "args": {"correlation": 3}},
        {"ph": "X", "cat": "kernel", "name": "unknown_thing", "ts": 70, "dur": 1, "args": {"correlation": 9}},
    ]
    by_phase, by_name = attribute(events)
    assert dict(by_phase["forward"]) == {"gemm": 7}, by_phase
    assert dict(by_phase["backward"]) == {"gemm": 3, "attention_bwd": 2}, by_phase
    assert dict(by_phase["unplaced"]) == {"other": 1}, by_phase
    assert by_name["nvjet_x"]["us"] == 10 and by_name["nvjet_x"]["count"] == 2
    print("step_profile self-test: ok")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", help="JSON file, rewritten after every case")
    parser.add_argument("--device", default="cuda", help="cuda (default) or cpu (no kernels, no memory)")
    parser.add_argument("--tiny", action="store_true", help="toy sizes, to check the code (on CPU)")
    parser.add_argument("--set", choices=("base", "heldout"), default="base",
                        help="base (the cases below) or heldout (train_step.py's held-out cases)")
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    parser.add_argument("--keep-trace", help="keep the last case's Chrome trace at this path")
    parser.add_argument("--budget-s", type=float, default=150.0,
                        help="start no case after this many seconds (default 150)")
    parser.add_argument("--self-test", action="store_true", help="check the kernel classifier and exit")
    args = parser.parse_args()
    if args.self_test:
        self_test()
        return 0
    if not args.output:
        parser.error("-o FILE is needed to run the cases")
    cases = TINY_CASES if args.tiny else CASES if args.set == "base" else train_step.HELD_OUT_CASES
    if args.only:
        cases = [c for c in cases if args.only in train_step.case_name(*c)]

    import torch
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        parser.error("no CUDA device: give --device cpu (with --tiny) to check the code")
    model_class = train_step.build_model_classes(torch)
    record = {"facts": train_step.device_facts(torch, device), "warmup_steps": WARMUP, "profiled_steps": STEPS,
              "phases": PHASES, "cases": []}
    return train_step.run_cases(torch, cases, device, record, args,
                                lambda case: profile_case(torch, model_class, case, device, args.keep_trace), summary)


if __name__ == "__main__":
    sys.exit(main())
