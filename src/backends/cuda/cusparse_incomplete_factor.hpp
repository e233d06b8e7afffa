#pragma once
// cuSPARSE's ILU(0) or IC(0) of a device CSR matrix, and its application
// M^-1 r by two of cuSPARSE's triangular solves: the preconditioner of the
// baselines (cusparse_baselines.cu). The deprecated factorisation API is
// confined to cusparse_incomplete_factor.cu.
#include <cstdint>
#include <memory>

#include "hsparse/backends/cuda/cusparse_baselines.hpp"
#include "hsparse/backends/cuda/device.hpp"

namespace hsparse::cuda {

template <class V>
class CusparseIncompleteFactor {
 public:
  // Factorises a copy of m's values (m is not changed; its row_ptr and
  // col_idx must outlive this object) on ex's stream and analyses the two
  // triangular solves. kind: ilu0 or ic0 (Error(invalid_argument) for
  // none or a matrix that is not square); a zero pivot throws
  // Error(invalid_matrix) naming its row. times, when given, receives
  // factor_seconds and analysis_seconds.
  CusparseIncompleteFactor(const Executor& ex, const DeviceCsr<V, std::int32_t>& m, BaselinePreconditioner kind, BaselineFactorTimes* times);
  ~CusparseIncompleteFactor();
  CusparseIncompleteFactor(const CusparseIncompleteFactor&) = delete;
  CusparseIncompleteFactor& operator=(const CusparseIncompleteFactor&) = delete;

  // z = U^-1 L^-1 r (ILU(0)) or L^-T L^-1 r (IC(0)) on ex's stream; r and z
  // distinct device vectors of m.rows entries.
  void apply(const V* r, V* z) const;
  // Seconds of one apply(r, z), averaged over `repetitions` back-to-back
  // calls between CUDA events (after one untimed call).
  double seconds_per_apply(const V* r, V* z, int repetitions) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace hsparse::cuda
