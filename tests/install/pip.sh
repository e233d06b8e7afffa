#!/usr/bin/env bash
# Issue 20's "done when", as CI runs it: `pip install --no-build-isolation .`
# into a fresh virtual environment (Debian's numpy and scipy visible), then
# the pytest suite against the installed package (not the build tree).
#   pip.sh SOURCE_DIR WORK_DIR PYTHON
set -euo pipefail
src=$1 work=$2 python=$3
rm -rf "$work" && mkdir -p "$work"
"$python" -m venv --system-site-packages "$work/venv"
# --no-index: offline, as CI and the GPU machine are; the build reuses ccache.
"$work/venv/bin/pip" install --no-build-isolation --no-index "$src" > "$work/pip.log" 2>&1 || { tail -40 "$work/pip.log"; exit 1; }
tail -1 "$work/pip.log"
cd "$work"  # away from the source tree: `import hsparse` must find the installed one
unset PYTHONPATH
"$work/venv/bin/python" -c "import hsparse, sys; assert 'site-packages' in hsparse.__file__, hsparse.__file__; print('hsparse', hsparse.__version__, 'from', hsparse.__file__)"
"$work/venv/bin/python" -m pytest -q -p no:cacheprovider "$src/python/tests"
