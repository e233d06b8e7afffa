// The .hsp binary format: exact round trips in every type, conversion on
// load, and corrupt or foreign files rejected with an Error (never a crash).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "hsparse/core/error.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/io/binary_format.hpp"
#include "hsparse/io/file_bytes.hpp"
#include "support/test_support.hpp"

namespace hsparse::io {
namespace {

template <class V, class I>
void expect_same(const Csr<V, I>& a, const Csr<V, I>& b) {
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.cols, b.cols);
  EXPECT_EQ(a.row_ptr, b.row_ptr);
  EXPECT_EQ(a.col_idx, b.col_idx);
  EXPECT_EQ(a.values, b.values);
}

TEST(BinaryFormat, RoundTripsEveryEdgeCase) {
  for (const auto& [name, a] : test::edge_case_matrices()) {
    const std::string path = test::temp_path(name + ".hsp");
    write_hsp(path, a);
    EXPECT_TRUE(is_hsp_file(path));
    expect_same(read_hsp<double, std::int64_t>(path), a);
    const auto narrow = convert_types<float, std::int32_t>(a);
    write_hsp(path, narrow);
    expect_same(read_hsp<float, std::int32_t>(path), narrow);
  }
}

TEST(BinaryFormat, ConvertsTypesOnLoad) {
  const auto a = test::edge_case_matrices()[8].matrix;  // a stencil
  const std::string path = test::temp_path("a.hsp");
  write_hsp(path, a);
  expect_same(read_hsp<float, std::int32_t>(path), convert_types<float, std::int32_t>(a));
  const auto c = read_hsp<std::complex<double>, std::int32_t>(path);
  EXPECT_EQ(c.values[0], std::complex<double>(a.values[0], 0));
  EXPECT_FALSE(hsp_holds_complex(path));
  write_hsp(path, c);
  EXPECT_TRUE(hsp_holds_complex(path));
  EXPECT_THROW((read_hsp<double, std::int32_t>(path)), Error);  // complex into real
}

class CorruptHsp : public ::testing::Test {
 protected:
  void SetUp() override {
    path = test::temp_path("c.hsp");
    write_hsp(path, test::edge_case_matrices()[11].matrix);
  }
  void patch(std::size_t offset, const std::string& bytes) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(offset));
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  std::string load_error() {
    try {
      read_hsp<double, std::int64_t>(path);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::corrupt);
      return e.what();
    }
    return "(loaded)";
  }
  std::string path;
};

TEST_F(CorruptHsp, FlippedPayloadByteFailsTheChecksum) {
  patch(200, "\x5a");
  EXPECT_NE(load_error().find("payload checksum mismatch"), std::string::npos);
}

TEST_F(CorruptHsp, DamagedHeaderIsDetected) {
  patch(30, "\x01");
  EXPECT_NE(load_error().find("header checksum mismatch"), std::string::npos);
}

TEST_F(CorruptHsp, TruncatedFileIsDetected) {
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 3);
  EXPECT_NE(load_error().find("does not match the header's sizes"), std::string::npos);
  std::filesystem::resize_file(path, 10);
  EXPECT_NE(load_error().find("too short"), std::string::npos);
}

TEST_F(CorruptHsp, ForeignFileIsRejected) {
  write_file_bytes(path, "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n............................");
  EXPECT_FALSE(is_hsp_file(path));
  EXPECT_NE(load_error().find("bad magic"), std::string::npos);
}

}  // namespace
}  // namespace hsparse::io
