#include "hsparse/tuning/cpu_spmv_handle.hpp"

#include <algorithm>

#include "hsparse/core/timer.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "hsparse/tuning/tuning_cache.hpp"

namespace hsparse {

namespace {
const std::vector<int> kChunks = {4, 8, 16, 32};
const std::vector<int> kSigmas = {1, 32, 256, 4096, 1 << 30};
}  // namespace

template <class V, class I>
struct CpuSpmvHandle<V, I>::State {
  const Csr<V, I>* matrix = nullptr;
  CpuSpmvOptions options;
  std::unique_ptr<CpuSpmvPlan<V, I>> plan;
  std::vector<int> plan_config;  // (C, sigma) of the plan, SELL only
  std::optional<CoordinateTuner> tuner;
  std::optional<TuningCache> cache;
  std::string origin;
  int max_calls = 0;

  void build(const std::vector<int>& config) {
    CpuSpmvOptions o = options;
    if (!config.empty()) {
      o.chunk = config[0];
      o.sigma = config[1];
    }
    plan = std::make_unique<CpuSpmvPlan<V, I>>(*matrix, o);
    plan_config = config;
  }
};

template <class V, class I>
CpuSpmvHandle<V, I>::CpuSpmvHandle(const Csr<V, I>& a, CpuHandleOptions o) : state_(new State) {
  State& s = *state_;
  s.matrix = &a;
  s.max_calls = o.max_tuning_calls;
  fingerprint_ = hsparse::fingerprint(a);
  if (o.format) {
    s.options.format = *o.format;
    s.origin = "given";
  } else {
    s.options = advised_cpu_options(a, o.spmv_count);
    s.origin = "advisor";
  }
  format_ = s.options.format;
  std::vector<int> start;
  if (format_ == Format::sell) {
    // The defaults: C the SIMD width (as the plan picks it), sigma 256.
    const CpuSpmvPlan<V, I> probe(a, s.options);
    const std::string d = probe.description();  // "sell-C-sigma/kernel"
    const int c = std::stoi(d.substr(5));
    start = {c, 256};
    if (o.use_cache) {
      s.cache.emplace(o.cache_path.empty() ? TuningCache::default_path() : o.cache_path);
      if (const auto v = s.cache->find(cache_key()); v && v->size() == 2) {
        s.origin = "cache";
        s.build(*v);
        return;
      }
    }
    if (o.tune) {
      const auto ci = static_cast<std::size_t>(std::find(kChunks.begin(), kChunks.end(), c) - kChunks.begin());
      s.tuner.emplace(std::vector<TunerAxis>{{"C", kChunks, std::min(ci, kChunks.size() - 1), +1}, {"sigma", kSigmas, 2, +1}});
    }
  }
  s.build(start);
}

template <class V, class I>
CpuSpmvHandle<V, I>::~CpuSpmvHandle() = default;
template <class V, class I>
CpuSpmvHandle<V, I>::CpuSpmvHandle(CpuSpmvHandle&&) noexcept = default;

template <class V, class I>
std::string CpuSpmvHandle<V, I>::cache_key() const {
  return std::string("cpu | sell ") + type_name<V>() + " | " + fingerprint_.key();
}

template <class V, class I>
bool CpuSpmvHandle<V, I>::matches(const Csr<V, I>& a) const {
  return same_arrays(fingerprint_, a);
}

template <class V, class I>
bool CpuSpmvHandle<V, I>::tuning() const {
  return state_->tuner && !state_->tuner->converged();
}

template <class V, class I>
std::string CpuSpmvHandle<V, I>::origin() const {
  if (state_->tuner) return state_->tuner->converged() ? "tuned" : "tuning";
  return state_->origin;
}

template <class V, class I>
std::string CpuSpmvHandle<V, I>::description() const {
  return state_->plan->description();
}

template <class V, class I>
void CpuSpmvHandle<V, I>::apply(V alpha, std::span<const V> x, V beta, std::span<V> y) {
  State& s = *state_;
  ++calls_;
  if (!tuning()) {
    s.plan->apply(alpha, x, beta, y);
    return;
  }
  CoordinateTuner& t = *s.tuner;
  const auto next = t.next();
  if (next != s.plan_config) s.build(next);  // a conversion, outside the timed product
  Stopwatch watch;
  s.plan->apply(alpha, x, beta, y);
  t.report(watch.seconds());
  if (calls_ >= s.max_calls) {
    t.finish();  // out of budget: keep the best measured
  }
  if (t.converged()) {
    if (t.best() != s.plan_config) s.build(t.best());
    if (s.cache) s.cache->store(cache_key(), t.best());
  }
}

#define HSPARSE_INSTANTIATE(V, I) template class CpuSpmvHandle<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
