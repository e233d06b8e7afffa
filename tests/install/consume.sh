#!/usr/bin/env bash
# Issue 19's "done when", as CI runs it: install the build to a prefix, move
# the prefix (an install must be relocatable), then build and run every
# example against it through find_package(hsparse) and through pkg-config,
# and the FetchContent consumer from the sources.
#   consume.sh BUILD_DIR SOURCE_DIR WORK_DIR MATRIX.mtx [subproject]
# GPU_EXAMPLE_SOURCE: the matrix of the tuned GPU plan (default a small stencil).
set -euo pipefail
build=$1 src=$2 work=$3 matrix=$4 subproject=${5:-}
rm -rf "$work" && mkdir -p "$work"
examples=(quick_start spmv_matrix_market cg_jacobi gpu_tuned_plan tridiagonal_batch)
run_examples() {  # DIR: run each example built there
  "$1/quick_start" "$matrix"
  "$1/spmv_matrix_market" "$matrix"
  "$1/cg_jacobi" "stencil3d:n=20,points=7"
  "$1/gpu_tuned_plan" "${GPU_EXAMPLE_SOURCE:-stencil3d:n=20,points=27}"
  "$1/tridiagonal_batch"
}

echo "== the README's library example is examples/quick_start.cpp"
sed -n '/^```cpp$/,/^```$/p' "$src/README.md" | sed '1d;$d' > "$work/readme_example.cpp"
if ! tail -n +4 "$src/examples/quick_start.cpp" | diff - "$work/readme_example.cpp"; then
  echo "FAIL: README.md's example and examples/quick_start.cpp differ" >&2
  exit 1
fi

echo "== cmake --install to $work/first, moved to $work/prefix"
cmake --install "$build" --prefix "$work/first" > "$work/install.log"
mv "$work/first" "$work/prefix"
prefix=$work/prefix
test -f "$prefix/include/hsparse/version.hpp"
"$prefix/bin/hsparse" --version
if grep -rl -- "$build" "$prefix/lib"*/cmake "$prefix/lib"*/pkgconfig; then
  echo "FAIL: the package files name the build tree $build" >&2
  exit 1
fi

echo "== find_package(hsparse) consumer"
cmake -S "$src/examples" -B "$work/find-package" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" ${CUDA_ARGS:-}
cmake --build "$work/find-package"
run_examples "$work/find-package"

echo "== pkg-config consumer"
if ! command -v pkg-config > /dev/null; then
  # CI installs it (scripts/install-deps.sh); the GPU machine may lack it.
  echo "skipped: pkg-config not installed"
else
export PKG_CONFIG_PATH="$(dirname "$(find "$prefix" -name hsparse.pc)")"
pkg-config --modversion hsparse
mkdir -p "$work/pkg-config"
for e in "${examples[@]}"; do
  # shellcheck disable=SC2046  # pkg-config's flags are words
  # The rpath: a shared libhsparse outside the loader's path (as a user would link it).
  c++ -std=c++20 -O2 "$src/examples/$e.cpp" -o "$work/pkg-config/$e" $(pkg-config --cflags --libs hsparse) \
    -Wl,-rpath,"$(pkg-config --variable=libdir hsparse)"
done
run_examples "$work/pkg-config"
fi

if [ "$subproject" = subproject ]; then
  echo "== FetchContent consumer (library built from the sources)"
  cmake -S "$src/examples/subproject" -B "$work/subproject" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DHSPARSE_SOURCE_DIR="$src" ${CUDA_ARGS:-}
  cmake --build "$work/subproject"
  "$work/subproject/spmv_matrix_market" "$matrix"
fi
echo "consume: every example built and ran"
