#!/usr/bin/env python3
"""Time whole training steps of a Llama-shaped decoder on one GPU, to set against the step time
and memory `tapestry-cli evaluate` prices for the same workload (bench/gpu/price_train_step.sh
prices every case listed here).

    python3 bench/gpu/train_step.py -o steps.json            # every case, CUDA
    python3 bench/gpu/train_step.py --set heldout -o held.json   # the held-out families
    python3 bench/gpu/train_step.py --list-cases             # the cases, one a line (no torch needed)
    python3 bench/gpu/train_step.py --device cpu --tiny -o t.json   # the same code at toy sizes

The model is plain PyTorch with Hugging Face's Llama module names and structure (tests/pytorch/
tiny_llama.py's, sizes configurable): untied embedding and output head, RMSNorm computed in fp32
as transformers' LlamaRMSNorm does (or in bf16 as Tapestry's synthesized graph does: the `norm`
field), rotary tables made once per forward, grouped-query keys and values repeated before
scaled_dot_product_attention as the PyTorch export's models do, the logits cast to fp32 before the
loss; nothing holds the logits while backward runs (the loss keeps its log-probabilities), as
torchtitan's train step drops them before backward. Its parameter count equals `tapestry-cli
synth --preset llama2-7b` with the same sizes.

Precision, as a case says:
- master: bf16 weights and gradients, fp32 master weights and Adam moments (fused AdamW on the
  masters, one module group at a time: a group's gradients cast to fp32, updated, the bf16
  weights copied back): the 2 + 2 + 12 bytes per parameter Tapestry's
  mixed-precision Adam counts. The PyTorch export sets no dtype; this is the workload it prices.
- autocast: fp32 weights under torch.autocast(bfloat16), what torchtitan runs on one GPU (AMP).
Full recomputation wraps every block in checkpoint_wrapper (non-reentrant), as the PyTorch export
does. Attention runs SDPA restricted to one backend: flash (FlashAttention-2, Tapestry's flash2)
or cudnn.

A step is forward, loss, backward and the optimizer step. Each case: the model built on the
device, 3 warm-up steps, the peak-memory counters reset, then STEPS steps each closed by
torch.cuda.synchronize; the median step, the forward+backward and optimizer parts (CUDA events),
tokens/s, and torch.cuda.max_memory_allocated / max_memory_reserved over the timed steps. Every
case runs in its own try/except (an out-of-memory keeps the others), the JSON is rewritten after
every case, and cases not started within --budget-s seconds are skipped."""
import argparse
import contextlib
import gc
import json
import os
import statistics
import subprocess
import sys
import time
import traceback

WARMUP_STEPS = 3
STEPS = 7

# Sizes as `tapestry-cli synth --preset llama2-7b --layers --hidden --heads --kv-heads --ffn --vocab` takes them.
MODELS = {
    # About 1.1 B parameters: a Llama-3.2-1B-like body with Llama-2's 32k vocabulary.
    "llama-1b": dict(layers=16, hidden=2048, heads=32, kv_heads=8, ffn=8192, vocab=32000),
    # Llama-3.2-3B's sizes with an untied output head (3.6 B parameters).
    "llama-3b": dict(layers=28, hidden=3072, heads=24, kv_heads=8, ffn=8192, vocab=128256),
    # Held-out shapes (--set heldout): thin GEMMs of small models, and a wide block (MPT-30B's
    # hidden size and heads, SwiGLU width 8h/3 for its 4h GELU MLP's FLOPs) with few layers.
    "llama-160m": dict(layers=12, hidden=768, heads=12, kv_heads=12, ffn=2048, vocab=32000),
    "llama-410m": dict(layers=24, hidden=1024, heads=16, kv_heads=16, ffn=2816, vocab=32000),
    "wide-4l": dict(layers=4, hidden=7168, heads=56, kv_heads=56, ffn=19200, vocab=32000),
    # Llama-3-8B's layers (8 of its 32) at 1-2 sequences of 2048: the tokens per GPU of a
    # data-parallel run over 16 GPUs, where eager kernels are 5-20 us of GPU work.
    "llama8b-8l": dict(layers=8, hidden=4096, heads=32, kv_heads=8, ffn=14336, vocab=128256),
    # Toy sizes for a CPU check of the code (--tiny).
    "tiny": dict(layers=2, hidden=64, heads=8, kv_heads=4, ffn=128, vocab=96),
}

