#!/usr/bin/env bash
# Installs what hsparse needs to build and test on Debian 12 (as root, or via sudo).
# Packages already present are skipped, so a second run costs nothing.
# Extra arguments name more packages to install (e.g. clang for the fuzzers).
# Another apt or dpkg (unattended upgrades, a second build) may hold dpkg's
# lock: apt waits for it, up to HSPARSE_APT_LOCK_TIMEOUT seconds (600), where
# it used to fail at once.
set -euo pipefail
packages=(build-essential cmake ninja-build ccache pkg-config
          libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
          zlib1g-dev libarchive-dev libhwloc-dev libeigen3-dev librsb-dev libopenblas-dev gnuplot-nox doxygen
          libopenmpi-dev openmpi-bin petsc-dev libmetis-dev
          python3-dev python3-venv python3-setuptools python3-wheel pybind11-dev libdlpack-dev python3-numpy python3-scipy python3-pytest python3-mpi4py
          "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
# HSPARSE_APT_ALWAYS=1 runs apt-get install even when nothing is missing (a
# no-op install that still takes dpkg's lock: how tests/install/apt_lock.sh
# checks the wait).
if [ ${#missing[@]} -gt 0 ] || [ "${HSPARSE_APT_ALWAYS:-0}" = 1 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  lock=(-o "DPkg::Lock::Timeout=${HSPARSE_APT_LOCK_TIMEOUT:-600}")
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    $sudo_cmd apt-get "${lock[@]}" update -qq
  fi
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get "${lock[@]}" install -y -qq "${missing[@]:-${packages[0]}}" >/dev/null
fi
