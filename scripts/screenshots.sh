#!/usr/bin/env bash
# Builds the GUI and saves a screenshot of the main window showing the bundled default
# model (Llama-3-8B shape) to docs/screenshot-main-window.png.
#
# The picture comes from the app itself: `tapestry --screenshot FILE MODEL` renders the
# window with QWidget::grab once the model has loaded, then exits (non-zero if the model
# or the image failed), so no window manager or screen-capture tool is involved. It runs
# under xvfb-run, in English, with a scratch settings directory so that a saved window
# size or language of your own does not leak into the image.
#
# BUILD_DIR=build/gui scripts/screenshots.sh uses an already configured build directory
# instead of setting up and building the release preset.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${BUILD_DIR:-}" ]; then
  cmake --build "$BUILD_DIR" --target tapestry
else
  BUILD_DIR=build/release
  bash scripts/build.sh --target tapestry
fi

settings=$(mktemp -d)
trap 'rm -rf "$settings"' EXIT
mkdir -p docs
XDG_CONFIG_HOME="$settings" LANG=en_US.UTF-8 LC_ALL= LANGUAGE= \
  xvfb-run -a -s "-screen 0 1600x1000x24" \
  "$BUILD_DIR/app/gui/tapestry" --screenshot docs/screenshot-main-window.png \
  resources/models/default.onnx
echo "wrote docs/screenshot-main-window.png"
