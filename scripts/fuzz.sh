#!/usr/bin/env bash
# Fuzzes every reader (fuzz/ReaderTargets.cpp) for SECONDS each with libFuzzer under
# AddressSanitizer and UBSan: the fuzz preset (clang), not part of the normal build.
# Seeds come from tests/data, resources/clusters and fuzz/seeds. An input that crashes,
# trips a sanitizer, hangs (over 10 s) or runs out of memory is written to
# fuzz/regressions/TARGET/, which the test suite replays (test_fuzz_corpus): look at it,
# fix the reader, and commit the input with the fix.
#   scripts/fuzz.sh SECONDS [TARGET ...]     (default: every target)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: scripts/fuzz.sh SECONDS [TARGET ...]}
shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(onnx iopddl plan cluster nccl-tests-log tp-plan training-stack history-record
  megatron-arguments torchtitan-config published-runs workload)

bash scripts/bootstrap.sh
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j2 --target "${targets[@]/#/fuzz_}"

seeds_of() {
  case "$1" in
    onnx) ls tests/data/{gpt2,llama,vit,resnet50}.ts.stripped.onnx ;;
    iopddl) ls tests/data/iopddl/* ;;
    cluster) ls resources/clusters/*.json ;;
    nccl-tests-log) ls tests/data/nccl/* ;;
    *) ls fuzz/seeds/"$1"/* ;;
  esac
}

for target in "${targets[@]}"; do
  corpus=build/fuzz/corpus/$target
  mkdir -p "$corpus" "fuzz/regressions/$target"
  seeds_of "$target" | xargs -I{} cp {} "$corpus"/
  echo "fuzz: $target for ${seconds} s"
  # -fork keeps going after a finding, so one run collects several.
  build/fuzz/fuzz/fuzz_"$target" "$corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len=1048576 -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -artifact_prefix="fuzz/regressions/$target/" -print_final_stats=1 2>&1 | grep -v NEW_FUNC | tail -n 3 || true
done
echo "fuzz: findings, if any, are in fuzz/regressions (git status shows the new ones)"
