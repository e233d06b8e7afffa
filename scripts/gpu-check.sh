#!/usr/bin/env bash
# Runs on the GPU machine (the device tool): builds hsparse with CUDA for sm_90,
# runs every test (CPU and GPU), compute-sanitizer memcheck on the GPU edge
# cases, and the CLI on a large matrix; logs go to $OUT (packed into
# $OUT/logs.tar.gz at the end, beside summary.txt and the report archives).
#
# Prepare here first (git-ignored folders it needs, named in the call's carry):
#   scripts/gpu-prepare.sh        # third_party/ (headers, GoogleTest sources), matrices/
# Device call:  bash scripts/gpu-check.sh   with carry ["third_party", "matrices"]
# Environment: HSPARSE_COMMIT=<hash> (named in the logs and the bench report; pass the hash from the local checkout:
#   the device's copy of .git may name an older HEAD than the files it ran),
#   BUILD_TARGETS="hsparse_cli hsparse_gpu_tests" (build only these; default all, which CPU tests and the install check need),
#   SKIP_CPU_TESTS=1, SKIP_GPU_TESTS=1, SKIP_MEMCHECK=1, GPU_TEST_FILTER=<gtest filter>, MEMCHECK_FILTER=<gtest filter>
#   (memcheck on those tests only), RACECHECK_FILTER=<gtest filter> (racecheck and synccheck on those), SKIP_GPU_BENCH=1, BENCH_MATRICES=1 (add the shared
#   matrices to the bench), BENCH_TIMEOUT=<s> (default 420), BENCH_ARGS="...",
#   RUN_CPU_BENCH=1 (hsparse bench on the host CPU too), RUN_TUNE=1 (hsparse tune; TUNE_MATRICES, TUNE_ARGS, TUNE_TIMEOUT),
#   RUN_SOLVER_BENCH=1 (hsparse bench --solvers), RUN_TRIDIAG_BENCH=1 (hsparse bench --tridiag),
#   RUN_FEM_BENCH=1 (hsparse bench --fem; FEM_TIMEOUT, default 400),
#   RUN_DENSE_BENCH=1 (hsparse bench --dense; DENSE_TIMEOUT, default 400; DENSE_PARTS="tall-skinny,spmm" to run only those),
#   RUN_DENSE_CPU=1 (hsparse bench --dense on the host CPU, every core: GEMM and tall-skinny vs OpenBLAS; DENSE_CPU_TIMEOUT, default 300;
#   DENSE_CPU_PARTS like DENSE_PARTS, default all),
#   RUN_GEMM=1 (hsparse gemm: every GPU kernel and tile at GEMM_SIZES, default "4096 8192", float and double;
#   GEMM_SIMPLE, default "tiled untiled", the slow first steps: set it empty to skip them; GEMM_TENSOR_TILES,
#   GEMM_REGISTER_TILES, GEMM_PRECISIONS ("double single") likewise narrow the sweep),
#   RUN_TALL_SKINNY=1 (hsparse gemm --algorithm tall-skinny and cublas: V^T W and V S at n = TALL_N, default 1e7,
#   k = TALL_K, default "1 2 4 8 16 32", float too with TALL_SINGLE=1),
#   RUN_PYTHON=1 (the Python package: pytest with CuPy, python/benchmarks/overhead.py;
#   PYTEST_K="<pytest -k expression>"),
#   SKIP_CLI_CHECKS=1 (skip the CLI's format checks and hsparse info),
#   SKIP_INSTALL_CHECK=1 (skip installing and building examples/ against the install),
#   NCU_RUNS="matrix|format|kernel|kernel-name-regex ..." (Nsight Compute on one launch of each: the limiter),
#   RUN_EXPERIMENTS="path/experiment_x.cu[:arg,arg] ..." (standalone experiments, kept outside the tree: built for sm_90, run,
#   output in summary.txt; EXPERIMENT_TIMEOUT, default 120 s each),
#   NCU_GEMM="algorithm|tile|precision|size[|T] ..." (the same for hsparse gemm; tile "-" for the default; size N or MxNxK;
#   T: --transa).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/hsparse-gpu-out}
mkdir -p "$OUT"
log() { echo "== $*" | tee -a "$OUT/summary.txt"; }

