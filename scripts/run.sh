#!/usr/bin/env bash
# The main job: install, build, and run `hsparse bench` on its built-in
# default suite (on the GPU if there is one, else on the CPU), writing
# bench-report/report.md (with results.json, results.csv and plots/).
# Extra arguments go to hsparse bench (e.g. --quick, --matrices DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
build/bin/hsparse info
build/bin/hsparse bench --out bench-report "$@"
