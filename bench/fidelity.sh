#!/usr/bin/env bash
# The cost model against measured training runs: prices every case of
# ../shared/validation/published-runs.json (Megatron-LM SC'21, MosaicML llm-foundry) and
# of tests/data/validation/published-runs-fp8.json (Megatron-Bridge, torchtitan) with
# `tapestry-cli validate`: predicted vs measured step time and memory, the median and
# maximum |step-time error|, overall and by regime (GPU, sequence length, GPU count,
# technique). Then leave-one-source-out over both files (bench_fidelity): each source's
# runs priced on the figures fitted to the other sources of its GPU. Builds both first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh --target tapestry-cli bench_fidelity >/dev/null
cases="${1:-../shared/validation/published-runs.json}"
fp8="${2:-tests/data/validation/published-runs-fp8.json}"
build/release/app/tapestry-cli validate "$cases"
echo
build/release/app/tapestry-cli validate "$fp8"
echo
build/release/bench/bench_fidelity "$cases" "$fp8"
