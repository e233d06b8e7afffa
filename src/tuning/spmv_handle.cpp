// The SpMV handle (tuning/spmv_handle.hpp): one tuning loop for both
// executors. What differs per backend is the space (tuning_spaces.hpp) and
// how a product is timed: on the CPU a stopwatch around the product, on a
// GPU CUDA events read at the next call, so tuning adds no synchronisation.
// One mutex per handle serializes the products and the reads of the
// tuner's state: a handle may be shared by threads (issue 62).
#include "hsparse/tuning/spmv_handle.hpp"

#include <limits>
#include <mutex>

#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/formats/footprint.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/spmv_registry.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "hsparse/tuning/coordinate_tuner.hpp"
#include "hsparse/tuning/tuning_cache.hpp"
#include "hsparse/tuning/tuning_spaces.hpp"
#include "hsparse/backends/cuda/timing.hpp"

namespace hsparse {

// What the handle tunes (tuning/tuning_spaces.hpp): nothing, a plan's
// layout and kernel (a new plan per guess), or CUDA CSR vector's launch
// shape (one device matrix for all guesses).
using Space = TuningSpace::Kind;

template <class V, class I>
struct SpmvHandle<V, I>::State {
  // Held by every apply() and every read of what apply() changes (the
  // tuner, the plan, calls); what the constructor sets alone is read freely.
  std::mutex mutex;
  int calls = 0;                           // products so far
  std::string key;                         // the tuning cache key (cache_key(), fixed at construction)
  ExecutorPtr ex;
  const Csr<V, I>* host = nullptr;
  Space space = Space::none;
  SpmvOptions base;                        // the plan's options (format, kernel)
  std::string key_name;                    // the space's name in the cache key
  std::vector<TunerAxis> axes;
  std::unique_ptr<SpmvPlan<V, I>> plan;
  std::vector<int> plan_config;
  std::optional<CoordinateTuner> tuner;
  std::vector<int> best;                   // the configuration when not tuning
  std::string origin;                      // "advisor" or "given"
  bool pending = false, from_cache = false;
  std::size_t csr_bytes = 0;               // the CSR's bytes (CSR vector runs on its device copy, without a plan)
  int max_calls = 0;
  std::optional<TuningCache> cache;
  Stopwatch watch;
  std::optional<cuda::DeviceCsr<V, I>> csr;  // CSR vector
  std::unique_ptr<cuda::EventTimer> timer;

