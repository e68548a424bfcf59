#!/usr/bin/env bash
# README command 2: set up, build everything, and run the whole test suite. GUI tests
# run against a real X server (Xvfb) with the xcb platform plugin.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
# PyTorch for test_pytorch_exports (once per machine; it fails, not skips, under CI without it).
bash scripts/torch-root.sh || echo "test.sh: no PyTorch root; test_pytorch_exports will say why" >&2
xvfb-run -a -s "-screen 0 1920x1200x24" ctest --preset release "$@"
