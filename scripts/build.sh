#!/usr/bin/env bash
# Configures and builds hsparse (Release) in build/. CUDA is used when nvcc is
# found (architecture 90 unless CUDA_ARCHS says otherwise). Arguments name the
# targets to build (default: all; the main job builds only the tool).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${BUILD_DIR:-build}
# The Python package too, for Debian's python3 (whose numpy and scipy
# install-deps.sh installs; a pyenv python3 earlier on PATH has neither).
python_args=()
if [ -x /usr/bin/python3 ] && [ -f /usr/lib/cmake/pybind11/pybind11Config.cmake ]; then
  python_args=(-DHSPARSE_PYTHON=ON -DPython3_EXECUTABLE=/usr/bin/python3)
fi
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}" "${python_args[@]}" ${HSPARSE_CMAKE_ARGS:-} >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
