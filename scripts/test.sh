#!/usr/bin/env bash
# All tests: install, build, run every CTest test. GPU tests (label gpu) skip
# with "skipped: no CUDA device" on machines without one.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)"