# model, micro-batch, sequence, recompute, precision, attention, norm
CASES = [
    ("llama-1b", 4, 2048, "none", "master", "flash", "fp32"),
    ("llama-1b", 4, 2048, "full", "master", "flash", "fp32"),
    ("llama-1b", 2, 4096, "none", "master", "flash", "fp32"),
    ("llama-1b", 2, 4096, "full", "master", "flash", "fp32"),
    ("llama-1b", 1, 8192, "none", "master", "flash", "fp32"),
    ("llama-1b", 1, 8192, "full", "master", "flash", "fp32"),
    ("llama-1b", 4, 2048, "none", "master", "flash", "bf16"),
    ("llama-1b", 4, 2048, "none", "autocast", "flash", "fp32"),
    ("llama-1b", 4, 2048, "full", "autocast", "flash", "fp32"),
    ("llama-1b", 1, 8192, "none", "master", "cudnn", "fp32"),
    ("llama-3b", 1, 8192, "none", "master", "flash", "fp32"),
    ("llama-3b", 1, 8192, "full", "master", "flash", "fp32"),
]
# Families none of Tapestry's figures were set on (measured after their prices were committed):
# long sequences, small models' thin GEMMs, and a wide block from 4k to 16k tokens.
HELD_OUT_CASES = [
    ("llama-1b", 1, 16384, "none", "master", "flash", "fp32"),
    ("llama-1b", 1, 16384, "full", "master", "flash", "fp32"),
    ("llama-1b", 1, 32768, "none", "master", "flash", "fp32"),
    ("llama-1b", 1, 32768, "full", "master", "flash", "fp32"),
    ("llama-160m", 16, 2048, "none", "master", "flash", "fp32"),
    ("llama-160m", 4, 2048, "none", "master", "flash", "fp32"),
    ("llama-410m", 8, 2048, "none", "master", "flash", "fp32"),
    ("wide-4l", 1, 4096, "none", "master", "flash", "fp32"),
    ("wide-4l", 1, 8192, "none", "master", "flash", "fp32"),
    ("wide-4l", 1, 16384, "none", "master", "flash", "fp32"),
    # Added with the eager launch floor (cost/EagerLaunchFloor.h), priced before they ran.
    ("llama8b-8l", 1, 2048, "none", "master", "flash", "fp32"),
    ("llama8b-8l", 2, 2048, "none", "master", "flash", "fp32"),
    ("llama8b-8l", 1, 2048, "full", "master", "flash", "fp32"),
    ("llama-160m", 1, 2048, "none", "master", "flash", "fp32"),
]
CASE_SETS = {"base": CASES, "heldout": HELD_OUT_CASES}
TINY_CASES = [
    ("tiny", 2, 32, "none", "master", "flash", "fp32"),
    ("tiny", 2, 32, "full", "master", "flash", "fp32"),
    ("tiny", 1, 64, "none", "master", "flash", "bf16"),
    ("tiny", 2, 32, "full", "autocast", "cudnn", "fp32"),
]


def case_name(model, micro_batch, sequence, recompute, precision, attention, norm):
    return f"{model} {micro_batch}x{sequence} recompute={recompute} {precision} {attention} norm={norm}"


def list_cases(cases):
    """One line per case: name fields, then the model's synth sizes (for price_train_step.sh)."""
    for model, micro_batch, sequence, recompute, precision, attention, norm in cases:
        sizes = MODELS[model]
        print(model, micro_batch, sequence, recompute, precision, attention, norm,
              sizes["layers"], sizes["hidden"], sizes["heads"], sizes["kv_heads"], sizes["ffn"], sizes["vocab"])


