#pragma once
// The output update shared by every kernel: y = alpha*sum + beta*y, with y
// not read when beta == 0 (BLAS convention: NaN in y must not leak).
namespace hsparse::detail {

template <class V>
inline V combine_output(V alpha, V sum, V beta, const V& y_old) {
  return beta == V(0) ? alpha * sum : alpha * sum + beta * y_old;
}

}  // namespace hsparse::detail
