#!/usr/bin/env bash
# Installs every Debian 12 package that building, testing and running Tapestry needs.
# Idempotent and non-interactive; returns at once when everything is already there.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build ccache pkg-config
  # Qt 6 (Charts needs the OpenGL dev package or find_package fails)
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-charts-dev qt6-svg-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libqt6svg6 qt6-translations-l10n
  libgl-dev libvulkan-dev libxkbcommon-dev
  # graph layout, model format, history, exact solver
  libgraphviz-dev libonnx-dev libprotobuf-dev protobuf-compiler
  libsqlite3-dev coinor-libcbc-dev zlib1g-dev
  # command-line parsing (CLI11), JSON reading (nlohmann-json), TOML 1.0 reading (toml++)
  libcli11-dev nlohmann-json3-dev libtomlplusplus-dev
  # the export tests read the torchtitan config with Python's tomllib (3.11)
  python3
  # GUI tests and screenshots under a real X server
  xvfb xauth fonts-dejavu-core fonts-noto-cjk
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "bootstrap: installing ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
