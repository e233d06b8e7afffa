// SpMM on the CPU (kernels/csr_spmm.hpp): rows in parallel (the CSR
// kernel's schedule rule), each row's nonzeros read once per pass of up to
// kSpmmColumns columns, with a column's partial sums held in a small local
// array while the row's entries stream by.
#include <array>
#include <complex>

#include "hsparse/core/types.hpp"
#include "hsparse/kernels/csr_spmm.hpp"
#include "hsparse/kernels/csr_spmv.hpp"

namespace hsparse::openmp {

template <class V, class I>
void csr_spmm(V alpha, const Csr<V, I>& a, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) {
  check_spmm_shapes<V, I>(a, x, y);
  const long long k = x.cols, rows = a.rows;
  const bool guided = choose_schedule(a) == Schedule::guided_rows;
  for (long long j0 = 0; j0 < k; j0 += kSpmmColumns) {
    const int kc = static_cast<int>(std::min<long long>(kSpmmColumns, k - j0));
    const V* xs = x.data + j0 * x.ld;
    V* ys = y.data + j0 * y.ld;
    const long long ldx = x.ld, ldy = y.ld;
    auto row = [&](long long i) {
      std::array<V, kSpmmColumns> acc{};
      for (auto p = a.row_ptr[static_cast<std::size_t>(i)]; p < a.row_ptr[static_cast<std::size_t>(i) + 1]; ++p) {
        const V v = a.values[static_cast<std::size_t>(p)];
        const V* xc = xs + static_cast<long long>(a.col_idx[static_cast<std::size_t>(p)]);
        for (int j = 0; j < kc; ++j) acc[static_cast<std::size_t>(j)] += v * xc[j * ldx];
      }
      for (int j = 0; j < kc; ++j) {
        V& out = ys[i + j * ldy];
        out = beta == V(0) ? alpha * acc[static_cast<std::size_t>(j)] : alpha * acc[static_cast<std::size_t>(j)] + beta * out;
      }
    };
    if (guided) {
#pragma omp parallel for schedule(guided, 1)
      for (long long i = 0; i < rows; ++i) row(i);
    } else {
#pragma omp parallel for schedule(static)
      for (long long i = 0; i < rows; ++i) row(i);
    }
  }
}

#define HSPARSE_INSTANTIATE(V, I) template void csr_spmm(V, const Csr<V, I>&, const ConstDenseView<V>&, V, const DenseView<V>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::openmp
