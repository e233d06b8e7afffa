#!/usr/bin/env bash
# BCSR by-column's lanes per block row (issue 37): each suite matrix with a
# block structure, by-column at 32 / 16 / 8 / 4 lanes and at the plan's own
# choice, against cuSPARSE's BSR, all on the same converted file and GPU.
# Usage on the device, after gpu-check.sh built build-gpu: scripts/bcsr-lanes.sh > $OUT/bcsr-lanes.txt
B=${BUILD_DIR:-build-gpu}/bin/hsparse
T=${TMPDIR:-/tmp}
for m in "fem:block=3,n=74" "replicate:copies=344,file=matrices/bcsstk16.mtx.gz" "fem:block=6,n=55" "banded:bandwidth=6,n=7692308" \
         "shortwide:rows=10000,per_row=2600"; do
  f="$T/$(echo "$m" | tr -c 'a-zA-Z0-9\n' '_').hsp"
  $B convert "$m" "$f" > /dev/null || { echo "$m: convert failed"; continue; }
  block=()
  case "$m" in shortwide*) block=(--block-size 1) ;; esac
  for lanes in 32 16 8 4 auto cusparse; do
    args=(--format bcsr --kernel by-column "${block[@]}")
    case $lanes in
      auto) ;;
      cusparse) args=(--format bcsr --kernel cusparse "${block[@]}") ;;
      *) args+=(--lanes "$lanes") ;;
    esac
    $B spmv "$f" --backend cuda "${args[@]}" --min-time 0.2 --check 2>&1 | grep -E "GFLOP|rror|check" | sed "s|^|$m lanes=$lanes: |"
  done
  rm -f "$f"
done
