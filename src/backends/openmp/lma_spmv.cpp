// The LMA product on the CPU (kernels/lma_spmv.hpp): y scaled by beta, then
// the four colours in turn, the elements of one colour in parallel. Two
// elements of a colour share no node, so their scatter-adds never meet
// (the colouring the paper uses in double, section 8.3). The storage
// interleaves elements (entry n of consecutive elements is contiguous, as
// ELLPACK transposed), so a thread takes kBlock consecutive elements and
// runs the m x m products across them as SIMD lanes: every K_e load is a
// contiguous vector, the way a GPU warp reads it. With the symmetric
// storage K_e(i, j) for i > j is read from (j, i) (fem::local_entry).
#include <algorithm>
#include <array>
#include <string>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/kernels/lma_spmv.hpp"

namespace hsparse::openmp {

namespace {

constexpr int kBlock = 8;  // elements per SIMD block

// One colour's elements with m = M nodes each (compile-time: the loops
// unroll), K_e full or its upper triangle (SYM).
template <int M, bool SYM, class V, class I>
void lma_colour(V alpha, const fem::LocalMatrices<V, I>& a, std::span<const V> x, std::span<V> y, long long first, long long last) {
  const auto ne = static_cast<std::size_t>(a.elements);
  const long long blocks = (last - first + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static)
  for (long long blk = 0; blk < blocks; ++blk) {
    const auto e0 = static_cast<std::size_t>(first + blk * kBlock);
    const int nb = static_cast<int>(std::min<long long>(kBlock, last - static_cast<long long>(e0)));
    std::array<std::array<V, kBlock>, M> local{};
    for (int j = 0; j < M; ++j) {  // A x
      const I* nodes = a.element_nodes.data() + static_cast<std::size_t>(j) * ne + e0;
      for (int b = 0; b < nb; ++b) local[static_cast<std::size_t>(j)][static_cast<std::size_t>(b)] = nodes[b] < 0 ? V(0) : x[static_cast<std::size_t>(nodes[b])];
    }
    for (int i = 0; i < M; ++i) {  // K_e, then A^T
      std::array<V, kBlock> sum{};
      for (int j = 0; j < M; ++j) {
        const V* k = a.values.data() + static_cast<std::size_t>(fem::local_entry(i, j, M, SYM)) * ne + e0;
        const auto& xj = local[static_cast<std::size_t>(j)];
#pragma omp simd
        for (int b = 0; b < kBlock; ++b) sum[static_cast<std::size_t>(b)] += (b < nb ? k[b] : V(0)) * xj[static_cast<std::size_t>(b)];
      }
      const I* nodes = a.element_nodes.data() + static_cast<std::size_t>(i) * ne + e0;
      for (int b = 0; b < nb; ++b) {
        if (nodes[b] >= 0) y[static_cast<std::size_t>(nodes[b])] += alpha * sum[static_cast<std::size_t>(b)];
      }
    }
  }
}

}  // namespace

template <class V, class I>
void lma_spmv(V alpha, const fem::LocalMatrices<V, I>& a, std::span<const V> x, V beta, std::span<V> y) {
  check_lma_sizes(a, x.size(), y.size());
  const auto n = static_cast<long long>(y.size());
#pragma omp parallel for schedule(static)
  for (long long i = 0; i < n; ++i) y[static_cast<std::size_t>(i)] = beta == V(0) ? V(0) : beta * y[static_cast<std::size_t>(i)];
  for (std::size_t c = 0; c + 1 < a.colour_begin.size(); ++c) {
    const auto first = static_cast<long long>(a.colour_begin[c]), last = static_cast<long long>(a.colour_begin[c + 1]);
    const auto run = [&]<int M>() {
      if (a.symmetric) lma_colour<M, true>(alpha, a, x, y, first, last);
      else lma_colour<M, false>(alpha, a, x, y, first, last);
    };
    switch (a.nodes_per_element) {
      case 4: run.template operator()<4>(); break;
      case 9: run.template operator()<9>(); break;
      case 16: run.template operator()<16>(); break;
      case 25: run.template operator()<25>(); break;
      default: throw Error(ErrorCode::invalid_argument, "LMA product: elements of " + std::to_string(a.nodes_per_element) + " nodes (Q1-Q4 have 4, 9, 16, 25)");
    }
  }
}

#define HSPARSE_INSTANTIATE(V, I) template void lma_spmv(V, const fem::LocalMatrices<V, I>&, std::span<const V>, V, std::span<V>);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
