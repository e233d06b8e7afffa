#pragma once
// Row-length statistics of a CSR matrix: what the OpenMP schedule rule
// (eq. (15) of the SELL-C-sigma paper), `hsparse info` and the tuners read.
#include <cstdint>

#include "hsparse/formats/csr.hpp"

namespace hsparse {

struct RowStatistics {
  std::int64_t min_length = 0;
  std::int64_t max_length = 0;
  double mean_length = 0;
  double std_deviation = 0;
  double coefficient_of_variation = 0;  // std / mean (0 for an empty matrix)
  std::int64_t empty_rows = 0;
};

template <class V, class I>
RowStatistics row_length_statistics(const Csr<V, I>& a);

}  // namespace hsparse
