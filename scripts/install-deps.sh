#!/usr/bin/env bash
# Installs what hsparse needs to build and test on Debian 12 (as root, or via sudo).
# Packages already present are skipped, so a second run costs nothing.
set -euo pipefail
packages=(build-essential cmake ninja-build ccache pkg-config
          libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
          zlib1g-dev libarchive-dev libhwloc-dev libeigen3-dev librsb-dev libopenblas-dev gnuplot-nox doxygen
          python3-dev python3-venv python3-setuptools python3-wheel pybind11-dev libdlpack-dev python3-numpy python3-scipy python3-pytest)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "installing: ${missing[*]}"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi
