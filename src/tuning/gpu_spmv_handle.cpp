#include "hsparse/tuning/gpu_spmv_handle.hpp"

#include <algorithm>

#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/tuning/tuning_cache.hpp"

namespace hsparse::cuda {

std::vector<TunerAxis> csr_vector_tuning_axes(const CsrVectorParams& f) {
  TunerAxis repeat{"repeat", {}, 0, -1};
  for (int r = f.repeat; r >= 1; r /= 2) repeat.values.push_back(r);
  if (repeat.values.back() != 1) repeat.values.push_back(1);
  std::reverse(repeat.values.begin(), repeat.values.end());
  repeat.start = repeat.values.size() - 1;  // the fixed rule's repeat
  for (int r = f.repeat * 2; r <= f.repeat * 8 && r <= (1 << 20); r *= 2) repeat.values.push_back(r);
  TunerAxis coop{"coop", {1, 2, 4, 8, 16, 32}, 0, +1};
  coop.start = static_cast<std::size_t>(std::find(coop.values.begin(), coop.values.end(), f.coop) - coop.values.begin());
  if (coop.start >= coop.values.size()) coop.start = 0;
  TunerAxis block{"block", {}, 0, +1};
  for (int b = 64; b <= 512; b += 32) block.values.push_back(b);
  block.start = static_cast<std::size_t>(std::find(block.values.begin(), block.values.end(), f.block_size) - block.values.begin());
  if (block.start >= block.values.size()) block.start = 2;  // 128
  return {repeat, coop, block};
}

template <class V, class I>
struct GpuSpmvHandle<V, I>::State {
  const Executor* ex = nullptr;
  DeviceCsr<V, I> matrix;
  std::optional<CoordinateTuner> tuner;
  CsrVectorParams best{};
  EventTimer timer;
  bool pending = false, from_cache = false;
  int max_calls = 0;
  std::optional<TuningCache> cache;
};

namespace {
CsrVectorParams params_of(const std::vector<int>& v) { return {v[1], v[0], v[2]}; }  // axes: repeat, coop, block
}  // namespace

template <class V, class I>
GpuSpmvHandle<V, I>::GpuSpmvHandle(const Executor& ex, const Csr<V, I>& a, GpuHandleOptions o) : state_(new State) {
  State& s = *state_;
  s.ex = &ex;
  s.matrix = DeviceCsr<V, I>::upload(a);
  s.max_calls = o.max_tuning_calls;
  fingerprint_ = hsparse::fingerprint(a);
  fixed_ = csr_vector_fixed_rule(a.rows, static_cast<long long>(a.nnz()));
  s.best = fixed_;
  if (o.use_cache) {
    s.cache.emplace(o.cache_path.empty() ? TuningCache::default_path() : o.cache_path);
    if (const auto v = s.cache->find(cache_key()); v && v->size() == 3) {
      s.best = params_of(*v);
      s.from_cache = true;
      return;  // starts tuned
    }
  }
  if (o.tune) s.tuner.emplace(csr_vector_tuning_axes(fixed_));
}

template <class V, class I>
GpuSpmvHandle<V, I>::~GpuSpmvHandle() = default;
template <class V, class I>
GpuSpmvHandle<V, I>::GpuSpmvHandle(GpuSpmvHandle&&) noexcept = default;

template <class V, class I>
std::string GpuSpmvHandle<V, I>::cache_key() const {
  return device_description() + " | csr/vector " + type_name<V>() + " | " + fingerprint_.key();
}

template <class V, class I>
bool GpuSpmvHandle<V, I>::matches(const Csr<V, I>& a) const {
  return same_arrays(fingerprint_, a);
}

template <class V, class I>
bool GpuSpmvHandle<V, I>::tuning() const {
  return state_->tuner && !state_->tuner->converged();
}

template <class V, class I>
CsrVectorParams GpuSpmvHandle<V, I>::parameters() const {
  return state_->tuner ? params_of(state_->tuner->best()) : state_->best;
}

template <class V, class I>
std::string GpuSpmvHandle<V, I>::origin() const {
  if (state_->from_cache) return "cache";
  if (!state_->tuner) return "fixed rule";
  return state_->tuner->converged() ? "tuned" : "tuning";
}

template <class V, class I>
void GpuSpmvHandle<V, I>::apply(V alpha, const V* x, V beta, V* y) {
  State& s = *state_;
  ++calls_;
  if (!tuning()) {
    csr_spmv_vector(*s.ex, alpha, s.matrix, x, beta, y, parameters());
    return;
  }
  CoordinateTuner& t = *s.tuner;
  if (s.pending) {  // the previous product's time: finished long ago in a solver loop
    t.report(s.timer.seconds());
    s.pending = false;
    if (calls_ > s.max_calls) {
      t.finish();  // out of budget: keep the best measured
    }
    if (t.converged()) {
      if (s.cache) s.cache->store(cache_key(), t.best());
      csr_spmv_vector(*s.ex, alpha, s.matrix, x, beta, y, parameters());
      return;
    }
  }
  s.timer.start(*s.ex);
  csr_spmv_vector(*s.ex, alpha, s.matrix, x, beta, y, params_of(t.next()));
  s.timer.stop(*s.ex);
  s.pending = true;
}

#define HSPARSE_INSTANTIATE(V, I) template class GpuSpmvHandle<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
