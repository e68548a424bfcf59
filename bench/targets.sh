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

summary() {  # step, memory per GPU, the stacks that run it, its mesh: from search --json
    python3 -c '
import json, sys
d = json.load(sys.stdin)
b = d["best"]
print("%10.1f ms %7.2f GB  %-28s %s" % (b["step_seconds"] * 1e3, b["memory_bytes"]["total"] / 1e9,
      ",".join(d["runs_on"]) or "-", d["plan_mesh"]))'
}
price() {  # MODEL PLAN OPTIONS...: step and memory per GPU under evaluate
    "$cli" evaluate "$1" --plan "$2" "${@:3}" --no-history --json |
        python3 -c 'import json,sys; t=json.load(sys.stdin)["total"]; print("%.3f ms %.2f GB" % (t["step_seconds"]*1e3, t["memory_bytes"]["total"]/1e9))'
}

run() {  # NAME MODEL "CLUSTER OPTIONS" SEARCH OPTIONS...
    local name=$1 model=$2
    read -r -a cluster <<<"$3"
    shift 3
    echo "== $name"
    printf "%-11s %13s %10s  %-28s %s\n" target step memory "runs as is on" "plan mesh"
    for target in megatron torchtitan pytorch any; do
        local line
        line=$(/usr/bin/time -f "%U" -o "$work/cpu" "$cli" search "$model" "${cluster[@]}" "$@" --target "$target" \
               --json --no-history -o "$work/$name-$target.json" 2>/dev/null | summary)
        printf "%-11s %s  (%.1f s CPU)\n" "$target" "$line" "$(cat "$work/cpu")"
    done
    # The expert layout on the mesh the search was given (on --mesh auto: the Megatron-LM
    # best's mesh is not known here, so none).
    if [[ " $* " != *" auto "* ]]; then
        printf "%-11s %s (Megatron-LM with sequence parallelism, ZeRO 1)\n" megatron-sp \
            "$(price "$model" megatron-sp "${cluster[@]}" "$@" --zero 1)"
    fi
    for target in megatron torchtitan pytorch; do
        local ext=sh
        [ "$target" != megatron ] && ext=py
        "$cli" export "$work/$name-$target.json" --model "$model" --format "$target" "${cluster[@]}" \
            -o "$work/$name-$target.$ext" >/dev/null 2>&1
        "$cli" import-plan "$work/$name-$target.$ext" --model "$model" "${cluster[@]}" \
            -o "$work/$name-$target-back.json" >/dev/null 2>&1
        echo "  $target: searched $(price "$model" "$work/$name-$target.json" "${cluster[@]}"), exported and" \
             "imported $(price "$model" "$work/$name-$target-back.json" "${cluster[@]}")"
    done
}

run llama3-8b-2x8 "$llama" "--cluster dgx-h100x2" --mesh 2x8 --batch 16 --seq 2048
run mixtral-8x7b "$work/mixtral.onnx" "--cluster dgx-h100x4" --mesh 4x8 --batch 64 --seq 4096
run llama3-8b-131k "$llama" "--cluster dgx-h100x2 --nodes 8" --mesh auto --batch 64 --seq 131072
run gpt3-175b "$work/gpt3.onnx" "--cluster dgx-h100x16" --mesh auto --batch 1536 --seq 2048