{
  date -u; echo "commit ${HSPARSE_COMMIT:-unknown (pass HSPARSE_COMMIT=...)}"; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
  nvcc --version | tail -2; g++ --version | head -1; cmake --version | head -1; nproc
} > "$OUT/machine.txt" 2>&1
cat "$OUT/machine.txt"

log "configure + build"
if [ -f third_party/lib/libopenblas.so.0.xz ] && [ ! -f third_party/lib/libopenblas.so.0 ]; then  # packed by gpu-prepare.sh
  xz -dc third_party/lib/libopenblas.so.0.xz > third_party/lib/libopenblas.so.0 && ln -sf libopenblas.so.0 third_party/lib/libopenblas.so
fi
BUILD_DIR=build-gpu
export LD_LIBRARY_PATH="$PWD/third_party/lib:${LD_LIBRARY_PATH:-}"
cmake -S . -B $BUILD_DIR -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$PWD/third_party/lib" \
  -DHSPARSE_SHARED_MATRICES="$PWD/matrices" > "$OUT/build.log" 2>&1
# Keep going past a failing optional target (the benchmarks' carried libraries):
# what matters is that the library, the CLI and the tests exist.
targets=(); for t in ${BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build $BUILD_DIR -j "$(nproc)" "${targets[@]}" -- -k 0 >> "$OUT/build.log" 2>&1
rc=0
# What the build must have made: all three, or those BUILD_TARGETS names.
needed="bin/hsparse tests/hsparse_gpu_tests tests/hsparse_tests"
if [ -n "${BUILD_TARGETS:-}" ]; then
  needed=""; for t in $BUILD_TARGETS; do case $t in hsparse_cli) needed+=" bin/hsparse" ;; hsparse_gpu_tests|hsparse_tests) needed+=" tests/$t" ;; esac; done
fi
for t in $needed; do [ -x $BUILD_DIR/$t ] || rc=1; done
grep -E "FAILED|error:" "$OUT/build.log" | head -5
tail -5 "$OUT/build.log"
[ $rc -eq 0 ] || { log "BUILD FAILED"; tail -60 "$OUT/build.log"; exit 1; }

export HSPARSE_MATRICES="$PWD/matrices"
# The GPU host's VM hides the CPU model: OpenBLAS would fall back to its Prescott (SSE3) kernels.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  if grep -q avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX; elif grep -q avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
fi
if [ "${SKIP_CPU_TESTS:-0}" != 1 ]; then
log "ctest (CPU tests; the GPU ones run verbosely below)"
# Two OpenMP threads per test and 8 tests at a time: 16 threads per test on 8
# concurrent tests made the suite 8x oversubscribed (475 s instead of ~60 s).
(cd $BUILD_DIR && OMP_NUM_THREADS=2 ctest --output-on-failure -j 8 -LE gpu > "$OUT/ctest.log" 2>&1); echo "ctest rc=$?" | tee -a "$OUT/summary.txt"
grep -E "tests passed|Skipped|Failed|\*\*\*" "$OUT/ctest.log" | tail -25 | tee -a "$OUT/summary.txt"
fi

if [ "${SKIP_GPU_TESTS:-0}" != 1 ]; then
log "GPU tests verbose"
$BUILD_DIR/tests/hsparse_gpu_tests ${GPU_TEST_FILTER:+--gtest_filter=$GPU_TEST_FILTER} > "$OUT/gpu_tests.log" 2>&1; echo "gpu tests rc=$?" | tee -a "$OUT/summary.txt"
grep -E "PASSED|FAILED|SKIPPED" "$OUT/gpu_tests.log" | tail -40 | tee -a "$OUT/summary.txt"
# The suites written once for every executor (hsparse_tests: SpmvKernel,
# Krylov, TridiagonalSolverOn, ...): their cuda instances, serially (one
# GPU test at a time: a test of the L2 set-aside fails beside another).
$BUILD_DIR/tests/hsparse_tests --gtest_filter="${GPU_UNIFIED_FILTER:-*/cuda:*/cuda_*}" > "$OUT/gpu_unified_tests.log" 2>&1
echo "gpu tests (every-executor suites, cuda instances) rc=$?" | tee -a "$OUT/summary.txt"
grep -E "PASSED|FAILED|SKIPPED" "$OUT/gpu_unified_tests.log" | tail -40 | tee -a "$OUT/summary.txt"
fi

