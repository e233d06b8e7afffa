#!/usr/bin/env bash
# Fills the git-ignored folders that scripts/gpu-check.sh needs on the GPU
# machine, which lacks these packages: nlohmann-json, CLI11 and DLPack headers,
# GoogleTest sources, Eigen and librsb, and a copy of the shared test matrices.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p third_party/include
cp -r /usr/include/nlohmann third_party/include/
cp -r /usr/include/CLI third_party/include/
cp -r /usr/include/dlpack third_party/include/  # the Python package's DLPack inputs (libdlpack-dev)
rm -rf third_party/googletest && cp -r /usr/src/googletest third_party/googletest
# CPU baselines of the SpMV benchmark: Eigen (headers) and librsb (library + headers).
cp -r /usr/include/eigen3 third_party/include/
cp /usr/include/rsb.h /usr/include/rsb_types.h /usr/include/rsb-config.h /usr/include/blas_sparse.h third_party/include/
mkdir -p third_party/lib && cp /usr/lib/x86_64-linux-gnu/librsb.so.0.0.0 third_party/lib/ &&
  ln -sf librsb.so.0.0.0 third_party/lib/librsb.so && ln -sf librsb.so.0.0.0 third_party/lib/librsb.so.0
cp -L /usr/lib/x86_64-linux-gnu/libhwloc.so.15 third_party/lib/  # librsb's one dependency Ubuntu may lack
# The CPU GEMM baseline: OpenBLAS (xz-packed: 36 MB would not fit the
# device tool's 64 MiB carry; gpu-check.sh unpacks it) and its Fortran runtime.
# NO_OPENBLAS=1 leaves them out (7.5 MB): the tree, third_party and the
# matrices can pass 64 MiB, and only RUN_DENSE_CPU needs them.
rm -rf third_party/include/openblas third_party/lib/libopenblas.so.0.xz third_party/lib/libgfortran.so.5 third_party/lib/libquadmath.so.0
if [ "${NO_OPENBLAS:-0}" != 1 ]; then
  mkdir -p third_party/include/openblas
  cp /usr/include/x86_64-linux-gnu/openblas-pthread/{cblas.h,openblas_config.h} third_party/include/openblas/
  xz -T2 -c /usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so > third_party/lib/libopenblas.so.0.xz
  cp -L /usr/lib/x86_64-linux-gnu/libgfortran.so.5 /usr/lib/x86_64-linux-gnu/libquadmath.so.0 third_party/lib/
fi
if [ -d ../shared/matrices ]; then rm -rf matrices && cp -r ../shared/matrices matrices; fi
du -sh third_party matrices 2>/dev/null
