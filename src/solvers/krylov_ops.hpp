#pragma once
// The Krylov algorithms' operations (krylov_algorithms.hpp) on Arrays,
// dispatched by the plan's executor (Ginkgo's model): the OpenMP vector
// kernels (kernels/vector_ops.hpp) on a CpuExecutor, the CUDA ones
// (backends/cuda/vector_ops.hpp) on a cuda::Executor. The algorithms
// never see a backend. Pipelined CG's scalars live where the executor's
// memory is: on the host for the CPU, on the device for the GPU (the host
// reads them only at checks).
//
// A distributed operator (an Op with communicator(): distributed::
// DistributedSpmv) makes the same operations distributed: the vectors are
// the rank's entries, every dot product is the local one summed over the
// ranks (Communicator::allreduce_sum), and pipelined CG's four dots of an
// iteration travel in one all-reduce (docs/distributed.md).
#include <array>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hsparse/core/array.hpp"
#include "hsparse/core/communicator.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/kernels/pipelined_cg_step.hpp"
#include "hsparse/kernels/vector_ops.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/backends/cuda/pipelined_bicgstab.hpp"
#include "hsparse/backends/cuda/vector_ops.hpp"
#include "hsparse/kernels/pipelined_bicgstab.hpp"
#include "chebyshev.hpp"
#include "preconditioner_op.hpp"

namespace hsparse::detail {

// Op: an SpmvPlan or a LinearOperator (executor() and the pointer apply()).
template <class V, class Op>
class KrylovOps {
 public:
  using value_type = V;
  using Vector = Array<V>;
  // An inner product's type: double, or std::complex<double> for complex V.
  using Scalar = dot_t<V>;

  // dinv: Jacobi's inverse diagonal on the host (empty: none), M^-1 itself
  // unless `general` is given (block Jacobi, ILU(0), IC(0)) or
  // use_chebyshev() makes it Chebyshev's scaling.
  KrylovOps(const Op& op, std::size_t n, const std::vector<V>& dinv, PreconditionerPtr<V> general = nullptr)
      : op_(op), ex_(op.executor()), n_(n), cpu_(ex_->backend() == Backend::cpu), general_(std::move(general)) {
    if (!dinv.empty()) dinv_ = Array<V>(ex_, std::span<const V>(dinv));
    if (!cpu_) {
      cex_ = &cuda_executor(*ex_, "a GPU solve");
      scratch_ = std::make_unique<cuda::ReductionScratch>();
    }
    if constexpr (requires { op.communicator(); }) {
      if (op.communicator()->size() > 1) comm_ = op.communicator().get();
    }
  }

