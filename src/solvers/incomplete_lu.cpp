// ILU(0) and IC(0) as preconditioners (preconditioner_op.hpp): the
// factorisation once (kernels/incomplete_factorization.hpp), then M^-1 r =
// U^-1 (L^-1 r) by two sparse triangular solves per application. IC(0)'s U
// is L^H, stored explicitly (a transpose at setup) so that both solves read
// rows. On the CPU the solves are level-scheduled (OpenMP over a level's
// rows); on the GPU each triangle times both of its algorithms, level-
// scheduled and synchronisation-free (Liu et al., Euro-Par 2016), at setup
// and keeps the faster: which wins depends on the levels' count and width,
// so it is measured per matrix rather than predicted.
#include <omp.h>

#include <algorithm>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/backends/cuda/triangular_solve.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/core/types.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/kernels/incomplete_factorization.hpp"
#include "hsparse/plans/spmv_plan.hpp"
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

// A triangle's entries off the diagonal, and the inverse of its diagonal
// (none where unit; nonzero: the factorisation checked its pivots).
template <class V, class I>
std::pair<Csr<V, I>, std::vector<V>> strict_and_inverse_diagonal(const Csr<V, I>& t, bool unit) {
  Csr<V, I> strict;
  strict.rows = t.rows;
  strict.cols = t.cols;
  strict.row_ptr.assign(static_cast<std::size_t>(t.rows) + 1, 0);
  std::vector<V> dinv(unit ? 0 : static_cast<std::size_t>(t.rows), V(0));
  for (I i = 0; i < t.rows; ++i) {
    for (auto k = t.row_ptr[static_cast<std::size_t>(i)]; k < t.row_ptr[static_cast<std::size_t>(i) + 1]; ++k) {
      const I c = t.col_idx[static_cast<std::size_t>(k)];
      if (c == i) {
        if (!unit) dinv[static_cast<std::size_t>(i)] = V(1) / t.values[static_cast<std::size_t>(k)];
      } else {
        strict.col_idx.push_back(c);
        strict.values.push_back(t.values[static_cast<std::size_t>(k)]);
      }
    }
    strict.row_ptr[static_cast<std::size_t>(i) + 1] = static_cast<I>(strict.col_idx.size());
  }
  return {std::move(strict), std::move(dinv)};
}

// One triangle on the CPU: substitution in row order (serial) or level by
// level with OpenMP over each level's rows, whichever setup timed faster:
// a level costs a barrier, so a grid's many narrow levels (a 2D stencil has
// rows + columns - 1 of them) can make the parallel solve the slower one.
template <class V, class I>
struct CpuTriangle {
  Csr<V, I> strict;      // off the diagonal
  std::vector<V> dinv;   // the inverse diagonal; empty where unit
  Triangle which;
  LevelSchedule levels;
  bool parallel = true;
  double seconds = 0;
  // t checked once here, so that the solves read each row once and multiply by the stored inverse diagonal.
  CpuTriangle(const Csr<V, I>& t, Triangle w, bool unit) : which(w) {
    detail::check_triangle(t, w, unit);
    levels = triangular_levels(t, w);
    std::tie(strict, dinv) = strict_and_inverse_diagonal(t, unit);
  }
  void solve(const V* b, V* x) const {
    const V* d = dinv.empty() ? nullptr : dinv.data();
    if (parallel) return openmp::triangular_solve_unchecked<V, I>(strict, d, levels, b, x);
    const I n = strict.rows;
    for (I step = 0; step < n; ++step) {
      const I i = which == Triangle::lower ? step : n - 1 - step;
      V sum = b[i];
      for (I p = strict.row_ptr[static_cast<std::size_t>(i)]; p < strict.row_ptr[static_cast<std::size_t>(i) + 1]; ++p) {
        sum -= strict.values[static_cast<std::size_t>(p)] * x[strict.col_idx[static_cast<std::size_t>(p)]];
      }
      x[i] = d ? sum * d[i] : sum;
    }
  }
  // The faster of the two, or the one `forced` names ("level-scheduled", "serial"; "auto": both timed).
  void choose(const V* b, V* x, const std::string& forced) {
    if (forced == "auto" && omp_get_max_threads() == 1) {  // one thread: the level order only costs locality; nothing to time
      parallel = false;
      return;
    }
    double best = -1;
    bool best_parallel = true;
    for (bool p : {true, false}) {
      if ((forced == "level-scheduled" && !p) || (forced == "serial" && p)) continue;
      parallel = p;
      solve(b, x);
      // The fastest of five: a solve takes a millisecond or so, where one
      // slow run (another process, a page fault) would decide a mean.
      double per = -1;
      for (int i = 0; i < 5; ++i) {
        const Stopwatch w;
        solve(b, x);
        const double t = w.seconds();
        per = per < 0 ? t : std::min(per, t);
      }
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
    if (seconds == 0) {
      std::snprintf(s, sizeof s, "%s serial (one thread)", name);
    } else {
      std::snprintf(s, sizeof s, "%s %s (%lld levels, %.1f us at setup)", name, parallel ? "level-scheduled" : "serial",
                    static_cast<long long>(levels.levels()), seconds * 1e6);
    }
    return s;
  }
};

template <class V, class I>
class IncompleteCpu final : public PreconditionerOp<V> {
 public:
  IncompleteCpu(const ExecutorPtr& ex, const Factors<V, I>& f, std::string name, const std::string& forced)
      : lower_(f.l, Triangle::lower, f.unit_l), upper_(f.u, Triangle::upper, false), tmp_(ex, static_cast<std::size_t>(f.l.rows)),
        name_(std::move(name)), forced_(forced != "auto") {
    const std::vector<V> ones(tmp_.size(), V(1));
    std::vector<V> out(tmp_.size());
    lower_.choose(ones.data(), out.data(), forced);
    upper_.choose(ones.data(), out.data(), forced);
  }
  void apply(const V* r, V* z) const override {
    lower_.solve(r, tmp_.data());
    upper_.solve(tmp_.data(), z);
  }
  std::string description() const override {
    return name_ + ", triangular solves: " + lower_.describe("L") + ", " + upper_.describe("U") +
           (forced_ ? ", as asked" : ", the faster of serial and level-scheduled measured");
  }

