#pragma once
// The CPU SpMV handle: made once for a matrix, it keeps the plan (format,
// kernel, converted matrix) and the tuner's state. The format is the
// advisor's choice for the stated number of products unless given. When
// it is SELL-C-sigma, C and sigma are tuned over the products (the
// SELL-C-sigma paper leaves them to the matrix): each new guess rebuilds
// the plan (a conversion, untimed) and its product is timed; the best is
// kept and stored in the tuning cache, so the next handle for the same
// matrix starts with it. Every product, tuning or not, is a correct one.
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "hsparse/plans/cpu_spmv_plan.hpp"
#include "hsparse/tuning/coordinate_tuner.hpp"
#include "hsparse/tuning/fingerprint.hpp"

namespace hsparse {

struct CpuHandleOptions {
  std::optional<Format> format;  // unset: the advisor's choice for spmv_count products
  long long spmv_count = 1000;
  bool tune = true;
  bool use_cache = true;
  std::string cache_path;        // empty: TuningCache::default_path()
  int max_tuning_calls = 40;
};

template <class V, class I>
class CpuSpmvHandle {
 public:
  CpuSpmvHandle(const Csr<V, I>& a, CpuHandleOptions options = {});
  ~CpuSpmvHandle();
  CpuSpmvHandle(CpuSpmvHandle&&) noexcept;

  void apply(V alpha, std::span<const V> x, V beta, std::span<V> y);

  bool matches(const Csr<V, I>& a) const;
  bool tuning() const;
  std::string origin() const;               // "advisor", "given", "tuning", "tuned", "cache"
  std::string description() const;         // the plan in use, e.g. "sell-8-256/avx512(auto)"
  Format format() const { return format_; }
  std::string cache_key() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
  MatrixFingerprint fingerprint_;
  Format format_ = Format::csr;
  int calls_ = 0;
};

}  // namespace hsparse