  Vector vector() const { return Vector(ex_, n_); }
  // A copy of a vector given in the executor's memory.
  Vector copy_of(const V* data) const {
    Vector v(ex_, n_);
    ex_->copy(v.data(), data, n_ * sizeof(V));
    return v;
  }
  void spmv(const Vector& in, Vector& out) const { op_.apply(V(1), in.data(), V(0), out.data()); }
  void spmv_ptr(const V* in, V* out) const { op_.apply(V(1), in, V(0), out); }
  void upload(const std::vector<V>& host, Vector& v) const { ex_->copy_from_host(v.data(), host.data(), n_ * sizeof(V)); }
  void residual(const Vector& b, const Vector& x, Vector& r) const {
    copy(b, r);
    op_.apply(V(-1), x.data(), V(1), r.data());
  }
  Scalar dot(const Vector& a, const Vector& b) const { return dot(a.data(), b.data()); }
  double norm(const Vector& a) const { return cpu_ && !comm_ ? openmp::norm2<V>(in(a)) : std::sqrt(std::real(dot(a, a))); }
  void axpy(V a, const Vector& x, Vector& y) const { axpby(a, x, V(1), y); }
  void axpby(V a, const Vector& x, V b, Vector& y) const { axpby(a, x.data(), b, y.data()); }
  void copy(const Vector& src, Vector& dst) const { ex_->copy(dst.data(), src.data(), n_ * sizeof(V)); }
  void zero(Vector& x) const { ex_->fill_zero(x.data(), n_ * sizeof(V)); }
  bool preconditioned() const { return dinv_.size() > 0 || general_; }
  // M^-1 is the diagonal dinv itself (what pipelined CG's fused kernels apply), or there is none.
  bool diagonal_or_none() const { return !general_ && !chebyshev_; }
  // Makes M^-1 Chebyshev's polynomial in D^-1 A (chebyshev.hpp), its bounds
  // estimated now by `lanczos_steps` steps; dinv must have been given.
  void use_chebyshev(int degree, int lanczos_steps) {
    cheb_bounds_ = chebyshev_bounds(*this, lanczos_steps);
    chebyshev_ = true;
    cheb_degree_ = degree;
    cheb_res_ = vector();
    cheb_d_ = vector();
    cheb_t_ = vector();
  }
  // What M^-1 is, in words (empty: none).
  std::string preconditioner_description() const {
    if (general_) return general_->description();
    if (chebyshev_) return describe_chebyshev(cheb_bounds_, cheb_degree_);
    return dinv_.size() > 0 ? "Jacobi (the inverse diagonal)" : "";
  }
  std::size_t size() const { return n_; }
  // The unknowns over all ranks (size() on one).
  std::int64_t unknowns() const {
    if constexpr (requires { op_.global_rows(); }) return op_.global_rows();
    return static_cast<std::int64_t>(n_);
  }
  void precondition(const Vector& r, Vector& z) const { precondition(r.data(), z.data()); }
  void mdot(const Vector& w, const std::vector<const Vector*>& basis, std::span<Scalar> result) const {
    if (cpu_) {
      openmp::mdot<V>(in(w), pointers(basis), result);
    } else {
      cuda::mdot_host<V>(*cex_, n(), w.data(), pointers(basis), result, *scratch_);
    }
    sum_over_ranks(result);
  }
  void maxpy_sub(std::span<const Scalar> coef, const std::vector<const Vector*>& basis, Vector& w) const {
    if (cpu_) return openmp::maxpy_sub<V>(coef, pointers(basis), out(w));
    cuda::maxpy_sub<V>(*cex_, n(), coef, pointers(basis), w.data());
  }

