// GPU candidates: every hsparse CUDA format and kernel (through
// GpuSpmvPlan) and the cuSPARSE baselines behind the same plan interface:
// CSR ALG1/ALG2 with and without cusparseSpMV_preprocess, COO, SELL (C=32)
// and BSR. Timed with CUDA events, L2 flushed before every repetition.
#include <limits>

#include "bench.hpp"
#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/plans/gpu_spmv_plan.hpp"
#include "hsparse/plans/spmv_kernels.hpp"
#include "hsparse/tuning/advisor.hpp"

namespace hsparse::bench {

namespace {

struct Shared {
  cuda::Executor ex;
  std::unique_ptr<cuda::L2Flusher> flush;
};

std::shared_ptr<Shared> shared_state() {
  static std::weak_ptr<Shared> cache;
  auto s = cache.lock();
  if (!s) {
    s = std::make_shared<Shared>();
    s->flush = std::make_unique<cuda::L2Flusher>(s->ex);
    cache = s;
  }
  return s;
}

}  // namespace

std::vector<CandidateMaker> gpu_candidates(const Csr<V, I>& a, const V* device_x, const Environment& env, long long spmv_count) {
  auto shared = shared_state();
  std::vector<CandidateMaker> makers;
  // o: the plan's options; automatic: ask the advisor first ("auto").
  auto add = [&](const std::string& label, cuda::GpuSpmvOptions o, bool automatic = false) {
    makers.push_back({label, [&a, device_x, shared, o, automatic, &env, spmv_count]() mutable {
                        if (automatic) {
                          MachineModel m;
                          m.backend = "cuda";
                          m.read_bytes_per_s = env.read_bytes_per_s;
                          m.cache_bytes = static_cast<double>(env.cache_bytes);
                          const auto c = advise(a, m, spmv_count).choice();
                          o.format = c.format;
                          o.kernel = c.kernel;
                          o.block = c.block;
                        }
                        auto plan = std::make_shared<cuda::GpuSpmvPlan<V, I>>(shared->ex, a, o);
                        auto y = std::make_shared<cuda::DeviceArray<V>>(static_cast<std::size_t>(a.rows));
                        auto c = std::make_unique<Candidate>();
                        const bool baseline = o.kernel.rfind("cusparse", 0) == 0;
                        c->library = baseline ? "cusparse" : "hsparse";
                        c->format = to_string(o.format);
                        c->kernel = (automatic ? "auto: " : "") + plan->description();
                        c->setup_s = plan->setup_seconds();
                        c->matrix_bytes = static_cast<double>(plan->matrix_bytes());
                        c->stored_entries = plan->stored_entries();
                        c->run_once = [plan, y, device_x, shared, rows = a.rows] {
                          std::vector<V> poison(static_cast<std::size_t>(rows), std::numeric_limits<V>::quiet_NaN());
                          y->upload(poison.data(), poison.size());
                          plan->apply(1.0, device_x, 0.0, y->data());
                          shared->ex.synchronize();
                          return y->download();
                        };
                        c->time = [plan, y, device_x, shared](double min_time_s) {
                          auto run = [&] { plan->apply(1.0, device_x, 0.0, y->data()); };
                          const auto trial = cuda::time_on_device(shared->ex, run, 1, 2, [&] { (*shared->flush)(); });
                          return cuda::time_on_device(shared->ex, run, repetitions_for(min_time_s, trial.median_s), 1,
                                                      [&] { (*shared->flush)(); });
                        };
                        return c;
                      }});
  };
  add("auto", cuda::GpuSpmvOptions{}, true);
  // Every registered CUDA kernel the registry marks as a contender, with its variants.
  for (Format f : all_formats()) {
    for (const auto& k : spmv_registration(Backend::cuda, f).kernels) {
      for (const auto& variant : k.bench) {
        cuda::GpuSpmvOptions o;
        o.format = f;
        o.kernel = k.name;
        apply_bench_variant(variant, o.sigma, &o.cusparse_preprocess);
        add(bench_label(f, k.name, variant), o);
      }
    }
  }
  return makers;
}

}  // namespace hsparse::bench
