// ILU(0) and IC(0) as preconditioners (preconditioner_op.hpp): the
// factorisation once (kernels/incomplete_factorization.hpp), then M^-1 r =
// U^-1 (L^-1 r) by two sparse triangular solves per application. IC(0)'s U
// is L^H, stored explicitly (a transpose at setup) so that both solves read
// rows. On the CPU the solves are level-scheduled (OpenMP over a level's
// rows); on the GPU each triangle times both of its algorithms, level-
// scheduled and synchronisation-free (Liu et al., Euro-Par 2016), at setup
// and keeps the faster: which wins depends on the levels' count and width,
// so it is measured per matrix rather than predicted.
#include <complex>
#include <optional>
#include <string>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/backends/cuda/triangular_solve.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/kernels/incomplete_factorization.hpp"
#include "preconditioner_op.hpp"

namespace hsparse::detail {

namespace {

template <class V, class I>
struct Factors {
  Csr<V, I> l, u;  // L (unit diagonal not stored for ILU(0)), U (diagonal stored)
  bool unit_l = true;
};

template <class V, class I>
Factors<V, I> factor(const ExecutorPtr& ex, const Csr<V, I>& a, Preconditioner kind) {
  const bool cpu = ex->backend() == Backend::cpu;
  Factors<V, I> f;
  if (kind == Preconditioner::ilu0) {
    const Csr<V, I> lu = cpu ? openmp::ilu0(a) : cuda::ilu0(cuda_executor(*ex, "ILU(0)"), a);
    std::tie(f.l, f.u) = split_lu(lu);
  } else {
    f.l = cpu ? openmp::ic0(a) : cuda::ic0(cuda_executor(*ex, "IC(0)"), a);
    f.u = transpose(f.l, true);
    f.unit_l = false;
  }
  return f;
}

// One triangle on the CPU: substitution in row order (serial) or level by
// level with OpenMP over each level's rows, whichever setup timed faster:
// a level costs a barrier, so a grid's many narrow levels (a 2D stencil has
// rows + columns - 1 of them) can make the parallel solve the slower one.
template <class V, class I>
struct CpuTriangle {
  Csr<V, I> t;
  Triangle which;
  bool unit;
  LevelSchedule levels;
  bool parallel = true;
  double seconds = 0;
  void solve(const V* b, V* x) const {
    const auto n = static_cast<std::size_t>(t.rows);
    if (parallel) return openmp::triangular_solve<V, I>(t, levels, which, unit, {b, n}, {x, n});
    reference::triangular_solve<V, I>(t, which, unit, {b, n}, {x, n});
  }
  void choose(const V* b, V* x) {
    double best = -1;
    bool best_parallel = true;
    for (bool p : {true, false}) {
      parallel = p;
      solve(b, x);
      constexpr int kTimes = 3;
      const Stopwatch w;
      for (int i = 0; i < kTimes; ++i) solve(b, x);
      const double per = w.seconds() / kTimes;
      if (best < 0 || per < best) {
        best = per;
        best_parallel = p;
      }
    }
    parallel = best_parallel;
    seconds = best;
  }
  std::string describe(const char* name) const {
    char s[160];
    std::snprintf(s, sizeof s, "%s %s (%lld levels, %.1f us at setup)", name, parallel ? "level-scheduled" : "serial", static_cast<long long>(levels.levels()),
                  seconds * 1e6);
    return s;
  }
};

template <class V, class I>
class IncompleteCpu final : public PreconditionerOp<V> {
 public:
  IncompleteCpu(const ExecutorPtr& ex, Factors<V, I> f, std::string name)
      : lower_{std::move(f.l), Triangle::lower, f.unit_l, {}}, upper_{std::move(f.u), Triangle::upper, false, {}},
        tmp_(ex, static_cast<std::size_t>(lower_.t.rows)), name_(std::move(name)) {
    lower_.levels = triangular_levels(lower_.t, Triangle::lower);
    upper_.levels = triangular_levels(upper_.t, Triangle::upper);
    const std::vector<V> ones(tmp_.size(), V(1));
    std::vector<V> out(tmp_.size());
    lower_.choose(ones.data(), out.data());
    upper_.choose(ones.data(), out.data());
  }
  void apply(const V* r, V* z) const override {
    lower_.solve(r, tmp_.data());
    upper_.solve(tmp_.data(), z);
  }
  std::string description() const override {
    return name_ + ", triangular solves: " + lower_.describe("L") + ", " + upper_.describe("U") + ", the faster of serial and level-scheduled measured";
  }

