#!/usr/bin/env bash
# Builds a base version of the library and CLI beside this tree on the
# device, for scripts/experiments/spmv-ab.sh's AB_BINARIES: the tree is copied to
# $BASE_DIR (default /tmp/base) and BASE_SOURCES, a tarball of the base's
# differing folders made here (git archive <base> src include > ab-base.tar,
# left untracked so the device call carries it), is unpacked over it.
# Usage on the device, after gpu-check.sh built build-gpu:
#   BASE_SOURCES=ab-base.tar scripts/experiments/ab-base.sh   -> $BASE_DIR/build-gpu/bin/hsparse
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${BASE_DIR:-/tmp/base}
rm -rf "$base" && mkdir -p "$base"
tar --exclude=./build-gpu --exclude=./ab-base.tar -cf - . | tar -C "$base" -xf -
tar -C "$base" -xf "${BASE_SOURCES:?BASE_SOURCES: a tarball of the src and include folders of the base}"
cmake -S "$base" -B "$base/build-gpu" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > "$base/configure.log" 2>&1
cmake --build "$base/build-gpu" -j "$(nproc)" --target hsparse_cli > "$base/build.log" 2>&1 || { tail -30 "$base/build.log"; exit 1; }
echo "base built: $base/build-gpu/bin/hsparse"
