#!/usr/bin/env bash
# The native stack of a crash inside the Python package, where no debugger
# exists (the GPU machine): builds the package without CUDA, with debug
# information and unstripped (RelWithDebInfo), runs a Python statement under
# segv_backtrace.c and resolves every frame of the package to file:line.
#   bash scripts/debug/python-trace.sh 'import numpy, hsparse; hsparse.bench(...)'
# Writes $OUT/python_trace.log (the run) and $OUT/python_trace_frames.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/hsparse-trace}
mkdir -p "$OUT"
statement=${1:?usage: python-trace.sh '<python statement>'}
py=${PYTHON:-$(command -v python3)}
pybind_dir=$($py -m pybind11 --cmakedir 2>/dev/null || true)
if [ -f third_party/lib/libopenblas.so.0.xz ] && [ ! -f third_party/lib/libopenblas.so.0 ]; then  # packed by gpu-prepare.sh
  xz -dc third_party/lib/libopenblas.so.0.xz > third_party/lib/libopenblas.so.0 && ln -sf libopenblas.so.0 third_party/lib/libopenblas.so
fi
export LD_LIBRARY_PATH="$PWD/third_party/lib:${LD_LIBRARY_PATH:-}"
build=build-pytrace
{ cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHSPARSE_ENABLE_CUDA=OFF -DHSPARSE_BUILD_TESTS=OFF -DHSPARSE_PYTHON=ON \
    -DPython3_EXECUTABLE="$py" ${pybind_dir:+-Dpybind11_DIR=$pybind_dir} -DCMAKE_SHARED_LINKER_FLAGS="-Wl,-rpath-link,$PWD/third_party/lib" &&
  cmake --build $build --target _hsparse -j "$(nproc)"; } > "$OUT/python_trace_build.log" 2>&1 || { echo "build failed"; tail -30 "$OUT/python_trace_build.log"; exit 1; }
gcc -shared -fPIC -O1 -o "$OUT/segv_backtrace.so" scripts/debug/segv_backtrace.c
(export PYTHONPATH="$PWD/$build/python"; cd /tmp && LD_PRELOAD="$OUT/segv_backtrace.so" timeout 300 $py -X faulthandler -c "$statement") > "$OUT/python_trace.log" 2>&1
echo "statement rc=$?"
grep -E '^#[0-9]+ +/' "$OUT/python_trace.log" | while read -r frame lib off sym; do
  echo "$frame $lib $sym: $(addr2line -f -C -i -p -e "$lib" "$(printf '0x%x' $((off - 1)))" 2>/dev/null | tr '\n' ' ')"
done > "$OUT/python_trace_frames.txt"
cat "$OUT/python_trace_frames.txt"
