# A kernel's registers from ptxas, checked without a GPU (CI has none): a
# register rise that costs occupancy fails here, before any device run.
# CSR adaptive's short-row blocks were tuned at 8 blocks of 256 threads per
# SM, 32 registers; a one-row loop that took 48 left 5 blocks and cost the
# H200 suite's matrices a fifth of CSR adaptive's speed
# (docs/results/2026-11-27-csr-adaptive-long-rows-h200). The GPU test
# CudaCsrAdaptive.KeepsEightBlocksPerMultiprocessor checks the same on a device.
#
# cmake -DNVCC=... -DSOURCE=... -DINCLUDE=... -DARCH=90 -DOUT=...
#       -DKERNELS="mangled-name substring=most registers,..." -P kernel_registers.cmake
cmake_minimum_required(VERSION 3.20)
foreach(v NVCC SOURCE INCLUDE ARCH OUT KERNELS)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "kernel_registers.cmake: -D${v}=... is required")
  endif()
endforeach()
string(REPLACE "," ";" KERNELS "${KERNELS}")
execute_process(
  COMMAND ${NVCC} -DHSPARSE_HAVE_CUDA -I${INCLUDE} -O3 -DNDEBUG --generate-code=arch=compute_${ARCH},code=[sm_${ARCH}] -std=c++20
          -x cu -c ${SOURCE} -o ${OUT} --resource-usage
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed on ${SOURCE} (${rc}):\n${err}")
endif()
# ptxas: "Compiling entry function 'NAME' for 'sm_90'", later "Used N registers, ...".
string(REPLACE "\n" ";" lines "${out}\n${err}")
set(current "")
set(found "")
foreach(line IN LISTS lines)
  if(line MATCHES "Compiling entry function '([^']+)'")
    set(current "${CMAKE_MATCH_1}")
  elseif(line MATCHES "Used ([0-9]+) registers" AND NOT current STREQUAL "")
    set(registers ${CMAKE_MATCH_1})
    foreach(entry IN LISTS KERNELS)
      string(REPLACE "=" ";" pair "${entry}")
      list(GET pair 0 k)
      list(GET pair 1 most)
      string(FIND "${current}" "${k}" at)
      if(at GREATER_EQUAL 0)
        list(APPEND found "${k}")
        message(STATUS "${k}: ${registers} registers (at most ${most})")
        if(registers GREATER most)
          message(FATAL_ERROR "${k} uses ${registers} registers, more than ${most}: fewer blocks per SM than it was tuned at")
        endif()
      endif()
    endforeach()
    set(current "")
  endif()
endforeach()
foreach(entry IN LISTS KERNELS)
  string(REGEX REPLACE "=.*" "" k "${entry}")
  if(NOT k IN_LIST found)
    message(FATAL_ERROR "no kernel named like ${k} in ptxas's output of ${SOURCE}: renamed?")
  endif()
endforeach()
