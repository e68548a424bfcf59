#!/usr/bin/env bash
# The search's growth with depth (issue 26: 96/12-layer ratio at most 1.5), counted in
# instructions, which a loaded 2-core machine does not move (the CPU seconds of
# bench/search.sh are a few milliseconds at 12 layers). For the GPT-3 shape at 12 and 96
# layers on 16 x DGX-H100 `--mesh 16x8`, under `--target megatron` and `any`: the
# instructions callgrind counts inside SearchSession::run and stacksRunning (what
# search_cpu_seconds holds but writing the JSON), and their ratio. With `--compare
# OLD_CLI` another build's tapestry-cli is counted beside. Needs valgrind; about two
# minutes (`any` at 96 layers runs some 330 M instructions under callgrind).
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

instructions() {  # CLI TARGET LAYERS: millions of instructions of the search
    valgrind --tool=callgrind --callgrind-out-file="$work/cg" \
        --toggle-collect='tapestry::SearchSession::run(tapestry::SearchSessionCallbacks const&, unsigned int)' \
        --toggle-collect='tapestry::stacksRunning(*' \
        "$1" search "$work/gpt3-$3.onnx" --cluster dgx-h100x16 --mesh 16x8 --target "$2" --json --no-history \
        >/dev/null 2>&1
    callgrind_annotate "$work/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); printf "%.2f", $1 / 1e6 }'
}
ratio() {
    awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b / a }'
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-9s %10s %10s %6s" target "12 L (M)" "96 L (M)" ratio
[ -n "$old" ] && printf "   | %10s %10s %6s" "old 12 L" "old 96 L" "ratio"
printf "\n"
for target in megatron any; do
    shallow=$(instructions "$cli" "$target" 12)
    deep=$(instructions "$cli" "$target" 96)
    printf "%-9s %10s %10s %6s" "$target" "$shallow" "$deep" "$(ratio "$shallow" "$deep")"
    if [ -n "$old" ]; then
        oldShallow=$(instructions "$old" "$target" 12)
        oldDeep=$(instructions "$old" "$target" 96)
        printf "   | %10s %10s %6s" "$oldShallow" "$oldDeep" "$(ratio "$oldShallow" "$oldDeep")"
    fi
    printf "\n"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