  bool on_gpu() const { return ex->backend() == Backend::cuda; }
  // The accessors' bodies, for callers holding the mutex.
  bool tuning() const { return tuner && !tuner->converged(); }
  std::vector<int> configuration() const { return tuner ? tuner->best() : best; }
  void product(V alpha, const V* x, V beta, V* y);
  // The plan for configuration c (built only when it changes; throws when the kernels refuse it).
  void ensure_plan(const std::vector<int>& c) {
    if (plan && plan_config == c) return;
    plan.reset();  // free the old format first: one converted matrix at a time
    plan = std::make_unique<SpmvPlan<V, I>>(ex, *host, c.empty() ? base : tuned_plan_options(ex->backend(), base, c));
    plan_config = c;
  }
  void launch([[maybe_unused]] const std::vector<int>& c, V alpha, const V* x, V beta, V* y) {  // c: the CUDA CSR vector's point
    if (space == Space::csr_vector) {
      cuda::csr_spmv_vector(cuda_executor(*ex, "CSR vector"), alpha, *csr, x, beta, y, csr_vector_params(c));
      return;
    }
    plan->apply(alpha, x, beta, y);
  }
  void start_timer() {
    if (on_gpu()) {
      if (!timer) timer = std::make_unique<cuda::EventTimer>();
      timer->start(cuda_executor(*ex, "a GPU timer"));
      return;
    }
    watch.restart();
  }
  // The GPU's time is read later (pending); the CPU's now.
  void stop_timer() {
    if (on_gpu()) {
      timer->stop(cuda_executor(*ex, "a GPU timer"));
      pending = true;
      return;
    }
    tuner->report(watch.seconds());
  }
  double pending_seconds() {
    if (timer) return timer->seconds();
    return 0;
  }
};

template <class V, class I>
SpmvHandle<V, I>::SpmvHandle(ExecutorPtr ex, const Csr<V, I>& a, HandleOptions o) : state_(new State) {
  State& s = *state_;
  if (!ex) throw Error(ErrorCode::invalid_argument, "an SpMV handle needs an executor (null given)");
  s.ex = std::move(ex);
  s.host = &a;
  s.max_calls = o.max_tuning_calls;
  fingerprint_ = hsparse::fingerprint(a);
  s.csr_bytes = a.bytes();
  const Backend backend = s.ex->backend();
  SpmvOptions& b = s.base;
  if (o.format) {
    b.format = *o.format;
    b.kernel = o.kernel;
    s.origin = "given";
  } else {
    SpmvOptions automatic;
    automatic.format.reset();
    automatic.spmv_count = o.spmv_count;
    automatic.kernel = o.kernel;  // refused there: a kernel needs its format
    b = resolve_spmv_options(backend, a, automatic);
    s.origin = "advisor";
  }
  const TuningSpace space = tuning_space(s.ex, a, b, choose_spmv_kernel(backend, *b.format, b.kernel));
  s.space = space.kind;
  s.key_name = space.key_name;
  s.axes = space.axes;
  for (const auto& axis : s.axes) s.best.push_back(axis.values[axis.start]);
  s.key = cache_key();
  if (o.use_cache && s.space != Space::none) {
    s.cache.emplace(o.cache_path.empty() ? TuningCache::default_path() : o.cache_path);
    if (const auto v = s.cache->find(s.key); v && v->size() == s.axes.size()) {
      s.best = *v;
      s.from_cache = true;
    }
  }
  if (o.tune && s.space != Space::none && !s.from_cache) s.tuner.emplace(s.axes);
  if (s.space == Space::csr_vector) {
    s.csr.emplace(cuda::DeviceCsr<V, I>::upload(a));
    return;
  }
  s.ensure_plan(s.best);  // the first guess (or the cached best), or the untuned plan
}

template <class V, class I>
SpmvHandle<V, I>::~SpmvHandle() = default;
template <class V, class I>
SpmvHandle<V, I>::SpmvHandle(SpmvHandle&&) noexcept = default;

template <class V, class I>
Format SpmvHandle<V, I>::format() const {
  return *state_->base.format;
}

template <class V, class I>
const ExecutorPtr& SpmvHandle<V, I>::executor() const {
  return state_->ex;
}

template <class V, class I>
std::string SpmvHandle<V, I>::cache_key() const {
  const State& s = *state_;
  // The axes' order is part of the key: a cached entry is a list of their values.
  const std::string machine = s.on_gpu() ? cuda::device_description() : "cpu";
  const std::string space = s.space != Space::none ? s.key_name : std::string(to_string(*s.base.format)) + "/" + s.base.kernel;
  return machine + " | " + space + " " + type_name<V>() + " | " + fingerprint_.key();
}

template <class V, class I>
bool SpmvHandle<V, I>::matches(const Csr<V, I>& a) const {
  return same_arrays(fingerprint_, a);
}

template <class V, class I>
bool SpmvHandle<V, I>::tuning() const {
  const std::lock_guard lock(state_->mutex);
  return state_->tuning();
}

template <class V, class I>
int SpmvHandle<V, I>::calls() const {
  const std::lock_guard lock(state_->mutex);
  return state_->calls;
}

template <class V, class I>
std::vector<int> SpmvHandle<V, I>::configuration() const {
  const std::lock_guard lock(state_->mutex);
  return state_->configuration();
}

template <class V, class I>
std::vector<std::string> SpmvHandle<V, I>::axis_names() const {
  std::vector<std::string> names;
  for (const auto& axis : state_->axes) names.push_back(axis.name);
  return names;
}

template <class V, class I>
std::string SpmvHandle<V, I>::origin() const {
  const State& s = *state_;
  const std::lock_guard lock(state_->mutex);
  if (s.from_cache) return "cache";
  if (s.tuner) return s.tuner->converged() ? "tuned" : "tuning";
  return s.space == Space::csr_vector ? "fixed rule" : s.origin;
}

template <class V, class I>
std::string SpmvHandle<V, I>::description() const {
  const State& s = *state_;
  const std::lock_guard lock(state_->mutex);
  if (s.space != Space::csr_vector) return s.plan ? s.plan->description() : std::string(to_string(*s.base.format));
  const auto c = s.configuration();
  return "csr/vector-coop" + std::to_string(c.at(0)) + "-repeat" + std::to_string(c.at(1)) + "-block" + std::to_string(c.at(2));
}

template <class V, class I>
void SpmvHandle<V, I>::apply(V alpha, const Array<V>& x, V beta, Array<V>& y) {
  State& s = *state_;
  for (const Array<V>* v : {&x, static_cast<const Array<V>*>(&y)}) {
    if (!v->executor() || v->executor()->backend() != s.ex->backend()) {
      throw Error(ErrorCode::invalid_argument, "SpmvHandle::apply: an array is not on the handle's executor (" + s.ex->description() + ")");
    }
  }
  check_spmv_dimensions(s.host->rows, s.host->cols, x.size(), y.size());
  apply(alpha, x.data(), beta, y.data());
}

template <class V, class I>
void SpmvHandle<V, I>::apply(V alpha, std::span<const V> x, V beta, std::span<V> y) {
  const State& s = *state_;
  if (s.ex->backend() != Backend::cpu) {
    throw Error(ErrorCode::invalid_argument, "SpmvHandle::apply with host spans needs a CPU handle; this one is on " + s.ex->description() +
                                                 " (pass Arrays or device pointers)");
  }
  check_spmv_dimensions(s.host->rows, s.host->cols, x.size(), y.size());
  apply(alpha, x.data(), beta, y.data());
}

template <class V, class I>
void SpmvHandle<V, I>::apply(V alpha, const V* x, V beta, V* y) {
  State& s = *state_;
  check_spmv_no_overlap(x, static_cast<std::size_t>(s.host->cols) * sizeof(V), y, static_cast<std::size_t>(s.host->rows) * sizeof(V),
                        "SpmvHandle::apply");
  const std::lock_guard lock(s.mutex);
  s.product(alpha, x, beta, y);
}

// One product, the mutex held: a guess while tuning, else the best.
template <class V, class I>
void SpmvHandle<V, I>::State::product(V alpha, const V* x, V beta, V* y) {
  ++calls;
  if (tuning()) {
    CoordinateTuner& t = *tuner;
    if (pending) {  // the previous product's time (GPU): finished long ago in a solver loop
      t.report(pending_seconds());
      pending = false;
      if (calls > max_calls) t.finish();  // out of budget: keep the best measured
    }
    while (!t.converged()) {
      const auto guess = t.next();
      if (space == Space::plan) {
        try {
          ensure_plan(guess);  // a conversion, outside the timed product
        } catch (const Error&) {  // a combination the kernels refuse (BCSR by-block above 5): lost
          t.report(std::numeric_limits<double>::infinity());
          continue;
        }
      }
      start_timer();
      launch(guess, alpha, x, beta, y);
      stop_timer();
      if (!pending && calls >= max_calls) t.finish();
      if (t.converged()) {  // the CPU's last measurement: keep the best from now on
        if (cache) cache->store(key, t.best());
        if (space == Space::plan) ensure_plan(t.best());
      }
      return;
    }
    best = t.best();
    if (cache) cache->store(key, best);
  }
  const std::vector<int> c = configuration();
  if (space == Space::plan) ensure_plan(c);  // the best, if the last guess was another
  launch(c, alpha, x, beta, y);
}

template <class V, class I>
std::size_t SpmvHandle<V, I>::matrix_bytes() const {
  const State& s = *state_;
  const std::lock_guard lock(state_->mutex);
  return s.plan ? s.plan->matrix_bytes() : s.csr_bytes;
}

template <class V, class I>
void SpmvHandle<V, I>::apply(V alpha, const DenseMatrix<V>& x, V beta, DenseMatrix<V>& y) {
  State& s = *state_;
  const std::lock_guard lock(s.mutex);
  // The plan of the best configuration so far (CSR vector's space tunes
  // launch parameters on its own device copy: the block product takes the
  // format's plan with the base options).
  s.ensure_plan(s.space == Space::plan ? s.configuration() : std::vector<int>{});
  s.plan->apply(alpha, x, beta, y);  // checks shapes, executors and overlap
}

template <class V, class I>
void SpmvHandle<V, I>::apply(V alpha, const ConstDenseView<V>& x, V beta, const DenseView<V>& y) {
  State& s = *state_;
  const std::lock_guard lock(s.mutex);
  s.ensure_plan(s.space == Space::plan ? s.configuration() : std::vector<int>{});  // as for DenseMatrix
  s.plan->apply(alpha, x, beta, y);  // checks shapes and overlap
}

#define HSPARSE_INSTANTIATE(V, I) template class SpmvHandle<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