def build_model_classes(torch):
    nn = torch.nn
    F = torch.nn.functional

    class RMSNorm(nn.Module):
        def __init__(self, size, fp32, eps=1e-5):
            super().__init__()
            self.weight = nn.Parameter(torch.ones(size))
            self.fp32 = fp32
            self.eps = eps

        def forward(self, x):
            dtype = x.dtype
            if self.fp32:
                x = x.float()
            x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
            return self.weight * x.to(dtype)

    def rotate(x, cos, sin):
        half = x.size(-1) // 2
        return x * cos + torch.cat((-x[..., half:], x[..., :half]), -1) * sin

    class Attention(nn.Module):
        def __init__(self, s):
            super().__init__()
            self.head_dim = s["hidden"] // s["heads"]
            self.q_proj = nn.Linear(s["hidden"], s["heads"] * self.head_dim, bias=False)
            self.k_proj = nn.Linear(s["hidden"], s["kv_heads"] * self.head_dim, bias=False)
            self.v_proj = nn.Linear(s["hidden"], s["kv_heads"] * self.head_dim, bias=False)
            self.o_proj = nn.Linear(s["heads"] * self.head_dim, s["hidden"], bias=False)

        def forward(self, x, cos, sin):
            batch, sequence = x.shape[0], x.shape[1]
            q = self.q_proj(x).view(batch, sequence, -1, self.head_dim).transpose(1, 2)
            k = self.k_proj(x).view(batch, sequence, -1, self.head_dim).transpose(1, 2)
            v = self.v_proj(x).view(batch, sequence, -1, self.head_dim).transpose(1, 2)
            q, k = rotate(q, cos, sin), rotate(k, cos, sin)
            groups = q.size(1) // k.size(1)
            k, v = k.repeat_interleave(groups, dim=1), v.repeat_interleave(groups, dim=1)
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return self.o_proj(out.transpose(1, 2).reshape(batch, sequence, -1))

    class MLP(nn.Module):
        def __init__(self, s):
            super().__init__()
            self.gate_proj = nn.Linear(s["hidden"], s["ffn"], bias=False)
            self.up_proj = nn.Linear(s["hidden"], s["ffn"], bias=False)
            self.down_proj = nn.Linear(s["ffn"], s["hidden"], bias=False)

        def forward(self, x):
            return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))

    class DecoderLayer(nn.Module):
        def __init__(self, s, fp32_norm):
            super().__init__()
            self.input_layernorm = RMSNorm(s["hidden"], fp32_norm)
            self.self_attn = Attention(s)
            self.post_attention_layernorm = RMSNorm(s["hidden"], fp32_norm)
            self.mlp = MLP(s)

        def forward(self, x, cos, sin):
            x = x + self.self_attn(self.input_layernorm(x), cos, sin)
            return x + self.mlp(self.post_attention_layernorm(x))

    class LlamaModel(nn.Module):
        def __init__(self, s, fp32_norm):
            super().__init__()
            self.embed_tokens = nn.Embedding(s["vocab"], s["hidden"])
            self.layers = nn.ModuleList(DecoderLayer(s, fp32_norm) for _ in range(s["layers"]))
            self.norm = RMSNorm(s["hidden"], fp32_norm)

    class LlamaForCausalLM(nn.Module):
        def __init__(self, s, fp32_norm):
            super().__init__()
            self.head_dim = s["hidden"] // s["heads"]
            self.model = LlamaModel(s, fp32_norm)
            self.lm_head = nn.Linear(s["hidden"], s["vocab"], bias=False)

        def rotary_tables(self, sequence, dtype, device):
            # Made in fp32 once per forward and cast to the embedding's type, as transformers does
            # (fp32 under autocast: the rotation then runs in fp32 there too).
            inverse = 1.0 / (10000.0 ** (torch.arange(0, self.head_dim, 2, device=device).float() / self.head_dim))
            angles = torch.outer(torch.arange(sequence, device=device).float(), inverse)
            angles = torch.cat((angles, angles), -1)
            return angles.cos().to(dtype), angles.sin().to(dtype)

        def forward(self, tokens):
            x = self.model.embed_tokens(tokens)
            cos, sin = self.rotary_tables(tokens.shape[1], x.dtype, x.device)
            for layer in self.model.layers:
                x = layer(x, cos, sin)
            return self.lm_head(self.model.norm(x)).float()

    return LlamaForCausalLM


