#include "support/test_support.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "hsparse/formats/convert.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/generators/hash.hpp"

namespace hsparse::test {

std::optional<std::string> shared_matrix_dir() {
  const char* env = std::getenv("HSPARSE_MATRICES");
  const std::string dir = env ? env : HSPARSE_SHARED_MATRICES;
  if (std::filesystem::exists(dir + "/MANIFEST.md")) return dir;
  return std::nullopt;
}

std::string test_data(const std::string& relative) { return std::string(HSPARSE_TEST_DATA) + "/" + relative; }

std::string temp_path(const std::string& name) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const auto dir = std::filesystem::temp_directory_path() / "hsparse_tests" /
                   (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

Csr<double, std::int64_t> from_triplets(std::int64_t rows, std::int64_t cols,
                                        const std::vector<std::tuple<std::int64_t, std::int64_t, double>>& t) {
  Coo<double, std::int64_t> coo;
  coo.rows = rows;
  coo.cols = cols;
  for (const auto& [r, c, v] : t) {
    coo.row_idx.push_back(r);
    coo.col_idx.push_back(c);
    coo.values.push_back(v);
  }
  return coo_to_csr(coo);
}

std::vector<NamedMatrix> edge_case_matrices() {
  using namespace generators;
  std::vector<NamedMatrix> m;
  m.push_back({"empty_0x0", from_triplets(0, 0, {})});
  m.push_back({"empty_5x3_no_entries", from_triplets(5, 3, {})});
  m.push_back({"one_by_one", from_triplets(1, 1, {{0, 0, 2.5}})});
  m.push_back({"explicit_zeros", from_triplets(3, 3, {{0, 0, 0.0}, {0, 2, 1.5}, {1, 1, 0.0}, {2, 0, -2.0}})});
  m.push_back({"tall_rectangular", random_uniform<double, std::int64_t>(300, 17, 5, 3)});
  m.push_back({"wide_rectangular", random_uniform<double, std::int64_t>(17, 300, 40, 4)});
  {
    // Every other row empty.
    std::vector<std::tuple<std::int64_t, std::int64_t, double>> t;
    for (std::int64_t r = 0; r < 200; r += 2) t.emplace_back(r, (r * 7) % 150, 1.0 + r);
    m.push_back({"empty_rows", from_triplets(200, 150, t)});
  }
  {
    // One row holding half of all nonzeros.
    std::vector<std::tuple<std::int64_t, std::int64_t, double>> t;
    for (std::int64_t c = 0; c < 2000; ++c) t.emplace_back(7, c, 0.5 + (c % 13));
    for (std::int64_t r = 0; r < 2000; ++r) t.emplace_back(r, (r * 31) % 2000, -1.0 - (r % 5));
    m.push_back({"one_long_row", from_triplets(2000, 2000, t)});
  }
  m.push_back({"stencil2d_9pt", stencil_2d<double, std::int64_t>(40, 30, 9)});
  m.push_back({"stencil3d_7pt", stencil_3d<double, std::int64_t>(9, 8, 7, 7)});
  m.push_back({"fem_block3", fem_blocks<double, std::int64_t>(4, 3, 3, 3, 5)});
  PowerLawOptions p;
  p.rows = 5000;
  p.long_rows = 3;
  p.long_fraction = 0.3;
  m.push_back({"power_law", power_law<double, std::int64_t>(p)});
  m.push_back({"dense_small", dense<double, std::int64_t>(23, 19, 2)});
  {
    // Rows longer than one GPU block's share (CSR adaptive splits the
    // 40000-entry row into pieces; the 2100-entry row takes a block alone,
    // and the 2048-entry row 3 fills one, the one-row path), and
    // row 1 spanning 70000 columns (CSR16's escape to its wide part).
    std::vector<std::tuple<std::int64_t, std::int64_t, double>> t;
    for (std::int64_t c = 0; c < 2100; ++c) t.emplace_back(0, c * 19, 1.0 + (c % 7));
    for (std::int64_t c = 0; c < 70000; c += 6999) t.emplace_back(1, c, 3.0 - c % 5);
    for (std::int64_t c = 0; c < 40000; ++c) t.emplace_back(2, c, 0.25 - (c % 11) * 0.125);
    for (std::int64_t c = 0; c < 2048; ++c) t.emplace_back(3, (c * 29) % 70000, 1.0 - (c % 3) * 0.5);
    for (std::int64_t r = 4; r < 600; ++r) t.emplace_back(r, (r * 97) % 40000, 2.0);
    m.push_back({"very_long_rows", from_triplets(600, 70000, t)});
  }
  return m;
}

template <class V>
std::vector<V> test_vector(std::size_t n, std::uint64_t seed) {
  std::vector<V> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double re = generators::hash_uniform(seed, i, 1) * 2 - 1;
    if constexpr (is_complex_v<V>) {
      const double im = generators::hash_uniform(seed, i, 2) * 2 - 1;
      v[i] = V(static_cast<real_type_t<V>>(re), static_cast<real_type_t<V>>(im));
    } else {
      v[i] = static_cast<V>(re);
    }
  }
  return v;
}
template std::vector<float> test_vector(std::size_t, std::uint64_t);
template std::vector<double> test_vector(std::size_t, std::uint64_t);
template std::vector<std::complex<float>> test_vector(std::size_t, std::uint64_t);
template std::vector<std::complex<double>> test_vector(std::size_t, std::uint64_t);

template <class V, class I>
std::vector<V> to_dense(const Csr<V, I>& a) {
  std::vector<V> d(static_cast<std::size_t>(a.rows) * static_cast<std::size_t>(a.cols), V(0));
  for (I r = 0; r < a.rows; ++r) {
    for (I k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) d[static_cast<std::size_t>(r) * a.cols + a.col_idx[k]] += a.values[k];
  }
  return d;
}
#define HSPARSE_INSTANTIATE(V, I) template std::vector<V> to_dense(const Csr<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::test