  // ---- the same on pointers to n entries in the executor's memory (the multi-RHS solve's columns) ----
  Scalar dot(const V* a, const V* b) const {
    Scalar d = local_dot(a, b);
    sum_over_ranks(std::span<Scalar>(&d, 1));
    return d;
  }
  // <a_k, b_k> for each pair, summed over the ranks without waiting: the
  // sums are ready at finish_dots(), and the rank computes meanwhile
  // (Ghysels and Vanroose's pipelined CG overlaps them with its SpMV).
  void start_dots(const std::vector<std::pair<const Vector*, const Vector*>>& pairs) {
    std::vector<Scalar> local;
    for (const auto& [a, b] : pairs) local.push_back(local_dot(a->data(), b->data()));
    start_sums(std::move(local));
  }
  // Local sums given, their sum over the ranks started (finish_dots() awaits it).
  void start_sums(std::vector<Scalar> local) {
    pending_dots_ = std::move(local);
    if (comm_) pending_sum_ = comm_->start_allreduce_sum(reinterpret_cast<double*>(pending_dots_.data()), pending_dots_.size() * sizeof(Scalar) / sizeof(double));
  }
  // Pipelined BiCGStab's fused kernels (kernels/pipelined_bicgstab.hpp), their sums started as start_sums.
  void pipelined_bicgstab_directions(bool first, Scalar alpha, Scalar beta, Scalar omega, const PipelinedBicgstabVectors<V>& v) {
    const V a = static_cast<V>(alpha), b = static_cast<V>(beta), w = static_cast<V>(omega);
    if (cpu_) {
      const auto d = openmp::pipelined_bicgstab_directions<V>(first, a, b, w, v);
      return start_sums({d.begin(), d.end()});
    }
    if constexpr (is_complex_v<V>) {
      throw Error(ErrorCode::unsupported, "pipebicgstab's fused GPU kernels are real; a complex system on the GPU takes bicgstab or gmres");
    } else {
      const auto d = cuda::pipelined_bicgstab_directions<V>(*cex_, first, a, b, w, v, *scratch_);
      start_sums({d.begin(), d.end()});
    }
  }
  void pipelined_bicgstab_residuals(Scalar alpha, Scalar omega, const PipelinedBicgstabVectors<V>& v) {
    const V a = static_cast<V>(alpha), w = static_cast<V>(omega);
    if (cpu_) {
      const auto d = openmp::pipelined_bicgstab_residuals<V>(a, w, v);
      return start_sums({d.begin(), d.end()});
    }
    if constexpr (is_complex_v<V>) {
      throw Error(ErrorCode::unsupported, "pipebicgstab's fused GPU kernels are real; a complex system on the GPU takes bicgstab or gmres");
    } else {
      const auto d = cuda::pipelined_bicgstab_residuals<V>(*cex_, a, w, v, *scratch_);
      start_sums({d.begin(), d.end()});
    }
  }
  std::vector<Scalar> finish_dots() {
    if (pending_sum_) pending_sum_->wait();
    pending_sum_.reset();
    return pending_dots_;
  }
  void axpby(V a, const V* x, V b, V* y) const {
    if (cpu_) return openmp::axpby<V>(a, {x, n_}, b, {y, n_});
    cuda::axpby<V>(*cex_, n(), a, x, b, y);
  }
  void precondition(const V* r, V* z) const {
    if (general_) return general_->apply(r, z);
    if (chebyshev_) return chebyshev_apply(*this, cheb_bounds_, cheb_degree_, r, z, cheb_res_, cheb_d_, cheb_t_);
    scale_diagonal(r, z);
  }
  // z = dinv .* r.
  void scale_diagonal(const V* r, V* z) const {
    if (cpu_) {
      const V* d = dinv_.data();
      const auto nn = n();
#pragma omp parallel for simd schedule(static)
      for (long long i = 0; i < nn; ++i) z[i] = d[i] * r[i];
      return;
    }
    cuda::scale_by<V>(*cex_, n(), dinv_.data(), r, z);
  }

