#!/usr/bin/env bash
# GPT-3 175B (96 layers) at a global batch of 1536 x 2048 tokens on 16 DGX-H100 (128
# GPUs): the searched plan on Megatron-LM's mesh (pp=8, dp=2, tp=8) against
# Megatron-LM's published style of configuration priced by the same model (TP 8 in a
# node with sequence parallelism, PP across nodes, interleaved with 4 chunks per stage,
# micro-batch 1, selective recomputation, distributed optimizer = ZeRO 1), then
# `--mesh auto` over every pp x dp x tp factorization of the 128 GPUs. Prints each
# command's wall time. Builds tapestry-cli first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh --target tapestry-cli >/dev/null
cli=build/release/app/tapestry-cli
model=$(mktemp --suffix=.onnx)
trap 'rm -f "$model"' EXIT
"$cli" synth --preset gpt3-175b -o "$model" >/dev/null
common=(--cluster dgx-h100x16 --batch 1536 --seq 2048 --no-history)

timed() {
    local start end
    start=$(date +%s.%N)
    "$@"
    end=$(date +%s.%N)
    printf '(wall %.2f s)\n' "$(echo "$end - $start" | bc)"
}

echo "== Megatron-LM style: megatron-sp, pp=8,dp=2,tp=8, interleaved v=4, micro-batch 1, selective, ZeRO 1"
timed "$cli" evaluate "$model" "${common[@]}" --mesh pp=8,dp=2,tp=8 --plan megatron-sp --virtual-stages 4 \
    --micro-batch 1 --recompute selective --zero 1 | grep -E "^(mesh|workload|step time|memory per|throughput)|pipeline  "
echo
echo "== search on pp=8,dp=2,tp=8"
timed "$cli" search "$model" "${common[@]}" --mesh pp=8,dp=2,tp=8 2>/dev/null \
    | grep -E "^(workload|best plan|step time|memory per|throughput)|  best|pipeline  "
echo
echo "== search --mesh auto"
timed "$cli" search "$model" "${common[@]}" --mesh auto 2>/dev/null \
    | grep -E "^(workload|best plan|step time|memory per|throughput)|  best|pipeline  "
