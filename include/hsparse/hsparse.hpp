#pragma once
/// @file
/// @brief Everything a user of hsparse needs, in one include: executors and
/// arrays, the formats and their conversions, Matrix Market and .hsp files,
/// the generators, SpMV plans and handles, the advisor, the Krylov and
/// tridiagonal solvers, dense matrices and GEMM (docs/api.md lists the API
/// headers this brings in; each can also be included alone).
#include "hsparse/version.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/io/binary_format.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/tuning/spmv_handle.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "hsparse/solvers/tridiagonal.hpp"
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/dense/gemm.hpp"