 private:
  CpuTriangle<V, I> lower_, upper_;
  mutable Array<V> tmp_;
  std::string name_;
  bool forced_;
};

const char* algorithm_name(cuda::TriangularAlgorithm a) { return a == cuda::TriangularAlgorithm::sync_free ? "sync-free" : "level-scheduled"; }

// The faster of the two algorithms for one triangle, timed on the device
// (five solves each after one to warm up).
template <class V, class I>
cuda::TriangularSolve<V, I> fastest_solve(const cuda::Executor& ex, const Csr<V, I>& t, Triangle which, bool unit, const V* b, V* x, double* seconds,
                                          const std::string& forced) {
  std::optional<cuda::TriangularSolve<V, I>> best;
  double best_s = 0;
  for (cuda::TriangularAlgorithm alg : {cuda::TriangularAlgorithm::level_scheduled, cuda::TriangularAlgorithm::sync_free}) {
    if (forced != "auto" && forced != algorithm_name(alg)) continue;
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
  IncompleteGpu(const ExecutorPtr& ex, const Factors<V, I>& f, std::string name, const std::string& forced)
      : tmp_(ex, static_cast<std::size_t>(f.l.rows)), name_(std::move(name)) {
    const cuda::Executor& gpu = cuda_executor(*ex, name_.c_str());
    Array<V> b(ex, std::vector<V>(static_cast<std::size_t>(f.l.rows), V(1)));
    lower_.emplace(fastest_solve(gpu, f.l, Triangle::lower, f.unit_l, b.data(), tmp_.data(), &lower_s_, forced));
    upper_.emplace(fastest_solve(gpu, f.u, Triangle::upper, false, b.data(), tmp_.data(), &upper_s_, forced));
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

// One triangle applied by Jacobi sweeps (Anzt, Chow and Dongarra, Euro-Par
// 2015): T = D + N (N the strict triangle), x_0 = D^-1 b, x_{k+1} = D^-1 (b -
// N x_k), each sweep one SpMV through a plan of N (any executor; single
// precision with single_factors) and a diagonal scaling. It converges for
// the factors of diagonally dominant and M-matrices (the iteration matrix
// D^-1 N is nilpotent, so n sweeps would be exact); a few sweeps give an
// approximate M^-1 without the levels' synchronisation.
template <class V, class I>
struct SweptTriangle {
  std::optional<SpmvPlan<V, I>> strict;
  Array<V> dinv;  // empty: a unit diagonal
  int sweeps = 0;
  // x = T^-1 b approximately; work: n entries.
  void solve(const ExecutorPtr& ex, const V* b, V* x, V* work) const {
    const std::size_t n = static_cast<std::size_t>(strict->rows());
    scale(ex, b, x);
    for (int k = 0; k < sweeps; ++k) {
      ex->copy(work, b, n * sizeof(V));
      strict->apply(V(-1), x, V(1), work);  // b - N x
      scale(ex, work, x);
    }
  }
  void scale(const ExecutorPtr& ex, const V* in, V* out) const {
    const std::size_t n = static_cast<std::size_t>(strict->rows());
    if (dinv.size() == 0) return ex->copy(out, in, n * sizeof(V));
    if (ex->backend() == Backend::cpu) {
      const V* d = dinv.data();
#pragma omp parallel for schedule(static)
      for (long long i = 0; i < static_cast<long long>(n); ++i) out[i] = d[i] * in[i];
    } else {
      cuda::scale_by<V>(cuda_executor(*ex, "a Jacobi sweep"), static_cast<long long>(n), dinv.data(), in, out);
    }
  }
};

// T's strict triangle and its inverse diagonal (none where unit).
template <class V, class I>
SweptTriangle<V, I> swept_triangle(const ExecutorPtr& ex, const Csr<V, I>& t, bool unit, int sweeps, bool single) {
  const auto [strict, dinv] = strict_and_inverse_diagonal(t, unit);
  SpmvOptions po;
  po.format = single ? Format::csr16_single : Format::csr;
  SweptTriangle<V, I> s;
  s.strict.emplace(ex, strict, po);
  if (!unit) s.dinv = Array<V>(ex, std::span<const V>(dinv));
  s.sweeps = sweeps;
  return s;
}

template <class V, class I>
class IncompleteSweeps final : public PreconditionerOp<V> {
 public:
  IncompleteSweeps(const ExecutorPtr& ex, const Factors<V, I>& f, std::string name, int sweeps, bool single)
      : ex_(ex), lower_(swept_triangle(ex, f.l, f.unit_l, sweeps, single)), upper_(swept_triangle(ex, f.u, false, sweeps, single)),
        tmp_(ex, static_cast<std::size_t>(f.l.rows)), work_(ex, static_cast<std::size_t>(f.l.rows)), name_(std::move(name)), single_(single) {}
  void apply(const V* r, V* z) const override {
    lower_.solve(ex_, r, tmp_.data(), work_.data());
    upper_.solve(ex_, tmp_.data(), z, work_.data());
  }
  std::string description() const override {
    return name_ + ", triangular solves: " + std::to_string(lower_.sweeps) + " Jacobi sweeps per triangle, strict triangles as " +
           lower_.strict->description() + (single_ ? " (single-precision factors, applied in double)" : "");
  }

 private:
  ExecutorPtr ex_;
  SweptTriangle<V, I> lower_, upper_;
  mutable Array<V> tmp_, work_;
  std::string name_;
  bool single_;
};

}  // namespace

template <class V, class I>
PreconditionerPtr<V> make_incomplete(const ExecutorPtr& ex, const Csr<V, I>& a, const SolverOptions& options) {
  const Preconditioner kind = options.preconditioner;
  if (kind != Preconditioner::ilu0 && kind != Preconditioner::ic0) {
    throw Error(ErrorCode::invalid_argument, std::string("make_incomplete: ilu0 or ic0, not ") + to_string(kind));
  }
  const bool cpu = ex->backend() == Backend::cpu;
  const std::string& t = options.triangular;
  if ((cpu && t == "sync-free") || (!cpu && t == "serial")) {
    throw Error(ErrorCode::invalid_argument, "triangular '" + t + "' is a " + (cpu ? "GPU" : "CPU") + " algorithm; on the " + (cpu ? "CPU" : "GPU") +
                                                 " use auto, level-scheduled, " + (cpu ? "serial" : "sync-free") + " or jacobi");
  }
  if (options.single_factors && is_complex_v<V>) {
    throw Error(ErrorCode::unsupported, "single_factors: real values only (the csr16-single format is real)");
  }
  const Stopwatch w;
  Factors<V, I> f = factor(ex, a, kind);
  char name[96];
  std::snprintf(name, sizeof name, "%s (factorised on the %s in %.3f ms)", kind == Preconditioner::ilu0 ? "ILU(0)" : "IC(0)",
                ex->backend() == Backend::cpu ? "CPU" : "GPU", w.seconds() * 1e3);
  if (t == "jacobi") return std::make_unique<IncompleteSweeps<V, I>>(ex, f, name, options.triangular_sweeps, options.single_factors);
  if (cpu) return std::make_unique<IncompleteCpu<V, I>>(ex, f, name, t);
  return std::make_unique<IncompleteGpu<V, I>>(ex, f, name, t);
}

#define HSPARSE_INSTANTIATE(V, I) template PreconditionerPtr<V> make_incomplete(const ExecutorPtr&, const Csr<V, I>&, const SolverOptions&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::detail
