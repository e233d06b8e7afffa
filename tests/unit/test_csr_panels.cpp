// CSR cut into tiles of rows x column panels (kernels/csr_panels.hpp): every
// entry lands once, in its row's segment of its panel, in column order; the
// panels' product equals CSR's reference; matrices the layout does not suit
// are refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/kernels/csr_panels.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

// Rebuilds each row from its segments (panels in order) and compares it with
// the CSR row; then the panels' product against CSR's serial reference,
// y poisoned where beta is 0.
template <class V, class I>
void check_panels(const Csr<V, I>& a, const PanelShape& shape, const std::string& name) {
  const CsrPanels<V, I> p = csr_panels(a, shape);
  ASSERT_EQ(p.segment_ptr.size(), static_cast<std::size_t>(p.segments()) + 1) << name;
  ASSERT_EQ(p.segment_ptr.back(), static_cast<I>(a.nnz())) << name;
  for (long long r = 0; r < a.rows; ++r) {
    I k = a.row_ptr[r];
    for (long long q = 0; q < p.panels; ++q) {
      const long long s = p.segment(r, q);
      for (I e = p.segment_ptr[s]; e < p.segment_ptr[s + 1]; ++e, ++k) {
        ASSERT_LT(k, a.row_ptr[r + 1]) << name << ": row " << r << " has too many entries";
        ASSERT_EQ(q * p.panel_cols + p.column[e], static_cast<long long>(a.col_idx[k])) << name << " row " << r;
        ASSERT_EQ(p.values[e], a.values[k]) << name << " row " << r;
      }
    }
    ASSERT_EQ(k, a.row_ptr[r + 1]) << name << ": row " << r << " lost entries";
  }
  const auto x = test::test_vector<V>(static_cast<std::size_t>(a.cols), 3);
  const auto y0 = test::test_vector<V>(static_cast<std::size_t>(a.rows), 4);
  for (const auto& [alpha, beta] : {std::pair<V, V>{V(1), V(0)}, std::pair<V, V>{V(-0.5), V(2)}}) {
    std::vector<V> y = beta == V(0) ? std::vector<V>(y0.size(), V(std::nan(""))) : y0;
    csr_panels_spmv_reference(alpha, p, x.data(), beta, y.data());
    const auto c = check_spmv_result<V, I>(a, x, alpha, beta, y0, y);
    EXPECT_TRUE(c.passed) << name << ": " << c.message;
    // The CPU's OpenMP kernel on the same layout.
    std::vector<V> yo = beta == V(0) ? std::vector<V>(y0.size(), V(std::nan(""))) : y0;
    openmp::csr_panels_spmv(alpha, p, std::span<const V>(x), beta, std::span<V>(yo));
    const auto co = check_spmv_result<V, I>(a, x, alpha, beta, y0, yo);
    EXPECT_TRUE(co.passed) << name << " (OpenMP): " << co.message;
  }
}

TEST(CsrPanels, EveryEntryOnceInItsSegmentOnEdgeCases) {
  for (const auto& m : test::edge_case_matrices()) {
    // Small panels and tiles, so that edge cases span several of each.
    PanelShape shape;
    shape.panel_cols = 3;
    shape.tile_rows = 2;
    try {
      check_panels(m.matrix, shape, m.name);
    } catch (const Error& e) {  // too few entries per row and panel: refused by name
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument) << m.name;
      EXPECT_NE(std::string(e.what()).find("short-wide"), std::string::npos) << m.name << ": " << e.what();
      EXPECT_LT(static_cast<double>(m.matrix.nnz()),
                kMinPanelSegmentEntries * static_cast<double>(m.matrix.rows) * ((m.matrix.cols + 2) / 3))
          << m.name << " refused though it has enough entries per segment";
    }
  }
}

TEST(CsrPanels, ShortWideAcrossPanelsAndTilesRealAndComplex) {
  // 100 rows of 600 entries over 200000 columns: 25 panels of 8192 double columns.
  const auto a = generators::random_uniform<double, std::int32_t>(100, 200000, 600, 7);
  const PanelShape shape = csr_panel_shape(a.rows, a.cols, static_cast<long long>(a.nnz()), sizeof(double));
  EXPECT_EQ(shape.panel_cols, 8192);
  EXPECT_EQ(shape.panels, 25);
  EXPECT_EQ(shape.tile_rows, 100);  // fewer rows than a tile wants: one tile of all of them
  check_panels(a, shape, "random 100 x 200000");
  PanelShape small = shape;
  small.tile_rows = 7;  // tiles that do not divide the rows
  check_panels(a, small, "random 100 x 200000, 7-row tiles");
  const auto c = generators::random_uniform<std::complex<double>, std::int64_t>(50, 70000, 300, 8);
  const PanelShape cs = csr_panel_shape(c.rows, c.cols, static_cast<long long>(c.nnz()), sizeof(std::complex<double>));
  EXPECT_EQ(cs.panel_cols, 4096);  // 64 KB of 16-byte values
  check_panels(c, cs, "complex random 50 x 70000");
}

