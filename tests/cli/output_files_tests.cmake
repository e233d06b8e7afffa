# CLI behaviours; included by tests/CMakeLists.txt after hsparse_cli_expect().
# Issue 62: writes that are complete or absent, checked write errors, the
# output folder checked before anything is measured, GMRES(m) capped at n.

# A regular file where a folder is expected: creating anything under it fails (root included).
set(not_a_folder ${CMAKE_CURRENT_BINARY_DIR}/cli_output_files/a-regular-file)
file(WRITE ${not_a_folder} "not a folder\n")

# bench --out naming an existing file: refused at once, before any measurement, naming the folder.
hsparse_cli_expect(bench_out_is_a_file nonzero "a-regular-file: cannot create the output folder" FORBID "GFLOP/s|report:"
                   ARGS bench stencil2d:n=20 --backend cpu --quick --out ${not_a_folder})
hsparse_cli_expect(bench_solvers_out_is_a_file nonzero "a-regular-file/sub: cannot create the output folder" FORBID "report:|us per"
                   ARGS bench --solvers --quick --backend cpu --solver-iterations 5 --out ${not_a_folder}/sub)
# A failed write names the file and exits nonzero.
hsparse_cli_expect(spmv_out_unwritable nonzero "a-regular-file/y.mtx: cannot create a file in"
                   ARGS spmv stencil2d:n=10 --backend cpu --out ${not_a_folder}/y.mtx)
hsparse_cli_expect(solve_history_unwritable nonzero "a-regular-file/h.csv: cannot create a file in"
                   ARGS solve stencil2d:n=10 --backend cpu --history ${not_a_folder}/h.csv)
# tune: an unwritable cache is an error, never "stored ... in".
hsparse_cli_expect(tune_cache_unwritable nonzero "a-regular-file/tuning.json: cannot create its folder" FORBID "stored"
                   ARGS tune stencil2d:n=20 --backend cpu --repetitions 1 --cache ${not_a_folder}/tuning.json)
# GMRES(m) with m past the number of unknowns: capped, and said.
hsparse_cli_expect(solve_gmres_restart_capped 0 "restart +100000 capped at 125, the number of unknowns.*status +converged"
                   ARGS solve stencil3d:n=5 --method gmres --restart 100000 --backend cpu)

# A full disk (a 64 KiB tmpfs; root only, else skipped): every writer fails, names its file, leaves nothing.
add_test(NAME cli.full_disk_writes COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/full_disk_writes.sh $<TARGET_FILE:hsparse_cli>)
set_tests_properties(cli.full_disk_writes PROPERTIES LABELS cpu SKIP_REGULAR_EXPRESSION "skipped:"
                     ENVIRONMENT "HSPARSE_TUNING_CACHE=${CMAKE_CURRENT_BINARY_DIR}/cli_output_files/tuning.json")
# convert killed by SIGINT, SIGTERM or SIGKILL while writing: the target absent or complete.
add_test(NAME cli.interrupted_convert COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/interrupted_convert.sh $<TARGET_FILE:hsparse_cli>
         ${CMAKE_CURRENT_BINARY_DIR}/cli_interrupted_convert)
set_tests_properties(cli.interrupted_convert PROPERTIES LABELS cpu)
