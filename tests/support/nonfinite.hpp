#pragma once
// Products with NaN and infinity in x (issue 62, item 5): a padded slot is
// not an entry and must add nothing, while an entry stored as zero gives
// 0 * NaN = NaN, as scipy.sparse and the serial CSR reference compute it.
// The cases hold padding for every padded format (ELL rows of different
// lengths, DIA diagonals with holes, BCSR blocks with fill) and explicit
// zeros in columns where x is not finite.
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace hsparse::test {

// Matrices whose padded formats pad next to columns where
// nonfinite_vector() holds NaN or infinity.
std::vector<NamedMatrix> nonfinite_cases();

// test_vector() with NaN at x[0] (n > 6) and every 17th entry from 2, +infinity at every
// 23rd from 3 and -infinity at every 29th from 5 (and x[2] = NaN, x[3] =
// +inf always, where n > 3: the 3 x 4 example).
template <class V>
std::vector<V> nonfinite_vector(std::size_t n);

// Empty when y equals the reference in IEEE terms: NaN where it has NaN,
// the same infinity where it has one, and within a relative `tolerance`
// (of the largest finite |reference|) elsewhere; else the first mismatch.
template <class V>
std::string ieee_mismatch(const std::vector<V>& reference, const std::vector<V>& y, double tolerance);

}  // namespace hsparse::test
