#include "hsparse/tuning/gpu_spmv_handle.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "hsparse/tuning/tuning_cache.hpp"

namespace hsparse::cuda {

namespace {

// What the handle tunes: nothing, CSR vector's launch shape, or a plan's
// options (SELL, BCSR) that need a new plan for each guess.
enum class Space { none, csr_vector, sell, bcsr };

const std::vector<std::string> kBcsrAlgorithms = {"by-block", "by-column", "row-per-thread"};
const std::vector<int> kSellThreads = {1, 2, 4, 8, 16, 32};
// Sigma at most C (32) sorts rows inside one chunk, which changes nothing:
// the first step past 1 must already span several chunks.
const std::vector<int> kSellSigmas = {1, 128, 1024, 8192, 65536, 1 << 30};

std::size_t index_of(const std::vector<int>& values, long long v) {
  std::size_t best = 0;  // the nearest value
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::llabs(values[i] - v) < std::llabs(values[best] - v)) best = i;
  }
  return best;
}

}  // namespace

CsrVectorParams csr_vector_params(const std::vector<int>& v) { return {v.at(0), v.at(1), v.at(2)}; }
std::vector<int> csr_vector_configuration(const CsrVectorParams& p) { return {p.coop, p.repeat, p.block_size}; }

std::vector<TunerAxis> csr_vector_tuning_axes(const CsrVectorParams& f) {
  TunerAxis repeat{"repeat", {}, 0, -1};
  for (int r = f.repeat; r >= 1; r /= 2) repeat.values.push_back(r);
  if (repeat.values.back() != 1) repeat.values.push_back(1);
  std::reverse(repeat.values.begin(), repeat.values.end());
  repeat.start = repeat.values.size() - 1;  // the fixed rule's repeat
  for (int r = f.repeat * 2; r <= f.repeat * 8 && r <= (1 << 20); r *= 2) repeat.values.push_back(r);
  TunerAxis coop{"coop", {1, 2, 4, 8, 16, 32}, 0, +1};
  coop.start = index_of(coop.values, f.coop);
  TunerAxis block{"block", {}, 0, +1};
  for (int b = 64; b <= 512; b += 32) block.values.push_back(b);
  block.start = index_of(block.values, f.block_size);
  return {coop, repeat, block};
}

std::vector<TunerAxis> sell_tuning_axes(int threads_per_row, long long sigma) {
  // T grows first (short rows waste threads, long rows want them); sigma
  // grows first (sorting more rows together cuts padding).
  return {{"sigma", kSellSigmas, index_of(kSellSigmas, sigma), +1}, {"T", kSellThreads, index_of(kSellThreads, threads_per_row), +1}};
}

std::vector<TunerAxis> bcsr_tuning_axes(int block, int algorithm) {
  std::vector<int> blocks = {1, 2, 3, 4, 5, 6, 7, 8};
  return {{"block", blocks, index_of(blocks, block), +1}, {"algorithm", {0, 1, 2}, static_cast<std::size_t>(std::clamp(algorithm, 0, 2)), -1}};
}

GpuSpmvOptions tuned_plan_options(Format format, const std::vector<int>& c) {
  GpuSpmvOptions o;
  o.format = format;
  if (format == Format::sell) {
    o.sigma = c.at(0);
    o.kernel = c.at(1) == 1 ? "thread" : "threads";
    o.threads_per_row = c.at(1);
    o.chunk = 32;
  } else if (format == Format::bcsr) {
    o.block = c.at(0);
    o.kernel = kBcsrAlgorithms.at(static_cast<std::size_t>(c.at(1)));
  }
  return o;
}

