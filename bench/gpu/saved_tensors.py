#!/usr/bin/env python3
"""What autograd saves for backward in bench/gpu/train_step.py's model, module by module, counted
on CPU: the bytes a training step keeps between forward and backward do not depend on the device,
so the activation memory `tapestry-cli evaluate` prices can be checked without a GPU.

    python3 bench/gpu/saved_tensors.py                      # llama-1b, bf16 and fp32 norms
    python3 bench/gpu/saved_tensors.py --model llama-3b --tokens 128 --layers 1

The model runs at its real width (hidden, heads, ffn, vocabulary) with few layers and tokens: every
saved tensor scales with the tokens, and each block saves the same. torch.autograd.graph.
saved_tensors_hooks sees every tensor an op saves; tensors are told apart by their storage (a view
saved twice, or saved by two ops, is one allocation), parameters are left out (they are counted as
parameters), and each is charged to the innermost module running when it was first saved (the loss
outside every module). Printed per module of one block and for the rest: bytes per token, and each
tensor's shape and type. --peak also steps once under the CPU profiler with memory tracking and
prints the allocated bytes at the end of forward, of the loss and the peak in backward (CPU
kernels' own scratch buffers included, so only roughly what the GPU's allocator shows)."""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_step  # noqa: E402


def count_saved(torch, model, tokens, labels, vocab):
    """(tensor records, parameter storages): one record per distinct storage saved."""
    stack = []

    def leave(module, args, output):
        stack.pop()  # returns nothing: a forward hook's result would replace the output

    for name, module in model.named_modules():
        module.register_forward_pre_hook(lambda m, a, name=name: stack.append(name) and None)
        module.register_forward_hook(leave)
    parameters = {p.untyped_storage().data_ptr() for p in model.parameters()}
    seen = {}

    def pack(tensor):
        storage = tensor.untyped_storage()
        key = storage.data_ptr()
        if key not in parameters and key not in seen:
            seen[key] = {"module": stack[-1] if stack else "(loss)", "bytes": storage.nbytes(),
                         "shape": tuple(tensor.shape), "dtype": str(tensor.dtype).replace("torch.", "")}
        return tensor

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        logits = model(tokens)
        loss = torch.nn.functional.cross_entropy(logits.view(-1, vocab), labels.view(-1))
    loss.backward()
    return list(seen.values())


def block_of(module):
    """("layers.N", the module inside the block) or (None, the module)."""
    parts = module.split(".")
    if "layers" in parts:
        i = parts.index("layers")
        return ".".join(parts[: i + 2]), ".".join(parts[i + 2:]) or "(block)"
    return None, module


def report(records, tokens, layers):
    per_block = collections.defaultdict(lambda: collections.defaultdict(list))
    rest = collections.defaultdict(list)
    for r in records:
        block, inner = block_of(r["module"])
        (per_block[block][inner] if block else rest[inner]).append(r)
    blocks = sorted(per_block)
    totals = [sum(r["bytes"] for rs in per_block[b].values() for r in rs) for b in blocks]
    print(f"  per block (bytes per token): {[t / tokens for t in totals]}")
    first = per_block[blocks[0]]
    for inner, rs in sorted(first.items()):
        tensors = ", ".join(f"{r['dtype']}{list(r['shape'])}" for r in rs)
        print(f"    {inner:34s} {sum(r['bytes'] for r in rs) / tokens:10.1f}   {tensors}")
    for inner, rs in sorted(rest.items()):
        tensors = ", ".join(f"{r['dtype']}{list(r['shape'])}" for r in rs)
        print(f"  {inner:36s} {sum(r['bytes'] for r in rs) / tokens:10.1f}   {tensors}")
    return totals[-1] / tokens, sum(r["bytes"] for rs in rest.values() for r in rs) / tokens


def cpu_peaks(torch, model, tokens, labels, vocab):
    """Allocated bytes (CPU allocator) at the end of forward and loss, and the peak of backward."""
    from torch.profiler import ProfilerActivity, profile, record_function
    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as profiler:
        with record_function("phase:forward"):
            logits = model(tokens)
        with record_function("phase:loss"):
            loss = torch.nn.functional.cross_entropy(logits.view(-1, vocab), labels.view(-1))
            del logits
        with record_function("phase:backward"):
            loss.backward()
    ranges, memory = [], []
    for e in profiler.events():
        if e.name.startswith("phase:"):
            ranges.append((e.time_range.start, e.time_range.end, e.name[6:]))
    for e in profiler.profiler.kineto_results.events():
        if e.name() == "[memory]":
            memory.append((e.start_ns() / 1e3, e.nbytes()))
    memory.sort()
    live, by_phase = 0, {}
    for t, delta in memory:
        live += delta
        for start, end, name in ranges:
            if start <= t <= end:
                entry = by_phase.setdefault(name, {"peak": live, "end": live})
                entry["peak"] = max(entry["peak"], live)
                entry["end"] = live
    return by_phase


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="llama-1b", choices=sorted(train_step.MODELS))
    parser.add_argument("--tokens", type=int, default=256, help="sequence length (one sequence; default 256)")
    parser.add_argument("--layers", type=int, default=2, help="blocks (default 2)")
    parser.add_argument("--norm", choices=("bf16", "fp32", "both"), default="both")
    parser.add_argument("--peak", action="store_true", help="also the CPU allocator's bytes at phase ends")
    args = parser.parse_args()

    import torch
    torch.manual_seed(0)
    sizes = dict(train_step.MODELS[args.model], layers=args.layers)
    name = f"{args.model}-{args.layers}layers"
    train_step.MODELS[name] = sizes
    model_class = train_step.build_model_classes(torch)
    norms = ("bf16", "fp32") if args.norm == "both" else (args.norm,)
    for norm in norms:
        for recompute in ("none", "full"):
            case = (name, 1, args.tokens, recompute, "master", "flash", norm)
            trainer = train_step.Trainer(torch, model_class, case, torch.device("cpu"))
            print(f"{train_step.case_name(*case)}: {args.tokens} tokens")
            records = count_saved(torch, trainer.model, trainer.tokens, trainer.labels, trainer.vocab)
            block, rest = report(records, args.tokens, args.layers)
            print(f"  => per block {block:.1f} B/token, outside blocks {rest:.1f} B/token")
            if args.peak:
                for phase, e in cpu_peaks(torch, trainer.model, trainer.tokens, trainer.labels,
                                          trainer.vocab).items():
                    print(f"  CPU allocator {phase:9s} peak {e['peak'] / 1e6:9.1f} MB, end {e['end'] / 1e6:9.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
