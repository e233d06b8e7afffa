#!/usr/bin/env bash
# The main job: install, build, and run `hsparse bench` on its built-in
# default suite (on the GPU if there is one, else on the CPU), writing
# bench-report/report.md (with results.json, results.csv and plots/).
# Extra arguments go to hsparse bench (e.g. --quick, --matrices DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The tool alone: the tests and the Python module are scripts/test.sh's (a
# cold build of everything takes about 10 minutes on 2 cores, the tool ~7).
scripts/build.sh hsparse_cli
build/bin/hsparse info
# The shared SuiteSparse matrices, where this checkout has them: the default
# suite adds two of them, replicated (the tool has no built-in path to them).
if [ -z "${HSPARSE_MATRICES:-}" ] && [ -d ../shared/matrices ]; then
  export HSPARSE_MATRICES=$(cd ../shared/matrices && pwd)
fi
build/bin/hsparse bench --out bench-report "$@"