TEST(CsrPanels, TheShapeGivesEachSectorOfAPanelTheWantedReuse) {
  // short-wide of the default suite: 10000 rows, 2600 per row, 1.09e6 columns.
  const PanelShape s = csr_panel_shape(10000, 1092610, 25969074, sizeof(double));
  EXPECT_EQ(s.panels, 134);
  EXPECT_NEAR(s.entries_per_segment, 19.4, 0.1);
  const double per_sector = static_cast<double>(s.tile_rows) * s.entries_per_segment / (8192.0 * 8 / 32);
  EXPECT_GE(per_sector, kPanelReuse);
  EXPECT_LT(per_sector, kPanelReuse + 32 * s.entries_per_segment / 256);  // the next multiple of 32 rows, no more
  // A matrix of few rows: one tile of all of them.
  EXPECT_EQ(csr_panel_shape(40, 1000000, 400000, sizeof(double)).tile_rows, 40);
}

// CSR "auto" on the GPU takes the panels on few, long rows over a wide x only.
TEST(CsrPanels, AutoTakesThemOnShortWideMatricesOnly) {
  EXPECT_TRUE(csr_panels_suit(csr_panel_shape(10000, 1092610, 25969074, sizeof(double))));   // short-wide: 19.4 per segment
  EXPECT_FALSE(csr_panels_suit(csr_panel_shape(10000000, 10000000, 100000000, sizeof(double))));  // random: 0.008
  EXPECT_FALSE(csr_panels_suit(csr_panel_shape(3723875, 3723875, 99252847, sizeof(double))));  // stencil: 0.06
  EXPECT_FALSE(csr_panels_suit(csr_panel_shape(1000, 8000, 8000000, sizeof(double))));  // dense, x within one panel
}

// The CPU's tiles: at most a quarter of the rows per thread, in multiples of 32 rows.
TEST(CsrPanels, TheCpuShapeGivesEveryThreadTiles) {
  const PanelShape gpu = csr_panel_shape(10000, 1092610, 25969074, sizeof(double));
  const PanelShape two = csr_panel_shape_for_threads(10000, 1092610, 25969074, sizeof(double), 2);
  EXPECT_EQ(two.panels, gpu.panels);
  EXPECT_EQ(two.panel_cols, gpu.panel_cols);
  EXPECT_EQ(two.tile_rows, std::min<long long>(gpu.tile_rows, 1280));  // ceil(10000 / 8) = 1250, up to 1280
  EXPECT_EQ(csr_panel_shape_for_threads(2237, 1092610, 5809357, sizeof(double), 16).tile_rows, 64);  // ceil(2237 / 64) = 35 -> 64
  EXPECT_EQ(csr_panel_shape_for_threads(10, 1000000, 10000, sizeof(double), 4).tile_rows, 10);  // fewer rows than 32
}

// The advisor takes the panels for CSR on a short-wide matrix on the CPU too.
// Where the panels suit, the advisor ranks them beside CSR's default kernel
// and takes them where their setup pays back over the products: on a
// short-wide matrix, the panels over 100000 products and the default over one
// (CPU and GPU models alike). Its scattered gathers are what the panels are
// for; a FEM matrix whose x just passes one panel does not scatter, and a
// stencil never gets the panels.
TEST(CsrPanels, TheAdvisorTakesThemOnShortWideWhereTheSetupPaysBack) {
  const auto wide = generators::random_uniform<double, std::int32_t>(300, 300000, 700, 11);
  EXPECT_GT(rhs_reuse_alpha(wide, kPanelNearCacheBytes), kPanelScatteredAlpha);
  for (const char* backend : {"cpu", "cuda"}) {
    const MachineModel m = machine_shape(backend);
    const Advice many = advise(wide, m, 100000), one = advise(wide, m, 1);
    EXPECT_EQ(many.choice().format, Format::csr) << backend;
    EXPECT_EQ(many.choice().kernel, "panels") << backend;
    EXPECT_EQ(one.choice().format, Format::csr) << backend;
    EXPECT_NE(one.choice().kernel, "panels") << backend;
    EXPECT_EQ(std::count_if(many.ranked.begin(), many.ranked.end(), [](const FormatPrediction& p) { return p.format == Format::csr; }), 2)
        << backend << ": the panels and CSR's default are both ranked";
    EXPECT_GT(one.choice().spmv_seconds, many.choice().spmv_seconds) << backend << ": the default is held behind the panels";
  }
  const auto fem = io::load_matrix<double, std::int32_t>("fem:n=12,block=6");
  EXPECT_LT(rhs_reuse_alpha(fem, kPanelNearCacheBytes), kPanelScatteredAlpha);
  const auto stencil = generators::stencil_2d<double, std::int32_t>(200, 200, 5);
  for (const auto& p : advise(stencil, machine_shape("cpu"), 1000).ranked) {
    if (p.format == Format::csr) EXPECT_NE(p.kernel, "panels");
  }
}

TEST(CsrPanels, TooFewEntriesPerSegmentAreRefused) {
  const auto a = generators::random_uniform<double, std::int32_t>(10000, 100000, 10, 9);  // 0.8 per row and panel
  try {
    csr_panels(a, csr_panel_shape(a.rows, a.cols, static_cast<long long>(a.nnz()), sizeof(double)));
    ADD_FAILURE() << "a random matrix of 10 per row was cut into panels";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("per row and panel"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hsparse
