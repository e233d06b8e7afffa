#!/usr/bin/env bash
# CSR "panels" (x in L1-sized column panels) against CSR adaptive, BCSR b = 1
# and cuSPARSE on short-wide matrices (issue 37), same converted file and GPU.
# Usage on the device, after gpu-check.sh built build-gpu: scripts/csr-panels.sh > $OUT/csr-panels.txt
B=${BUILD_DIR:-build-gpu}/bin/hsparse
T=${TMPDIR:-/tmp}
for m in ${PANEL_MATRICES:-"shortwide:rows=10000,per_row=2600" "shortwide:rows=6000,per_row=2600"}; do
  f="$T/$(echo "$m" | tr -c 'a-zA-Z0-9\n' '_').hsp"
  $B convert "$m" "$f" > /dev/null || { echo "$m: convert failed"; continue; }
  for k in "csr panels" "csr adaptive" "csr cusparse-alg1" "bcsr by-column --block-size 1"; do
    set -- $k
    $B spmv "$f" --backend cuda --format "$1" --kernel "$2" "${@:3}" --min-time 0.2 --check 2>&1 | grep -E "set up|GFLOP|rror|check" | sed "s|^|$m $1/$2: |"
  done
  rm -f "$f"
done
