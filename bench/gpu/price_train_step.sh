#!/usr/bin/env bash
# What Tapestry prices for each case of bench/gpu/train_step.py on one H200: synthesizes the
# case's model (tapestry-cli synth, the same sizes and parameter count as the PyTorch module),
# evaluates one training step on one GPU of the dgx-h200x1 preset as the PyTorch export runs it
# (bf16, mixed-precision Adam on fp32 master copies, non-reentrant checkpoint for full
# recomputation, what eager PyTorch's autograd saves and its op-by-op kernels, SDPA's backend as
# the attention kernel) and prints step time, its recomputation and optimizer parts, tokens/s,
# MFU and memory per case. Given train_step.py's JSON, it puts the measured figures beside them.
#
#   bench/gpu/price_train_step.sh [--set base|heldout] [MEASURED.json]   (TAPESTRY_CLI overrides the binary)
#
# The presets are 8-GPU nodes and a mesh must cover every GPU: the one-GPU cluster is the
# dgx-h200x1 preset with gpusPerNode 1, every figure of the GPU unchanged. The price cannot say
# two things the measured cases vary: fp32 weights under autocast (precision=autocast) are priced
# as bf16 weights with fp32 masters, and RMSNorm in bf16 (norm=bf16) as eager PyTorch's RMS norms
# run (in fp32, as transformers' LlamaRMSNorm and torch.nn.RMSNorm do).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cli=${TAPESTRY_CLI:-$root/build/release/app/tapestry-cli}
set_name=base
if [[ ${1:-} == --set ]]; then set_name=${2:?--set needs base or heldout}; shift 2; fi
measured=${1:-}
[[ -x $cli ]] || { echo "price_train_step.sh: no tapestry-cli at $cli (build it, or set TAPESTRY_CLI)" >&2; exit 1; }
[[ -z $measured || -r $measured ]] || { echo "price_train_step.sh: cannot read $measured" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed -e 's/"gpusPerNode": 8,/"gpusPerNode": 1,/' -e 's/"name": "dgx-h200x1"/"name": "dgx-h200x1, one GPU"/' \
    "$root/resources/clusters/dgx-h200x1.json" > "$work/h200-one-gpu.json"
grep -q '"gpusPerNode": 1,' "$work/h200-one-gpu.json" ||
    { echo "price_train_step.sh: dgx-h200x1.json no longer reads \"gpusPerNode\": 8" >&2; exit 1; }

# One tab-separated line per case: name, parameters, step ms, recomputation ms, optimizer ms,
# tokens/s, MFU %, memory GB, saved activations GB, largest transient GB.
python3 "$here/train_step.py" --set "$set_name" --list-cases |
while read -r model mb seq recompute precision attention norm layers hidden heads kv ffn vocab; do
    onnx=$work/$model.onnx
    if [[ ! -e $onnx ]]; then
        "$cli" synth --preset llama2-7b --layers "$layers" --hidden "$hidden" --heads "$heads" --kv-heads "$kv" \
            --ffn "$ffn" --vocab "$vocab" -o "$onnx" > "$work/$model.synth"
    fi
    parameters=$(sed -n 's/.* parameters (\([0-9]*\)).*/\1/p' "$work/$model.synth")
    kernel=$([[ $attention == cudnn ]] && echo cudnn || echo flash2)
    "$cli" evaluate "$onnx" --cluster "$work/h200-one-gpu.json" --plan dp --batch "$mb" --micro-batch "$mb" \
        --seq "$seq" --precision bf16 --optimizer adam --recompute "$recompute" --checkpoint-replay stops-early \
        --saved-activations eager --optimizer-step master-copies --gradient-lifetime freed-between-steps \
        --attention "$kernel" --no-history > "$work/price.txt"
    awk -v name="$model ${mb}x$seq recompute=$recompute $precision $attention norm=$norm" -v parameters="$parameters" '
        /^step time per device/      { step = $(NF - 1) }
        /^    recomputation/         { recompute = $2 }
        /^    optimizer update/      { optimizer = $3 }
        /^memory per device/         { memory = $4 }
        /^  saved activations/       { activations = $(NF - 1) }
        /^  largest transient buffer/ { transient = $(NF - 1) }
        /^throughput/                { tokens = $2; mfu = $(NF - 1) }
        END { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, parameters, step, recompute + 0,
                     optimizer + 0, tokens, mfu, memory, activations, transient }' "$work/price.txt"
done > "$work/priced.tsv"

python3 - "$work/priced.tsv" "$measured" <<'EOF'
import json, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
measured = {}
if sys.argv[2]:
    record = json.load(open(sys.argv[2]))
    measured = {case["name"]: case for case in record["cases"]}
    facts = record.get("facts", {})
    print(f"measured: {facts.get('nvidia_smi', {}).get('name', facts.get('device'))}, torch {facts.get('torch')}, "
          f"median of {record.get('steps')} steps after {record.get('warmup_steps')} warm-ups")
    if "revision" not in facts:
        print("measured by train_step.py before 33dcd70 (bench/gpu/measured/README.md): its peaks hold fp32 gradient\n"
              "copies of every parameter at once and the fp32 logits through backward, which a training loop (and\n"
              "today's script) does not: the memory errors below are the old script's, not the price's")
print("priced: tapestry-cli evaluate, dgx-h200x1 with one GPU; GB = 1e9 bytes")
head = f"{'case':<58} {'params':>10} {'step ms':>8} {'recomp':>7} {'optim':>6} {'tok/s':>7} {'MFU %':>6} {'mem GB':>7} {'act GB':>7}"
if measured:
    head += f" | {'meas ms':>8} {'err %':>6} {'optim':>6} {'MFU %':>6} {'alloc GB':>8} {'resv GB':>8} {'err %':>6}"
print(head)
for name, parameters, step, recompute, optimizer, tokens, mfu, memory, activations, transient in rows:
    line = (f"{name:<58} {int(parameters):>10} {float(step):>8.1f} {float(recompute):>7.1f} {float(optimizer):>6.1f} "
            f"{int(tokens):>7} {float(mfu):>6.1f} {float(memory):>7.2f} {float(activations):>7.2f}")
    case = measured.get(name)
    if case and "step_ms" in case and case.get("max_memory_allocated_bytes"):
        allocated = case["max_memory_allocated_bytes"] / 1e9
        if case["parameters"] != int(parameters):
            line += f" | parameters differ: {case['parameters']} measured"
        else:
            line += (f" | {case['step_ms']:>8.1f} {100 * (float(step) / case['step_ms'] - 1):>+6.1f} "
                     f"{case['optimizer_ms']:>6.1f} {float(mfu) * float(step) / case['step_ms']:>6.1f} {allocated:>8.2f} {case['max_memory_reserved_bytes'] / 1e9:>8.2f} "
                     f"{100 * (float(memory) / allocated - 1):>+6.1f}")
    elif case:
        line += " | " + (case.get("error") or case.get("skipped") or "not measured on a GPU")[:60]
    print(line)
if measured:
    print("err %: priced / measured - 1 (step time; memory against max_memory_allocated); measured MFU: the priced\n"
          "MFU scaled by priced / measured step time (the same FLOPs)")
EOF
