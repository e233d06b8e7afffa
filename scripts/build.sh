#!/usr/bin/env bash
# Configures and builds hsparse (Release) in build/. CUDA is used when nvcc is
# found (architecture 90 unless CUDA_ARCHS says otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}" ${HSPARSE_CMAKE_ARGS:-} >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
