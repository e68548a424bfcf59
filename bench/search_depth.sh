#!/usr/bin/env bash
# The search's growth with depth (issue 26: 96/12-layer ratio at most 1.5), counted in
# instructions, which a loaded 2-core machine does not move (the CPU seconds of
# bench/search.sh are a few milliseconds at 12 layers). For the GPT-3 shape at 12 and 96
# layers on 16 x DGX-H100 `--mesh 16x8`, under `--target megatron` and `any`: the
# instructions callgrind counts inside SearchSession::run and stacksRunning (what
# search_cpu_seconds holds but writing the JSON; one mesh, so the session searches it on
# its own thread), and beside them the whole process's (loading the libraries, reading the
# model, folding it, the search, the JSON, freeing it all), each with its ratio. The
# whole process grows with the model's ops, which the search does not read one by one;
# issue 26's ratio is the search's. With `--compare OLD_CLI` another build's tapestry-cli
# is counted beside. Needs valgrind; about three minutes (`any` at 96 layers runs some
# 400 M instructions under callgrind).
#   bench/search_depth.sh [--compare OLD_CLI]
set -euo pipefail
cd "$(dirname "$0")/.."
old=""
while [ $# -gt 0 ]; do
    case $1 in
        --compare) old=$2; shift 2 ;;
        *) echo "usage: bench/search_depth.sh [--compare OLD_CLI]" >&2; exit 2 ;;
    esac
done
if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
    echo "bench/search_depth.sh needs valgrind (callgrind and callgrind_annotate)" >&2
    exit 1
fi
bash scripts/build.sh --target tapestry-cli >/dev/null
cli=build/release/app/tapestry-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cli" synth --preset gpt3-175b --layers 12 -o "$work/gpt3-12.onnx" >/dev/null
"$cli" synth --preset gpt3-175b -o "$work/gpt3-96.onnx" >/dev/null

instructions() {  # CLI TARGET LAYERS: "SEARCH WHOLE", millions of instructions
    valgrind --tool=callgrind --callgrind-out-file="$work/cg" \
        "$1" search "$work/gpt3-$3.onnx" --cluster dgx-h100x16 --mesh 16x8 --target "$2" --json --no-history \
        >/dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 "$work/cg" 2>/dev/null | awk '
        /PROGRAM TOTALS/ { gsub(",", "", $1); whole = $1 }
        index($0, "tapestry::SearchSession::run(tapestry::SearchSessionCallbacks const&, unsigned int) [") ||
        index($0, "tapestry::stacksRunning(tapestry::FoldedModel const&, tapestry::PlanDocument const&) [") {
            gsub(",", "", $1); search += $1
        }
        END { printf "%.2f %.2f", search / 1e6, whole / 1e6 }'
}
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b / a }'
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
row() {  # CLI TARGET: one row of search and whole-process counts
    read -r searchShallow wholeShallow <<<"$(instructions "$1" "$2" 12)"
    read -r searchDeep wholeDeep <<<"$(instructions "$1" "$2" 96)"
    printf "%10s %10s %6s   %10s %10s %6s" "$searchShallow" "$searchDeep" "$(ratio "$searchShallow" "$searchDeep")" \
        "$wholeShallow" "$wholeDeep" "$(ratio "$wholeShallow" "$wholeDeep")"
}
printf "%-9s %-10s %10s %10s %6s   %10s %10s %6s\n" target build "search 12" "search 96" ratio "whole 12" "whole 96" ratio
for target in megatron any; do
    printf "%-9s %-10s %s\n" "$target" this "$(row "$cli" "$target")"
    if [ -n "$old" ]; then
        printf "%-9s %-10s %s\n" "$target" old "$(row "$old" "$target")"
    fi
done
echo "(millions of instructions; search: inside SearchSession::run and stacksRunning; whole: the process)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
