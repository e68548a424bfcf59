#!/usr/bin/env bash
# The cost model against measured training runs: prices every case of
# ../shared/validation/published-runs.json (Megatron-LM SC'21, MosaicML llm-foundry)
# with `tapestry-cli validate` and prints predicted vs measured step time and memory,
# then the median and maximum |step-time error|, overall and by regime (GPU, sequence
# length, GPU count, technique). Builds tapestry-cli first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh --target tapestry-cli >/dev/null
cases="${1:-../shared/validation/published-runs.json}"
build/release/app/tapestry-cli validate "$cases"