if command -v compute-sanitizer >/dev/null && [ -n "${MEMCHECK_FILTER:-}" ]; then
  log "compute-sanitizer memcheck ($MEMCHECK_FILTER)"
  HSPARSE_MATRICES=/nonexistent timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 $BUILD_DIR/tests/hsparse_gpu_tests \
    --gtest_filter="$MEMCHECK_FILTER" > "$OUT/memcheck.log" 2>&1
  echo "memcheck rc=$?" | tee -a "$OUT/summary.txt"
  grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | tail -3 | tee -a "$OUT/summary.txt"
elif command -v compute-sanitizer >/dev/null && [ "${SKIP_MEMCHECK:-0}" != 1 ]; then
  log "compute-sanitizer memcheck (edge cases)"
  # Every kernel variant in double and complex<double> on the edge cases and
  # the regular matrix (HSPARSE_MATRICES pointed away: no shared matrices).
  HSPARSE_MATRICES=/nonexistent timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 $BUILD_DIR/tests/hsparse_tests \
    --gtest_filter='SpmvKernel.MatchesTheReferenceOnEdgeCases/cuda_*' > "$OUT/memcheck.log" 2>&1
  echo "memcheck rc=$?" | tee -a "$OUT/summary.txt"
  HSPARSE_MATRICES=/nonexistent timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $BUILD_DIR/tests/hsparse_gpu_tests \
    --gtest_filter='CudaSpmvErrors.*' >> "$OUT/memcheck.log" 2>&1
  echo "memcheck (errors) rc=$?" | tee -a "$OUT/summary.txt"
  grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | tail -3 | tee -a "$OUT/summary.txt"
  # The solvers' kernels: reductions, pipelined CG, the baseline.
  HSPARSE_MATRICES=/nonexistent timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $BUILD_DIR/tests/hsparse_gpu_tests \
    --gtest_filter='CudaVectorOps.MatchReferenceFloat:CudaKrylov.TheCusparseCublasBaselineConvergesLikeOurCg:CudaExecutor.*:Every/CudaGemm.*:CudaSpmm.*:CudaTridiagonal.ZeroPivot*' >> "$OUT/memcheck.log" 2>&1
  echo "memcheck (solvers) rc=$?" | tee -a "$OUT/summary.txt"
  HSPARSE_MATRICES=/nonexistent timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $BUILD_DIR/tests/hsparse_tests \
    --gtest_filter='Krylov.ReportsBreakdownNonConvergenceAndBadInput/cuda:TridiagonalSolverOn.*/cuda' >> "$OUT/memcheck.log" 2>&1
  echo "memcheck (solvers, every-executor suites) rc=$?" | tee -a "$OUT/summary.txt"
  grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | tail -3 | tee -a "$OUT/summary.txt"
fi

if command -v compute-sanitizer >/dev/null && [ -n "${RACECHECK_FILTER:-}" ]; then
  for tool in racecheck synccheck; do
    log "compute-sanitizer $tool ($RACECHECK_FILTER)"
    HSPARSE_MATRICES=/nonexistent timeout 240 compute-sanitizer --tool $tool --error-exitcode 9 $BUILD_DIR/tests/hsparse_gpu_tests \
      --gtest_filter="$RACECHECK_FILTER" > "$OUT/$tool.log" 2>&1
    echo "$tool rc=$?" | tee -a "$OUT/summary.txt"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" "$OUT/$tool.log" | tail -3 | tee -a "$OUT/summary.txt"
  done
fi