 private:
  CpuTriangle<V, I> lower_, upper_;
  mutable Array<V> tmp_;
  std::string name_;
};

const char* algorithm_name(cuda::TriangularAlgorithm a) { return a == cuda::TriangularAlgorithm::sync_free ? "sync-free" : "level-scheduled"; }

// The faster of the two algorithms for one triangle, timed on the device
// (five solves each after one to warm up).
template <class V, class I>
cuda::TriangularSolve<V, I> fastest_solve(const cuda::Executor& ex, const Csr<V, I>& t, Triangle which, bool unit, const V* b, V* x, double* seconds) {
  std::optional<cuda::TriangularSolve<V, I>> best;
  double best_s = 0;
  for (cuda::TriangularAlgorithm alg : {cuda::TriangularAlgorithm::level_scheduled, cuda::TriangularAlgorithm::sync_free}) {
    cuda::TriangularSolve<V, I> s(ex, t, which, unit, alg);
    s.solve(b, x);
    ex.synchronize();
    constexpr int kTimes = 5;
    const Stopwatch w;
    for (int i = 0; i < kTimes; ++i) s.solve(b, x);
    ex.synchronize();
    const double per = w.seconds() / kTimes;
    if (!best || per < best_s) {
      best.emplace(std::move(s));
      best_s = per;
    }
  }
  *seconds = best_s;
  return std::move(*best);
}

template <class V, class I>
class IncompleteGpu final : public PreconditionerOp<V> {
 public:
  IncompleteGpu(const ExecutorPtr& ex, const Factors<V, I>& f, std::string name)
      : tmp_(ex, static_cast<std::size_t>(f.l.rows)), name_(std::move(name)) {
    const cuda::Executor& gpu = cuda_executor(*ex, name_.c_str());
    Array<V> b(ex, std::vector<V>(static_cast<std::size_t>(f.l.rows), V(1)));
    lower_.emplace(fastest_solve(gpu, f.l, Triangle::lower, f.unit_l, b.data(), tmp_.data(), &lower_s_));
    upper_.emplace(fastest_solve(gpu, f.u, Triangle::upper, false, b.data(), tmp_.data(), &upper_s_));
  }
  void apply(const V* r, V* z) const override {
    lower_->solve(r, tmp_.data());
    upper_->solve(tmp_.data(), z);
  }
  std::string description() const override {
    char t[128];
    std::snprintf(t, sizeof t, " (%.1f and %.1f us at setup)", lower_s_ * 1e6, upper_s_ * 1e6);
    return name_ + ", triangular solves: L " + algorithm_name(lower_->algorithm()) + " over " + std::to_string(lower_->levels()) + " levels, U " +
           algorithm_name(upper_->algorithm()) + " over " + std::to_string(upper_->levels()) + " levels, the faster of both measured" + t;
  }

 private:
  mutable Array<V> tmp_;
  std::string name_;
  std::optional<cuda::TriangularSolve<V, I>> lower_, upper_;
  double lower_s_ = 0, upper_s_ = 0;
};

}  // namespace

template <class V, class I>
PreconditionerPtr<V> make_incomplete(const ExecutorPtr& ex, const Csr<V, I>& a, Preconditioner kind) {
  if (kind != Preconditioner::ilu0 && kind != Preconditioner::ic0) {
    throw Error(ErrorCode::invalid_argument, std::string("make_incomplete: ilu0 or ic0, not ") + to_string(kind));
  }
  const Stopwatch w;
  Factors<V, I> f = factor(ex, a, kind);
  char name[96];
  std::snprintf(name, sizeof name, "%s (factorised on the %s in %.3f ms)", kind == Preconditioner::ilu0 ? "ILU(0)" : "IC(0)",
                ex->backend() == Backend::cpu ? "CPU" : "GPU", w.seconds() * 1e3);
  if (ex->backend() == Backend::cpu) return std::make_unique<IncompleteCpu<V, I>>(ex, std::move(f), name);
  return std::make_unique<IncompleteGpu<V, I>>(ex, f, name);
}

#define HSPARSE_INSTANTIATE(V, I) template PreconditionerPtr<V> make_incomplete(const ExecutorPtr&, const Csr<V, I>&, Preconditioner);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::detail
