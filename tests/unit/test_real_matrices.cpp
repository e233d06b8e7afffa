// Every shared SuiteSparse matrix: read and checked against MANIFEST.md,
// written and re-read identical (general, and with its symmetry kept), and
// the OpenMP SpMV checked against the reference in single and double
// precision. Skips with a message when ../shared/matrices is absent.
#include <gtest/gtest.h>

#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

using io::MmField;
using io::MmSymmetry;

template <class V>
void check_one(const std::string& path, const test::ManifestEntry& m) {
  const auto data = io::read_matrix_market<V, std::int32_t>(path);
  const auto& h = data.header;
  EXPECT_EQ(h.rows, m.rows) << m.name;
  EXPECT_EQ(h.cols, m.cols) << m.name;
  EXPECT_EQ(h.entries, m.entries) << m.name;
  EXPECT_EQ(to_string(h.field), m.field) << m.name;
  EXPECT_EQ(to_string(h.symmetry), m.symmetry) << m.name;
  EXPECT_EQ(static_cast<std::int64_t>(data.matrix.nnz()), m.nnz) << m.name;
  const auto a = coo_to_csr(data.matrix);
  ASSERT_NO_THROW(a.validate()) << m.name;

  // hsparse info's analysis agrees with the file's header.
  const MatrixAnalysis info = analyze_matrix(a);
  EXPECT_EQ(info.rows, m.rows);
  EXPECT_EQ(info.nnz, a.nnz());
  EXPECT_GE(info.row_lengths.max_length, info.row_lengths.min_length);
  EXPECT_GE(info.diagonals, info.nnz > 0 ? 1 : 0);
  if (h.symmetry == MmSymmetry::symmetric) EXPECT_EQ(info.symmetry, "symmetric") << m.name;
  if (h.symmetry == MmSymmetry::skew_symmetric) EXPECT_EQ(info.symmetry, "skew-symmetric") << m.name;
  if (h.symmetry == MmSymmetry::hermitian) EXPECT_TRUE(info.symmetry == "hermitian" || info.symmetry == "symmetric") << m.name;

  // Written and re-read identical: as general, and with the file's field and symmetry kept.
  for (const bool keep : {false, true}) {
    io::MatrixMarketWriteOptions options;
    if (keep) {
      options.field = h.field;
      options.symmetry = h.symmetry;
    }
    const std::string text = io::format_matrix_market(a, options);
    const auto again = coo_to_csr(io::parse_matrix_market<V, std::int32_t>(text, m.name + " (rewritten)").matrix);
    EXPECT_EQ(again.row_ptr, a.row_ptr) << m.name << (keep ? " kept" : " general");
    EXPECT_EQ(again.col_idx, a.col_idx) << m.name;
    EXPECT_EQ(again.values, a.values) << m.name;
  }

  // SpMV: OpenMP (both schedules) against the double-precision reference, in V and its single-precision twin.
  auto spmv_check = [&](const auto& mat) {
    using W = typename std::decay_t<decltype(mat)>::value_type;
    const auto x = test::test_vector<W>(static_cast<std::size_t>(mat.cols), 11);
    for (const auto schedule : {openmp::Schedule::static_rows, openmp::Schedule::guided_rows}) {
      std::vector<W> y(static_cast<std::size_t>(mat.rows), W(std::numeric_limits<real_type_t<W>>::quiet_NaN()));
      openmp::csr_spmv<W, std::int32_t>(W(1), mat, x, W(0), y, schedule);
      const auto c = check_spmv_result<W, std::int32_t>(mat, x, W(1), W(0), {}, y);
      EXPECT_TRUE(c.passed) << m.name << " " << type_name<W>() << ": " << c.message;
    }
  };
  spmv_check(a);
  using Single = std::conditional_t<is_complex_v<V>, std::complex<float>, float>;
  const auto single = convert_types<Single, std::int32_t>(a);
  spmv_check(single);

  // Read straight into single precision: same structure, values within rounding
  // (values below float's range become subnormal or zero, not an error).
  const auto direct = coo_to_csr(io::read_matrix_market<Single, std::int32_t>(path).matrix);
  EXPECT_EQ(direct.col_idx, single.col_idx) << m.name;
  for (std::size_t k = 0; k < direct.nnz(); ++k) {
    ASSERT_LE(std::abs(direct.values[k] - single.values[k]), 1e-6 * std::abs(single.values[k]) + 1e-38) << m.name << " entry " << k;
  }
}

TEST(RealMatrices, AllSharedMatricesReadWriteAndMultiply) {
  const auto dir = test::shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  const auto manifest = test::read_manifest(*dir);
  ASSERT_GE(manifest.size(), 100u) << "MANIFEST.md could not be parsed";
  for (const auto& m : manifest) {
    SCOPED_TRACE(m.name);
    const std::string path = *dir + "/" + m.name + ".mtx.gz";
    if (m.field == "complex") check_one<std::complex<double>>(path, m);
    else check_one<double>(path, m);
  }
}

// symmetry_defect (behind CG's refusal) against the collection's own
// symmetry on every real matrix: exactly 0 for symmetric files (and
// Hermitian ones only where their values are real), above 0 for the
// skew-symmetric ones and for the general ones that are not symmetric in
// value (cage10, add32 among them).
TEST(RealMatrices, SymmetryDefectAgreesWithTheManifest) {
  const auto dir = test::shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  int general_nonsymmetric = 0;
  for (const auto& m : test::read_manifest(*dir)) {
    if (m.rows != m.cols || m.field == "complex") continue;
    SCOPED_TRACE(m.name);
    const auto a = coo_to_csr(io::read_matrix_market<double, std::int32_t>(*dir + "/" + m.name + ".mtx.gz").matrix);
    const auto d = symmetry_defect(a);
    if (m.symmetry == "symmetric") EXPECT_EQ(d.relative, 0.0);
    if (m.symmetry == "skew-symmetric") EXPECT_GT(d.relative, 1.0);  // ||A - A^T|| = 2 ||A||: sqrt(4) with the diagonal zero
    if (m.symmetry == "general" && d.relative > 0) ++general_nonsymmetric;
    if (m.name == "cage10" || m.name == "add32") EXPECT_GT(d.relative, 1e-3);
  }
  EXPECT_GT(general_nonsymmetric, 10);
}

}  // namespace
}  // namespace hsparse