if [ "${SKIP_INSTALL_CHECK:-0}" != 1 ]; then
  # The installed package as a user meets it, on a GPU: install, move, build
  # examples/ through find_package (and pkg-config where there is one), run
  # them; the tuned GPU plan on a 1M-row stencil.
  log "install + examples (tests/install/consume.sh)"
  GPU_EXAMPLE_SOURCE="stencil3d:n=100,points=27" bash tests/install/consume.sh "$PWD/$BUILD_DIR" "$PWD" /tmp/hsparse-consume \
    "$PWD/tests/data/nonsymmetric.mtx" > "$OUT/install_consume.log" 2>&1; echo "install consume rc=$?" | tee -a "$OUT/summary.txt"
  grep -E "^on |kernel |skipped|CG|systems|consume:|FAIL" "$OUT/install_consume.log" | tee -a "$OUT/summary.txt"
fi

if [ "${RUN_PYTHON:-0}" = 1 ]; then
  # The Python package with the GPU machine's python3 (numpy 2, CuPy) and its
  # pip-installed pybind11: pytest (CPU and CuPy tests) and the overhead.
  log "python: build, pytest, overhead"
  py=$(command -v python3)
  pybind_dir=$($py -m pybind11 --cmakedir 2>/dev/null || true)
  { cmake -S . -B $BUILD_DIR -DHSPARSE_PYTHON=ON -DPython3_EXECUTABLE="$py" ${pybind_dir:+-Dpybind11_DIR=$pybind_dir} &&
    cmake --build $BUILD_DIR --target _hsparse; } > "$OUT/python_build.log" 2>&1; echo "python build rc=$?" | tee -a "$OUT/summary.txt"
  $py -c "import numpy, sys; print('python', sys.version.split()[0], 'numpy', numpy.__version__)" | tee -a "$OUT/summary.txt"
  (export PYTHONPATH="$PWD/$BUILD_DIR/python" HSPARSE_TEST_DATA="$PWD/tests/data"
   timeout 300 $py -m pytest -q -rs -p no:cacheprovider ${PYTEST_K:+-k "$PYTEST_K"} python/tests > "$OUT/pytest.log" 2>&1; echo "pytest rc=$?"
   $py python/benchmarks/overhead.py --json "$OUT/python_overhead.json" > "$OUT/python_overhead.txt" 2>&1; echo "overhead rc=$?") | tee -a "$OUT/summary.txt"
  tail -3 "$OUT/pytest.log" | tee -a "$OUT/summary.txt"
  cat "$OUT/python_overhead.txt" | tee -a "$OUT/summary.txt"
fi

if [ "${SKIP_CLI_CHECKS:-0}" != 1 ]; then
log "CLI: every registered format on the complex matrices, on the GPU"
cmake -DHSPARSE=$BUILD_DIR/bin/hsparse -DBACKEND=cuda -DDATA="$PWD/tests/data" -DMATRICES="$PWD/matrices" \
  -P tests/cli/every_format_complex.cmake > "$OUT/every_format_complex.log" 2>&1; echo "every format complex (cuda) rc=$?" | tee -a "$OUT/summary.txt"
$BUILD_DIR/bin/hsparse info --formats --json > "$OUT/formats.json" 2>&1
log "CLI: every GPU format"
for f in csr coo ell hyb dia sell bcsr; do
  $BUILD_DIR/bin/hsparse spmv fem:n=20,block=3 --backend cuda --format $f --check --repetitions 5 2>&1 | tail -1 | tee -a "$OUT/summary.txt"
done
for k in adaptive merge cusparse-alg1; do  # a dc1-like matrix: rows of 100k+ entries among short ones
  $BUILD_DIR/bin/hsparse spmv powerlaw:rows=300000,long_rows=4,long_fraction=0.4 --backend cuda --kernel $k --check --repetitions 5 2>&1 | tail -2 | tee -a "$OUT/summary.txt"
done
$BUILD_DIR/bin/hsparse --version 2>&1 | tee -a "$OUT/summary.txt"
$BUILD_DIR/bin/hsparse info 2>&1 | tee -a "$OUT/summary.txt"
$BUILD_DIR/bin/hsparse bench --dry-run 2>&1 | tee -a "$OUT/summary.txt"
fi

