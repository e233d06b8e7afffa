#!/usr/bin/env bash
# A/B of GPU SpMV kernels on the same converted file and GPU (issue 37):
# each matrix converted once to .hsp, then `hsparse spmv --check` with each
# run's arguments, back to back, one line per run ("matrix label: ...").
# Usage on the device, after gpu-check.sh built build-gpu:
#   AB_MATRICES="spec spec ..." AB_RUNS="label=args;label=args;..." scripts/spmv-ab.sh > $OUT/ab.txt
# A run's args follow `hsparse spmv FILE --backend cuda`, e.g. "csr16=--format csr16 --kernel adaptive".
B=${BUILD_DIR:-build-gpu}/bin/hsparse
T=${TMPDIR:-/tmp}
MIN_TIME=${AB_MIN_TIME:-0.2}
IFS=';' read -r -a runs <<< "${AB_RUNS:?AB_RUNS: label=args;label=args;...}"
for m in ${AB_MATRICES:?AB_MATRICES: matrix specs, space-separated}; do
  f="$T/$(echo "$m" | tr -c 'a-zA-Z0-9\n' '_').hsp"
  $B convert "$m" "$f" > /dev/null || { echo "$m: convert failed"; continue; }
  for run in "${runs[@]}"; do
    label=${run%%=*}
    read -r -a args <<< "${run#*=}"
    $B spmv "$f" --backend cuda "${args[@]}" --min-time "$MIN_TIME" --check 2>&1 | grep -E "set up|GFLOP|rror|check" | sed "s|^|$m $label: |"
  done
  rm -f "$f"
done
