// Generators: sizes from their formulas, determinism, symmetry and SPD-ness
// where promised, and spec parsing errors.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <map>

#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/distributed/halo_split.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "support/test_support.hpp"

namespace hsparse::generators {
namespace {

using Matrix = Csr<double, std::int32_t>;
Matrix gen(const std::string& spec) { return generate<double, std::int32_t>(spec); }

// generate_rows: each rank's block equals the whole matrix's rows under
// contiguous_rows, for every generator (replicate is cut after building),
// including more ranks than rows.
TEST(Generators, EachRanksRowsAreTheWholeMatrixsBlock) {
  const std::string replicate = "replicate:file=" + test::test_data("nonsymmetric.mtx") + ",copies=3,couplings=2";
  for (const std::string spec : {"stencil2d:n=13", "stencil3d:n=6,points=27", "fem:n=3,block=3", "powerlaw:rows=700,long_rows=2,long_fraction=0.2",
                                 "circuit:n=500", "random:rows=90,cols=40,per_row=5", "banded:n=100,bandwidth=3", "dense:rows=3,cols=9", replicate.c_str()}) {
    const auto whole = generators::generate<std::complex<double>, std::int64_t>(spec);
    for (int ranks : {1, 2, 3, 4, 7}) {
      const auto part = distributed::contiguous_rows(whole.rows, ranks);
      for (int r = 0; r < ranks; ++r) {
        const auto got = generators::generate_rows<std::complex<double>>(spec, ranks, r);
        const auto want = distributed::row_block(whole, part.begin(r), part.begin(r) + part.size(r));
        const std::string where = spec + ", rank " + std::to_string(r) + " of " + std::to_string(ranks);
        EXPECT_EQ(got.global_rows, whole.rows) << where;
        EXPECT_EQ(got.first_row, part.begin(r)) << where;
        EXPECT_EQ(got.rows.rows, want.rows) << where;
        EXPECT_EQ(got.rows.cols, want.cols) << where;
        EXPECT_EQ(got.rows.row_ptr, want.row_ptr) << where;
        EXPECT_EQ(got.rows.col_idx, want.col_idx) << where;
        EXPECT_EQ(got.rows.values, want.values) << where;
      }
    }
  }
  EXPECT_THROW(generators::generate_rows<double>("stencil2d:n=4", 2, 2), Error);
  // Any block, named once the row count is known (a cut by measured speeds).
  const auto whole = generators::generate<double, std::int64_t>("stencil3d:n=5,points=7");
  const auto got = generators::generate_rows<double>("stencil3d:n=5,points=7", [](std::int64_t rows) { return std::make_pair(rows / 5, rows - 7); });
  const auto want = distributed::row_block(whole, whole.rows / 5, whole.rows - 7);
  EXPECT_EQ(got.first_row, whole.rows / 5);
  EXPECT_EQ(got.rows.row_ptr, want.row_ptr);
  EXPECT_EQ(got.rows.col_idx, want.col_idx);
  EXPECT_EQ(got.rows.values, want.values);
  EXPECT_THROW(generators::generate_rows<double>("stencil3d:n=5", [](std::int64_t rows) { return std::make_pair(std::int64_t{0}, rows + 1); }), Error);
}

TEST(Generators, StencilSizesMatchTheirFormulas) {
  // 2D 5-point on nx x ny: 5 n - 2 (nx + ny) entries.
  const auto s5 = gen("stencil2d:nx=30,ny=20,points=5");
  EXPECT_EQ(s5.rows, 600);
  EXPECT_EQ(s5.nnz(), 5u * 600 - 2 * (30 + 20));
  // 3D 27-point on n^3: (3n - 2)^3 entries.
  const auto s27 = gen("stencil3d:n=10");
  EXPECT_EQ(s27.nnz(), 28u * 28 * 28);
  // 3D 7-point: 7 n^3 - 6 n^2.
  EXPECT_EQ(gen("stencil3d:n=10,points=7").nnz(), 7000u - 600);
  // 9-point 2D: (3n - 2)^2.
  EXPECT_EQ(gen("stencil2d:n=10,points=9").nnz(), 28u * 28);
}

TEST(Generators, FemHasDenseBlocksAndIsSymmetricPositive) {
  const auto a = gen("fem:n=4,block=3");
  EXPECT_EQ(a.rows, 4 * 4 * 4 * 3);
  EXPECT_EQ(a.nnz(), 10u * 10 * 10 * 9);  // (3n-2)^3 node couplings of 3x3
  const auto m = analyze_matrix(a);
  EXPECT_EQ(m.symmetry, "symmetric");
  EXPECT_EQ(m.best_bcsr_block, 3);
  EXPECT_DOUBLE_EQ(m.bcsr[2].fill_ratio, 1.0);
  // Strict diagonal dominance with a positive diagonal: SPD.
  for (std::int32_t r = 0; r < a.rows; ++r) {
    double diag = 0, off = 0;
    for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) (a.col_idx[k] == r ? diag : off) += std::abs(a.values[k]);
    ASSERT_GT(diag, off) << "row " << r;
  }
}

TEST(Generators, SameSpecSameMatrixAcrossThreadCounts) {
  for (const char* spec : {"powerlaw:rows=20000,long_rows=3", "random:rows=3000,cols=500,per_row=7,seed=9",
                           "fem:n=3,block=2,seed=4", "banded:n=500,bandwidth=3", "shortwide:rows=10,cols=100000,per_row=300"}) {
    const auto a = gen(spec);
    omp_set_num_threads(1);
    const auto b = gen(spec);
    omp_set_num_threads(omp_get_num_procs());
    EXPECT_EQ(a.row_ptr, b.row_ptr) << spec;
    EXPECT_EQ(a.col_idx, b.col_idx) << spec;
    EXPECT_EQ(a.values, b.values) << spec;
    EXPECT_NO_THROW(a.validate()) << spec;
  }
  EXPECT_NE(gen("random:rows=100,seed=1").col_idx,
            gen("random:rows=100,seed=2").col_idx);
}

TEST(Generators, PowerLawHasLongRowsAndHighVariation) {
  const auto a = gen("powerlaw:rows=100000,long_rows=2,long_fraction=0.05");
  const auto s = row_length_statistics(a);
  EXPECT_GT(s.max_length, 4000);  // a long row holds about 5% of the columns
  EXPECT_GT(s.coefficient_of_variation, 2.0);
  EXPECT_LT(s.mean_length, 10.0);
}

TEST(Generators, ShortWideAndDenseAndBanded) {
  const auto w = generate<float, std::int32_t>("shortwide:rows=20,cols=50000,per_row=1000");
  EXPECT_EQ(w.rows, 20);
  EXPECT_EQ(w.cols, 50000);
  EXPECT_NEAR(static_cast<double>(w.nnz()) / 20, 1000, 100);
  EXPECT_EQ(gen("dense:rows=7,cols=5").nnz(), 35u);
  const auto b = gen("banded:n=100,bandwidth=2");
  EXPECT_EQ(b.nnz(), 100u * 5 - 2 * (1 + 2));
  EXPECT_EQ(analyze_matrix(b).symmetry, "symmetric");
}

TEST(Generators, CircuitHasDenseHubRowsAndColumns) {
  const auto a = gen("circuit:n=20000,per_row=4,dense_rows=5,dense_fraction=0.2");
  EXPECT_NO_THROW(a.validate());
  std::vector<std::int64_t> col_count(static_cast<std::size_t>(a.cols), 0);
  int dense_rows = 0;
  for (std::int32_t r = 0; r < a.rows; ++r) {
    const auto len = a.row_ptr[r + 1] - a.row_ptr[r];
    if (len > 2000) ++dense_rows;  // about 0.2 * 20000 = 4000 entries
    else EXPECT_LE(len, 6) << r;   // diagonal + 4 couplings + 1 hub, merged when equal
    for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) ++col_count[static_cast<std::size_t>(a.col_idx[k])];
  }
  EXPECT_EQ(dense_rows, 5);
  // Every non-hub row couples to a hub: the hub columns are dense too.
  EXPECT_GT(*std::max_element(col_count.begin(), col_count.end()), 20000 / 5 / 2);
}

