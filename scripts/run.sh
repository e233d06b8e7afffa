#!/usr/bin/env bash
# The main job: install, build, describe the built-in default matrix and check
# the CPU SpMV on it against the serial reference.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/bin/hsparse info
build/bin/hsparse spmv --check
