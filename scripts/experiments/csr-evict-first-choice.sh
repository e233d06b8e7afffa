#!/usr/bin/env bash
# CSR adaptive's evict-first choice (issue 37) on the default suite's matrices: the plan's description and speed, back to back.
B=${BUILD_DIR:-build-gpu}/bin/hsparse
for m in "powerlaw:min=2.5,rows=4000000" "circuit:n=10000000" "random:per_row=10,rows=10000000" "shortwide:rows=10000,per_row=2600" "stencil3d:points=27,n=155" "fem:block=3,n=74" "banded:bandwidth=6,n=7692308" "replicate:copies=344,file=matrices/bcsstk16.mtx.gz" "replicate:copies=664,file=matrices/cage10.mtx.gz"; do
  $B spmv "$m" --backend cuda --format csr --kernel adaptive --min-time 0.2 2>&1 | grep -E "set up|GFLOP" | sed "s|^|$m: |"
done
