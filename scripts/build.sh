#!/usr/bin/env bash
# Installs the dependencies (scripts/bootstrap.sh) and builds the release preset.
# Extra arguments go to `cmake --build` (e.g. --target tapestry).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
cmake --preset release >/dev/null
cmake --build --preset release "$@"
