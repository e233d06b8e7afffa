#pragma once
// SpMM through a plan on any executor, against the reference SpMM
// (kernels/csr_spmm.hpp), on every edge-case matrix (support/test_support.hpp)
// the format takes, for each k given, with beta = 0 (NaN in Y: it must not
// be read) and beta = -1. The CPU and GPU tests both run it.
#include <gtest/gtest.h>

#include <complex>
#include <limits>
#include <optional>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "support/test_support.hpp"

namespace hsparse::test {

// One matrix: the plan's SpMM against the reference for each k (block:
// BCSR's block size, 0 = the format's choice).
template <class V>
void check_plan_spmm_on(const ExecutorPtr& ex, const Csr<V, std::int32_t>& a, const std::string& name, Format f, const std::vector<long long>& ks,
                        int block = 0) {
  SpmvOptions o;
  o.format = f;
  o.layout.max_fill = 1e9;
  o.layout.block = block;
  std::optional<SpmvPlan<V, std::int32_t>> plan;
  try {
    plan.emplace(ex, a, o);
  } catch (const Error&) {
    return;  // a format refusing the matrix: the SpMV tests check refusals
  }
  // Own SpMM kernels: CSR, SELL and BCSR on both backends (not under cuSPARSE's kernels); the others go column by column.
  EXPECT_EQ(plan->has_spmm(), f == Format::csr || f == Format::sell || f == Format::bcsr) << name;
  for (long long k : ks) {
    const auto xh = test_vector<V>(static_cast<std::size_t>(a.cols * k), 7);
    const DenseMatrix<V> x(ex, a.cols, k, std::span<const V>(xh));
    for (const V beta : {V(0), V(-1)}) {
      const V nan(std::numeric_limits<real_type_t<V>>::quiet_NaN());
      const std::vector<V> y0 = beta == V(0) ? std::vector<V>(static_cast<std::size_t>(a.rows * k), nan)
                                             : test_vector<V>(static_cast<std::size_t>(a.rows * k), 8);
      std::vector<V> expect = y0;
      DenseMatrix<V> y(ex, a.rows, k, std::span<const V>(y0));
      reference::csr_spmm<V, std::int32_t>(V(2), a, {xh.data(), a.cols, k, std::max<long long>(1, a.cols)}, beta,
                                           {expect.data(), a.rows, k, std::max<long long>(1, a.rows)});
      plan->apply(V(2), x, beta, y);
      const auto got = y.to_host();
      // The forward error bound of a sum of n products in V's precision
      // (Higham, eq. 3.5): gamma_(n+2) times what the terms add up to in
      // magnitude, per entry; 4x slack for the kernels' other orders. A
      // format storing rounded values (csr16-single) adds its rounding.
      const double eps = std::numeric_limits<real_type_t<V>>::epsilon();
      const double rounding = format_traits(f).value_rounding;
      for (std::int32_t r = 0; r < a.rows; ++r) {
        for (long long c = 0; c < k; ++c) {
          const std::size_t i = static_cast<std::size_t>(r + c * a.rows);
          double magnitude = beta == V(0) ? 0.0 : std::abs(std::complex<double>(y0[i]));
          for (std::int32_t e = a.row_ptr[r]; e < a.row_ptr[r + 1]; ++e) {
            magnitude += 2 * std::abs(std::complex<double>(a.values[e])) *
                         std::abs(std::complex<double>(xh[static_cast<std::size_t>(a.col_idx[e] + c * a.cols)]));
          }
          const double bound = (4 * eps * (a.row_length(r) + 2) + 2 * rounding) * magnitude + std::numeric_limits<double>::min();
          ASSERT_LE(std::abs(std::complex<double>(got[i]) - std::complex<double>(expect[i])), bound)
              << name << " " << plan->description() << " k " << k << " row " << r << " column " << c;
        }
      }
    }
  }
}

template <class V>
void check_plan_spmm(const ExecutorPtr& ex, Format f, const std::vector<long long>& ks, int block = 0) {
  for (const auto& [name, a64] : edge_case_matrices()) check_plan_spmm_on<V>(ex, convert_types<V, std::int32_t>(a64), name, f, ks, block);
}

// Every shared SuiteSparse matrix (complex ones as complex<double>) through
// the SpMM of a plan of each format given; skips with a message when the folder is absent.
inline void check_plan_spmm_shared(const ExecutorPtr& ex, const std::vector<long long>& ks, const std::vector<Format>& formats = {Format::csr}) {
  const auto dir = shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  for (const auto& m : read_manifest(*dir)) {
    const std::string path = *dir + "/" + m.name + ".mtx.gz";
    for (Format f : formats) {
      if (m.field == "complex") {
        check_plan_spmm_on<std::complex<double>>(ex, io::load_matrix<std::complex<double>, std::int32_t>(path), m.name, f, ks);
      } else {
        check_plan_spmm_on<double>(ex, io::load_matrix<double, std::int32_t>(path), m.name, f, ks);
      }
    }
  }
}

}  // namespace hsparse::test