class Trainer:
    """One case's model, optimizer and step."""

    def __init__(self, torch, model_class, case, device):
        model_name, self.micro_batch, self.sequence, recompute, self.precision, attention, norm = case
        sizes = MODELS[model_name]
        self.torch = torch
        self.device = device
        torch.manual_seed(0)  # the same weights for every case of a model: their first losses agree
        with torch.device(device):
            model = model_class(sizes, norm == "fp32")
        if self.precision == "master":
            model = model.to(torch.bfloat16)
        if recompute == "full":
            from torch.distributed.algorithms._checkpoint.checkpoint_wrapper import checkpoint_wrapper
            for i, layer in enumerate(model.model.layers):
                model.model.layers[i] = checkpoint_wrapper(layer)
        self.model = model
        self.parameters = [p for p in model.parameters()]
        self.parameter_count = sum(p.numel() for p in self.parameters)
        # The update runs module group by module group (the embedding, each block, the final norm
        # with the head), as ZeRO's optimizers step one partition at a time: a group's fp32
        # gradient copies live only during its own update, not 4 more bytes for every parameter.
        groups = [list(model.model.embed_tokens.parameters())]
        groups += [list(layer.parameters()) for layer in model.model.layers]
        groups.append(list(model.model.norm.parameters()) + list(model.lm_head.parameters()))
        assert sum(len(g) for g in groups) == len(self.parameters)
        fused = {"fused": True} if device.type == "cuda" else {"foreach": True}
        self.groups = []
        for group in groups:
            masters = [p.detach().float() for p in group] if self.precision == "master" else None
            optimizer = torch.optim.AdamW(masters if masters else group, lr=1e-5, **fused)
            self.groups.append((group, masters, optimizer))
        self.vocab = sizes["vocab"]
        generator = torch.Generator(device=device).manual_seed(0)
        shape = (self.micro_batch, self.sequence)
        self.tokens = torch.randint(0, self.vocab, shape, device=device, generator=generator)
        self.labels = torch.randint(0, self.vocab, shape, device=device, generator=generator)
        self.attention = attention

    def attention_backends(self):
        if self.device.type != "cuda":
            return contextlib.nullcontext()  # the CPU check runs whatever SDPA picks there
        from torch.nn.attention import SDPBackend, sdpa_kernel
        backend = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION}[self.attention]
        return sdpa_kernel([backend])

    def forward(self):
        """The fp32 logits (call inside attention_backends())."""
        if self.precision == "autocast":
            with self.torch.autocast(self.device.type, dtype=self.torch.bfloat16):
                return self.model(self.tokens)
        return self.model(self.tokens)

    def loss(self, logits):
        return self.torch.nn.functional.cross_entropy(logits.view(-1, self.vocab), self.labels.view(-1))

    def forward_backward(self):
        # Forward and backward in one backend context: full recomputation calls attention again in backward.
        with self.attention_backends():
            loss = self.loss(self.forward())
            loss.backward()
        return loss

    def optimizer_step(self):
        """Per group: the bf16 gradients cast onto the fp32 masters (and freed), AdamW on the
        masters, their gradients freed, the masters copied back to the bf16 weights (under
        autocast: AdamW on the fp32 weights)."""
        torch = self.torch
        for parameters, masters, optimizer in self.groups:
            if masters is not None:
                for parameter, master in zip(parameters, masters):
                    master.grad = parameter.grad.float()
                    parameter.grad = None
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            if masters is not None:
                with torch.no_grad():
                    for parameter, master in zip(parameters, masters):
                        parameter.copy_(master)


def synchronize(torch, device):
    if device.type == "cuda":
        torch.cuda.synchronize()


def run_case(torch, model_class, case, device):
    trainer = Trainer(torch, model_class, case, device)
    cuda = device.type == "cuda"
    for _ in range(WARMUP_STEPS):
        trainer.forward_backward()
        trainer.optimizer_step()
    synchronize(torch, device)
    if cuda:
        torch.cuda.reset_peak_memory_stats()
    steps, passes, updates, losses = [], [], [], []
    for _ in range(STEPS):
        if cuda:
            marks = [torch.cuda.Event(enable_timing=True) for _ in range(3)]
            marks[0].record()
        start = time.perf_counter()
        loss = trainer.forward_backward()
        if cuda:
            marks[1].record()
        trainer.optimizer_step()
        if cuda:
            marks[2].record()
        synchronize(torch, device)
        steps.append(time.perf_counter() - start)
        losses.append(loss.item())
        if cuda:
            passes.append(marks[0].elapsed_time(marks[1]) / 1e3)
            updates.append(marks[1].elapsed_time(marks[2]) / 1e3)
    step = statistics.median(steps)
    tokens = trainer.micro_batch * trainer.sequence
    result = {
        "parameters": trainer.parameter_count,
        "tokens_per_step": tokens,
        "step_ms": step * 1e3,
        "step_ms_all": [s * 1e3 for s in steps],
        "forward_backward_ms": statistics.median(passes) * 1e3 if passes else None,
        "optimizer_ms": statistics.median(updates) * 1e3 if updates else None,
        "tokens_per_second": tokens / step,
        "max_memory_allocated_bytes": torch.cuda.max_memory_allocated() if cuda else None,
        "max_memory_reserved_bytes": torch.cuda.max_memory_reserved() if cuda else None,
        "loss_last": losses[-1],
    }
    if not all(l == l and abs(l) < 1e4 for l in losses):  # NaN or blown up: the step is not training
        result["warning"] = f"losses {losses}"
    return result


