// CSR cut into column slabs (kernels/csr_slabs.hpp): the slab count from
// x's bytes and the cache, explicit counts and their range, every entry once
// in the slab of its column and in its row's order, and the slabs' summed
// products equal to CSR's reference; the advisor takes them where x's
// gathers miss the cache, not on a stencil.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <type_traits>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/kernels/csr_slabs.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

// Rebuilds each row from the slabs in order and compares it with the CSR
// row; then y = alpha A_0 x + beta y, y += alpha A_s x (the GPU plan's
// order) against CSR's serial reference, y poisoned where beta is 0.
template <class V, class I>
void check_slabs(const Csr<V, I>& a, const SlabShape& shape, const std::string& name) {
  const std::vector<Csr<V, I>> slabs = csr_slabs(a, shape);
  ASSERT_EQ(static_cast<long long>(slabs.size()), shape.slabs) << name;
  std::size_t entries = 0;
  for (std::size_t s = 0; s < slabs.size(); ++s) {
    EXPECT_NO_THROW(slabs[s].validate()) << name << " slab " << s;
    ASSERT_EQ(slabs[s].rows, a.rows);
    ASSERT_EQ(slabs[s].cols, a.cols);
    for (I c : slabs[s].col_idx) ASSERT_EQ(static_cast<long long>(c) / shape.slab_cols, static_cast<long long>(s)) << name;
    entries += slabs[s].nnz();
  }
  ASSERT_EQ(entries, a.nnz()) << name;
  for (I r = 0; r < a.rows; ++r) {
    I k = a.row_ptr[r];
    for (const auto& slab : slabs) {
      for (I e = slab.row_ptr[r]; e < slab.row_ptr[r + 1]; ++e, ++k) {
        ASSERT_EQ(slab.col_idx[e], a.col_idx[k]) << name << " row " << r;
        ASSERT_EQ(slab.values[e], a.values[k]) << name << " row " << r;
      }
    }
    ASSERT_EQ(k, a.row_ptr[r + 1]) << name << ": row " << r << " lost entries";
  }
  const auto x = test::test_vector<V>(static_cast<std::size_t>(a.cols), 3);
  const auto y0 = test::test_vector<V>(static_cast<std::size_t>(a.rows), 4);
  for (const auto& [alpha, beta] : {std::pair<V, V>{V(1), V(0)}, std::pair<V, V>{V(-0.5), V(2)}}) {
    std::vector<V> y = beta == V(0) ? std::vector<V>(y0.size(), V(std::nan(""))) : y0;
    for (std::size_t s = 0; s < slabs.size(); ++s) reference::csr_spmv(alpha, slabs[s], std::span<const V>(x), s == 0 ? beta : V(1), std::span<V>(y));
    const auto c = check_spmv_result<V, I>(a, x, alpha, beta, y0, y);
    EXPECT_TRUE(c.passed) << name << ": " << c.message;
  }
}

TEST(CsrSlabs, TheCountIsXsBytesOverAThirdOfTheCache) {
  const double l2 = 50.0 * (1 << 20);
  const SlabShape random = csr_slab_shape(10000000, sizeof(double), l2, 0);  // 80 MB of x over 17.5 MB
  EXPECT_EQ(random.slabs, 5);
  EXPECT_EQ(random.slab_cols, 2000000);
  EXPECT_LE(static_cast<double>(random.slab_cols) * sizeof(double), l2 * kSlabCacheShare);
  EXPECT_EQ(csr_slab_shape(2000000, sizeof(double), l2, 0).slabs, 1);  // 16 MB: one slab
  EXPECT_EQ(csr_slab_shape(2000000, sizeof(std::complex<double>), l2, 0).slabs, 2);
  EXPECT_EQ(csr_slab_shape(0, sizeof(double), l2, 0).slabs, 1);
  // Explicit counts; fewer slabs where the columns run out.
  EXPECT_EQ(csr_slab_shape(10, sizeof(double), l2, 3).slab_cols, 4);
  EXPECT_EQ(csr_slab_shape(10, sizeof(double), l2, 3).slabs, 3);
  EXPECT_EQ(csr_slab_shape(2, sizeof(double), l2, 5).slabs, 2);
  EXPECT_EQ(csr_slab_shape(0, sizeof(double), l2, 5).slabs, 1);
  for (int bad : {-1, kMaxSlabs + 1}) {
    try {
      csr_slab_shape(100, sizeof(double), l2, bad);
      ADD_FAILURE() << "slabs = " << bad << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
      EXPECT_NE(std::string(e.what()).find("slabs: " + std::to_string(bad) + " is outside 0"), std::string::npos) << e.what();
    }
  }
}

