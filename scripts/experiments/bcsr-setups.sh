#!/usr/bin/env bash
# BCSR's setup (pattern on the host, values scattered on the device) and speed on the default suite's matrices (issue 37).
B=${BUILD_DIR:-build-gpu}/bin/hsparse
for m in "fem:block=3,n=74" "fem:block=6,n=55" "replicate:copies=344,file=matrices/bcsstk16.mtx.gz" "circuit:n=10000000" "powerlaw:min=2.5,rows=4000000"; do
  $B spmv "$m" --backend cuda --format bcsr --min-time 0.1 2>&1 | grep -E "set up|GFLOP|rror" | sed "s|^|$m: |"
done