template <class V, class I>
struct GpuSpmvHandle<V, I>::State {
  const Executor* ex = nullptr;
  const Csr<V, I>* host = nullptr;
  Space space = Space::none;
  GpuSpmvOptions base;                      // the plan's options (format, kernel)
  std::optional<DeviceCsr<V, I>> csr;       // CSR vector: one device matrix for every guess
  std::unique_ptr<GpuSpmvPlan<V, I>> plan;  // the other kernels
  std::vector<int> plan_config;
  std::optional<CoordinateTuner> tuner;
  std::vector<int> best;                    // the configuration when not tuning
  EventTimer timer;
  bool pending = false, from_cache = false;
  int max_calls = 0;
  std::optional<TuningCache> cache;

  GpuSpmvOptions options_for(const std::vector<int>& c) const {
    return space == Space::sell || space == Space::bcsr ? tuned_plan_options(base.format, c) : base;
  }
  // The plan for configuration c (built only when it changes; throws when the kernels refuse it).
  void ensure_plan(const std::vector<int>& c) {
    if (plan && plan_config == c) return;
    plan.reset();  // free the old format first: one on the device at a time
    plan = std::make_unique<GpuSpmvPlan<V, I>>(*ex, *host, options_for(c));
    plan_config = c;
  }
  void launch(const std::vector<int>& c, V alpha, const V* x, V beta, V* y) {
    if (space == Space::csr_vector) {
      csr_spmv_vector(*ex, alpha, *csr, x, beta, y, csr_vector_params(c));
    } else {
      plan->apply(alpha, x, beta, y);
    }
  }
};

template <class V, class I>
GpuSpmvHandle<V, I>::GpuSpmvHandle(const Executor& ex, const Csr<V, I>& a, GpuHandleOptions o) : state_(new State) {
  State& s = *state_;
  s.ex = &ex;
  s.host = &a;
  s.max_calls = o.max_tuning_calls;
  fingerprint_ = hsparse::fingerprint(a);
  fixed_ = csr_vector_fixed_rule(a.rows, static_cast<long long>(a.nnz()), ex.shape());
  GpuSpmvOptions& b = s.base;
  if (o.format) {
    b.format = *o.format;
    b.kernel = o.kernel;
  } else if constexpr (!is_complex_v<V>) {  // format=auto
    const auto c = advise(a, measured_machine("cuda"), o.spmv_count).choice();
    b.format = c.format;
    b.kernel = c.kernel;
    b.block = c.block;
  } else {
    b.format = Format::csr;  // complex: CSR vector, the advisor models real matrices
    b.kernel = "vector";
  }
  std::vector<TunerAxis> axes;
  if (b.format == Format::csr && b.kernel == "vector") {
    s.space = Space::csr_vector;
    axes = csr_vector_tuning_axes(fixed_);
    s.best = csr_vector_configuration(fixed_);
  } else if constexpr (!is_complex_v<V>) {
    if (b.format == Format::sell && b.kernel != "cusparse") {
      s.space = Space::sell;
      axes = sell_tuning_axes(b.kernel == "threads" ? b.threads_per_row : 1, b.sigma);
    } else if (b.format == Format::bcsr && b.kernel != "cusparse") {
      s.space = Space::bcsr;
      const int block = b.block > 0 ? b.block : best_bcsr_block(a);
      const auto algorithm = std::find(kBcsrAlgorithms.begin(), kBcsrAlgorithms.end(), b.kernel);
      // The plan's auto rule for 1..8: by-column, except 7 (not compiled for it).
      const int start = algorithm != kBcsrAlgorithms.end() ? static_cast<int>(algorithm - kBcsrAlgorithms.begin()) : (block == 7 ? 2 : 1);
      axes = bcsr_tuning_axes(block, start);
    }
  }
  if (!axes.empty() && s.best.empty()) {
    for (const auto& axis : axes) s.best.push_back(axis.values[axis.start]);
  }
  if (o.use_cache && s.space != Space::none) {
    s.cache.emplace(o.cache_path.empty() ? TuningCache::default_path() : o.cache_path);
    if (const auto v = s.cache->find(cache_key()); v && v->size() == axes.size()) {
      s.best = *v;
      s.from_cache = true;
    }
  }
  if (o.tune && s.space != Space::none && !s.from_cache) s.tuner.emplace(axes);
  if (s.space == Space::csr_vector) {
    s.csr.emplace(DeviceCsr<V, I>::upload(a));
  } else {
    s.ensure_plan(s.best);  // the first guess (or the cached best), or the untuned plan
  }
}