TEST(Generators, ReplicateCopiesTheBaseOnTheDiagonal) {
  const auto base = test::edge_case_matrices()[3].matrix;  // explicit zeros, 3x3
  const auto base32 = convert_types<double, std::int32_t>(base);
  const std::string path = test::temp_path("base.mtx");
  io::write_matrix_market(path, base32);
  const auto r = gen("replicate:file=" + path + ",copies=5,couplings=0");
  EXPECT_EQ(r.rows, 15);
  EXPECT_EQ(r.nnz(), 5 * base.nnz());
  for (std::int32_t k = 0; k < 5; ++k) {
    for (std::int32_t row = 0; row < 3; ++row) {
      for (auto j = base32.row_ptr[row]; j < base32.row_ptr[row + 1]; ++j) {
        const auto rr = k * 3 + row;
        const auto kk = r.row_ptr[rr] + (j - base32.row_ptr[row]);
        EXPECT_EQ(r.col_idx[kk], k * 3 + base32.col_idx[j]);
        EXPECT_EQ(r.values[kk], base32.values[j]);
      }
    }
  }
  const auto coupled = replicate(gen("stencil2d:n=20"), 4, 50, 1);
  EXPECT_NO_THROW(coupled.validate());
  EXPECT_GT(coupled.nnz(), 4 * gen("stencil2d:n=20").nnz());
}

