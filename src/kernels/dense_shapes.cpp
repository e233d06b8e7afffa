// GEMM shape checks and the tiled GEMM's intensity (kernels/dense_ops.hpp).
#include <complex>
#include <string>

#include "hsparse/core/types.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/kernels/dense_ops.hpp"

namespace hsparse {

const char* to_string(Op op) { return op == Op::transpose ? "T" : "N"; }

template <class T>
GemmShape check_gemm_shapes(Op ta, Op tb, const ConstDenseView<T>& a, const ConstDenseView<T>& b, const ConstDenseView<T>& c) {
  const long long m = ta == Op::none ? a.rows : a.cols, ka = ta == Op::none ? a.cols : a.rows;
  const long long kb = tb == Op::none ? b.rows : b.cols, n = tb == Op::none ? b.cols : b.rows;
  auto shape = [](const char* name, Op t, const ConstDenseView<T>& v) {
    return std::string(name) + (t == Op::transpose ? "^T" : "") + " " + std::to_string(t == Op::none ? v.rows : v.cols) + " x " +
           std::to_string(t == Op::none ? v.cols : v.rows);
  };
  if (ka != kb || c.rows != m || c.cols != n) {
    throw Error(ErrorCode::invalid_argument, "GEMM shapes do not match: " + shape("A", ta, a) + ", " + shape("B", tb, b) + ", C " +
                                                 std::to_string(c.rows) + " x " + std::to_string(c.cols));
  }
  for (const auto* v : {&a, &b, &c}) check_dense_shape(v->rows, v->cols, v->ld, "GEMM operand");
  return {m, n, ka};
}

double gemm_intensity(const GemmShape& s, double bm, double bn) {
  const double m = static_cast<double>(s.m), n = static_cast<double>(s.n), k = static_cast<double>(s.k);
  const double words = m * n * k / bn + m * n * k / bm + 2 * m * n;
  return words > 0 ? 2 * m * n * k / words : 0;
}

#define HSPARSE_INSTANTIATE(T) \
  template GemmShape check_gemm_shapes(Op, Op, const ConstDenseView<T>&, const ConstDenseView<T>&, const ConstDenseView<T>&);
HSPARSE_FOR_EACH_VALUE(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