  // ---- pipelined CG: the state (kernels/pipelined_cg_step.hpp) in the executor's memory ----
  // The host looks at the state every `check` iterations: every one on the
  // CPU, where it is free; options.check_every on a GPU (a synchronisation).
  int check_interval(int check_every) const { return cpu_ ? 1 : std::max(1, check_every); }
  void pipelined_begin(const PipelinedCgState& init, int history_size) {
    history_size_ = history_size;
    if (comm_ && !cpu_) {
      // Distributed on GPUs: the fused kernels leave their sums in
      // local_sums_. Where the operator sums on the device (NCCL), the sums
      // and the recurrence stay there (reduce_on_device_), and the host
      // looks at the state every check_every iterations, as on one GPU.
      // Otherwise the host adds them over the ranks and advances its own
      // copy of the state, which goes back to the device for the next kernels.
      if constexpr (requires { op_.reduces_on_device(); }) reduce_on_device_ = op_.reduces_on_device();
      host_state_ = init;
      host_history_.assign(static_cast<std::size_t>(std::max(history_size, 0)), 0.0);
      local_sums_ = Array<double>(ex_, 4);
    }
    state_ = Array<unsigned char>(ex_, sizeof(PipelinedCgState));
    ex_->copy_from_host(state_.data(), &init, sizeof init);
    history_ = Array<double>(ex_, static_cast<std::size_t>(history_size));
  }
  // x += alpha p; r -= alpha Ap; z = M^-1 r; p = z + beta p, then the recurrence (no-op once done).
  void pipelined_update(const Vector& ap, Vector& x, Vector& r, Vector& z, Vector& p) {
    if (cpu_) {
      PipelinedCgState& st = host_state();
      if (st.done != pcg_running) return;
      const auto d = openmp::pipelined_cg_update<V>(static_cast<V>(st.alpha), static_cast<V>(st.beta), in(ap), dinv_span(), out(x), out(r),
                                                    preconditioned() ? out(z) : out(r), out(p));
      if (comm_) {  // summed with the SpMV's dots, in the iteration's one all-reduce
        pending_update_ = {d.rz, d.rr};
        update_pending_ = true;
        return;
      }
      pipelined_cg_after_update(st, d.rz, d.rr, history_.data(), history_size_);
      return;
    }
    if (comm_ && !reduce_on_device_ && host_state_.done != pcg_running) return;
    cuda::pipelined_cg_update<V>(*cex_, n(), ap.data(), dinv_.data(), x.data(), r.data(), z.data(), p.data(), device_state(), history_.data(),
                                 history_size_, *scratch_, comm_ ? local_sums_.data() : nullptr);
    update_pending_ = comm_ != nullptr;
  }
  // Ap = A p, then <p, Ap>, <Ap, M^-1 Ap> and the recurrence (the SpMV's dots; no-op once done).
  void pipelined_spmv_dots(const Vector& p, Vector& ap) {
    if (cpu_) {
      PipelinedCgState& st = host_state();
      if (st.done != pcg_running) return;
      spmv(p, ap);
      const auto d = openmp::pipelined_cg_dots<V>(in(p), in(ap), dinv_span());
      if (comm_) {
        advance_over_ranks(st, {pending_update_[0], pending_update_[1], d.pap, d.apmap}, history_.data());
        return;
      }
      pipelined_cg_after_dots(st, d.pap, d.apmap);
      return;
    }
    if (!comm_) {
      spmv(p, ap);
      cuda::pipelined_cg_dots<V>(*cex_, n(), p.data(), ap.data(), dinv_.data(), device_state(), *scratch_);
      return;
    }
    if (reduce_on_device_) {
      spmv(p, ap);
      cuda::pipelined_cg_dots<V>(*cex_, n(), p.data(), ap.data(), dinv_.data(), device_state(), *scratch_, local_sums_.data() + 2);
      if (!update_pending_) ex_->fill_zero(local_sums_.data(), 2 * sizeof(double));
      if constexpr (requires { op_.device_allreduce_sum(local_sums_.data(), std::size_t{4}); }) op_.device_allreduce_sum(local_sums_.data(), 4);
      cuda::pipelined_cg_advance(*cex_, device_state(), local_sums_.data(), update_pending_, history_.data(), history_size_);
      update_pending_ = false;
      return;
    }
    if (host_state_.done != pcg_running) return;
    spmv(p, ap);
    cuda::pipelined_cg_dots<V>(*cex_, n(), p.data(), ap.data(), dinv_.data(), device_state(), *scratch_, local_sums_.data() + 2);
    std::array<double, 4> sums{};
    ex_->copy_to_host(sums.data(), local_sums_.data(), sizeof sums);  // waits for both kernels
    if (!update_pending_) sums[0] = sums[1] = 0;
    advance_over_ranks(host_state_, sums, host_history_.data());
    ex_->copy_from_host(state_.data(), &host_state_, sizeof host_state_);
  }
  // The state as the host sees it (a synchronisation on a GPU).
  PipelinedCgState pipelined_state() const {
    if (comm_ && !cpu_ && !reduce_on_device_) return host_state_;
    PipelinedCgState st;
    ex_->copy_to_host(&st, state_.data(), sizeof st);
    return st;
  }
  // ||r_i|| / ||b|| for i = 1..count.
  std::vector<double> pipelined_history(int count) const {
    std::vector<double> h = comm_ && !cpu_ && !reduce_on_device_ ? host_history_ : history_.to_host();
    const int end = std::min(count + 1, history_size_);
    return end > 1 ? std::vector<double>(h.begin() + 1, h.begin() + end) : std::vector<double>{};
  }

