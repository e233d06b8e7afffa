#!/usr/bin/env bash
# BCSR by-column's lanes per block row (issue 37): each suite matrix with a
# block structure, by-column at 32 / 16 / 8 / 4 lanes and at the plan's own
# choice, against cuSPARSE's BSR, all on the same converted file and GPU.
# Usage on the device, after gpu-check.sh built build-gpu: scripts/experiments/bcsr-lanes.sh > $OUT/bcsr-lanes.txt
# (short-wide runs at --block-size 1 in its own call: BLOCK="--block-size 1" MATRICES=shortwide:... scripts/experiments/bcsr-lanes.sh)
runs=""
for lanes in 32 16 8 4; do runs+="lanes$lanes=--format bcsr --kernel by-column ${BLOCK:-} --lanes $lanes;"; done
runs+="lanes-auto=--format bcsr --kernel by-column ${BLOCK:-};cusparse=--format bcsr --kernel cusparse ${BLOCK:-}"
AB_MATRICES=${MATRICES:-"fem:block=3,n=74 replicate:copies=344,file=matrices/bcsstk16.mtx.gz fem:block=6,n=55 banded:bandwidth=6,n=7692308"} \
AB_RUNS=$runs exec "$(dirname "$0")/spmv-ab.sh"