# hsparse tune (RUN_TUNE=1): exhaustive search of CSR vector's parameters
# (every point into tune-table.csv, for calibrating the fixed rule), against
# the paper's rule, the GPU-scaled rule and the tuner after 10 products;
# then SELL (T x sigma) and BCSR (block x algorithm) against their tuner.
# TUNE_MATRICES overrides the list; TUNE_ARGS adds options (--no-formats).
if [ "${RUN_TUNE:-0}" = 1 ]; then
  log "hsparse tune"
  for m in ${TUNE_MATRICES:-stencil3d:n=160,points=27 powerlaw:min=2.5,rows=4000000 fem:n=74,block=3 random:per_row=10,rows=10000000 shortwide:rows=10000,per_row=2600}; do
    timeout "${TUNE_TIMEOUT:-110}" $BUILD_DIR/bin/hsparse tune "$m" --repetitions 10 --cache "$OUT/tuning.json" --table "$OUT/tune-table.csv" \
      ${TUNE_ARGS:-} 2>&1 | tee -a "$OUT/tune.log" "$OUT/summary.txt"
  done
  # The device tool returns a limited number of files: one archive.
  tar czf "$OUT/tune.tar.gz" -C "$OUT" tune.log tune-table.csv tuning.json && rm -f "$OUT/tune.log" "$OUT/tune-table.csv" "$OUT/tuning.json"
fi

# Nsight Compute (NCU_RUNS): speed of light, memory, occupancy and stall
# reasons of one launch (after two warm-up launches) per entry; the clocks
# are left as the bench runs them (--clock-control none).
if [ -n "${NCU_RUNS:-}" ] && command -v ncu >/dev/null; then
  log "ncu"
  for run in $NCU_RUNS; do
    IFS='|' read -r m f k re <<< "$run"
    echo "### $m $f $k" >> "$OUT/ncu.log"
    timeout 120 ncu --clock-control none --kernel-name "regex:$re" --launch-skip 2 --launch-count 1 --section SpeedOfLight \
      --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats \
      $BUILD_DIR/bin/hsparse spmv "$m" --backend cuda --format "$f" --kernel "$k" --repetitions 3 --min-time 0.01 >> "$OUT/ncu.log" 2>&1
  done
  grep -E "^### |^  [A-Za-z_].*\(|Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit Rate|L2 Hit Rate|Achieved Occupancy|Registers Per Thread|Compute \(SM\) Throughput" \
    "$OUT/ncu.log" | tee -a "$OUT/summary.txt"
fi

# Nsight Compute on GEMMs (NCU_GEMM="algorithm|tile|precision|size[|T] ...", tile "-" for none, precision double or single,
# size N or MxNxK, T for --transa):
# the same sections plus the pipes' utilisation and the scheduler, of two launches after two (a cuBLAS call may launch two kernels).
if [ -n "${NCU_GEMM:-}" ] && command -v ncu >/dev/null; then
  log "ncu gemm"
  stall_metrics=$(for r in barrier short_scoreboard long_scoreboard math_pipe_throttle mio_throttle wait not_selected selected dispatch_stall \
    lg_throttle no_instruction branch_resolving; do printf "smsp__average_warps_issue_stalled_%s_per_issue_active.ratio," $r; done)
  stall_metrics+="sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active,"
  stall_metrics+="l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed.sum"
  for run in $NCU_GEMM; do
    IFS='|' read -r alg tile prec size trans <<< "$run"
    echo "### gemm $alg $tile $prec $size $trans" >> "$OUT/ncu_gemm.log"
    extra=(); [ "$tile" != - ] && extra+=(--tile "$tile"); [ "$prec" = single ] && extra+=(--single); [ "$trans" = T ] && extra+=(--transa)
    IFS=x read -r sm sn sk <<< "$size"; sn=${sn:-$sm}; sk=${sk:-$sm}
    timeout 180 ncu --clock-control none --kernel-name "regex:gemm|xmma|Kernel|kernel|ts_" --launch-skip 2 --launch-count 2 --section SpeedOfLight \
      --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section LaunchStats \
      --section SchedulerStats --section InstructionStats --metrics "$stall_metrics" \
      $BUILD_DIR/bin/hsparse gemm --backend cuda --m "$sm" --n "$sn" --k "$sk" --algorithm "$alg" "${extra[@]}" --samples 3 --repetitions 1 --min-time 0.001 >> "$OUT/ncu_gemm.log" 2>&1
  done
  command -v cuobjdump >/dev/null && cuobjdump -sass $BUILD_DIR/src/CMakeFiles/hsparse.dir/backends/cuda/gemm_dmma.cu.o 2>&1 | gzip > "$OUT/gemm_dmma.sass.gz"
  grep -E "^### |^  [A-Za-z_].*\(|Duration|Compute \(SM\) Throughput|Registers Per Thread|Achieved Occupancy|Shared Memory Configuration Size|Block Size|Issue Slots Busy|No Eligible|DRAM Throughput|Grid Size|smsp__|sm__pipe|l1tex__" \
    "$OUT/ncu_gemm.log" | tee -a "$OUT/summary.txt"
