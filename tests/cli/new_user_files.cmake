cmake_minimum_required(VERSION 3.19)
# Issue 14, the behaviours that need files between two commands: convert
# keeps the field and symmetry, an .hsp written in single precision reads as
# single, hsparse tune --backend cpu stores SELL's C and sigma and hsparse
# spmv uses them, advise keeps the machine model on disk, and bench
# --compare of runs with no matrix in common says so.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(ENV{HSPARSE_TUNING_CACHE} ${WORK}/tuning.json)

function(run expect_rc)
  execute_process(COMMAND ${HSPARSE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "hsparse ${ARGN}: exit ${rc}, expected ${expect_rc}\n${out}${err}")
  endif()
  set(output "${out}${err}" PARENT_SCOPE)
endfunction()

# convert keeps a pattern symmetric file pattern symmetric, at its size.
run(0 convert ${DATA}/pattern_symmetric.mtx ${WORK}/karate.mtx)
file(STRINGS ${WORK}/karate.mtx lines)
list(GET lines 0 banner)
if(NOT banner STREQUAL "%%MatrixMarket matrix coordinate pattern symmetric")
  message(FATAL_ERROR "convert lost the field or symmetry: '${banner}'")
endif()
file(READ ${WORK}/karate.mtx text)
if(NOT text MATCHES "\n4 4 5\n")
  message(FATAL_ERROR "convert changed the stored entries:\n${text}")
endif()
# A symmetric generated matrix is written symmetric (one triangle).
run(0 convert stencil2d:n=4 ${WORK}/stencil.mtx)
file(STRINGS ${WORK}/stencil.mtx lines)
list(GET lines 0 banner)
if(NOT banner MATCHES "real symmetric")
  message(FATAL_ERROR "convert of a symmetric generator: '${banner}'")
endif()
# --symmetry general still expands.
run(0 convert ${DATA}/pattern_symmetric.mtx ${WORK}/general.mtx --symmetry general)
file(STRINGS ${WORK}/general.mtx lines)
list(GET lines 0 banner)
if(NOT banner MATCHES "general")
  message(FATAL_ERROR "--symmetry general: '${banner}'")
endif()

# An .hsp written with --single is reported as float.
run(0 convert stencil2d:n=6 ${WORK}/single.hsp --single)
run(0 info ${WORK}/single.hsp)
if(NOT output MATCHES "single.hsp \\(float,")
  message(FATAL_ERROR "info on a single-precision .hsp:\n${output}")
endif()

# tune --backend cpu stores SELL's best (C, sigma); spmv --format sell uses it.
run(0 tune fem:n=6,block=3 --backend cpu --repetitions 2 --cache ${WORK}/cpu_tuning.json)
if(NOT output MATCHES "stored SELL C = [0-9]+, sigma = [0-9]+ in")
  message(FATAL_ERROR "tune --backend cpu stored nothing:\n${output}")
endif()
if(NOT EXISTS ${WORK}/cpu_tuning.json)
  message(FATAL_ERROR "tune --backend cpu --cache wrote no file")
endif()
run(0 spmv fem:n=6,block=3 --format sell --backend cpu --cache ${WORK}/cpu_tuning.json --check --min-time 0.01)
if(NOT output MATCHES "from the tuning cache" OR NOT output MATCHES "PASSED")
  message(FATAL_ERROR "spmv --format sell did not use the CPU tuning result:\n${output}")
endif()
run(0 spmv fem:n=6,block=3 --format sell --backend cpu --cache ${WORK}/empty.json --min-time 0.01)
if(NOT output MATCHES "default C, sigma")
  message(FATAL_ERROR "spmv --format sell without a cache entry:\n${output}")
endif()

# advise measures the machine once and keeps it on disk.
run(0 advise stencil2d:n=50 --backend cpu --spmv-count 10)
if(NOT output MATCHES "measured on this CPU")
  message(FATAL_ERROR "first advise:\n${output}")
endif()
run(0 advise stencil2d:n=50 --backend cpu --spmv-count 10)
if(NOT output MATCHES "measured earlier, from ${WORK}/tuning.json")
  message(FATAL_ERROR "second advise measured again:\n${output}")
endif()

# bench --compare with no matrix in common says so and fails.
run(0 bench --backend cpu --quick --min-time 0.002 --out ${WORK}/a stencil3d:n=6)
run(0 bench --backend cpu --quick --min-time 0.002 --out ${WORK}/b banded:n=500)
run(1 bench --compare ${WORK}/a/results.json ${WORK}/b/results.json)
if(NOT output MATCHES "no matrix in common")
  message(FATAL_ERROR "bench --compare without a common matrix:\n${output}")
endif()
