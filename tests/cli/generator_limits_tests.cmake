# CLI behaviours; included by tests/CMakeLists.txt after hsparse_cli_expect().
# Issue 62: generator specs range-checked and sized before they run; NaN
# option values; an empty MATRIX; info --backend.

# Sizes whose products overflow: refused, not wrapped to a 0 x 0 matrix.
hsparse_cli_expect(info_stencil3d_size_overflow nonzero
                   "overflow: generator spec 'stencil3d:nx=4194304,ny=4194304,nz=4194304': stencil3d: nx \\* ny \\* nz = 4194304 \\* 4194304 \\* 4194304 does not fit a 64-bit integer"
                   FORBID "0 x 0" ARGS info stencil3d:nx=4194304,ny=4194304,nz=4194304)
hsparse_cli_expect(info_stencil2d_size_overflow nonzero "overflow: generator spec 'stencil2d:nx=4294967296,ny=4294967296': stencil2d: nx \\* ny"
                   FORBID "0 x 0" ARGS info stencil2d:nx=4294967296,ny=4294967296)
# Values range-checked before narrowing: no 4294967323 -> 27 points, no block 3.
hsparse_cli_expect(info_points_out_of_range nonzero
                   "parse error: generator spec 'stencil3d:n=4,points=4294967323': value '4294967323' of points is out of range: points must be 7 or 27"
                   ARGS info stencil3d:n=4,points=4294967323)
hsparse_cli_expect(info_fem_block_out_of_range nonzero
                   "parse error: generator spec 'fem:n=3,block=4294967299': value '4294967299' of block is out of range: block must be an integer in \\[1, 32\\]"
                   ARGS info fem:n=3,block=4294967299)
hsparse_cli_expect(info_trailing_comma nonzero "parse error: generator spec 'random:rows=10,': expected key=value, found an empty item"
                   ARGS info random:rows=10,)
# Too large for memory: refused from the nonzeros' bound before any pass over
# the rows (these ran for minutes). The timeouts only stop a regression that
# hangs; nothing is timed.
hsparse_cli_expect(info_dense_too_large nonzero
                   "out of memory: generator spec 'dense:rows=1e6': a 1000000 x 1000000 matrix with up to 1000000000000 nonzeros \\(the generator's bound\\) needs [0-9.]+ GiB of host memory; [0-9.]+ [GMK]iB is available"
                   ARGS info dense:rows=1e6)
hsparse_cli_expect(info_random_too_large nonzero
                   "out of memory: generator spec 'random:rows=1e8,per_row=1000': a 100000000 x 100000000 matrix with up to 100000000000 nonzeros"
                   ARGS info random:rows=1e8,per_row=1000)
hsparse_cli_expect(info_powerlaw_too_large nonzero
                   "out of memory: generator spec 'powerlaw:rows=1e11': a 100000000000 x 100000000000 matrix with at least 100000000000 nonzeros"
                   ARGS info powerlaw:rows=1e11)
set_tests_properties(cli.info_dense_too_large cli.info_random_too_large cli.info_powerlaw_too_large PROPERTIES TIMEOUT 120)

# Floating options: NaN and infinities are not in any range.
hsparse_cli_expect(advise_value_tolerance_nan nonzero "--value-tolerance: 'nan' is not a number in \\[0, 0.01\\]"
                   ARGS advise stencil2d:n=10 --backend cpu --value-tolerance nan)
hsparse_cli_expect(spmv_value_tolerance_inf nonzero "--value-tolerance: 'inf' is not a number in \\[0, 0.01\\]"
                   ARGS spmv stencil2d:n=10 --backend cpu --format auto --value-tolerance inf)
hsparse_cli_expect(advise_bandwidth_nan nonzero "--bandwidth: 'nan' is not a number > 0"
                   ARGS advise stencil2d:n=10 --backend cpu --bandwidth nan)

# An empty MATRIX is an error in every subcommand. hsparse_cli_expect cannot
# pass an empty argument (CMake drops empty list items), so sh passes it.
function(hsparse_cli_expect_empty_matrix name)
  add_test(NAME cli.${name} COMMAND sh -c "\"$0\" \"$@\" '' 2>&1; echo \"exit status $?\"" $<TARGET_FILE:hsparse_cli> ${ARGN})
  set_tests_properties(cli.${name} PROPERTIES LABELS cpu
                       PASS_REGULAR_EXPRESSION "invalid argument: the matrix argument is empty: expected a Matrix Market file.*exit status 2"
                       ENVIRONMENT "HSPARSE_TUNING_CACHE=${CMAKE_CURRENT_BINARY_DIR}/cli_expect/${name}/tuning.json")
endfunction()
hsparse_cli_expect_empty_matrix(info_empty_matrix info)
hsparse_cli_expect_empty_matrix(info_json_empty_matrix info --json)
hsparse_cli_expect_empty_matrix(advise_empty_matrix advise --backend cpu)
hsparse_cli_expect_empty_matrix(spmv_empty_matrix spmv --backend cpu)
hsparse_cli_expect_empty_matrix(solve_empty_matrix solve --backend cpu)
hsparse_cli_expect_empty_matrix(spmm_empty_matrix spmm --backend cpu)
hsparse_cli_expect_empty_matrix(tune_empty_matrix tune --backend cpu)
hsparse_cli_expect_empty_matrix(convert_empty_matrix convert --format csr)

# info --backend: the machine part of that backend (cpu: no GPU line).
hsparse_cli_expect(info_backend_cpu 0 "CPU +[0-9]+ cores.*memory +[0-9.]+ [GMK]iB available" FORBID "\nCUDA " ARGS info --backend cpu)
hsparse_cli_expect(info_backend_auto 0 "CPU +[0-9]+ cores.*\nCUDA +" ARGS info --backend auto)
hsparse_cli_expect(info_backend_cpu_with_matrix 0 "CPU +[0-9]+ cores.*size +100 x 100" FORBID "\nCUDA " ARGS info stencil2d:n=10 --backend cpu)
hsparse_cli_expect(info_backend_unknown nonzero "--backend: gpu not in {auto,cpu,cuda}" ARGS info --backend gpu)
# The same finite-number checks on fem's --perturbation and gemm's scalars (CLI::Range and no check accepted NaN).
hsparse_cli_expect(fem_perturbation_nan nonzero "--perturbation: 'nan' is not a number in \\[0, 0.3\\]"
                   ARGS fem --degree 1 --elements 4 --backend cpu --perturbation nan)
hsparse_cli_expect(gemm_alpha_nan nonzero "--alpha: 'nan' is not a finite number"
                   ARGS gemm --backend cpu --m 8 --n 8 --k 8 --alpha nan)
