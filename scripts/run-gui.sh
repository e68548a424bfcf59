#!/usr/bin/env bash
# README command 1: set up, build, and launch the Tapestry GUI on the bundled default
# model (Llama-3-8B shape). Arguments are passed to the GUI (e.g. a model file).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh --target tapestry
if [ $# -eq 0 ]; then
  set -- resources/models/default.onnx
fi
exec build/release/app/gui/tapestry "$@"
