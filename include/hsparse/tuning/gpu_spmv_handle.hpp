#pragma once
// A reusable GPU SpMV handle (cuSPARSE's descriptor + buffer, Kokkos
// Kernels' SPMVHandle): made once for a matrix, it keeps the device matrix,
// the kernel's parameters and the tuner's state, so repeated products cost
// nothing extra. Today it runs CSR vector (Reguly's kernel) and tunes its
// (repeat, coop, block size) at run time over the products (section 6):
// the first call uses the fixed rule (section 5.4) or the tuning cache on
// disk; each call then runs the tuner's next guess, timed by events read at
// the following call (no synchronisation); once converged the best is kept
// and stored in the cache. CUDA builds only.
#include <memory>
#include <optional>
#include <string>

#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/tuning/coordinate_tuner.hpp"
#include "hsparse/tuning/fingerprint.hpp"

namespace hsparse::cuda {

struct GpuHandleOptions {
  bool tune = true;            // tune at run time over the products
  bool use_cache = true;       // start from, and store to, the tuning cache on disk
  std::string cache_path;      // empty: TuningCache::default_path()
  int max_tuning_calls = 40;   // stop tuning after this many products, converged or not
};

// Reguly's axes around the fixed rule's guess: repeat (halved first), coop
// (doubled first), block size 64..512 in steps of 32 (grown first).
std::vector<TunerAxis> csr_vector_tuning_axes(const CsrVectorParams& fixed_rule);

template <class V, class I>
class GpuSpmvHandle {
 public:
  GpuSpmvHandle(const Executor& ex, const Csr<V, I>& a, GpuHandleOptions options = {});
  ~GpuSpmvHandle();
  GpuSpmvHandle(GpuSpmvHandle&&) noexcept;

  // y = alpha*A*x + beta*y on the executor's stream (device pointers).
  void apply(V alpha, const V* x, V beta, V* y);

  // Reguly's test: the same arrays and sizes as the matrix the handle was made for.
  bool matches(const Csr<V, I>& a) const;
  CsrVectorParams parameters() const;  // what the next product uses once tuning is over (the best so far)
  CsrVectorParams fixed_rule() const { return fixed_; }
  bool tuning() const;                 // still trying parameters
  int calls() const { return calls_; }
  std::string origin() const;          // "fixed rule", "tuning", "tuned", "cache"
  const MatrixFingerprint& fingerprint() const { return fingerprint_; }
  std::string cache_key() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
  MatrixFingerprint fingerprint_;
  CsrVectorParams fixed_{};
  int calls_ = 0;
};

}  // namespace hsparse::cuda
