#!/usr/bin/env bash
# The distributed scaling runs of issue 64 on a machine of several GPUs (the
# device tool's nvidia-h200-x2 / -x4), after scripts/gpu-check.sh built
# hsparse there with MPI and NCCL: `mpirun -np P hsparse bench` on
#   - weak scaling, 1 -> G GPUs: a 27-point stencil of about 100 M nonzeros
#     per GPU (155^3 rows per GPU, cut in slabs along z), and a power-law
#     matrix of 10 M rows per GPU (an irregular halo);
#   - strong scaling, 1 -> G GPUs: the 400 M-nonzero stencil (245^3 rows);
#   - CPU ranks 1 -> 16 on the host's cores (one thread each, bound), a
#     5.6 M-nonzero stencil.
# Each bench measures every halo transport that runs (host staging, CUDA-aware
# MPI, NCCL), overlapped and sequential. Results: $OUT/scaling.tar.gz (every
# run's distributed.json and log) and $OUT/scaling-summary.txt.
# Environment: BIN (default build-gpu/bin/hsparse), GPUS (default: all
# visible), STEP_TIMEOUT (s per run, default 150), SKIP_CPU_RANKS=1.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build-gpu/bin/hsparse}
OUT=${OUT:-/tmp/hsparse-scaling}
work=$OUT/scaling
mkdir -p "$work"
gpus=${GPUS:-$(nvidia-smi -L | wc -l)}
cores=$(nproc)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
summary=$OUT/scaling-summary.txt
echo "scaling runs: $gpus GPUs, $cores cores, commit ${HSPARSE_COMMIT:-unknown}, $(date -u)" | tee "$summary"

# run NAME RANKS BACKEND SOURCE [bench options]: GPU ranks get the host's
# cores shared out (for generating their rows); CPU ranks one core each,
# bound, as PETSc runs (the issue's CPU goal compares them so).
run() {
  local name=$1 np=$2 backend=$3 source=$4
  shift 4
  local threads=$((cores / np)) bind=none
  [ $threads -lt 1 ] && threads=1
  [ "$backend" = cpu ] && threads=1 && bind=core
  timeout "${STEP_TIMEOUT:-150}" mpirun --oversubscribe --bind-to $bind -np "$np" -x OMP_NUM_THREADS=$threads -x HSPARSE_COMMIT \
    "$BIN" bench "$source" --distributed --backend "$backend" --out "$work/$name" "$@" > "$work/$name.log" 2>&1
  local rc=$?
  echo "$name (np $np): rc=$rc $(grep -E 'spmv overlapped|halo by|cg ' "$work/$name.log" | head -4 | tr -s ' ' | tr '\n' '|')" | tee -a "$summary"
}

nps=(1); [ "$gpus" -ge 2 ] && nps+=(2); [ "$gpus" -ge 4 ] && nps+=(4)
for p in "${nps[@]}"; do
  run weak-stencil-$p "$p" cuda "stencil3d:nx=155,ny=155,nz=$((155 * p)),points=27" --rank-formats csr --no-one-rank --min-time 0.3 --solver-iterations 100
done
for p in "${nps[@]}"; do
  run strong-stencil-$p "$p" cuda "stencil3d:n=245,points=27" --rank-formats csr --no-one-rank --min-time 0.3 --solver-iterations 100
done
for p in "${nps[@]}"; do
  run weak-powerlaw-$p "$p" cuda "powerlaw:rows=$((10000000 * p))" --rank-formats csr --no-one-rank --min-time 0.3 --solver-iterations 10
done
if [ "${SKIP_CPU_RANKS:-0}" != 1 ]; then
  for p in 1 2 4 8 16; do
    [ "$p" -le "$cores" ] || continue
    run cpu-stencil-$p "$p" cpu "stencil3d:n=60,points=27" --rank-formats csr,sell,auto --min-time 0.2 --solver-iterations 50
  done
fi
tar czf "$OUT/scaling.tar.gz" -C "$OUT" scaling
echo "wrote $OUT/scaling.tar.gz" | tee -a "$summary"
