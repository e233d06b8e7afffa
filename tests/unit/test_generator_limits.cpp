// Generator specs at their limits (issue 62): every value range-checked
// before it is narrowed, sizes multiplied with overflow checks, the nonzeros
// bounded and checked against memory before any pass over the rows, and an
// empty matrix source refused.
#include <gtest/gtest.h>

#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "support/test_support.hpp"

namespace hsparse::generators {
namespace {

// The error a spec gives with int64 indices (so no int32 limit is involved).
template <class I = std::int64_t>
Error refusal(const std::string& spec) {
  try {
    generate<double, I>(spec);
  } catch (const Error& e) {
    return e;
  }
  return Error(ErrorCode::internal, "(accepted)");
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(GeneratorLimits, GridSizesThatOverflowAreRefusedNotWrappedToAnEmptyMatrix) {
  const Error cube = refusal("stencil3d:nx=4194304,ny=4194304,nz=4194304");
  EXPECT_EQ(cube.code(), ErrorCode::overflow) << cube.what();
  EXPECT_TRUE(contains(cube.what(), "generator spec 'stencil3d:nx=4194304,ny=4194304,nz=4194304': "
                                    "stencil3d: nx * ny * nz = 4194304 * 4194304 * 4194304 does not fit a 64-bit integer"))
      << cube.what();
  const Error square = refusal("stencil2d:nx=4294967296,ny=4294967296");
  EXPECT_EQ(square.code(), ErrorCode::overflow) << square.what();
  EXPECT_TRUE(contains(square.what(), "generator spec 'stencil2d:nx=4294967296,ny=4294967296'")) << square.what();
  EXPECT_EQ(refusal("fem:nx=4194304,ny=4194304,nz=4194304").code(), ErrorCode::overflow);
}

TEST(GeneratorLimits, HugePointsAreOutOfRangeNotNarrowedTo27) {
  const Error e = refusal("stencil3d:n=4,points=4294967323");
  EXPECT_EQ(e.code(), ErrorCode::parse) << e.what();
  EXPECT_STREQ(e.what(), "generator spec 'stencil3d:n=4,points=4294967323': value '4294967323' of points is out of range: "
                         "points must be 7 or 27");
}

TEST(GeneratorLimits, HugeBlockIsOutOfRangeNotNarrowedTo3) {
  const Error e = refusal("fem:n=3,block=4294967299");
  EXPECT_EQ(e.code(), ErrorCode::parse) << e.what();
  EXPECT_STREQ(e.what(), "generator spec 'fem:n=3,block=4294967299': value '4294967299' of block is out of range: "
                         "block must be an integer in [1, 32]");
}

TEST(GeneratorLimits, IntegersPastInt64AreOutOfRange) {
  for (const std::string value : {"99999999999999999999", "1e300", "9.3e18", "-1"}) {
    const Error e = refusal("random:rows=" + value);
    EXPECT_EQ(e.code(), ErrorCode::parse) << value;
    EXPECT_TRUE(contains(e.what(), "value '" + value + "' of rows is out of range: rows must be an integer >= 0")) << e.what();
  }
}

TEST(GeneratorLimits, NonNumbersNameTheKeyAndItsRange) {
  EXPECT_TRUE(contains(refusal("random:rows=nan").what(), "value 'nan' of rows is not a number: rows must be an integer >= 0"));
  EXPECT_TRUE(contains(refusal("random:rows=inf").what(), "value 'inf' of rows is not a number"));
  EXPECT_TRUE(contains(refusal("random:rows=2.5").what(), "value '2.5' of rows is not an integer"));
  EXPECT_TRUE(contains(refusal("powerlaw:rows=10,long_fraction=1.5").what(),
                       "value '1.5' of long_fraction is out of range: long_fraction must be a number in [0, 1]"));
  EXPECT_TRUE(contains(refusal("powerlaw:rows=10,exponent=0").what(), "exponent must be a number > 0"));
  EXPECT_TRUE(contains(refusal("circuit:n=10,dense_fraction=nan").what(), "value 'nan' of dense_fraction is not a number"));
}

TEST(GeneratorLimits, TrailingCommaIsRefused) {
  const Error e = refusal("random:rows=10,");
  EXPECT_EQ(e.code(), ErrorCode::parse);
  EXPECT_TRUE(contains(e.what(), "generator spec 'random:rows=10,': expected key=value, found an empty item")) << e.what();
}

TEST(GeneratorLimits, DoubledCommaAndEmptyParametersAreRefused) {
  EXPECT_TRUE(contains(refusal("random:rows=10,,cols=4").what(), "found an empty item"));
  EXPECT_TRUE(contains(refusal("random:").what(), "found an empty item"));
}

TEST(GeneratorLimits, KeyGivenTwiceIsRefused) {
  EXPECT_TRUE(contains(refusal("random:rows=10,rows=20").what(), "key 'rows' given twice"));
}

TEST(GeneratorLimits, DenseTooLargeIsRefusedForMemoryBeforeGenerating) {
  // 1e12 nonzeros: 16 TB, past any host; int64 so memory, not int32, refuses it.
  const Error e = refusal("dense:rows=1e6");
  EXPECT_EQ(e.code(), ErrorCode::out_of_memory) << e.what();
  EXPECT_TRUE(contains(e.what(), "generator spec 'dense:rows=1e6': a 1000000 x 1000000 matrix with up to 1000000000000 nonzeros"))
      << e.what();
  EXPECT_TRUE(contains(e.what(), "GiB of host memory; ")) << e.what();
  EXPECT_TRUE(contains(e.what(), " is available")) << e.what();
}

TEST(GeneratorLimits, RandomTooLargeIsRefusedForMemoryBeforeGenerating) {
  const Error e = refusal("random:rows=1e8,per_row=1000");
  EXPECT_EQ(e.code(), ErrorCode::out_of_memory) << e.what();
  EXPECT_TRUE(contains(e.what(), "up to 100000000000 nonzeros")) << e.what();
}

TEST(GeneratorLimits, BoundPastInt32IsAnOverflowBeforeGenerating) {
  // The loaders catch this to retry with int64 indices.
  const Error e = refusal<std::int32_t>("dense:rows=1e6");
  EXPECT_EQ(e.code(), ErrorCode::overflow) << e.what();
  EXPECT_TRUE(contains(e.what(), "up to 1000000000000 nonzeros (the generator's bound) overflows int32 row offsets")) << e.what();
}

TEST(GeneratorLimits, PowerLawTooLargeIsRefusedFromItsLowerBoundBeforeSummingTheRows) {
  // Every row keeps an entry (min >= 1): 1e11 rows need at least 1e11
  // nonzeros, refused before the O(rows) pass that sums the row lengths.
  const Error e = refusal("powerlaw:rows=1e11");
  EXPECT_EQ(e.code(), ErrorCode::out_of_memory) << e.what();
  EXPECT_TRUE(contains(e.what(), "a 100000000000 x 100000000000 matrix with at least 100000000000 nonzeros")) << e.what();
}

TEST(GeneratorLimits, PowerLawAndCircuitTooLargeAreRefusedBeforeGenerating) {
  EXPECT_EQ(refusal("powerlaw:rows=1e6,exponent=0.01").code(), ErrorCode::out_of_memory);  // every row about n long
  EXPECT_EQ(refusal("circuit:n=1e6,per_row=1e9").code(), ErrorCode::out_of_memory);
  EXPECT_EQ(refusal("circuit:n=1e6,per_row=9e18").code(), ErrorCode::overflow);
}

TEST(GeneratorLimits, RandomPerRowPastTheColumnsFillsTheRows) {
  // per_row * 8 once overflowed, and the sampling loop ran 2e18 times per row.
  const auto a = generate<double, std::int32_t>("random:rows=4,cols=3,per_row=2e18");
  EXPECT_EQ(a.rows, 4);
  EXPECT_EQ(a.cols, 3);
  EXPECT_LE(a.nnz(), 12u);
  EXPECT_NO_THROW(a.validate());
}

TEST(GeneratorLimits, BandwidthPastTheSizeGivesADenseMatrix) {
  // r + bandwidth once overflowed and left only the diagonal.
  const auto a = generate<double, std::int32_t>("banded:n=5,bandwidth=9e18");
  EXPECT_EQ(a.nnz(), 25u);
  EXPECT_NO_THROW(a.validate());
}

TEST(GeneratorLimits, ReplicateCopiesThatOverflowAreRefused) {
  const auto base = convert_types<double, std::int32_t>(test::edge_case_matrices()[3].matrix);  // 3 x 3
  const std::string path = test::temp_path("limits_base.mtx");
  io::write_matrix_market(path, base);
  const std::string spec = "replicate:file=" + path + ",copies=4e18";
  const Error e = refusal(spec);
  EXPECT_EQ(e.code(), ErrorCode::overflow) << e.what();
  EXPECT_TRUE(contains(e.what(), "generator spec '" + spec + "': replicate: rows * copies = 3 * 4000000000000000000 does not fit"))
      << e.what();
}

TEST(GeneratorLimits, BoundsHoldForEveryGenerator) {
  // build_rows checks the count against the bound (Error(internal) past it):
  // odd shapes where a loose or wrong bound would show.
  for (const std::string spec : {"stencil2d:nx=1,ny=7,points=9", "stencil3d:nx=5,ny=1,nz=2,points=7", "fem:nx=2,ny=1,nz=3,block=5",
                                 "banded:n=3,bandwidth=1", "banded:n=0", "dense:rows=3,cols=9", "dense:rows=9,cols=2",
                                 "random:rows=5,cols=1,per_row=3", "random:rows=0", "shortwide:rows=2,cols=50,per_row=40",
                                 "powerlaw:rows=200,min=3,exponent=0.5,long_rows=5,long_fraction=1",
                                 // Every row long and drawn column by column, p = 0.2: rows pass their count.
                                 "powerlaw:rows=1000,min=0,long_rows=1000,long_fraction=0.2,seed=2",
                                 "circuit:n=300,per_row=2500,dense_rows=4,dense_fraction=1", "circuit:n=1"}) {
    EXPECT_NO_THROW((generate<double, std::int32_t>(spec).validate())) << spec;
  }
}

}  // namespace
}  // namespace hsparse::generators

namespace hsparse::io {
namespace {

TEST(MatrixSource, EmptySourceIsAnErrorNamingTheArgument) {
  auto code_and_message = [](auto&& load) {
    try {
      load();
    } catch (const Error& e) {
      return std::make_pair(e.code(), std::string(e.what()));
    }
    return std::make_pair(ErrorCode::internal, std::string("(accepted)"));
  };
  for (const auto& [code, message] : {code_and_message([] { load_matrix<double, std::int32_t>(""); }),
                                      code_and_message([] { load_any_matrix("", false); }),
                                      code_and_message([] { static_cast<void>(source_is_complex("")); })}) {
    EXPECT_EQ(code, ErrorCode::invalid_argument) << message;
    EXPECT_EQ(message.rfind("the matrix argument is empty: expected a Matrix Market file", 0), 0u) << message;
  }
}

}  // namespace
}  // namespace hsparse::io
