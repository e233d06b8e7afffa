// Block Jacobi (preconditioner_op.hpp).
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "preconditioner_op.hpp"

namespace hsparse::detail {

namespace {

// The inverse of the dense m x m block `d` (row-major) in place: Gauss-Jordan
// with partial pivoting. False where a pivot is zero or not finite.
template <class V>
bool invert_block(std::vector<V>& d, int m) {
  std::vector<V> inv(static_cast<std::size_t>(m * m), V(0));
  for (int i = 0; i < m; ++i) inv[static_cast<std::size_t>(i * m + i)] = V(1);
  auto at = [m](std::vector<V>& v, int i, int j) -> V& { return v[static_cast<std::size_t>(i * m + j)]; };
  for (int c = 0; c < m; ++c) {
    int piv = c;
    for (int i = c + 1; i < m; ++i) piv = std::abs(at(d, i, c)) > std::abs(at(d, piv, c)) ? i : piv;
    const V p = at(d, piv, c);
    if (p == V(0) || !std::isfinite(std::abs(p))) return false;
    for (int j = 0; j < m; ++j) {
      std::swap(at(d, c, j), at(d, piv, j));
      std::swap(at(inv, c, j), at(inv, piv, j));
    }
    for (int j = 0; j < m; ++j) {
      at(d, c, j) /= p;
      at(inv, c, j) /= p;
    }
    for (int i = 0; i < m; ++i) {
      const V f = at(d, i, c);
      if (i == c || f == V(0)) continue;
      for (int j = 0; j < m; ++j) {
        at(d, i, j) -= f * at(d, c, j);
        at(inv, i, j) -= f * at(inv, c, j);
      }
    }
  }
  d.swap(inv);
  return true;
}

template <class V, class I>
class BlockJacobi final : public PreconditionerOp<V> {
 public:
  BlockJacobi(const ExecutorPtr& ex, const Csr<V, I>& inverse, int block, bool detected, I blocks)
      : plan_(ex, inverse, options(block)), block_(block), detected_(detected), blocks_(blocks) {}
  void apply(const V* r, V* z) const override { plan_.apply(V(1), r, V(0), z); }
  std::string description() const override {
    return "block Jacobi, " + std::to_string(blocks_) + " blocks of " + std::to_string(block_) + (detected_ ? " (detected)" : " (given)");
  }

 private:
  static SpmvOptions options(int block) {
    SpmvOptions o;
    o.format = Format::bcsr;
    o.layout.block = block;
    return o;
  }
  SpmvPlan<V, I> plan_;
  int block_;
  bool detected_;
  I blocks_;
};

}  // namespace

template <class V, class I>
PreconditionerPtr<V> make_block_jacobi(const ExecutorPtr& ex, const Csr<V, I>& a, int block_size) {
  if (a.rows != a.cols) throw Error(ErrorCode::invalid_argument, "block Jacobi needs a square matrix, not " + std::to_string(a.rows) + " x " + std::to_string(a.cols));
  if (block_size < 0 || block_size > 32) throw Error(ErrorCode::invalid_argument, "block Jacobi: block size " + std::to_string(block_size) + " is outside 1..32 (0: detected)");
  const bool detected = block_size == 0;
  const int b = detected ? block_jacobi_size(a) : block_size;
  const I n = a.rows, blocks = (n + b - 1) / b;
  if (static_cast<long double>(n) * b > static_cast<long double>(std::numeric_limits<I>::max())) {
    throw Error(ErrorCode::overflow, "block Jacobi: " + std::to_string(static_cast<long long>(n)) + " rows in blocks of " + std::to_string(b) +
                                               " store more entries than the " + std::to_string(sizeof(I) * 8) + "-bit index type holds");
  }
  Csr<V, I> inv;
  inv.rows = inv.cols = n;
  inv.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  std::vector<V> d;
  for (I k = 0; k < blocks; ++k) {
    const I first = k * b, m = std::min<I>(b, n - first);
    d.assign(static_cast<std::size_t>(m * m), V(0));
    for (I i = 0; i < m; ++i) {
      const auto row = static_cast<std::size_t>(first + i);
      for (auto e = a.row_ptr[row]; e < a.row_ptr[row + 1]; ++e) {
        const I c = a.col_idx[static_cast<std::size_t>(e)];
        if (c >= first && c < first + m) d[static_cast<std::size_t>(i * m + (c - first))] += a.values[static_cast<std::size_t>(e)];
      }
    }
    if (!invert_block(d, static_cast<int>(m))) {
      throw Error(ErrorCode::invalid_matrix, "block Jacobi: the diagonal block of rows " + std::to_string(static_cast<long long>(first) + 1) + "-" +
                                                 std::to_string(static_cast<long long>(first + m)) +
                                                 " (1-based) is singular; try another --block-size, jacobi or ilu0");
    }
    for (I i = 0; i < m; ++i) {
      for (I j = 0; j < m; ++j) {
        inv.col_idx.push_back(first + j);
        inv.values.push_back(d[static_cast<std::size_t>(i * m + j)]);
      }
      inv.row_ptr[static_cast<std::size_t>(first + i) + 1] = static_cast<I>(inv.col_idx.size());
    }
  }
  return std::make_unique<BlockJacobi<V, I>>(ex, inv, b, detected, blocks);
}

template <class V, class I>
PreconditionerPtr<V> make_from_matrix(const ExecutorPtr& ex, const Csr<V, I>& a, const SolverOptions& options) {
  switch (options.preconditioner) {
    case Preconditioner::block_jacobi:
      if constexpr (is_complex_v<V>) {
        throw Error(ErrorCode::unsupported, "block Jacobi: real values only so far (it applies its inverse blocks with BCSR, whose kernels are real); use jacobi, ilu0 or ic0");
      } else {
        return make_block_jacobi(ex, a, options.block_size);
      }
    case Preconditioner::ilu0:
    case Preconditioner::ic0: return make_incomplete(ex, a, options);
    default: break;
  }
  throw Error(ErrorCode::invalid_argument, std::string("the preconditioner ") + to_string(options.preconditioner) + " is not built from the matrix here");
}

#define HSPARSE_INSTANTIATE(V, I) template PreconditionerPtr<V> make_block_jacobi(const ExecutorPtr&, const Csr<V, I>&, int);
HSPARSE_FOR_EACH_REAL_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE
#define HSPARSE_INSTANTIATE(V, I) template PreconditionerPtr<V> make_from_matrix(const ExecutorPtr&, const Csr<V, I>&, const SolverOptions&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::detail
