// hsparse's SpMV plans as bench candidates, for either executor: every
// kernel the executor's backend registers (kernels/spmv_registry.hpp) with
// its bench variants (on the GPU these include the cuSPARSE baselines,
// which sit behind the same plan interface: CSR ALG1/ALG2 with and without
// cusparseSpMV_preprocess, COO, SELL (C=32), BSR), and "auto", the
// advisor's choice. Timed on the CPU by the wall clock; on the GPU by CUDA
// events in two modes: the L2 flushed before every repetition, and calls
// back to back on the same x.
#include <algorithm>
#include <limits>

#include "bench.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/kernels/spmv_registry.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/tuning/advisor.hpp"
#include "hsparse/backends/cuda/timing.hpp"

namespace hsparse::bench {

namespace {

using TimeFn = std::function<TimingSummary(const std::function<void()>&, double)>;

// The two timing modes: `flushed` (min_time_s of repetitions after one
// trial; GPU: L2 flushed before each) and, on the GPU, `back_to_back` (5
// samples of calls issued back to back, as many as fill a fifth of
// min_time_s, at most 1000, DASP's count). The CPU has one mode: its
// repetitions run back to back (its cache is far smaller than the suite's
// matrices), so back_to_back stays empty there.
struct Timers {
  TimeFn flushed, back_to_back;
};

Timers timers_for(const ExecutorPtr& ex) {
  switch (ex->backend()) {
    case Backend::cpu:
      return {[](const std::function<void()>& run, double min_time_s) {
                Stopwatch trial;
                run();
                return time_repeated(run, repetitions_for(min_time_s, trial.seconds()), 1);
              },
              {}};
    case Backend::cuda:
    {
      const cuda::Executor& cex = cuda_executor(*ex, "the GPU bench");
      auto flush = std::make_shared<cuda::L2Flusher>(cex);
      return {[ex, &cex, flush](const std::function<void()>& run, double min_time_s) {
                const auto trial = cuda::time_on_device(cex, run, 1, 2, [&] { (*flush)(); });
                return cuda::time_on_device(cex, run, repetitions_for(min_time_s, trial.median_s), 1, [&] { (*flush)(); });
              },
              [ex, &cex](const std::function<void()>& run, double min_time_s) {
                const auto trial = cuda::time_back_to_back(cex, run, 1, 1);
                const int calls = std::clamp(repetitions_for(min_time_s / 5, trial.median_s), 1, 1000);
                return cuda::time_back_to_back(cex, run, calls, 5);
              }};
    }
  }
  throw Error(ErrorCode::unsupported, std::string("no bench timer on ") + ex->description());
}

// Plans set up faster than this are built twice (plan_candidates): cheap
// to repeat, and where a build's noise matters against the products' time.
constexpr double kRebuildBelowSeconds = 0.5;

}  // namespace

template <class T>
std::vector<CandidateMaker> plan_candidates(const ExecutorPtr& ex, const Csr<T, I>& a, const T* x, const SpmvReference<T, I>& reference,
                                            const Environment& env, long long spmv_count, std::optional<bool> x_in_l2) {
  const Timers timers = timers_for(ex);
  std::vector<CandidateMaker> makers;
  // o: the plan's options; format "auto" (empty) is the plan's own choice
  // (resolve_spmv_options), for the suite's product count.
  auto add = [&](const std::string& label, SpmvOptions o) {
    // --x-in-l2: every kernel that takes the parameter (not the cuSPARSE baselines; "auto" never chooses them).
    const bool takes_x_in_l2 = !o.format || [&] {
      const auto& params = spmv_kernel(ex->backend(), *o.format, o.kernel).params;
      return std::any_of(params.begin(), params.end(), [](const KernelParam& p) { return p.name == "x_in_l2"; });
    }();
    if (x_in_l2 && takes_x_in_l2) o.params["x_in_l2"] = *x_in_l2 ? 1 : 0;
    makers.push_back({label, [&a, x, ex, timers, o, &env, &reference]() mutable {
                        const bool automatic = !o.format;
                        // "auto": the library's one choice (resolve_spmv_options), timed
                        // on its own, then built like every other candidate: the
                        // setup below is the plan's, not the analysis' memory churn.
                        double choice_s = 0;
                        if (automatic) {
                          // On the machine the bench measured at its start (idle), as
                          // every other figure of its report.
                          MachineModel m = machine_shape(to_string(ex->backend()));
                          m.read_bytes_per_s = env.read_bytes_per_s;
                          m.cache_bytes = static_cast<double>(env.cache_bytes);
                          const Stopwatch choice;
                          o = resolve_spmv_options(ex->backend(), a, o, nullptr, &m);
                          choice_s = choice.seconds();
                        }
                        // The setup: the faster of two builds where one is short. The
                        // same options' setup varied by 40-70 ms from build to build on
                        // the H200's host (circuit's CSR adaptive: 114 ms as "auto",
                        // first, and 66 ms later in the same run; power law's 30 and
                        // 101 ms, docs/results/2026-11-26-csr-adaptive-bcsr-lanes-h200), more than the
                        // margins the auto goal compares. The first is destroyed
                        // before the second: the peak memory stays one plan's.
                        auto plan = std::make_shared<const SpmvPlan<T, I>>(ex, a, o);
                        double setup_s = plan->setup_seconds();
                        if (setup_s < kRebuildBelowSeconds) {
                          plan.reset();
                          plan = std::make_shared<const SpmvPlan<T, I>>(ex, a, o);
                          setup_s = std::min(setup_s, plan->setup_seconds());
                        }
                        auto y = std::make_shared<Array<T>>(ex, static_cast<std::size_t>(a.rows));
                        auto c = std::make_unique<Candidate>();
                        const bool baseline = o.kernel.rfind("cusparse", 0) == 0;
                        c->library = baseline ? "cusparse" : "hsparse";
                        c->format = to_string(plan->format());
                        c->choice_s = choice_s;
                        c->kernel = (automatic ? "auto: " : "") + plan->description();
                        c->setup_s = setup_s;
                        c->matrix_bytes = static_cast<double>(plan->matrix_bytes());
                        c->stored_entries = plan->stored_entries();
                        c->run_and_check = [plan, y, x, &reference](double rounding) {
                          // poison: every row must be written
                          y->assign(std::vector<T>(y->size(), T(std::numeric_limits<double>::quiet_NaN())));
                          plan->apply(T(1), x, T(0), y->data());
                          plan->executor()->synchronize();
                          return reference.check(y->to_host(), rounding);
                        };
                        c->time = [plan, y, x, t = timers.flushed](double min_time_s) { return t([&] { plan->apply(T(1), x, T(0), y->data()); }, min_time_s); };
                        if (timers.back_to_back) {
                          c->time_back_to_back = [plan, y, x, t = timers.back_to_back](double min_time_s) {
                            return t([&] { plan->apply(T(1), x, T(0), y->data()); }, min_time_s);
                          };
                        }
                        return c;
                      }});
  };
  SpmvOptions automatic;
  automatic.format.reset();
  automatic.spmv_count = spmv_count;
  add("auto", automatic);
  // Every registered kernel the registry marks as a contender, with its variants.
  for (Format f : all_formats()) {
    for (const auto& k : spmv_registration(ex->backend(), f).kernels) {
      for (const auto& variant : k.bench) {
        SpmvOptions o;
        o.format = f;
        o.kernel = k.name;
        apply_bench_variant(variant, o);
        add(bench_label(f, k.name, variant), o);
      }
    }
  }
  return makers;
}

template std::vector<CandidateMaker> plan_candidates(const ExecutorPtr&, const Csr<double, I>&, const double*, const SpmvReference<double, I>&,
                                                     const Environment&, long long, std::optional<bool>);
template std::vector<CandidateMaker> plan_candidates(const ExecutorPtr&, const Csr<std::complex<double>, I>&, const std::complex<double>*,
                                                     const SpmvReference<std::complex<double>, I>&, const Environment&, long long, std::optional<bool>);

}  // namespace hsparse::bench
