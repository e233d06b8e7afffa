#!/usr/bin/env bash
# A/B of GPU SpMV kernels on the same converted file and GPU (issue 37):
# each matrix converted once to .hsp, then `hsparse spmv --check` with each
# run's arguments, back to back, one line per run ("matrix label: ...").
# Usage on the device, after gpu-check.sh built build-gpu:
#   AB_MATRICES="spec spec ..." AB_RUNS="label=args;label=args;..." scripts/experiments/spmv-ab.sh > $OUT/ab.txt
# A run's args follow `hsparse spmv FILE --backend cuda`, e.g. "csr16=--format csr16 --kernel adaptive".
# Two builds (a change against its base): AB_BINARIES="new=build-gpu/bin/hsparse base=/tmp/base/build-gpu/bin/hsparse"
# runs every run with each binary in turn, in the listed order and then reversed (ABBA), labelled run@binary.
# scripts/experiments/ab-base.sh builds the base on the device.
B=${BUILD_DIR:-build-gpu}/bin/hsparse
read -r -a binaries <<< "${AB_BINARIES:-this=$B}"
T=${TMPDIR:-/tmp}
MIN_TIME=${AB_MIN_TIME:-0.2}
IFS=';' read -r -a runs <<< "${AB_RUNS:?AB_RUNS: label=args;label=args;...}"
for m in ${AB_MATRICES:?AB_MATRICES: matrix specs, space-separated}; do
  f="$T/$(echo "$m" | tr -c 'a-zA-Z0-9\n' '_').hsp"
  "${binaries[0]#*=}" convert "$m" "$f" > /dev/null || { echo "$m: convert failed"; continue; }
  reversed=(); for ((i = ${#binaries[@]} - 1; i >= 0; --i)); do reversed+=("${binaries[i]}"); done
  order=("${binaries[@]}"); [ ${#binaries[@]} -gt 1 ] && order+=("${reversed[@]}")
  for run in "${runs[@]}"; do
    label=${run%%=*}
    read -r -a args <<< "${run#*=}"
    for bin in "${order[@]}"; do
      tag=""; [ ${#binaries[@]} -gt 1 ] && tag="@${bin%%=*}"
      "${bin#*=}" spmv "$f" --backend cuda "${args[@]}" --min-time "$MIN_TIME" --check 2>&1 | grep -E "set up|GFLOP|rror|check" | sed "s|^|$m $label$tag: |"
    done
  done
  rm -f "$f"
done
