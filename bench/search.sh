#!/usr/bin/env bash
# Search speed (issue 26): for each case, `search --target any` (TAP over every per-node
# split) and `--target megatron`, one line each: CPU seconds of the whole process
# (user + sys), wall seconds, CPU of the search and its report alone (what `search --json`
# gives as search_cpu_seconds, to the millisecond: reading and folding the model left
# out; for a build without it, the process's CPU less `fold`'s on the same model), the
# best plan's step time and memory. With
# `--compare OLD_CLI` another build's tapestry-cli (say the one before a change) searches
# the same case (both targets) right after, and its CPU and plan step are printed beside:
# old and new side by side in one run, and for `any` an exhaustive reference for the
# plan cost when OLD_CLI solves by CBC. Prints the load average before and after;
# figures taken on a loaded machine say so.
#   bench/search.sh [--compare OLD_CLI] [--only NAME]
set -euo pipefail
cd "$(dirname "$0")/.."
old=""
only=""
while [ $# -gt 0 ]; do
    case $1 in
        --compare) old=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        *) echo "usage: bench/search.sh [--compare OLD_CLI] [--only NAME]" >&2; exit 2 ;;
    esac
done
bash scripts/build.sh --target tapestry-cli >/dev/null
cli=build/release/app/tapestry-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cli" synth --preset gpt3-175b --layers 12 -o "$work/gpt3-12.onnx" >/dev/null
"$cli" synth --preset gpt3-175b -o "$work/gpt3-96.onnx" >/dev/null
"$cli" synth --preset llama3-8b -o "$work/llama3-8b.onnx" >/dev/null
llama=../shared/models/llama3_8b_shape.dynamo.stripped.onnx

cpu() {  # CPU seconds (user + sys) of the time file $1
    awk '{printf "%.2f", $1 + $2}' "$1"
}
wall() {
    awk '{printf "%.2f", $3}' "$1"
}
plan() {  # step in ms and memory per GPU in GB of search --json $1
    python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["best"]
print("%11.1f ms %6.2f GB" % (b["step_seconds"] * 1e3, b["memory_bytes"]["total"] / 1e9))' "$1"
}
searchCpu() {  # search_cpu_seconds of search --json $1, else $2 less $3 (process less fold)
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("%.3f" % d["search_cpu_seconds"] if "search_cpu_seconds" in d else "%.2f" % (float(sys.argv[2]) - float(sys.argv[3])))' "$@"
}
foldCpu() {  # CPU seconds of reading and folding model $1
    /usr/bin/time -f "%U %S %e" -o "$work/fold.time" "$cli" fold "$1" >/dev/null
    cpu "$work/fold.time"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-20s %-9s %7s %7s %10s %22s" case target cpu_s wall_s search_cpu "best plan"
[ -n "$old" ] && printf "   | %9s %10s %14s" "old cpu_s" "old search" "old step"
printf "\n"
run() {  # NAME MODEL SEARCH OPTIONS...
    local name=$1 model=$2
    shift 2
    [ -n "$only" ] && [ "$only" != "$name" ] && return
    local folded
    folded=$(foldCpu "$model")
    for target in any megatron; do
        /usr/bin/time -f "%U %S %e" -o "$work/time" "$cli" search "$model" "$@" --target "$target" --json \
            --no-history >"$work/out.json" 2>/dev/null
        local total
        total=$(cpu "$work/time")
        printf "%-20s %-9s %7s %7s %10s %22s" "$name" "$target" "$total" "$(wall "$work/time")" \
            "$(searchCpu "$work/out.json" "$total" "$folded")" "$(plan "$work/out.json")"
        if [ -n "$old" ]; then
            /usr/bin/time -f "%U %S %e" -o "$work/old.time" "$old" search "$model" "$@" --target "$target" --json \
                --no-history >"$work/old.json" 2>/dev/null
            local oldTotal
            oldTotal=$(cpu "$work/old.time")
            printf "   | %9s %10s %14s" "$oldTotal" "$(searchCpu "$work/old.json" "$oldTotal" "$folded")" \
                "$(plan "$work/old.json" | awk '{print $1, $2}')"
        fi
        printf "\n"
    done
}
run llama3-8b-2x8 "$llama" --cluster dgx-h100x2 --mesh 2x8 --batch 16 --seq 2048
run llama3-8b-synth-2x8 "$work/llama3-8b.onnx" --cluster dgx-h100x2 --mesh 2x8 --batch 16 --seq 2048
run gpt3-12-layers-16x8 "$work/gpt3-12.onnx" --cluster dgx-h100x16 --mesh 16x8
run gpt3-96-layers-16x8 "$work/gpt3-96.onnx" --cluster dgx-h100x16 --mesh 16x8
run gpt3-175b-auto "$work/gpt3-96.onnx" --cluster dgx-h100x16 --mesh auto --batch 1536 --seq 2048
run llama3-8b-131k-auto "$llama" --cluster dgx-h100x2 --nodes 8 --mesh auto --batch 64 --seq 131072
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