template <class V, class I>
GpuSpmvHandle<V, I>::~GpuSpmvHandle() = default;
template <class V, class I>
GpuSpmvHandle<V, I>::GpuSpmvHandle(GpuSpmvHandle&&) noexcept = default;

template <class V, class I>
Format GpuSpmvHandle<V, I>::format() const {
  return state_->base.format;
}

template <class V, class I>
std::string GpuSpmvHandle<V, I>::cache_key() const {
  const State& s = *state_;
  // The axes' order is part of the key: a cached entry is a list of their values.
  const std::string kernel = s.space == Space::csr_vector ? "csr/vector(coop,repeat,block)"
                             : s.space == Space::sell    ? "sell-32(sigma,T)"
                             : s.space == Space::bcsr    ? "bcsr(block,algorithm)"
                                                         : std::string(to_string(s.base.format)) + "/" + s.base.kernel;
  return device_description() + " | " + kernel + " " + type_name<V>() + " | " + fingerprint_.key();
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
std::vector<int> GpuSpmvHandle<V, I>::configuration() const {
  return state_->tuner ? state_->tuner->best() : state_->best;
}

template <class V, class I>
CsrVectorParams GpuSpmvHandle<V, I>::parameters() const {
  if (state_->space != Space::csr_vector) return fixed_;
  return csr_vector_params(configuration());
}

template <class V, class I>
std::string GpuSpmvHandle<V, I>::origin() const {
  const State& s = *state_;
  if (s.from_cache) return "cache";
  if (!s.tuner) return s.space == Space::csr_vector ? "fixed rule" : "default";
  return s.tuner->converged() ? "tuned" : "tuning";
}

template <class V, class I>
std::string GpuSpmvHandle<V, I>::description() const {
  const State& s = *state_;
  if (s.space != Space::csr_vector) return s.plan ? s.plan->description() : std::string(to_string(s.base.format));
  const auto p = parameters();
  return "csr/vector-coop" + std::to_string(p.coop) + "-repeat" + std::to_string(p.repeat) + "-block" + std::to_string(p.block_size);
}

template <class V, class I>
void GpuSpmvHandle<V, I>::apply(V alpha, const V* x, V beta, V* y) {
  State& s = *state_;
  ++calls_;
  if (tuning()) {
    CoordinateTuner& t = *s.tuner;
    if (s.pending) {  // the previous product's time: finished long ago in a solver loop
      t.report(s.timer.seconds());
      s.pending = false;
      if (calls_ > s.max_calls) t.finish();  // out of budget: keep the best measured
    }
    while (!t.converged()) {
      const auto guess = t.next();
      if (s.space != Space::csr_vector) {
        try {
          s.ensure_plan(guess);
        } catch (const Error&) {  // a combination the kernels refuse (BCSR by-block above 5): lost
          t.report(std::numeric_limits<double>::infinity());
          continue;
        }
      }
      s.timer.start(*s.ex);
      s.launch(guess, alpha, x, beta, y);
      s.timer.stop(*s.ex);
      s.pending = true;
      return;
    }
    s.best = t.best();
    if (s.cache) s.cache->store(cache_key(), s.best);
  }
  const std::vector<int> c = configuration();
  if (s.space != Space::csr_vector) s.ensure_plan(c);  // the best, if the last guess was another
  s.launch(c, alpha, x, beta, y);
}

#define HSPARSE_INSTANTIATE(V, I) template class GpuSpmvHandle<V, I>;
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