TEST(CsrSlabs, EveryEntryOnceInTheSlabOfItsColumnOnEdgeCases) {
  for (const auto& m : test::edge_case_matrices()) {
    for (int slabs : {1, 2, 3, 7}) {
      check_slabs(m.matrix, csr_slab_shape(m.matrix.cols, sizeof(double), 0, slabs), m.name + ", " + std::to_string(slabs) + " slabs");
    }
  }
}

TEST(CsrSlabs, RandomMatricesRealAndComplex) {
  const auto a = generators::random_uniform<double, std::int32_t>(3000, 5000, 12, 7);
  check_slabs(a, csr_slab_shape(a.cols, sizeof(double), 0, 5), "random 3000 x 5000");
  check_slabs(a, csr_slab_shape(a.cols, sizeof(double), 0, kMaxSlabs), "random 3000 x 5000, 64 slabs");
  const auto c = generators::random_uniform<std::complex<double>, std::int64_t>(2000, 3000, 9, 8);
  check_slabs(c, csr_slab_shape(c.cols, sizeof(std::complex<double>), 0, 4), "complex random 2000 x 3000");
  // A shape that leaves columns out is refused, not cut short.
  SlabShape short_shape{100, 2};
  EXPECT_THROW(csr_slabs(a, short_shape), Error);
}

TEST(CsrSlabs, EverySharedMatrixInThreeAndSevenSlabs) {
  const auto dir = test::shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  int matrices = 0;
  for (const auto& m : test::read_manifest(*dir)) {
    const std::string path = *dir + "/" + m.name + ".mtx.gz";
    const auto both_counts = [&](const auto& a) {
      using V = typename std::remove_cvref_t<decltype(a)>::value_type;
      for (int slabs : {3, 7}) check_slabs(a, csr_slab_shape(a.cols, sizeof(V), 0, slabs), m.name + ", " + std::to_string(slabs) + " slabs");
    };
    if (m.field == "complex") both_counts(io::read_matrix_market_csr<std::complex<double>, std::int32_t>(path));
    else both_counts(io::read_matrix_market_csr<double, std::int32_t>(path));
    ++matrices;
  }
  EXPECT_GE(matrices, 100) << "MANIFEST.md could not be parsed";
}

// The advisor, with an L2 of 1 MB: on a random matrix whose x (3.2 MB) does
// not fit, CSR's kernel is the slabs; not on a random matrix whose x (0.8
// MB) fits, nor on a stencil whose x (1.7 MB) does not but whose gathers
// hit the cache.
TEST(CsrSlabs, TheAdvisorTakesThemWhereGathersMissTheCache) {
  MachineModel gpu;
  gpu.cache_bytes = 1 << 20;
  gpu.resident_threads = 16 * 1024;
  const auto csr_kernel = [&](const Csr<double, std::int32_t>& a) {
    for (const auto& p : advise(a, gpu, 1000).ranked) {
      if (p.format == Format::csr) return p.kernel;
    }
    return std::string("none");
  };
  EXPECT_EQ(csr_kernel(generators::random_uniform<double, std::int32_t>(400000, 400000, 10, 11)), "slabs");
  EXPECT_EQ(csr_kernel(generators::random_uniform<double, std::int32_t>(100000, 100000, 10, 11)), "adaptive");
  // The stencil's gathers stay near the diagonal: no slabs (its CSR kernel,
  // adaptive or vector, is kernels/csr_vector_rows.hpp's question).
  EXPECT_NE(csr_kernel(io::load_matrix<double, std::int32_t>("stencil3d:n=60,points=27")), "slabs");
  gpu.backend = "cpu";  // the CPU has no slabs kernel
  EXPECT_NE(csr_kernel(generators::random_uniform<double, std::int32_t>(400000, 400000, 10, 11)), "slabs");
}

}  // namespace
}  // namespace hsparse
