#!/usr/bin/env bash
# The family sweep: does every exported plan run at the price shown? For each model below
# and each stack (search --target megatron|torchtitan|pytorch), the searched plan is
# written in every training-stack format (megatron, torchtitan, torchtitan-toml, pytorch),
# imported back (import-plan) and both plans are priced (evaluate). Each pair reads
#   same    step time and memory per GPU as the searched plan;
#   noted   they differ, and the file's head says it is not the plan Tapestry priced
#           ("# Not the plan Tapestry priced ...", search/ExportedPlanPrice.h);
#   SILENT  they differ and the file does not say so: a bug;
#   FAIL    search, export, import or evaluate failed.
# 10 models x 3 stacks x 4 formats = 120 pairs; a few minutes on two cores. The bar for a
# change that touches plans, workloads or exports: 0 SILENT, 0 FAIL.
#   bench/export_sweep.sh [--cli PATH]   (PATH: another build's tapestry-cli, say main's
#                                         before a change; default: this tree's, built)
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/release/app/tapestry-cli
case "${1:-}" in
    --cli) cli=$(realpath "$2") ;;
    "") bash scripts/build.sh --target tapestry-cli >/dev/null ;;
    *) echo "usage: bench/export_sweep.sh [--cli PATH]" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

step_and_memory() {  # MODEL PLAN CLUSTER...: "step_seconds memory_bytes" under evaluate
    "$cli" evaluate "$1" --plan "$2" "${@:3}" --no-history --json |
        python3 -c 'import json,sys; t=json.load(sys.stdin)["total"]; print(t["step_seconds"], t["memory_bytes"]["total"])'
}

classify() {  # "STEP MEMORY" "STEP MEMORY" NOTED(yes|no): the pair's class, figures where they differ
    python3 -c '
import sys
(s0, m0), (s1, m1) = (map(float, figures.split()) for figures in sys.argv[1:3])
if all(abs(x - y) <= 1e-9 * max(abs(x), abs(y)) for x, y in ((s0, s1), (m0, m1))):
    print("same")
else:
    print("%-6s %.3f ms %.2f GB -> %.3f ms %.2f GB" % ("noted" if sys.argv[3] == "yes" else "SILENT",
          s0 * 1e3, m0 / 1e9, s1 * 1e3, m1 / 1e9))' "$@"
}

declare -A total=([same]=0 [noted]=0 [SILENT]=0 [FAIL]=0)
formats=(megatron:sh torchtitan:py torchtitan-toml:toml pytorch:py)

sweep() {  # NAME MODEL "CLUSTER" SEARCH OPTIONS...
    local name=$1 model=$2
    read -r -a cluster <<<"$3"
    shift 3
    for target in megatron torchtitan pytorch; do
        local plan=$work/$name-$target.json searched=""
        if "$cli" search "$model" "${cluster[@]}" "$@" --target "$target" --no-history -o "$plan" >/dev/null 2>&1; then
            searched=$(step_and_memory "$model" "$plan" "${cluster[@]}") || searched=""
        fi
        for entry in "${formats[@]}"; do
            local format=${entry%%:*} file=$work/$name-$target-as-${entry%%:*}.${entry##*:} line=FAIL imported noted=no
            local back=${file%.*}-back.json
            if [ -n "$searched" ] &&
               "$cli" export "$plan" --model "$model" --format "$format" "${cluster[@]}" -o "$file" >/dev/null 2>&1 &&
               "$cli" import-plan "$file" --model "$model" "${cluster[@]}" -o "$back" >/dev/null 2>&1 &&
               imported=$(step_and_memory "$model" "$back" "${cluster[@]}"); then
                awk 'NR <= 5 && /Not the plan Tapestry priced/ { n = 1 } END { exit !n }' "$file" && noted=yes
                line=$(classify "$searched" "$imported" "$noted")
            fi
            printf '%-14s %-10s -> %-15s %s\n' "$name" "$target" "$format" "$line"
            local class=${line%% *}
            total[$class]=$((total[$class] + 1))
        done
    done
}

synth() {  # PRESET: the synthesized model's path
    "$cli" synth --preset "$1" -o "$work/$1.onnx" >/dev/null
    echo "$work/$1.onnx"
}

sweep gpt2-medium "$(synth gpt2-medium)" "--cluster dgx-h100x1" --mesh 2x4 --batch 32 --seq 1024
sweep bert-large "$(synth bert-large)" "--cluster dgx-h100x1" --mesh 8 --batch 64 --seq 512
sweep t5-base "$(synth t5-base)" "--cluster dgx-h100x1" --mesh 2x4 --batch 32 --seq 512
sweep llama2-7b "$(synth llama2-7b)" "--cluster dgx-h100x1" --mesh 2x4 --batch 16 --seq 4096
sweep llama3-8b-32k "$(synth llama3-8b)" "--cluster dgx-h100x2" --mesh 2x8 --batch 8 --seq 32768
sweep llama2-70b "$(synth llama2-70b)" "--cluster dgx-h100x4" --mesh 4x8 --batch 64 --seq 4096
sweep llama3-70b "$(synth llama3-70b)" "--cluster dgx-h100x16" --mesh 16x8 --batch 256 --seq 8192
sweep mixtral-8x7b "$(synth mixtral-8x7b)" "--cluster dgx-h100x4" --mesh 4x8 --batch 64 --seq 4096
sweep gpt3-175b "$(synth gpt3-175b)" "--cluster dgx-h100x16" --mesh 16x8 --batch 1536 --seq 2048
# The bundled model: a static-shape dynamo export (Llama-3-8B shape), the path synthesized
# presets do not take.
sweep default-2x4 resources/models/default.onnx "--cluster dgx-h100x1" --mesh 2x4 --batch 16 --seq 2048

echo "pairs $((total[same] + total[noted] + total[SILENT] + total[FAIL])): same ${total[same]}, noted ${total[noted]}," \
     "SILENT ${total[SILENT]}, FAIL ${total[FAIL]}"