 private:
  long long n() const { return static_cast<long long>(n_); }
  // This rank's <a, b> (a synchronisation on a GPU).
  Scalar local_dot(const V* a, const V* b) const {
    return cpu_ ? openmp::dot<V>({a, n_}, {b, n_}) : cuda::dot_host<V>(*cex_, n(), a, b, *scratch_);
  }
  // A distributed iteration's four local sums (the update's <r, z>, <r, r>,
  // if one is pending, and the SpMV's <p, Ap>, <Ap, M^-1 Ap>), added over
  // the ranks in one all-reduce, then the recurrence's two steps in order.
  // Once the update converged, the SpMV's sums are not used.
  void advance_over_ranks(PipelinedCgState& st, std::array<double, 4> sums, double* history) {
    comm_->allreduce_sum(sums.data(), sums.size());
    if (update_pending_) pipelined_cg_after_update(st, sums[0], sums[1], history, history_size_);
    update_pending_ = false;
    if (st.done == pcg_running) pipelined_cg_after_dots(st, sums[2], sums[3]);
  }
  // Local sums to global ones (nothing on one rank).
  void sum_over_ranks(std::span<Scalar> values) const {
    // A complex sum is the sums of its two parts (std::complex's layout is two doubles).
    if (comm_ && !values.empty()) comm_->allreduce_sum(reinterpret_cast<double*>(values.data()), values.size() * sizeof(Scalar) / sizeof(double));
  }
  std::span<const V> in(const Vector& v) const { return {v.data(), n_}; }
  std::span<V> out(Vector& v) const { return {v.data(), n_}; }
  std::span<const V> dinv_span() const { return dinv_.size() > 0 ? std::span<const V>(dinv_.data(), n_) : std::span<const V>{}; }
  PipelinedCgState& host_state() { return *reinterpret_cast<PipelinedCgState*>(state_.data()); }
  PipelinedCgState* device_state() { return reinterpret_cast<PipelinedCgState*>(state_.data()); }
  static std::vector<const V*> pointers(const std::vector<const Vector*>& basis) {
    std::vector<const V*> p;
    for (const Vector* v : basis) p.push_back(v->data());
    return p;
  }

  const Op& op_;
  ExecutorPtr ex_;
  std::size_t n_;
  bool cpu_;
  Array<V> dinv_;
  Array<unsigned char> state_;
  Array<double> history_;
  int history_size_ = 0;
  const cuda::Executor* cex_ = nullptr;
  std::unique_ptr<cuda::ReductionScratch> scratch_;
  const Communicator* comm_ = nullptr;  // set for a distributed operator on more than one rank
  std::array<double, 2> pending_update_{0, 0};  // a distributed update's local <r, z>, <r, r> (CPU)
  bool update_pending_ = false;
  // Distributed on GPUs: the host's state and history, and the kernels' local sums.
  PipelinedCgState host_state_;
  std::vector<double> host_history_;
  Array<double> local_sums_;
  bool reduce_on_device_ = false;
  // A preconditioner other than a diagonal; Chebyshev's bounds, degree and work vectors.
  PreconditionerPtr<V> general_;
  bool chebyshev_ = false;
  ChebyshevBounds cheb_bounds_;
  int cheb_degree_ = 0;
  mutable Vector cheb_res_, cheb_d_, cheb_t_;
  // start_dots' sums, and their all-reduce in flight.
  std::vector<Scalar> pending_dots_;
  std::unique_ptr<CommExchange> pending_sum_;
};

}  // namespace hsparse::detail
