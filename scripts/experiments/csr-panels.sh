#!/usr/bin/env bash
# CSR "panels" (x in L1-sized column panels) against CSR adaptive, BCSR b = 1
# and cuSPARSE on short-wide matrices (issue 37), same converted file and GPU.
# Usage on the device, after gpu-check.sh built build-gpu: scripts/experiments/csr-panels.sh > $OUT/csr-panels.txt
AB_MATRICES=${PANEL_MATRICES:-"shortwide:rows=10000,per_row=2600 shortwide:rows=6000,per_row=2600"} \
AB_RUNS="csr/panels=--format csr --kernel panels;csr/adaptive=--format csr --kernel adaptive;csr/cusparse-alg1=--format csr --kernel cusparse-alg1;bcsr/by-column=--format bcsr --kernel by-column --block-size 1" \
  exec "$(dirname "$0")/spmv-ab.sh"
