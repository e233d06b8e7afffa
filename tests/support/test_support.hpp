#pragma once
// Shared helpers of the tests: the shared matrix folder and its manifest,
// small hand-built matrices, edge cases, and a checker of SpMV results.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "hsparse/core/backend.hpp"
#include "hsparse/formats/csr.hpp"
#include "hsparse/io/manifest.hpp"

namespace hsparse {
// The backend's name where gtest prints a parameter of the suites written
// for every executor (found by argument-dependent lookup in Backend's namespace).
inline void PrintTo(Backend backend, std::ostream* os) { *os << to_string(backend); }
}  // namespace hsparse

namespace hsparse::test {

// The folder of shared SuiteSparse matrices, or nullopt when absent.
std::optional<std::string> shared_matrix_dir();

// MANIFEST.md of the shared folder (the library's reader).
using io::ManifestEntry;
using io::read_manifest;

std::string test_data(const std::string& relative);
// A fresh path in the test's temporary folder.
std::string temp_path(const std::string& name);

// Named generated matrices covering the edge cases the standards list:
// 0x0, 1x1, empty rows, rectangular both ways, explicit zeros, one very long
// row holding half the nonzeros, stencils, power-law.
struct NamedMatrix {
  std::string name;
  Csr<double, std::int64_t> matrix;
};
std::vector<NamedMatrix> edge_case_matrices();

// A CSR matrix from (row, column, value) triplets in any order.
Csr<double, std::int64_t> from_triplets(std::int64_t rows, std::int64_t cols,
                                        const std::vector<std::tuple<std::int64_t, std::int64_t, double>>& t);

// Deterministic, non-constant vector in [-1, 1] (or complex) of length n.
template <class V>
std::vector<V> test_vector(std::size_t n, std::uint64_t seed);

// A dense row-major copy of a (small) matrix.
template <class V, class I>
std::vector<V> to_dense(const Csr<V, I>& a);

}  // namespace hsparse::test
