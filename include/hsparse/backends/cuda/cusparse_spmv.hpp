#pragma once
// cuSPARSE as a baseline and a cross-check, behind the same interface as
// our kernels: never hsparse's own implementation. The generic API
// (cusparseSpMV) on the same device arrays, with the buffer and, for
// CSR ALG1/ALG2, cusparseSpMV_preprocess done once at creation (its cost
// is reported as setup time by the plan).
#include <memory>
#include <string>
#include <vector>

#include "hsparse/backends/cuda/device_formats.hpp"
#include "hsparse/dense/dense_matrix.hpp"

namespace hsparse::cuda {

enum class CusparseAlgorithm { csr_alg1, csr_alg2, coo_alg1, sell_alg1, bsr_alg1 };

template <class V, class I>
class CusparseSpmv {
 public:
  // The matrix arrays must outlive this object (they are not copied).
  CusparseSpmv(const Executor& ex, const DeviceCsr<V, I>& a, CusparseAlgorithm algorithm, bool preprocess = true);
  CusparseSpmv(const Executor& ex, const DeviceCoo<V, I>& a);
  // Sliced ELL: needs sigma == 1 (cuSPARSE has no row permutation); keeps
  // its own copy of the column indices with padding marked -1, as cuSPARSE
  // expects.
  CusparseSpmv(const Executor& ex, const DeviceSell<V, I>& a);
  // BSR with column-major blocks; needs rows and columns that are multiples
  // of the block size (cuSPARSE reads and writes whole blocks of x and y).
  CusparseSpmv(const Executor& ex, const DeviceBcsr<V, I>& a);
  ~CusparseSpmv();
  CusparseSpmv(const CusparseSpmv&) = delete;
  CusparseSpmv& operator=(const CusparseSpmv&) = delete;
  void apply(V alpha, const V* x, V beta, V* y) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// cuSPARSE's SpMM variants: the CSR algorithm and the order X and Y are
// stored in. Which is fastest depends on the matrix and k (H200, 27-point
// stencil: column-major ALG1 at k = 8, row-major ALG2 at k = 32;
// ../shared/ENVIRONMENT.md), so a fair baseline tries them all
// (cusparse_spmm_variants) and keeps the fastest. CUSPARSE_SPMM_CSR_ALG3 is
// left out: it hit an illegal memory access on the H200, which
// would end the process's CUDA context.
enum class CusparseSpmmAlgorithm { default_algorithm, csr_alg1, csr_alg2 };
enum class DenseOrder { column_major, row_major };
struct CusparseSpmmVariant {
  CusparseSpmmAlgorithm algorithm = CusparseSpmmAlgorithm::default_algorithm;
  DenseOrder order = DenseOrder::column_major;
  std::string name() const;  // e.g. "ALG2, row-major"
};
// Every variant a baseline should try, in a fixed order.
const std::vector<CusparseSpmmVariant>& cusparse_spmm_variants();

// cuSPARSE's SpMM (CSR times a dense matrix) on fixed device views of X and
// Y, buffer sized once: the baseline of hsparse's SpMM. apply() computes
// Y = alpha A X + beta Y on ex's stream. Column-major: x and y are X
// (cols x k) and Y (rows x k). Row-major: x and y are the transposes X^T
// (k x cols) and Y^T (k x rows) as column-major views, which is X and Y
// stored row by row. A variant cuSPARSE does not support for these operands
// throws hsparse::Error.
template <class V, class I>
class CusparseSpmm {
 public:
  CusparseSpmm(const Executor& ex, const DeviceCsr<V, I>& a, const ConstDenseView<V>& x, const DenseView<V>& y, CusparseSpmmVariant variant = {});
  ~CusparseSpmm();
  CusparseSpmm(const CusparseSpmm&) = delete;
  CusparseSpmm& operator=(const CusparseSpmm&) = delete;
  void apply(V alpha, V beta) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace hsparse::cuda