def script_revision():
    """The git commit this script ran from (what the step holds changed in 33dcd70), or None; a copy
    without .git (a device machine's) gives it in TRAIN_STEP_REVISION."""
    if os.environ.get("TRAIN_STEP_REVISION"):
        return os.environ["TRAIN_STEP_REVISION"]
    try:
        return subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip() or None
    except (OSError, subprocess.CalledProcessError):
        return None


def device_facts(torch, device):
    facts = {"torch": torch.__version__, "device": str(device), "revision": script_revision()}
    if device.type == "cuda":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from kernel_rates import gpu_facts  # the same record bench/gpu/kernel_rates.py writes
        facts.update(gpu_facts())
    return facts



def step_summary(name, entry):
    mem = entry["max_memory_allocated_bytes"]
    return (f"{name}: {entry['step_ms']:.1f} ms/step (fwd+bwd {entry['forward_backward_ms'] or 0:.1f}, "
            f"optimizer {entry['optimizer_ms'] or 0:.1f}), {entry['tokens_per_second']:.0f} tokens/s, "
            f"peak allocated {(mem or 0) / 1e9:.2f} GB, reserved "
            f"{(entry['max_memory_reserved_bytes'] or 0) / 1e9:.2f} GB, {entry['parameters']} parameters")


def run_cases(torch, cases, device, record, args, measure, describe):
    """Runs `measure(case)` for each case (step_profile.py runs its own measure the same way):
    no case starts past args.budget_s, a failing case keeps the others, the JSON at args.output
    is rewritten after every case. Exit status 1 when every case failed."""
    began = time.perf_counter()
    failed = 0
    for case in cases:
        name = case_name(*case)
        entry = {"name": name, **dict(zip(("model", "micro_batch", "sequence", "recompute", "precision",
                                             "attention", "norm"), case)), **MODELS[case[0]]}
        if time.perf_counter() - began > args.budget_s:
            entry["skipped"] = f"not started: past the {args.budget_s:.0f} s budget"
            print(f"{name}: skipped (budget)", flush=True)
        else:
            case_began = time.perf_counter()
            try:
                entry.update(measure(case))
                print(describe(name, entry), flush=True)
            except Exception as error:  # noqa: BLE001 (an out-of-memory or a backend refusal keeps the rest)
                failed += 1
                entry["error"] = f"{type(error).__name__}: {error}"[:2000]
                print(f"{name}: FAILED {entry['error'][:300]}", flush=True)
                traceback.print_exc()
            entry["case_seconds"] = time.perf_counter() - case_began
        record["cases"].append(entry)
        gc.collect()
        if device.type == "cuda":
            torch.cuda.empty_cache()
        record["elapsed_seconds"] = time.perf_counter() - began
        with open(args.output, "w") as out:
            json.dump(record, out, indent=1)
    print(f"wrote {args.output}: {len(cases)} cases, {failed} failed, {record['elapsed_seconds']:.0f} s", flush=True)
    return 1 if failed == len(cases) else 0

def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", help="JSON file, rewritten after every case")
    parser.add_argument("--device", default="cuda", help="cuda (default) or cpu")
    parser.add_argument("--tiny", action="store_true", help="toy sizes, to check the code (on CPU)")
    parser.add_argument("--list-cases", action="store_true",
                        help="print the cases: model, micro-batch, sequence, recompute, precision, attention, norm, "
                             "then layers, hidden, heads, kv-heads, ffn, vocab")
    parser.add_argument("--set", choices=sorted(CASE_SETS), default="base",
                        help="base (the cases the eager pricing was checked on) or heldout (default base)")
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    parser.add_argument("--budget-s", type=float, default=210.0,
                        help="start no case after this many seconds (default 210)")
    args = parser.parse_args()
    cases = TINY_CASES if args.tiny else CASE_SETS[args.set]
    if args.only:
        cases = [c for c in cases if args.only in case_name(*c)]
    if args.list_cases:
        list_cases(cases)
        return 0
    if not args.output:
        parser.error("-o FILE is needed to run the cases")

    import torch
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        parser.error("no CUDA device: give --device cpu (with --tiny) to check the code")
    model_class = build_model_classes(torch)
    record = {"facts": device_facts(torch, device), "set": "tiny" if args.tiny else args.set, "warmup_steps": WARMUP_STEPS, "steps": STEPS, "cases": []}
    return run_cases(torch, cases, device, record, args, lambda case: run_case(torch, model_class, case, device),
                     step_summary)


if __name__ == "__main__":
    sys.exit(main())
