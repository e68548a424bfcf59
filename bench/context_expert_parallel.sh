#!/usr/bin/env bash
# Issue 15's done-when runs: Llama-3-8B at 131,072 tokens on 8 DGX-H100 (the search, then
# the context-parallel and Megatron-LM reference plans with ZeRO-3), and the synthesized
# Mixtral 8x7B on 4 DGX-H100 (the search, then Megatron-LM with sequence parallelism).
# Prints step time and peak memory per GPU of each; the README's table comes from here.
# Builds tapestry-cli first; about a minute on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh --target tapestry-cli >/dev/null
cli=build/release/app/tapestry-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary() { grep -E "^step time|^memory per" | tr -s ' ' | paste -sd ' ' -; }

llama=../shared/models/llama3_8b_shape.dynamo.stripped.onnx
# A searched plan is evaluated on the mesh it was made for (its own, with the axes it
# names); the reference plans on 8x8.
long=(--cluster dgx-h100x1 --nodes 8 --seq 131072 --batch 64 --micro-batch 1 --no-history)
echo "== Llama-3-8B, 131072 tokens, 8 x DGX-H100"
"$cli" search "$llama" "${long[@]}" --mesh 8x8 -o "$work/llama.json" 2>/dev/null | grep -E "^workload|^\[|^  best|^  why"
echo "llama.json: $("$cli" evaluate "$llama" "${long[@]}" --zero 3 --plan "$work/llama.json" | summary)"
for plan in cp-ring cp-ulysses megatron-sp; do
    echo "$plan: $("$cli" evaluate "$llama" "${long[@]}" --mesh 8x8 --zero 3 --plan "$plan" | summary)"
done
for plan in megatron-sp dp; do
    echo "$plan, full recompute: $("$cli" evaluate "$llama" "${long[@]}" --mesh 8x8 --zero 3 --recompute full --plan "$plan" | summary)"
done

"$cli" synth --preset mixtral-8x7b -o "$work/mixtral.onnx" >/dev/null
moe=(--cluster dgx-h100x4 --seq 4096 --batch 64 --micro-batch 1 --no-history)
echo "== Mixtral 8x7B, 4096 tokens, 4 x DGX-H100"
"$cli" search "$work/mixtral.onnx" "${moe[@]}" --mesh 4x8 --target any -o "$work/mixtral.json" 2>/dev/null | grep -E "^workload|^\[|^  best|^  why"
echo "mixtral.json: $("$cli" evaluate "$work/mixtral.onnx" "${moe[@]}" --zero 1 --plan "$work/mixtral.json" | summary)"
echo "megatron-sp: $("$cli" evaluate "$work/mixtral.onnx" "${moe[@]}" --mesh 4x8 --zero 1 --plan megatron-sp | summary)"
