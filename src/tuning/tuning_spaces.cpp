// The tuning spaces of both backends (tuning/tuning_spaces.hpp).
#include "hsparse/tuning/tuning_spaces.hpp"

#include <algorithm>
#include <cstdlib>

#include "hsparse/backends/cuda/format_spmv.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/formats/footprint.hpp"

namespace hsparse {

namespace {

const std::vector<int> kCpuChunks = {4, 8, 16, 32};
const std::vector<int> kCpuSigmas = {1, 32, 256, 4096, 1 << 30};
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

std::vector<TunerAxis> cpu_sell_tuning_axes(int chunk) {
  return {{"C", kCpuChunks, index_of(kCpuChunks, chunk), +1}, {"sigma", kCpuSigmas, 2, +1}};
}

cuda::CsrVectorParams csr_vector_params(const std::vector<int>& v) { return {v.at(0), v.at(1), v.at(2)}; }
std::vector<int> csr_vector_configuration(const cuda::CsrVectorParams& p) { return {p.coop, p.repeat, p.block_size}; }

std::vector<TunerAxis> csr_vector_tuning_axes(const cuda::CsrVectorParams& f) {
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

std::vector<TunerAxis> cuda_sell_tuning_axes(int threads_per_row, long long sigma) {
  // T grows first (short rows waste threads, long rows want them); sigma
  // grows first (sorting more rows together cuts padding).
  return {{"sigma", kSellSigmas, index_of(kSellSigmas, sigma), +1}, {"T", kSellThreads, index_of(kSellThreads, threads_per_row), +1}};
}

std::vector<TunerAxis> cuda_bcsr_tuning_axes(int block, int algorithm) {
  std::vector<int> blocks = {1, 2, 3, 4, 5, 6, 7, 8};
  return {{"block", blocks, index_of(blocks, block), +1}, {"algorithm", {0, 1, 2}, static_cast<std::size_t>(std::clamp(algorithm, 0, 2)), -1}};
}

int bcsr_algorithm_index(const std::string& kernel) {
  const auto it = std::find(kBcsrAlgorithms.begin(), kBcsrAlgorithms.end(), kernel);
  return it == kBcsrAlgorithms.end() ? -1 : static_cast<int>(it - kBcsrAlgorithms.begin());
}

SpmvOptions tuned_plan_options(Backend backend, const SpmvOptions& base, const std::vector<int>& c) {
  SpmvOptions o = base;
  const bool cpu = backend == Backend::cpu;
  if (c.size() != 2 || !(base.format == Format::sell || (!cpu && base.format == Format::bcsr))) {
    throw Error(ErrorCode::invalid_argument, std::string("no tuning space of ") + std::to_string(c.size()) + " values for " +
                                                 to_string(*base.format) + " on " + to_string(backend));
  }
  if (cpu) {  // SELL: (C, sigma), the kernel as given
    o.layout.chunk = c[0];
    o.layout.sigma = c[1];
  } else if (base.format == Format::sell) {  // (sigma, T); C = 32
    o.layout.sigma = c[0];
    o.layout.chunk = 32;
    o.kernel = c[1] == 1 ? "thread" : "threads";
    if (c[1] == 1) o.params.erase("threads");  // "thread" takes no T
    else o.params["threads"] = c[1];
  } else {  // BCSR: (block, algorithm)
    o.layout.block = c[0];
    o.kernel = kBcsrAlgorithms.at(static_cast<std::size_t>(c[1]));
  }
  return o;
}

template <class V, class I>
TuningSpace tuning_space(const ExecutorPtr& ex, const Csr<V, I>& a, const SpmvOptions& b, const std::string& kernel) {
  TuningSpace t;
  using Kind = TuningSpace::Kind;
  switch (ex->backend()) {
    case Backend::cpu:
      if (b.format == Format::sell && kernel != "reference") {
        // The start: C as the plan picks it (the SIMD width of its kernel), sigma 256.
        const SpmvPlan<V, I> probe(ex, a, b);
        const std::string d = probe.description();  // "sell-C-sigma/kernel"
        t = {Kind::plan, "sell", cpu_sell_tuning_axes(std::stoi(d.substr(d.find('-') + 1)))};
      }
      break;
    case Backend::cuda:
      if (b.format == Format::csr && kernel == "vector") {
        const auto fixed = cuda::csr_vector_fixed_rule(a.rows, static_cast<long long>(a.nnz()), cuda_executor(*ex, "a GPU handle").shape());
        t = {Kind::csr_vector, "csr/vector(coop,repeat,block)", csr_vector_tuning_axes(fixed)};
      } else if (b.format == Format::sell && kernel != "cusparse") {
        const int threads = kernel == "threads" ? static_cast<int>(kernel_param(b, "threads", cuda::kSellDefaultThreadsPerRow)) : 1;
        t = {Kind::plan, "sell-32(sigma,T)", cuda_sell_tuning_axes(threads, std::max<long long>(1, b.layout.sigma))};
      } else if (b.format == Format::bcsr && kernel != "cusparse") {
        const int block = b.layout.block > 0 ? b.layout.block : best_bcsr_block(a);
        const int algorithm = bcsr_algorithm_index(kernel);
        // The plan's auto rule for 1..8: by-column, except 7 (not compiled for it).
        t = {Kind::plan, "bcsr(block,algorithm)", cuda_bcsr_tuning_axes(block, algorithm >= 0 ? algorithm : (block == 7 ? 2 : 1))};
      }
      break;
  }
  return t;
}

#define HSPARSE_INSTANTIATE(V, I) \
  template TuningSpace tuning_space(const ExecutorPtr&, const Csr<V, I>&, const SpmvOptions&, const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse
