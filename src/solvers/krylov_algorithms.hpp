#pragma once
// The Krylov algorithms once, for every executor (solvers/krylov.hpp). The
// Ops type (krylov_ops.hpp's KrylovOps, dispatching by executor) supplies
// the vectors and kernels:
//   using value_type, Vector;  Vector vector();          (zeroed, n entries)
//   spmv(in, out)             out = A in
//   residual(b, x, r)         r = b - A x
//   dot(a, b), norm(a)        host doubles (a synchronisation on a GPU)
//   axpy(a, x, y), axpby(a, x, b, y), copy(src, dst), zero(x)
//   preconditioned(), precondition(r, z)     z = M^-1 r (Jacobi)
//   check_interval(check_every), pipelined_begin(state, history_size),
//   pipelined_update(ap, x, r, z, p), pipelined_spmv_dots(p, ap),
//   pipelined_state(), pipelined_history(count)   (krylov_ops.hpp)
//   mdot(w, basis, out), maxpy_sub(coef, basis, w)
//   size() (this rank's entries), unknowns() (over all ranks)
//   start_dots(pairs), finish_dots()   (sums over the ranks, awaited later)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "hsparse/core/timer.hpp"
#include "hsparse/kernels/pipelined_bicgstab.hpp"
#include "hsparse/kernels/pipelined_cg_step.hpp"
#include "hsparse/kernels/vector_ops.hpp"
#include "hsparse/solvers/krylov.hpp"

namespace hsparse::detail {

// Bookkeeping shared by the three methods: history, status, message.
struct KrylovMonitor {
  const SolverOptions& options;
  SolverResult& result;
  double bnorm = 0;

  // Records ||r|| after `iteration` iterations; true when the solve must stop.
  bool record(int iteration, double rnorm) {
    result.iterations = iteration;
    result.relative_residual = rnorm / bnorm;
    if (options.record_history) result.history.push_back(result.relative_residual);
    if (options.progress) options.progress(iteration, result.relative_residual);
    if (!std::isfinite(rnorm)) return stop(SolverStatus::non_finite, "the residual norm became " + std::to_string(rnorm));
    if (result.relative_residual <= options.tolerance) {
      return stop(SolverStatus::converged, "||r||/||b|| = " + short_number(result.relative_residual) + " <= " + short_number(options.tolerance));
    }
    if (result.relative_residual > options.divergence_tolerance) {
      return stop(SolverStatus::diverged, "||r||/||b|| = " + short_number(result.relative_residual) + " > " + short_number(options.divergence_tolerance) +
                                              " after " + std::to_string(iteration) + " iterations: diverged; try another preconditioner or method");
    }
    return false;
  }
  bool stop(SolverStatus s, const std::string& why) {
    result.status = s;
    result.message = why;
    return true;
  }
  // CG's p'Ap: positive and finite, or the solve stops.
  bool bad_curvature(double pap, int iteration) {
    if (!std::isfinite(pap)) return stop(SolverStatus::non_finite, "p'Ap = " + std::to_string(pap) + " " + in_iteration(iteration));
    if (pap <= 0) {
      return stop(SolverStatus::breakdown, "p'Ap = " + short_number(pap) + " <= 0 " + in_iteration(iteration) +
                                               ": the matrix (or preconditioner) is not positive definite; try gmres or bicgstab");
    }
    return false;
  }
  void out_of_iterations() {
    if (result.message.empty()) {
      // What to try next: a preconditioner where there was none, else a stronger one or more iterations.
      const std::string hint = options.preconditioner == Preconditioner::none
                                   ? "try a preconditioner (ilu0; ic0 for a symmetric positive definite matrix) or more iterations"
                                   : "try more iterations or a stronger preconditioner (ilu0, ic0)";
      stop(SolverStatus::max_iterations, "not converged in " + std::to_string(options.max_iterations) + " iterations (||r||/||b|| = " +
                                             short_number(result.relative_residual) + "): " + hint);
    }
  }
  // "in iteration 3 (2 completed)": the status line's count is the completed ones.
  static std::string in_iteration(int k) {
    return "in iteration " + std::to_string(k) + " (" + std::to_string(k - 1) + " completed)";
  }
  static std::string short_number(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", v);
    return b;
  }
};

// Common start: r = b - A x, ||b||; b = 0 gives x = 0. Returns true when done already.
template <class Ops>
bool krylov_start(Ops& ops, const typename Ops::Vector& b, typename Ops::Vector& x, typename Ops::Vector& r, KrylovMonitor& m) {
  m.bnorm = ops.norm(b);
  if (m.bnorm == 0) {
    ops.zero(x);
    m.result.iterations = 0;
    m.result.relative_residual = 0;
    if (m.options.record_history) m.result.history.push_back(0);
    m.stop(SolverStatus::converged, "b = 0: x = 0");
    return true;
  }
  if (!std::isfinite(m.bnorm)) return m.stop(SolverStatus::non_finite, "||b|| is not finite");
  ops.residual(b, x, r);
  return m.record(0, ops.norm(r));
}

// The vectors both CG variants keep, and their common start: r = b - A x,
// z = M^-1 r (z is r itself without a preconditioner), p = z, rz = <r, z>.
template <class Ops>
struct CgVectors {
  using Vector = typename Ops::Vector;
  Ops& ops;
  Vector r, p, ap, z;
  double rz = 0;
  explicit CgVectors(Ops& o) : ops(o), r(o.vector()), p(o.vector()), ap(o.vector()), z(o.preconditioned() ? o.vector() : Vector{}) {}
  Vector& zr() { return ops.preconditioned() ? z : r; }
  // True when the solve is over before the first iteration.
  bool start(const Vector& b, Vector& x, KrylovMonitor& m) {
    if (krylov_start(ops, b, x, r, m)) return true;
    if (ops.preconditioned()) ops.precondition(r, z);
    ops.copy(zr(), p);
    rz = std::real(ops.dot(r, zr()));  // real for a Hermitian positive definite M^-1
    return false;
  }
};

// Standard (preconditioned) CG, one kernel per BLAS operation: two
// reductions, hence two synchronisations, per iteration (Rupp, "BLAS-based
// implementation").
template <class Ops>
SolverResult krylov_cg(Ops& ops, const typename Ops::Vector& b, typename Ops::Vector& x, const SolverOptions& o) {
  using V = typename Ops::value_type;
  SolverResult res;
  KrylovMonitor m{o, res};
  Stopwatch watch;
  CgVectors<Ops> v(ops);
  const bool done = v.start(b, x, m);
  res.setup_seconds = watch.seconds();
  if (done) return res;
  watch.restart();
  for (int k = 1; k <= o.max_iterations; ++k) {
    ops.spmv(v.p, v.ap);
    const double pap = std::real(ops.dot(v.p, v.ap));  // real for Hermitian A
    if (m.bad_curvature(pap, k)) break;
    const double alpha = v.rz / pap;
    ops.axpy(static_cast<V>(alpha), v.p, x);
    ops.axpy(static_cast<V>(-alpha), v.ap, v.r);
    const double rnorm = ops.norm(v.r);
    if (m.record(k, rnorm)) break;
    double rz_new = rnorm * rnorm;
    if (ops.preconditioned()) {
      ops.precondition(v.r, v.z);
      rz_new = std::real(ops.dot(v.r, v.z));
    }
    const double beta = rz_new / v.rz;
    v.rz = rz_new;
    ops.axpby(V(1), v.zr(), static_cast<V>(beta), v.p);
  }
  m.out_of_iterations();
  res.seconds = watch.seconds();
  return res;
}

// Pipelined CG (Rupp): alpha_i = <r_i, z_i> / <p_i, Ap_i>,
// beta_i = (alpha_i^2 <Ap_i, M^-1 Ap_i> - <r_i, z_i>) / <r_i, z_i>: the next
// <r, z> follows from the dots of this SpMV, so x, r, z, p are updated in one
// fused pass with the previous alpha and beta, and each iteration has one
// reduction point (the fused update's and the SpMV's dots are computed
// back to back). With M = I, <r, z> = <r, r>. The scalars are a
// PipelinedCgState (kernels/pipelined_cg_step.hpp) in the executor's memory,
// advanced by the fused kernels themselves; the host reads it every
// ops.check_interval() iterations (every one on the CPU; on a GPU
// options.check_every, one synchronisation each). Iterations after the
// stop are no-ops, so the count and the solution are the stopping one's.
template <class Ops>
SolverResult krylov_pipelined_cg(Ops& ops, const typename Ops::Vector& b, typename Ops::Vector& x, const SolverOptions& o) {
  SolverResult res;
  KrylovMonitor m{o, res};
  Stopwatch watch;
  CgVectors<Ops> v(ops);
  if (v.start(b, x, m)) {
    res.setup_seconds = watch.seconds();
    return res;
  }
  PipelinedCgState init;
  init.rz = v.rz;
  init.bnorm = m.bnorm;
  init.tolerance = o.tolerance;
  const int history_size = o.record_history ? o.max_iterations + 1 : 0;
  ops.pipelined_begin(init, history_size);
  ops.pipelined_spmv_dots(v.p, v.ap);
  res.setup_seconds = watch.seconds();
  watch.restart();
  const int check = ops.check_interval(o.check_every);
  PipelinedCgState st = ops.pipelined_state();
  for (int i = 1; i <= o.max_iterations && st.done == pcg_running; ++i) {
    ops.pipelined_update(v.ap, x, v.r, v.zr(), v.p);
    ops.pipelined_spmv_dots(v.p, v.ap);
    if (i % check == 0 || i == o.max_iterations) {
      st = ops.pipelined_state();
      if (o.progress && st.iteration > 0) o.progress(st.iteration, std::sqrt(st.rr) / m.bnorm);
    }
  }
  st = ops.pipelined_state();
  res.seconds = watch.seconds();
  res.iterations = st.iteration;
  if (st.iteration > 0) res.relative_residual = std::sqrt(st.rr) / m.bnorm;
  if (o.record_history) {
    const auto h = ops.pipelined_history(st.iteration);
    res.history.insert(res.history.end(), h.begin(), h.end());
  }
  const int failing = st.iteration + 1;  // the iteration whose dots failed
  switch (st.done) {
    case pcg_converged:
      m.stop(SolverStatus::converged, "||r||/||b|| = " + KrylovMonitor::short_number(res.relative_residual) + " <= " + KrylovMonitor::short_number(o.tolerance));
      break;
    case pcg_breakdown: m.bad_curvature(st.pap, failing); break;
    case pcg_non_finite:
      if (!std::isfinite(res.relative_residual)) {
        m.stop(SolverStatus::non_finite, "the residual norm became " + std::to_string(res.relative_residual));
      } else {
        m.stop(SolverStatus::non_finite, "p'Ap = " + std::to_string(st.pap) + ", <Ap, M^-1 Ap> = " + std::to_string(st.apmap) + " " + KrylovMonitor::in_iteration(failing));
      }
      break;
    default: m.out_of_iterations();
  }
  return res;
}

// Rupp's pipelined CG with a preconditioner that is not a diagonal (block
// Jacobi, Chebyshev, ILU(0), IC(0)): its fused kernels apply Jacobi inside
// the update, so here the same recurrences run on the basic vector
// operations. z = M^-1 r follows r's own recurrence, z -= alpha q with
// q = M^-1 Ap, the one application per iteration that also gives
// <Ap, M^-1 Ap> (Ghysels and Vanroose keep u = M^-1 r the same way); alpha
// and beta come from the SpMV's two dots as in the fused version. One SpMV
// and one M^-1 per iteration, as CG; the scalars go through the host.
template <class Ops>
SolverResult krylov_pipelined_cg_general(Ops& ops, const typename Ops::Vector& b, typename Ops::Vector& x, const SolverOptions& o) {
  using V = typename Ops::value_type;
  SolverResult res;
  KrylovMonitor m{o, res};
  Stopwatch watch;
  CgVectors<Ops> v(ops);
  if (v.start(b, x, m)) {
    res.setup_seconds = watch.seconds();
    return res;
  }
  auto q = ops.vector();
  double rz = v.rz, alpha = 0, beta = 0;
  // Ap = A p, q = M^-1 Ap and their dots; the next alpha and beta. True when the solve must stop.
  auto spmv_dots = [&](int k) {
    ops.spmv(v.p, v.ap);
    ops.precondition(v.ap, q);
    const double pap = std::real(ops.dot(v.p, v.ap)), apq = std::real(ops.dot(v.ap, q));
    if (!std::isfinite(apq)) return m.stop(SolverStatus::non_finite, "<Ap, M^-1 Ap> = " + KrylovMonitor::short_number(apq) + " " + KrylovMonitor::in_iteration(k));
    if (m.bad_curvature(pap, k)) return true;
    alpha = rz / pap;
    beta = (alpha * alpha * apq - rz) / rz;
    return false;
  };
  const bool stopped = spmv_dots(1);
  res.setup_seconds = watch.seconds();
  watch.restart();
  for (int k = 1; k <= o.max_iterations && !stopped; ++k) {
    ops.axpy(static_cast<V>(alpha), v.p, x);
    ops.axpy(static_cast<V>(-alpha), v.ap, v.r);
    ops.axpy(static_cast<V>(-alpha), q, v.z);
    ops.axpby(V(1), v.z, static_cast<V>(beta), v.p);
    rz = std::real(ops.dot(v.r, v.z));
    if (m.record(k, ops.norm(v.r))) break;
    if (spmv_dots(k + 1)) break;
  }
  m.out_of_iterations();
  res.seconds = watch.seconds();
  return res;
}

// Pipelined CG after Ghysels and Vanroose ("Hiding global synchronization
// latency in the preconditioned Conjugate Gradient algorithm", Parallel
// Computing 40, 2014, Algorithm 4): the iteration's one reduction, <r, u>,
// <w, u> and <r, r> (u = M^-1 r, w = A u), starts before the
// preconditioner and the SpMV and is awaited after them, so that on several
// ranks the all-reduce travels while each rank computes
// (Ops::start_dots). Where Rupp's variant above fuses its vector updates,
// this one hides the reduction's latency: four more vectors and about twice
// the vector updates, for when the all-reduce, not the bytes, limits an
// iteration (docs/distributed.md's model). Without a preconditioner u is r,
// m is w and q is s.
template <class Ops>
SolverResult krylov_pipelined_cg_gv(Ops& ops, const typename Ops::Vector& b, typename Ops::Vector& x, const SolverOptions& o) {
  using V = typename Ops::value_type;
  using Vector = typename Ops::Vector;
  SolverResult res;
  KrylovMonitor m{o, res};
  Stopwatch watch;
  const bool pre = ops.preconditioned();
  Vector r = ops.vector(), w = ops.vector(), n = ops.vector(), z = ops.vector(), s = ops.vector(), p = ops.vector();
  Vector u = pre ? ops.vector() : Vector{}, mw = pre ? ops.vector() : Vector{}, q = pre ? ops.vector() : Vector{};
  Vector& ur = pre ? u : r;   // u = M^-1 r
  Vector& mv = pre ? mw : w;  // m = M^-1 w
  if (krylov_start(ops, b, x, r, m)) {
    res.setup_seconds = watch.seconds();
    return res;
  }
  if (pre) ops.precondition(r, u);
  ops.spmv(ur, w);
  res.setup_seconds = watch.seconds();
  watch.restart();
  double gamma_old = 0, alpha_old = 0;
  for (int i = 0;; ++i) {
    ops.start_dots({{&r, &ur}, {&w, &ur}, {&r, &r}});
    if (pre) ops.precondition(w, mw);
    ops.spmv(mv, n);  // n = A m, while the sums travel
    const std::vector<double> d = ops.finish_dots();
    const double gamma = d[0], delta = d[1];
    if (i > 0 && m.record(i, std::sqrt(d[2]))) break;  // r_0 was recorded by krylov_start
    if (i == o.max_iterations) break;
    const double beta = i > 0 ? gamma / gamma_old : 0.0;
    const double pap = i > 0 ? delta - beta * gamma / alpha_old : delta;  // <p, A p> in exact arithmetic
    if (m.bad_curvature(pap, i + 1)) break;
    const double alpha = gamma / pap;
    ops.axpby(V(1), n, static_cast<V>(beta), z);  // z = n + beta z (beta 0: z = n)
    if (pre) ops.axpby(V(1), mw, static_cast<V>(beta), q);
    ops.axpby(V(1), w, static_cast<V>(beta), s);
    ops.axpby(V(1), ur, static_cast<V>(beta), p);
    ops.axpy(static_cast<V>(alpha), p, x);
    ops.axpy(static_cast<V>(-alpha), s, r);
    if (pre) ops.axpy(static_cast<V>(-alpha), q, u);
    ops.axpy(static_cast<V>(-alpha), z, w);
    gamma_old = gamma;
    alpha_old = alpha;
  }
  m.out_of_iterations();
  res.seconds = watch.seconds();
  return res;
}

// BiCGStab (van der Vorst, "Bi-CGSTAB: a fast and smoothly converging
// variant of Bi-CG", SIAM J. Sci. Stat. Comput. 13, 1992), right-
// preconditioned (Saad, Iterative Methods, 2nd ed., Algorithm 7.7 with M^-1
// applied to p and s), so that the residual it reports, r = b - A x, is the
// true one's recurrence. Two SpMVs, two preconditioner applications and four
// inner products per iteration, no basis to store (GMRES's m vectors). Its
// breakdowns are named: rho = <r0, r> = 0 (the shadow residual became
// orthogonal: restart from the current x, or use GMRES), <r0, v> = 0, and
// omega = 0 (the stabilising step stalled: <t, s> = 0).
template <class Ops>
SolverResult krylov_bicgstab(Ops& ops, const typename Ops::Vector& b, typename Ops::Vector& x, const SolverOptions& o) {
  using V = typename Ops::value_type;
  using Vector = typename Ops::Vector;
  using S = typename Ops::Scalar;  // complex for complex V
  SolverResult res;
  KrylovMonitor m{o, res};
  Stopwatch watch;
  const bool pre = ops.preconditioned();
  Vector r = ops.vector(), r0 = ops.vector(), p = ops.vector(), v = ops.vector(), t = ops.vector();
  Vector ph = pre ? ops.vector() : Vector{}, sh = pre ? ops.vector() : Vector{};
  Vector& phat = pre ? ph : p;  // M^-1 p
  if (krylov_start(ops, b, x, r, m)) {
    res.setup_seconds = watch.seconds();
    return res;
  }
  ops.copy(r, r0);
  res.setup_seconds = watch.seconds();
  watch.restart();
  S rho = 1, alpha = 1, omega = 1;
  auto text = [](S v) {
    if constexpr (std::is_same_v<S, double>) {
      return KrylovMonitor::short_number(v);
    } else {
      return "(" + KrylovMonitor::short_number(v.real()) + ", " + KrylovMonitor::short_number(v.imag()) + ")";
    }
  };
  auto broke = [&](const std::string& what, int k) {
    return m.stop(SolverStatus::breakdown, what + " " + KrylovMonitor::in_iteration(k) + ": BiCGStab broke down; try gmres, or another preconditioner");
  };
  for (int k = 1; k <= o.max_iterations; ++k) {
    const S rho_new = ops.dot(r0, r);
    if (!std::isfinite(std::abs(rho_new))) {
      m.stop(SolverStatus::non_finite, "<r0, r> = " + text(rho_new) + " " + KrylovMonitor::in_iteration(k));
      break;
    }
    if (rho_new == S(0)) {
      broke("rho = <r0, r> = 0", k);
      break;
    }
    if (k == 1) {
      ops.copy(r, p);
    } else {
      const S beta = (rho_new / rho) * (alpha / omega);
      ops.axpy(static_cast<V>(-omega), v, p);          // p = r + beta (p - omega v)
      ops.axpby(V(1), r, static_cast<V>(beta), p);
    }
    if (pre) ops.precondition(p, ph);
    ops.spmv(phat, v);
    const S r0v = ops.dot(r0, v);
    if (r0v == S(0) || !std::isfinite(std::abs(r0v))) {
      if (r0v == S(0)) {
        broke("<r0, A M^-1 p> = 0", k);
      } else {
        m.stop(SolverStatus::non_finite, "<r0, A M^-1 p> = " + text(r0v) + " " + KrylovMonitor::in_iteration(k));
      }
      break;
    }
    alpha = rho_new / r0v;
    ops.axpy(static_cast<V>(alpha), phat, x);  // x += alpha M^-1 p; s = r - alpha v, kept in r
    ops.axpy(static_cast<V>(-alpha), v, r);
    const double snorm = ops.norm(r);
    if (snorm / m.bnorm <= o.tolerance || !std::isfinite(snorm)) {  // converged at the half step
      m.record(k, snorm);
      break;
    }
    Vector& shat = pre ? sh : r;
    if (pre) ops.precondition(r, sh);
    ops.spmv(shat, t);
    const double tt = std::real(ops.dot(t, t));
    const S ts = ops.dot(t, r);
    if (!std::isfinite(tt) || !std::isfinite(std::abs(ts))) {
      m.stop(SolverStatus::non_finite, "<t, t> = " + KrylovMonitor::short_number(tt) + ", <t, s> = " + text(ts) + " " + KrylovMonitor::in_iteration(k));
      break;
    }
    omega = tt > 0 ? ts / tt : S(0);
    if (omega == S(0)) {
      broke("omega = <t, s> / <t, t> = 0", k);
      break;
    }
    ops.axpy(static_cast<V>(omega), shat, x);  // x += omega M^-1 s; r = s - omega t
    ops.axpy(static_cast<V>(-omega), t, r);
    if (m.record(k, ops.norm(r))) break;
    rho = rho_new;
  }
  m.out_of_iterations();
  res.seconds = watch.seconds();
  return res;
}

// Pipelined BiCGStab (Cools and Vanroose, Parallel Computing 65, 2017,
// Algorithm 3; right-preconditioned, K = M^-1): BiCGStab's recurrences
// rewritten so that each of its two reduction points (<y, q>, <y, y>; then
// <rhat, r>, <rhat, s>, <rhat, w>, <rhat, z>, <r, r>) is started before a
// preconditioner application and an SpMV and awaited after them, and the
// vector updates between them are one fused pass each
// (kernels/pipelined_bicgstab.hpp: on several ranks the all-reduces travel
// while each rank computes). Sixteen vectors against BiCGStab's seven, and
// rounding that drifts from the true residual faster: as PETSc's PIPEBCGS
// does, the auxiliary vectors are recomputed from b - A x every 100
// iterations up to 1000 (residual replacement). Without a preconditioner
// K r is a copy. Its breakdowns are named as BiCGStab's.
template <class Ops>
SolverResult krylov_pipelined_bicgstab(Ops& ops, const typename Ops::Vector& b, typename Ops::Vector& x, const SolverOptions& o) {
  using V = typename Ops::value_type;
  using Vector = typename Ops::Vector;
  using S = typename Ops::Scalar;
  SolverResult res;
  KrylovMonitor m{o, res};
  Stopwatch watch;
  Vector r = ops.vector(), rhat = ops.vector(), r2 = ops.vector(), w = ops.vector(), w2 = ops.vector(), t = ops.vector(), p2 = ops.vector(),
         s = ops.vector(), s2 = ops.vector(), z = ops.vector(), z2 = ops.vector(), v = ops.vector(), q = ops.vector(), q2 = ops.vector(), y = ops.vector();
  auto apply_k = [&](const Vector& in, Vector& out) { ops.preconditioned() ? ops.precondition(in, out) : ops.copy(in, out); };
  if (krylov_start(ops, b, x, r, m)) {
    res.setup_seconds = watch.seconds();
    return res;
  }
  const PipelinedBicgstabVectors<V> vec{ops.size(), rhat.data(), x.data(), r.data(), r2.data(), w.data(), w2.data(), t.data(), p2.data(),
                                        s.data(),   s2.data(),  z.data(), z2.data(), v.data(), q.data(), q2.data(), y.data()};
  ops.copy(r, rhat);
  S rho = ops.dot(rhat, r);
  apply_k(r, r2);
  ops.spmv(r2, w);
  const S rw = ops.dot(rhat, w);
  apply_k(w, w2);
  ops.spmv(w2, t);
  res.setup_seconds = watch.seconds();
  watch.restart();
  if (rw == S(0)) {
    m.stop(SolverStatus::breakdown, "<r0, A M^-1 r0> = 0 before the first iteration: pipelined BiCGStab broke down; try gmres, or another preconditioner");
    return res;
  }
  S alpha = rho / rw, beta = 0, omega = 0;
  auto broke = [&](const std::string& what, int k) {
    return m.stop(SolverStatus::breakdown, what + " " + KrylovMonitor::in_iteration(k) + ": pipelined BiCGStab broke down; try gmres, or bicgstab");
  };
  for (int k = 1; k <= o.max_iterations; ++k) {
    ops.pipelined_bicgstab_directions(k == 1, alpha, beta, omega, vec);  // p2, s, s2, z, then q, q2, y; <y, q>, <y, y> started
    apply_k(z, z2);
    ops.spmv(z2, v);
    const std::vector<S> d = ops.finish_dots();
    const double yy = std::real(d[1]);
    if (!std::isfinite(yy) || !std::isfinite(std::abs(d[0]))) {
      m.stop(SolverStatus::non_finite, "<y, y> = " + std::to_string(yy) + " " + KrylovMonitor::in_iteration(k));
      break;
    }
    if (yy == 0) {  // y = 0: if q = 0 too, x + alpha p2 solves it
      if (ops.norm(q) == 0) {
        ops.axpy(static_cast<V>(alpha), p2, x);
        m.record(k, 0.0);
      } else {
        broke("<y, y> = 0 with q != 0", k);
      }
      break;
    }
    omega = d[0] / S(yy);
    ops.pipelined_bicgstab_residuals(alpha, omega, vec);  // x, r, r2, w; <rhat, r>, <rhat, s>, <rhat, w>, <rhat, z>, <r, r> started
    apply_k(w, w2);
    ops.spmv(w2, t);
    const std::vector<S> e = ops.finish_dots();
    bool replace = k % 100 == 0 && k <= 1000;
    if (m.record(k, std::sqrt(std::max(0.0, std::real(e[4]))))) {
      if (res.status != SolverStatus::converged) break;
      // The recurrence's r drifts from b - A x faster than BiCGStab's: a
      // convergence it reports is checked against the true residual, and
      // where that is still above the tolerance, r and the vectors built on
      // it are replaced and the iteration goes on (never a silent wrong answer).
      ops.residual(b, x, q);
      const double true_residual = ops.norm(q) / m.bnorm;
      if (true_residual <= o.tolerance) break;
      res.status = SolverStatus::max_iterations;
      res.message.clear();
      if (o.record_history) res.history.back() = true_residual;
      res.relative_residual = true_residual;
      replace = true;
    }
    const S rho_new = e[0];
    if (rho_new == S(0)) {
      broke("rho = <r0, r> = 0", k + 1);
      break;
    }
    if (omega == S(0)) {
      broke("omega = <y, q> / <y, y> = 0", k + 1);
      break;
    }
    beta = (rho_new / rho) * (alpha / omega);
    const S denominator = e[2] + beta * e[1] - beta * omega * e[3];
    if (denominator == S(0)) {
      broke("<r0, w> + beta <r0, s> - beta omega <r0, z> = 0", k + 1);
      break;
    }
    alpha = rho_new / denominator;
    rho = rho_new;
    if (replace) {  // residual replacement
      ops.residual(b, x, r);
      apply_k(r, r2);
      ops.spmv(r2, w);
      apply_k(w, w2);
      ops.spmv(w2, t);
      ops.spmv(p2, s);
      apply_k(s, s2);
      ops.spmv(s2, z);
      apply_k(z, z2);
      ops.spmv(z2, v);
    }
  }
  m.out_of_iterations();
  res.seconds = watch.seconds();
  return res;
}

// GMRES(m), right-preconditioned (A M^-1 u = b, x = M^-1 u, so the
// residual it minimises is the true one), Arnoldi by classical Gram-Schmidt
// done twice (CGS2: mdot for the m projections at once, maxpy to subtract
// them; the second pass restores the orthogonality one pass loses), Givens
// rotations on the Hessenberg matrix. After each cycle the true residual
// b - A x is recomputed.
template <class Ops>
SolverResult krylov_gmres(Ops& ops, const typename Ops::Vector& b, typename Ops::Vector& x, const SolverOptions& o) {
  using V = typename Ops::value_type;
  using Vector = typename Ops::Vector;
  using S = typename Ops::Scalar;  // the Hessenberg matrix's type: complex for complex V
  SolverResult res;
  KrylovMonitor m{o, res};
  Stopwatch watch;
  const int mm = gmres_restart(o.restart, ops.unknowns());  // the global count: every rank must take the same m
  auto r = ops.vector(), w = ops.vector(), u = ops.vector();
  auto z = ops.preconditioned() ? ops.vector() : Vector{};
  std::vector<Vector> basis;
  basis.reserve(static_cast<std::size_t>(mm) + 1);
  for (int j = 0; j <= mm; ++j) basis.push_back(ops.vector());
  if (krylov_start(ops, b, x, r, m)) {
    res.setup_seconds = watch.seconds();
    return res;
  }
  res.setup_seconds = watch.seconds();
  watch.restart();
  std::vector<S> h(static_cast<std::size_t>((mm + 1) * mm)), sn(static_cast<std::size_t>(mm)), g(static_cast<std::size_t>(mm + 1)),
      proj(static_cast<std::size_t>(mm + 1)), proj2(proj.size());
  std::vector<double> cs(static_cast<std::size_t>(mm));
  auto H = [&](int i, int j) -> S& { return h[static_cast<std::size_t>(i * mm + j)]; };
  double beta = res.relative_residual * m.bnorm;
  int total = 0;
  bool done = false;
  while (!done && total < o.max_iterations) {
    ops.axpby(static_cast<V>(1.0 / beta), r, V(0), basis[0]);
    std::fill(g.begin(), g.end(), S(0));
    g[0] = beta;
    int used = 0;
    bool lucky = false;
    for (int j = 0; j < mm && total < o.max_iterations; ++j) {
      if (ops.preconditioned()) {
        ops.precondition(basis[static_cast<std::size_t>(j)], z);
        ops.spmv(z, w);
      } else {
        ops.spmv(basis[static_cast<std::size_t>(j)], w);
      }
      std::vector<const Vector*> q;
      for (int i = 0; i <= j; ++i) q.push_back(&basis[static_cast<std::size_t>(i)]);
      const std::span<S> c1(proj.data(), q.size()), c2(proj2.data(), q.size());
      ops.mdot(w, q, c1);
      ops.maxpy_sub(c1, q, w);
      ops.mdot(w, q, c2);
      ops.maxpy_sub(c2, q, w);
      for (int i = 0; i <= j; ++i) H(i, j) = c1[static_cast<std::size_t>(i)] + c2[static_cast<std::size_t>(i)];
      const double hnext = ops.norm(w);
      // Earlier rotations on the new column, then one to zero H(j+1, j):
      // G = [c, s; -conj(s), c] with c real (for real values the textbook's).
      for (int i = 0; i < j; ++i) {
        const S t = cs[i] * H(i, j) + sn[i] * H(i + 1, j);
        H(i + 1, j) = -conj_value(sn[i]) * H(i, j) + cs[i] * H(i + 1, j);
        H(i, j) = t;
      }
      const double rho = std::hypot(std::abs(H(j, j)), hnext);
      if (!std::isfinite(rho)) {
        m.stop(SolverStatus::non_finite, "the Arnoldi step produced " + std::to_string(rho) + " " + KrylovMonitor::in_iteration(total + 1));
        done = true;
        break;
      }
      if (rho == 0) {
        m.stop(SolverStatus::breakdown, "the Krylov basis lost rank (A v = 0) " + KrylovMonitor::in_iteration(total + 1));
        done = true;
        break;
      }
      if constexpr (std::is_same_v<S, double>) {
        cs[j] = H(j, j) / rho;
        sn[j] = hnext / rho;
        H(j, j) = rho;
      } else {  // c = |a| / rho, s = (a / |a|) hnext / rho: G [a; hnext] = [(a / |a|) rho; 0]
        const double a = std::abs(H(j, j));
        const S phase = a > 0 ? H(j, j) / a : S(1);
        cs[j] = a / rho;
        sn[j] = phase * (hnext / rho);
        H(j, j) = phase * rho;
      }
      g[j + 1] = -conj_value(sn[j]) * g[j];
      g[j] = cs[j] * g[j];
      ++total;
      used = j + 1;
      if (m.record(total, std::abs(g[j + 1]))) break;  // converged by the recurrence: checked below by the true residual
      if (hnext <= 1e-14 * rho) {  // the Krylov space is invariant: the solution is in it
        lucky = true;
        break;
      }
      ops.axpby(static_cast<V>(1.0 / hnext), w, V(0), basis[static_cast<std::size_t>(j + 1)]);
    }
    if (res.status == SolverStatus::non_finite || res.status == SolverStatus::breakdown) break;
    // y = H^-1 g (upper triangular), x += M^-1 (V y).
    std::vector<S> y(static_cast<std::size_t>(used));
    for (int i = used - 1; i >= 0; --i) {
      S t = g[static_cast<std::size_t>(i)];
      for (int k = i + 1; k < used; ++k) t -= H(i, k) * y[static_cast<std::size_t>(k)];
      y[static_cast<std::size_t>(i)] = t / H(i, i);
    }
    for (S& v : y) v = -v;  // maxpy subtracts
    std::vector<const Vector*> q;
    for (int i = 0; i < used; ++i) q.push_back(&basis[static_cast<std::size_t>(i)]);
    ops.zero(u);
    if (used > 0) ops.maxpy_sub(std::span<const S>(y.data(), y.size()), q, u);
    if (ops.preconditioned()) {
      ops.precondition(u, z);
      ops.axpy(V(1), z, x);
    } else {
      ops.axpy(V(1), u, x);
    }
    ops.residual(b, x, r);
    beta = ops.norm(r);
    res.status = SolverStatus::max_iterations;
    res.message.clear();
    if (o.record_history && !res.history.empty()) res.history.pop_back();  // the true residual replaces the recurrence's
    done = m.record(total, beta);
    if (!done && lucky) {
      m.stop(SolverStatus::breakdown, "the Krylov space became invariant but ||b - Ax||/||b|| = " + KrylovMonitor::short_number(beta / m.bnorm));
      done = true;
    }
  }
  m.out_of_iterations();
  res.seconds = watch.seconds();
  return res;
}

}  // namespace hsparse::detail