fi

# hsparse bench on the GPU: the default suite, plus the shared matrices with
# BENCH_MATRICES=1. timeout sends SIGINT, which hsparse bench takes as Ctrl-C:
# it stops and still writes what it measured. No gnuplot here: redraw the
# plots locally with  hsparse bench --report-from results.json --out DIR.
# Standalone experiments (RUN_EXPERIMENTS="file.cu[:arg,arg] ..."): a kernel idea measured before it enters the
# library (a single .cu file kept outside the tree, checking itself against a reference); compiled for sm_90 and run,
# its output in summary.txt. Before the bench, so a bench that runs out of time leaves them done.
if [ -n "${RUN_EXPERIMENTS:-}" ]; then
  for e in $RUN_EXPERIMENTS; do
    src=${e%%:*}; args=""
    [ "$e" != "$src" ] && args=${e#*:}
    name=$(basename "$src" .cu)
    log "experiment $name ${args//,/ }"
    if nvcc -O3 -std=c++17 -arch=sm_90 -o "/tmp/$name" "$src" > "$OUT/$name-build.log" 2>&1; then
      timeout "${EXPERIMENT_TIMEOUT:-120}" "/tmp/$name" ${args//,/ } 2>&1 | tee -a "$OUT/summary.txt"
      echo "experiment $name rc=${PIPESTATUS[0]}" | tee -a "$OUT/summary.txt"
    else
      echo "experiment $name: the build failed ($name-build.log)" | tee -a "$OUT/summary.txt"
    fi
  done
fi

if [ "${SKIP_GPU_BENCH:-0}" != 1 ]; then
  extra=()
  [ "${BENCH_MATRICES:-0}" = 1 ] && extra+=(--matrices "$PWD/matrices")
  log "hsparse bench --backend cuda ${extra[*]} ${BENCH_ARGS:-}"
  # Peak host memory (/usr/bin/time -v) and device memory (nvidia-smi every
  # 200 ms) of the run: the bench's memory plan is calibrated from them.
  maxrss='import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
open(sys.argv[1], "w").write("Maximum resident set size (kbytes): %d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)'
  nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 > "$OUT/bench.gpumem" 2>/dev/null & smi=$!
  python3 -c "$maxrss" "$OUT/bench.time" timeout -s INT "${BENCH_TIMEOUT:-420}" $BUILD_DIR/bin/hsparse bench --backend cuda "${extra[@]}" ${BENCH_ARGS:-} \
    --out "$OUT/bench" > "$OUT/bench.log" 2> "$OUT/bench.err"
  echo "bench rc=$?" | tee -a "$OUT/summary.txt"
  kill $smi 2>/dev/null
  grep -E "Maximum resident|Elapsed" "$OUT/bench.time" 2>/dev/null | tee -a "$OUT/summary.txt"
  echo "peak device memory used (MiB): $(sort -n "$OUT/bench.gpumem" | tail -1)" | tee -a "$OUT/summary.txt"
  grep -E "^plan|estimated|^\[" "$OUT/bench.err" | head -14 >> "$OUT/summary.txt"
  sed -n '/^## Goals/,/^## Plots/p' "$OUT/bench/report.md" | tee -a "$OUT/summary.txt"
  # The device tool returns a limited number of files: the report travels as one archive.
  tar czf "$OUT/bench.tar.gz" -C "$OUT" bench && rm -rf "$OUT/bench"
fi

# Tall-skinny products (RUN_TALL_SKINNY=1): ours and cuBLAS's GEMM of the
# same shape, V^T W (--transa: V stored n x k) and V S, same timing as bench --dense.
if [ "${RUN_TALL_SKINNY:-0}" = 1 ]; then
  log "tall-skinny sweep (n = ${TALL_N:-10000000})"
  for prec in "" ${TALL_SINGLE:+--single}; do
    for k in ${TALL_K:-1 2 4 8 16 32}; do
      for alg in tall-skinny cublas; do
        n=${TALL_N:-10000000}
        timeout 60 $BUILD_DIR/bin/hsparse gemm --backend cuda --algorithm $alg --transa --m $k --n $k --k $n $prec --check --samples 64 2>&1 | tee -a "$OUT/summary.txt"
        timeout 60 $BUILD_DIR/bin/hsparse gemm --backend cuda --algorithm $alg --m $n --n $k --k $k $prec --check --samples 200 2>&1 | tee -a "$OUT/summary.txt"
      done
    done
  done
fi

# hsparse gemm (RUN_GEMM=1): every GPU GEMM kernel, each compiled tile, and cuBLAS.
if [ "${RUN_GEMM:-0}" = 1 ]; then
  log "hsparse gemm sweep"
  tensor_tiles=${GEMM_TENSOR_TILES-128x128/64x32 128x64/64x32 64x64/32x32}
  register_tiles=${GEMM_REGISTER_TILES-128x128x32/8x8 128x128x16/8x8 128x128x8/8x8 64x64x16/4x4 128x64x8/8x4}
  precisions=${GEMM_PRECISIONS-double single}
  for prec in $precisions; do
    prec=${prec/double/}; prec=${prec/single/--single}
    for n in ${GEMM_SIZES:-4096 8192}; do
      common="--backend cuda --m $n --n $n --k $n $prec --check --samples 200 --repetitions 3 --min-time 0.05"
      baselines="cublas"; tc=tensor
      [ -n "$prec" ] && { baselines="cublas cublas-tf32"; tc=tf32; }
      for alg in $baselines ${GEMM_SIMPLE:-tiled untiled}; do timeout 120 $BUILD_DIR/bin/hsparse gemm $common --algorithm $alg 2>&1; done
      for tile in $tensor_tiles; do timeout 120 $BUILD_DIR/bin/hsparse gemm $common --algorithm $tc --tile $tile 2>&1; done
      for tile in $register_tiles; do timeout 120 $BUILD_DIR/bin/hsparse gemm $common --algorithm register --tile $tile 2>&1; done
    done
  done > "$OUT/gemm.log"
  grep -E "^gemm|FAILED|hsparse:" "$OUT/gemm.log" | tee -a "$OUT/summary.txt"
fi

# hsparse bench --solvers (RUN_SOLVER_BENCH=1): CG, pipelined CG and the
# cuSPARSE + cuBLAS baseline per iteration on Poisson 1e4..1e7, and mdot.
if [ "${RUN_SOLVER_BENCH:-0}" = 1 ]; then
  log "hsparse bench --solvers"
  timeout -s INT 300 $BUILD_DIR/bin/hsparse bench --solvers --backend cuda --out "$OUT/solvers" > "$OUT/solvers.log" 2>&1
  echo "solver bench rc=$?" | tee -a "$OUT/summary.txt"
  cat "$OUT/solvers/solvers.md" >> "$OUT/summary.txt"
fi

# hsparse bench --tridiag (RUN_TRIDIAG_BENCH=1): the tridiagonal grid vs cuSPARSE gtsv.
if [ "${RUN_TRIDIAG_BENCH:-0}" = 1 ]; then
  log "hsparse bench --tridiag"
  timeout -s INT 300 $BUILD_DIR/bin/hsparse bench --tridiag --backend cuda --out "$OUT/tridiag" > "$OUT/tridiag.log" 2>&1
  echo "tridiag bench rc=$?" | tee -a "$OUT/summary.txt"
  sed -n '1,/^## Every solver/p' "$OUT/tridiag/tridiag.md" >> "$OUT/summary.txt"
fi

# One bench mode: bench_mode MODE TIMEOUT FIRST_HEADING. Runs hsparse bench
# --MODE into $OUT/MODE, copies its report from FIRST_HEADING to the plots
# into the summary, and packs the folder into one archive.
bench_mode() {
  local mode=$1 limit=$2 first=$3; shift 3
  log "hsparse bench --$mode $*"
  timeout -s INT "$limit" $BUILD_DIR/bin/hsparse bench --$mode --backend cuda "$@" --out "$OUT/$mode" > "$OUT/$mode.log" 2>&1
  echo "$mode bench rc=$?" | tee -a "$OUT/summary.txt"
  sed -n "/^## $first/,/^## Plots/p" "$OUT/$mode/$mode.md" | tee -a "$OUT/summary.txt"
  tar czf "$OUT/$mode.tar.gz" -C "$OUT" "$mode" && rm -rf "${OUT:?}/$mode"
}
# hsparse bench --fem (RUN_FEM_BENCH=1): CG iterations/s against the degree, every operator vs cuSPARSE CG.
[ "${RUN_FEM_BENCH:-0}" = 1 ] && bench_mode fem "${FEM_TIMEOUT:-400}" double
# hsparse bench --dense (RUN_DENSE_BENCH=1): GEMM steps, tall-skinny and SpMM vs cuBLAS / cuSPARSE.
[ "${RUN_DENSE_BENCH:-0}" = 1 ] && bench_mode dense "${DENSE_TIMEOUT:-400}" "Against the goals" ${DENSE_PARTS:+--dense-parts "$DENSE_PARTS"}

if [ "${RUN_DENSE_CPU:-0}" = 1 ]; then
  log "hsparse bench --dense --backend cpu (host CPU, all cores; OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-auto})"
  # No OMP_PROC_BIND here: OpenBLAS's pthreads inherit the main thread's binding to one core (DGEMM 70 against 684
  # GFLOP/s unbound); the bench warns where it is set (dense_baselines.hpp, openblas_handicap).
  timeout -s INT "${DENSE_CPU_TIMEOUT:-300}" $BUILD_DIR/bin/hsparse bench --dense --backend cpu \
    ${DENSE_CPU_PARTS:+--dense-parts "$DENSE_CPU_PARTS"} --out "$OUT/dense-cpu" > "$OUT/dense-cpu.log" 2>&1
  echo "dense cpu bench rc=$?" | tee -a "$OUT/summary.txt"
  sed -n "/^## Against the goals/,/^## Plots/p" "$OUT/dense-cpu/dense.md" | tee -a "$OUT/summary.txt"
  tar czf "$OUT/dense-cpu.tar.gz" -C "$OUT" dense-cpu && rm -rf "${OUT:?}/dense-cpu"
  lscpu | grep -E "Model name|^CPU\(s\)|L3|NUMA node\(s\)" >> "$OUT/machine.txt"
fi

if [ "${RUN_CPU_BENCH:-0}" = 1 ]; then
  log "hsparse bench --backend cpu (host CPU, all cores)"
  OMP_PROC_BIND=close OMP_PLACES=cores timeout -s INT 400 $BUILD_DIR/bin/hsparse bench --backend cpu ${BENCH_ARGS:-} \
    --out "$OUT/bench-cpu" > "$OUT/bench-cpu.log" 2> "$OUT/bench-cpu.err"
  echo "cpu bench rc=$?" | tee -a "$OUT/summary.txt"
  sed -n '/^## Goals/,/^## Plots/p' "$OUT/bench-cpu/report.md" | tee -a "$OUT/summary.txt"
  lscpu | grep -E "Model name|^CPU\(s\)|L3|NUMA node\(s\)" >> "$OUT/machine.txt"
fi

# The device tool returns at most 8 files: every loose log travels in one
# archive (summary.txt and the report archives stay beside it).
(cd "$OUT" && find . -maxdepth 1 -type f ! -name '*.tar.gz' ! -name summary.txt -printf '%f\n' | tar czf logs.tar.gz -T - \
  && find . -maxdepth 1 -type f ! -name '*.tar.gz' ! -name summary.txt -delete)