TEST(Generators, EveryCatalogGeneratorBuildsAndAnalyses) {
  // Small versions of each generator (replicate needs a file: covered above).
  const std::map<std::string, std::string> small = {
      {"stencil2d", "stencil2d:n=12"},          {"stencil3d", "stencil3d:n=6,points=7"},
      {"fem", "fem:n=3,block=4"},               {"powerlaw", "powerlaw:rows=3000"},
      {"random", "random:rows=500,per_row=4"},  {"banded", "banded:n=300,bandwidth=4"},
      {"dense", "dense:rows=30"},               {"shortwide", "shortwide:rows=8,cols=20000,per_row=500"},
      {"circuit", "circuit:n=5000,dense_rows=3"}, {"convdiff2d", "convdiff2d:n=12,peclet=100"}};
  for (const auto& g : generator_catalog()) {
    if (g.name == "replicate") continue;
    ASSERT_TRUE(small.count(g.name)) << g.name << " has no small spec in this test";
    const auto a = gen(small.at(g.name));
    EXPECT_NO_THROW(a.validate()) << g.name;
    const auto info = analyze_matrix(a);
    EXPECT_EQ(info.nnz, a.nnz()) << g.name;
    EXPECT_GT(info.nnz, 0u) << g.name;
  }
}

// convdiff2d: the 5-point Laplacian plus central convection at 45 degrees:
// diagonal 4, x neighbours -1 -+ c and y neighbours likewise, c = peclet
// sqrt(1/2) / (2 (n + 1)); nonsymmetric for peclet > 0, the Laplacian at 0.
TEST(Generators, ConvectionDiffusionHasItsStencil) {
  const auto a = gen("convdiff2d:n=9,peclet=200");
  const double c = 200 * std::sqrt(0.5) / (2.0 * 10);
  ASSERT_EQ(a.rows, 81);
  const std::int32_t r = 4 * 9 + 4;  // an interior point
  std::map<std::int32_t, double> row;
  for (auto k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) row[a.col_idx[k]] = a.values[k];
  ASSERT_EQ(row.size(), 5u);
  EXPECT_DOUBLE_EQ(row[r], 4.0);
  EXPECT_DOUBLE_EQ(row[r - 1], -1.0 - c);
  EXPECT_DOUBLE_EQ(row[r + 1], -1.0 + c);
  EXPECT_DOUBLE_EQ(row[r - 9], -1.0 - c);
  EXPECT_DOUBLE_EQ(row[r + 9], -1.0 + c);
  EXPECT_GT(symmetry_defect(a).relative, 0.1);
  EXPECT_EQ(symmetry_defect(gen("convdiff2d:n=9,peclet=0")).relative, 0.0);
}

TEST(Generators, SpecErrorsAreClear) {
  auto message = [](const std::string& spec) {
    try {
      gen(spec);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(message("stencil4d:n=3"), "generator spec 'stencil4d:n=3': unknown generator 'stencil4d' (known: stencil2d, convdiff2d, stencil3d, fem, powerlaw, circuit, random, banded, dense, shortwide, replicate)");
  EXPECT_NE(message("convdiff2d:peclet=-1").find("peclet"), std::string::npos) << message("convdiff2d:peclet=-1");
  EXPECT_NE(message("stencil3d:m=3").find("unknown key 'm' for stencil3d"), std::string::npos);
  EXPECT_NE(message("stencil3d:n=abc").find("value 'abc' of n is not a number"), std::string::npos);
  EXPECT_NE(message("stencil3d:n=2.5").find("value '2.5' of n is not an integer: n must be an integer >= 0"), std::string::npos);
  EXPECT_NE(message("stencil3d:n").find("expected key=value"), std::string::npos);
  EXPECT_NE(message("stencil3d:points=8").find("points must be 7 or 27"), std::string::npos);
  EXPECT_NE(message("fem:block=33").find("block must be an integer in [1, 32]"), std::string::npos);
  EXPECT_NE(message("replicate:copies=2").find("replicate needs file=PATH"), std::string::npos);
  // Index overflow is an error, not a wrap-around.
  EXPECT_NE(message("stencil2d:n=50000").find("overflow"), std::string::npos);
}

}  // namespace
}  // namespace hsparse::generators
