#!/usr/bin/env bash
# What restricting the search to a training stack costs (issue 24): for each model, the
# best plan of `search --target megatron|torchtitan|pytorch|any` and the best expert
# layout (Megatron-LM with sequence parallelism on the best plan's mesh), with step time,
# memory per GPU, the stacks that run it as is, and the search's CPU seconds. Then each
# stack's plan exported and imported back (export -> import-plan -> evaluate): the
# price must not move. Several minutes on two cores (GPT-3's --mesh auto dominates).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh --target tapestry-cli >/dev/null
cli=build/release/app/tapestry-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cli" synth --preset gpt3-175b -o "$work/gpt3.onnx" >/dev/null
"$cli" synth --preset mixtral-8x7b -o "$work/mixtral.onnx" >/dev/null
llama=../shared/models/llama3_8b_shape.dynamo.stripped.onnx

summary() {  # step ms, memory GB, runs on, from search --json
    python3 -c '
import json, sys
d = json.load(sys.stdin)
b = d["best"]
print("%10.1f ms %7.2f GB  %-28s %s" % (b["step_seconds"] * 1e3, b["memory_bytes"]["total"] / 1e9,
      ",".join(d["runs_on"]) or "-", d["plan_mesh"]))'
}
price() {  # step ms and memory GB of a plan file under evaluate
    "$cli" evaluate "$1" "${@:3}" --plan "$2" --no-history --json |
        python3 -c 'import json,sys; t=json.load(sys.stdin)["total"]; print("%.3f ms %.2f GB" % (t["step_seconds"]*1e3, t["memory_bytes"]["total"]/1e9))'
}

run() {  # NAME MODEL ARGS...
    local name=$1 model=$2
    shift 2
    echo "== $name"
    printf "%-11s %13s %10s  %-28s %s\n" target step memory "runs as is on" "plan mesh"
    for target in megatron torchtitan pytorch any; do
        local start end
        start=$(date +%s.%N)
        local line
        line=$(/usr/bin/time -f "%U" -o "$work/cpu" "$cli" search "$model" "$@" --target "$target" --json --no-history \
               -o "$work/$name-$target.json" 2>/dev/null | summary)
        printf "%-11s %s  (%.1f s CPU)\n" "$target" "$line" "$(cat "$work/cpu")"
    done
    printf "%-11s %s\n" "megatron-sp" "$(price "$model" megatron-sp "$@" | tr -d '\n') (the expert layout on the searched mesh)"
    for target in megatron torchtitan pytorch; do
        local format=$target ext=sh
        [ "$target" = torchtitan ] && ext=py
        [ "$target" = pytorch ] && ext=py
        "$cli" export "$work/$name-$target.json" --model "$model" --format "$format" "${@:1:2}" \
            -o "$work/$name-$target.$ext" >/dev/null
        "$cli" import-plan "$work/$name-$target.$ext" --model "$model" "${@:1:2}" -o "$work/$name-$target-back.json" \
            >/dev/null 2>&1
        echo "  $target round trip: $(price "$model" "$work/$name-$target.json" "${@:1:2}") -> $(price "$model" "$work/$name-$target-back.json" "${@:1:2}")"
    done
}

run llama3-8b-2x8 "$llama" --cluster dgx-h100x2 --mesh 2x8 --batch 16 --seq 2048
run llama3-8b-131k "$llama" --cluster dgx-h100x2 --nodes 8 --mesh auto --batch 64 --seq 131072
run mixtral-8x7b "$work/mixtral.onnx" --cluster dgx-h100x4 --mesh 4x8 --batch 64 --seq 4096
run gpt3-175b "$work/gpt3.onnx" --cluster dgx-h100x16 --mesh auto --batch 1536 --seq 2048
