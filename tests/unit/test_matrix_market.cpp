// Matrix Market reader and writer: every field, layout and symmetry; the bad
// input corpus (each file asserts its message); gzip and tar.gz; round trips.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/io/file_bytes.hpp"
#include "hsparse/io/binary_format.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "support/test_support.hpp"

namespace hsparse::io {
namespace {

using Cd = std::complex<double>;

Csr<double, int> parse_csr(const std::string& text) {
  return coo_to_csr(parse_matrix_market<double, int>(text, "inline.mtx").matrix);
}

std::string parse_error_of(const std::string& text) {
  try {
    parse_matrix_market<double, int>(text, "inline.mtx");
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(MatrixMarket, ReadsGeneralRealWithCommentsAndBlankLines) {
  const auto a = parse_csr(
      "%%MatrixMarket matrix coordinate real general\n% a comment\n\n%another\n2 3 3\n1 1 1.5\n\n2 3 -2e-3\n1 2 +4\n");
  EXPECT_EQ(a.rows, 2);
  EXPECT_EQ(a.cols, 3);
  EXPECT_EQ(a.col_idx, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(a.values, (std::vector<double>{1.5, 4.0, -2e-3}));
}

TEST(MatrixMarket, BannerWordsAreCaseInsensitiveAndCrlfWorks) {
  const auto a = parse_csr("%%MatrixMarket MATRIX Coordinate REAL General\r\n1 1 1\r\n1 1 3\r\n");
  EXPECT_EQ(a.values, (std::vector<double>{3.0}));
}

TEST(MatrixMarket, FortranExponentIsAccepted) {
  const auto a = parse_csr("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1.5D+02\n");
  EXPECT_EQ(a.values, (std::vector<double>{150.0}));
}

TEST(MatrixMarket, SymmetricIsExpanded) {
  const auto a = parse_csr("%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1\n2 1 5\n3 2 7\n");
  const auto d = test::to_dense(a);
  EXPECT_EQ(d, (std::vector<double>{1, 5, 0, 5, 0, 7, 0, 7, 0}));
}

TEST(MatrixMarket, SkewSymmetricIsExpandedWithNegation) {
  const auto a = parse_csr("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3\n");
  EXPECT_EQ(test::to_dense(a), (std::vector<double>{0, -3, 3, 0}));
}

TEST(MatrixMarket, HermitianIsExpandedWithConjugate) {
  const auto m = parse_matrix_market<Cd, int>(
      "%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 2 0\n2 1 1 -1\n", "h.mtx");
  const auto d = test::to_dense(coo_to_csr(m.matrix));
  EXPECT_EQ(d, (std::vector<Cd>{{2, 0}, {1, 1}, {1, -1}, {0, 0}}));
  EXPECT_EQ(m.header.symmetry, MmSymmetry::hermitian);
}

TEST(MatrixMarket, PatternGetsOnesAndIntegerIsRead) {
  EXPECT_EQ(parse_csr("%%MatrixMarket matrix coordinate pattern general\n2 2 2\n1 2\n2 1\n").values,
            (std::vector<double>{1, 1}));
  EXPECT_EQ(parse_csr("%%MatrixMarket matrix coordinate integer general\n1 2 2\n1 1 -7\n1 2 12\n").values,
            (std::vector<double>{-7, 12}));
}

TEST(MatrixMarket, ArrayGeneralIsColumnMajor) {
  const auto a = parse_csr("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
  EXPECT_EQ(test::to_dense(a), (std::vector<double>{1, 3, 2, 4}));
}

TEST(MatrixMarket, ArraySymmetricStoresLowerTriangle) {
  const auto a = parse_csr("%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n");
  EXPECT_EQ(test::to_dense(a), (std::vector<double>{1, 2, 2, 3}));
  const auto s = parse_csr("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n");
  EXPECT_EQ(test::to_dense(s), (std::vector<double>{0, -1, -2, 1, 0, -3, 2, 3, 0}));
}

TEST(MatrixMarket, ArrayComplex) {
  const auto m = parse_matrix_market<Cd, int>("%%MatrixMarket matrix array complex general\n1 2\n1 2\n3 4\n", "c.mtx");
  EXPECT_EQ(test::to_dense(coo_to_csr(m.matrix)), (std::vector<Cd>{{1, 2}, {3, 4}}));
}

TEST(MatrixMarket, DuplicatesAreSummed) {
  const auto a = parse_csr("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n1 1 2.5\n2 2 1\n");
  EXPECT_EQ(a.values, (std::vector<double>{3.5, 1}));
}

TEST(MatrixMarket, UnderflowBecomesSubnormalOrZeroAndOverflowIsAnError) {
  const std::string text = "%%MatrixMarket matrix coordinate real general\n1 3 3\n1 1 4.7e-83\n1 2 1e-40\n1 3 1e-400\n";
  const auto f = coo_to_csr(parse_matrix_market<float, int>(text, "tiny.mtx").matrix);
  EXPECT_EQ(f.values[0], 0.0f);
  EXPECT_EQ(f.values[1], static_cast<float>(1e-40));  // subnormal float
  EXPECT_EQ(f.values[2], 0.0f);
  const auto d = parse_csr(text);
  EXPECT_EQ(d.values[0], 4.7e-83);
  try {
    parse_matrix_market<float, int>("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1e39\n", "big.mtx");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "big.mtx:3: value '1e39' overflows float");
  }
}

TEST(MatrixMarket, EmptyMatrices) {
  EXPECT_EQ(parse_csr("%%MatrixMarket matrix coordinate real general\n0 0 0\n").rows, 0);
  const auto a = parse_csr("%%MatrixMarket matrix coordinate real general\n4 5 0\n");
  EXPECT_EQ(a.rows, 4);
  EXPECT_EQ(a.nnz(), 0u);
}

TEST(MatrixMarket, ComplexIntoRealTypeIsAnError) {
  EXPECT_NE(parse_error_of("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 2\n")
                .find("cannot be read into the real value type double"),
            std::string::npos);
}

TEST(MatrixMarket, NnzOverflowingInt32IsDetectedBeforeReading) {
  try {
    parse_matrix_market<double, int>("%%MatrixMarket matrix coordinate real general\n3000000000 1 0\n", "big.mtx");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "big.mtx:2: size 3000000000x1 overflows the int32 index type");
  }
  // The same size is fine with int64 indices.
  EXPECT_EQ((parse_matrix_market<double, std::int64_t>("%%MatrixMarket matrix coordinate real general\n3000000000 1 0\n", "big.mtx")
                 .matrix.rows),
            3000000000LL);
}

// The bad-input corpus: each file in tests/data/bad_mtx and the exact
// "file:line: reason" (the part after the folder) it must produce.
struct BadFile {
  const char* file;
  const char* message;
};
const BadFile kBadFiles[] = {
    {"bad_banner.mtx", "bad_banner.mtx:1: bad banner '%%MatrixMarkt matrix coordinate real general': the first line must start with %%MatrixMarket"},
    {"banner_missing_word.mtx", "banner_missing_word.mtx:1: bad banner: expected 'object format field symmetry' after %%MatrixMarket, found 3 words"},
    {"unknown_field.mtx", "unknown_field.mtx:1: unknown field 'float' (expected real, integer, complex or pattern)"},
    {"unknown_symmetry.mtx", "unknown_symmetry.mtx:1: unknown symmetry 'lower'"},
    {"unknown_format.mtx", "unknown_format.mtx:1: unknown format 'sparse' (expected coordinate or array)"},
    {"unknown_object.mtx", "unknown_object.mtx:1: unknown object 'vector' (only 'matrix' is supported)"},
    {"size_line_short.mtx", "size_line_short.mtx:2: expected 3 tokens, found 2"},
    {"entry_missing_value.mtx", "entry_missing_value.mtx:3: expected 3 tokens, found 2"},
    {"entry_extra_token.mtx", "entry_extra_token.mtx:3: expected 3 tokens, found more: '7'"},
    {"row_out_of_range.mtx", "row_out_of_range.mtx:3: row index 3 outside [1, 2]"},
    {"column_zero.mtx", "column_zero.mtx:3: column index 0 outside [1, 2]"},
    {"fewer_entries.mtx", "fewer_entries.mtx:5: file ends after 2 of 3 declared entries"},
    {"more_entries.mtx", "more_entries.mtx:4: more entries than the 1 declared"},
    {"value_not_number.mtx", "value_not_number.mtx:3: value '1.0x' is not a number"},
    {"integer_not_integer.mtx", "integer_not_integer.mtx:3: value '1.5' is not an integer"},
    {"index_not_integer.mtx", "index_not_integer.mtx:3: column index 'a' is not an integer"},
    {"rows_overflow_int32.mtx", "rows_overflow_int32.mtx:2: size 3000000000x2 overflows the int32 index type"},
    {"count_out_of_range.mtx", "count_out_of_range.mtx:2: entry count '99999999999999999999' is out of range"},
    {"symmetric_not_square.mtx", "symmetric_not_square.mtx:2: symmetric matrix must be square, size line says 2x3"},
    {"complex_missing_imag.mtx", "complex_missing_imag.mtx:3: expected 4 tokens, found 3"},
    {"hermitian_real.mtx", "hermitian_real.mtx:1: only a complex matrix can be hermitian"},
    {"array_short.mtx", "array_short.mtx:6: file ends after 3 of 4 declared entries"},
    {"skew_diagonal.mtx", "skew_diagonal.mtx:3: skew-symmetric matrix has a nonzero diagonal entry"},
    {"missing_size_line.mtx", "missing_size_line.mtx:2: missing size line"},
    {"empty_file.mtx", "empty_file.mtx:1: empty file: expected a %%MatrixMarket banner"},
    {"negative_size.mtx", "negative_size.mtx:2: negative size on the size line"},
    {"value_overflow.mtx", "value_overflow.mtx:3: value '1e400' overflows double"},
    {"pattern_array.mtx", "pattern_array.mtx:1: a pattern matrix cannot use the array format"},
};

TEST(MatrixMarketBadInput, EveryCorpusFileGivesItsMessage) {
  for (const auto& bad : kBadFiles) {
    const std::string path = test::test_data(std::string("bad_mtx/") + bad.file);
    try {
      // Complex value type, so that complex files get past the "complex into real" check.
      read_matrix_market<std::complex<double>, int>(path);
      FAIL() << bad.file << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::parse) << bad.file;
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(path, 0), 0u) << "message should start with the path: " << what;
      EXPECT_NE(what.find(bad.message), std::string::npos) << "got: " << what << "\nwant: " << bad.message;
    }
  }
  // And every file in the folder is covered by the table.
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::test_data("bad_mtx"))) {
    ++files;
    bool listed = false;
    for (const auto& bad : kBadFiles) listed = listed || entry.path().filename() == bad.file;
    EXPECT_TRUE(listed) << entry.path() << " has no expected message";
  }
  EXPECT_EQ(files, std::size(kBadFiles));
}

