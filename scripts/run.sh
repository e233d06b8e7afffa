#!/usr/bin/env bash
# The main job: install, build, and run `hsparse bench` on its built-in
# default suite (on the GPU if there is one, else on the CPU), writing
# bench-report/report.md (with results.json, results.csv and plots/).
# Extra arguments go to hsparse bench (e.g. --quick, --matrices DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The tool alone: the tests and the Python module are scripts/test.sh's.
# Without a GPU the CUDA backend is left out: nvcc compiling every kernel
# for a GPU the bench would not use was most of a cold run's 46.6
# CPU-minutes. That build goes to its own folder (build-cpu/), so that it
# and the tests' CUDA build in build/ never reconfigure each other.
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  build_dir=build
else
  build_dir=build-cpu
  echo "no NVIDIA GPU found: building the CPU backend only, in $build_dir/ (the CUDA build is scripts/build.sh's, in build/)"
  export HSPARSE_CMAKE_ARGS="${HSPARSE_CMAKE_ARGS:-} -DHSPARSE_ENABLE_CUDA=OFF"
fi
BUILD_DIR=$build_dir scripts/build.sh hsparse_cli
"$build_dir/bin/hsparse" info
# The shared SuiteSparse matrices, where this checkout has them: the default
# suite adds two of them, replicated (the tool has no built-in path to them).
if [ -z "${HSPARSE_MATRICES:-}" ] && [ -d ../shared/matrices ]; then
  export HSPARSE_MATRICES=$(cd ../shared/matrices && pwd)
fi
"$build_dir/bin/hsparse" bench --out bench-report "$@"
echo "the tool: $build_dir/bin/hsparse (to call it as hsparse: export PATH=\"$PWD/$build_dir/bin:\$PATH\")"