TEST(MatrixMarketBadInput, DirectoryIsNotAMatrix) {
  try {
    read_matrix_market<double, int>(test::test_data("bad_mtx"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
}

TEST(MatrixMarketBadInput, MissingFileNamesThePath) {
  try {
    read_matrix_market<double, int>("/nonexistent/x.mtx");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::io);
    EXPECT_EQ(std::string(e.what()), "/nonexistent/x.mtx: cannot open file");
  }
}

std::string sample_text() {
  std::string s = "%%MatrixMarket matrix coordinate real general\n200 200 400\n";
  for (int i = 1; i <= 200; ++i) s += std::to_string(i) + " " + std::to_string(i) + " " + std::to_string(i * 0.25) + "\n" +
                                      std::to_string(i) + " " + std::to_string(201 - i) + " -1\n";
  return s;
}

TEST(MatrixMarketGzip, ReadsCompressedFile) {
  const std::string path = test::temp_path("m.mtx.gz");
  write_file_bytes(path, sample_text());
  const auto a = read_matrix_market_csr<double, int>(path);
  const auto b = parse_csr(sample_text());
  EXPECT_EQ(a.values, b.values);
  EXPECT_EQ(a.col_idx, b.col_idx);
}

TEST(MatrixMarketGzip, TruncatedFileIsAnError) {
  const std::string path = test::temp_path("m.mtx.gz");
  write_file_bytes(path, sample_text());
  const auto size = std::filesystem::file_size(path);
  std::filesystem::resize_file(path, size / 2);
  try {
    read_matrix_market<double, int>(path);
    FAIL() << "truncated gzip accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::io);
    EXPECT_NE(std::string(e.what()).find("corrupt or truncated gzip data"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(path, 0), 0u);
  }
}

TEST(MatrixMarketGzip, CorruptFileIsAnError) {
  const std::string path = test::temp_path("m.mtx.gz");
  write_file_bytes(path, sample_text());
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(40);
    const char garbage[16] = {'\x55', '\x00', '\x7f', '\x13', '\x55', '\x00', '\x7f', '\x13',
                              '\x55', '\x00', '\x7f', '\x13', '\x55', '\x00', '\x7f', '\x13'};
    f.write(garbage, sizeof garbage);
  }
  try {
    read_matrix_market<double, int>(path);
    FAIL() << "corrupt gzip accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    // Corruption is caught either by zlib (bad data or CRC) or, rarely, by the
    // parser if the damaged stream still inflates; both name the file.
    EXPECT_EQ(what.rfind(path, 0), 0u) << what;
  }
}

TEST(MatrixMarketArchive, ReadsTheOneMtxInATarGz) {
  if (!has_libarchive()) GTEST_SKIP() << "skipped: built without libarchive";
  const auto a = read_matrix_market_csr<double, int>(test::test_data("small_archive.tar.gz"));
  EXPECT_EQ(a.rows, 3);
  EXPECT_EQ(a.values, (std::vector<double>{2.5, -1}));
  // Non-.mtx members (README) are ignored.
  EXPECT_EQ((read_matrix_market_csr<double, int>(test::test_data("archive_with_readme.tar.gz")).nnz()), 2u);
}

TEST(MatrixMarketArchive, TruncatedArchiveIsAnError) {
  if (!has_libarchive()) GTEST_SKIP() << "skipped: built without libarchive";
  const std::string path = test::temp_path("cut.tar.gz");
  std::filesystem::copy_file(test::test_data("small_archive.tar.gz"), path, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::resize_file(path, 60);
  EXPECT_THROW((read_matrix_market<double, int>(path)), Error);
}

template <class V>
void expect_round_trip(const Csr<V, int>& a, MatrixMarketWriteOptions options, const std::string& name) {
  const std::string path = test::temp_path(name);
  write_matrix_market(path, a, options);
  const auto data = read_matrix_market<V, int>(path);
  EXPECT_EQ(data.header.symmetry, options.symmetry);
  const auto b = coo_to_csr(data.matrix);
  EXPECT_EQ(b.row_ptr, a.row_ptr);
  EXPECT_EQ(b.col_idx, a.col_idx);
  EXPECT_EQ(b.values, a.values);  // exact: shortest round-trip printing
}

TEST(MatrixMarketWriter, RoundTripsExactly) {
  auto a = parse_csr("%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 0.1\n2 1 3.3333333333333335\n3 3 -1e-300\n3 2 2\n");
  expect_round_trip(a, {}, "general.mtx");
  MatrixMarketWriteOptions sym;
  sym.symmetry = MmSymmetry::symmetric;
  expect_round_trip(a, sym, "symmetric.mtx.gz");
  const auto f = convert_types<float, int>(a);
  expect_round_trip(f, {}, "float.mtx");
}

TEST(MatrixMarketWriter, RefusesAWrongSymmetryOrField) {
  const auto a = parse_csr("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n2 1 2\n");
  MatrixMarketWriteOptions sym;
  sym.symmetry = MmSymmetry::symmetric;
  EXPECT_THROW(format_matrix_market(a, sym), Error);
  MatrixMarketWriteOptions integer;
  integer.field = MmField::integer;
  EXPECT_NO_THROW(format_matrix_market(a, integer));
  const auto frac = parse_csr("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 0.5\n");
  EXPECT_THROW(format_matrix_market(frac, integer), Error);
}

TEST(MatrixMarketWriter, SkewAndHermitianAreKept) {
  const auto s = parse_csr("%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 4\n3 2 -0.5\n");
  MatrixMarketWriteOptions skew;
  skew.symmetry = MmSymmetry::skew_symmetric;
  expect_round_trip(s, skew, "skew.mtx");
  const auto h = coo_to_csr(parse_matrix_market<Cd, int>(
      "%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 2 0\n2 1 1 -1\n", "h").matrix);
  MatrixMarketWriteOptions herm;
  herm.symmetry = MmSymmetry::hermitian;
  expect_round_trip(h, herm, "herm.mtx");
}

TEST(MatrixMarketVector, WritesAndReadsVectors) {
  const std::vector<double> v = {1.0 / 3.0, -2.5e-310, 7};
  const std::string path = test::temp_path("v.mtx");
  write_matrix_market_vector<double>(path, v);
  EXPECT_EQ(read_matrix_market_vector<double>(path), v);
  EXPECT_THROW(read_matrix_market_vector<double>(test::test_data("small_archive.tar.gz")), Error);
}

// load_any_matrix: one read decides the types; the result equals what the
// typed loader gives for the same source.
TEST(MatrixSource, LoadAnyMatrixChoosesTheSourcesTypes) {
  const std::string complex_file = std::string(HSPARSE_TEST_DATA) + "/complex_small.mtx";
  auto c = load_any_matrix(complex_file, false);
  ASSERT_TRUE((std::holds_alternative<Csr<std::complex<double>, std::int32_t>>(c)));
  EXPECT_EQ((std::get<Csr<std::complex<double>, std::int32_t>>(c).values), (load_matrix<std::complex<double>, std::int32_t>(complex_file).values));
  EXPECT_TRUE((std::holds_alternative<Csr<std::complex<float>, std::int32_t>>(load_any_matrix(complex_file, true))));
  const std::string pattern = std::string(HSPARSE_TEST_DATA) + "/pattern_symmetric.mtx";
  const auto p = load_any_matrix(pattern, false);
  ASSERT_TRUE((std::holds_alternative<Csr<double, std::int32_t>>(p)));
  const auto& pd = std::get<Csr<double, std::int32_t>>(p);
  const auto expected = load_matrix<double, std::int32_t>(pattern);
  EXPECT_EQ(pd.row_ptr, expected.row_ptr);
  EXPECT_EQ(pd.col_idx, expected.col_idx);
  EXPECT_TRUE((std::holds_alternative<Csr<double, std::int32_t>>(load_any_matrix("stencil2d:n=5", false))));
  EXPECT_TRUE((std::holds_alternative<Csr<float, std::int32_t>>(load_any_matrix("stencil2d:n=5", true))));
  // An .hsp file stored in single precision loads in single even when double is asked.
  const std::string hsp = ::testing::TempDir() + "/hsparse_any_single.hsp";
  write_hsp(hsp, load_matrix<float, std::int32_t>("stencil2d:n=5"));
  EXPECT_TRUE((std::holds_alternative<Csr<float, std::int32_t>>(load_any_matrix(hsp, false))));
  std::filesystem::remove(hsp);
  // Errors still name the file and line.
  try {
    load_any_matrix(std::string(HSPARSE_TEST_DATA) + "/bad_mtx/row_out_of_range.mtx", false);
    FAIL() << "a bad file loaded";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("row_out_of_range.mtx:3:"), std::string::npos) << e.what();
  }
}

// Issue 62, item 11: the GraphBLAS files of fast_matrix_market's suite
// declare 3 x 1 with 4 entries, one a duplicate; duplicates are summed.
TEST(MatrixMarket, EntryCountAboveRowsTimesColsIsReadWithDuplicatesSummed) {
  const auto a = parse_csr("%%MatrixMarket matrix coordinate real general\n3 1 4\n1 1 1\n2 1 2\n3 1 3\n1 1 4\n");
  EXPECT_EQ(a.row_ptr, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(a.values, (std::vector<double>{5, 2, 3}));
  const auto f = read_matrix_market_csr<double, int>(test::test_data("duplicates_3x1.mtx"));
  EXPECT_EQ(f.values, (std::vector<double>{5, 2, 3}));
}

// The merged matrix can never pass rows*cols (every index is checked), so an
// entry beyond it is a duplicate or out of range; and an absurd count is
// refused where the entries end, without reserving memory for it.
TEST(MatrixMarket, AbsurdEntryCountIsRefusedWhereTheEntriesEndNotAllocated) {
  EXPECT_EQ(parse_error_of("%%MatrixMarket matrix coordinate real general\n1 1 1000000000000000\n1 1 1\n1 1 2\n"),
            "inline.mtx:5: file ends after 2 of 1000000000000000 declared entries");
  EXPECT_EQ(parse_error_of("%%MatrixMarket matrix coordinate real general\n3 1 4\n1 1 1\n2 1 2\n3 1 3\n4 1 4\n"),
            "inline.mtx:6: row index 4 outside [1, 3]");
}

// Issue 62, item 9: a file whose text goes on far past what its size line
// declares (a 4 MB gzip inflating to 4 GB of blanks) is refused after about
// a megabyte, naming the file and the line reached, not read to its end.
TEST(MatrixMarket, GzipBombIsRefusedNamingTheFileAndLine) {
  const std::string path = test::temp_path("bomb.mtx.gz");
  const std::string text = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 1\n" + std::string(std::size_t{48} << 20, ' ');
  write_file_bytes(path, text);
  ASSERT_LT(std::filesystem::file_size(path), std::size_t{1} << 20) << "a bomb: small compressed, large inflated";
  try {
    read_matrix_market<double, int>(path);
    FAIL() << "a gzip bomb was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::parse);
    EXPECT_NE(std::string(e.what()).find(path + ":5: the text goes on past"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("the size line's 2 entries"), std::string::npos) << e.what();
  }
}

TEST(MatrixMarket, PlainFilePaddedFarPastItsEntriesIsRefused) {
  const std::string path = test::temp_path("padded.mtx");
  std::string text = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 1\n";
  text += std::string(std::size_t{3} << 20, '\n');
  write_file_bytes(path, text);
  try {
    read_matrix_market<double, int>(path);
    FAIL() << "a padded file was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("goes on past"), std::string::npos) << e.what();
  }
}

// The bound starts after the size line: a long comment block before it
// (past the first megabyte looked at) is still read.
TEST(MatrixMarket, CommentsLongerThanAMegabyteBeforeTheSizeLineAreRead) {
  const std::string path = test::temp_path("long_header.mtx.gz");
  std::string text = "%%MatrixMarket matrix coordinate real general\n";
  for (int i = 0; i < 40000; ++i) text += "% a comment line of about fifty bytes, repeated\n";
  text += "2 2 2\n1 1 1\n2 2 3\n";
  ASSERT_GT(text.size(), std::size_t{1} << 20);
  write_file_bytes(path, text);
  EXPECT_EQ((read_matrix_market_csr<double, int>(path).values), (std::vector<double>{1, 3}));
}

}  // namespace
}  // namespace hsparse::io
