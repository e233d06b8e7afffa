#pragma once
// Shared by the benchmark's baselines from NVIDIA's libraries (cublas_cg.cu,
// cusparse_baselines.cu): the checked cuBLAS level-1 calls in host pointer
// mode, and the bookkeeping every baseline Krylov loop does alike: the
// trivial right-hand side, the stopping test on the recurrence's
// ||r|| / ||b||, the history, a breakdown's reason, and the time split
// (setup until the first residual, then the iterations).
#include <cublas_v2.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "hsparse/backends/cuda/cublas_cg.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"

namespace hsparse::cuda::baseline {

inline void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw Error(ErrorCode::cuda, std::string("cuBLAS ") + what + " failed (status " + std::to_string(static_cast<int>(s)) + ")");
}

// The four cuBLAS calls the Krylov baselines need, for float and double.
struct Blas {
  cublasHandle_t h;
  int n;
  double dot(const double* a, const double* b) const { double r; check_cublas(cublasDdot(h, n, a, 1, b, 1, &r), "dot"); return r; }
  double dot(const float* a, const float* b) const { float r; check_cublas(cublasSdot(h, n, a, 1, b, 1, &r), "dot"); return r; }
  void axpy(double a, const double* x, double* y) const { check_cublas(cublasDaxpy(h, n, &a, x, 1, y, 1), "axpy"); }
  void axpy(float a, const float* x, float* y) const { check_cublas(cublasSaxpy(h, n, &a, x, 1, y, 1), "axpy"); }
  void scal(double a, double* x) const { check_cublas(cublasDscal(h, n, &a, x, 1), "scal"); }
  void scal(float a, float* x) const { check_cublas(cublasSscal(h, n, &a, x, 1), "scal"); }
  void copy(const double* x, double* y) const { check_cublas(cublasDcopy(h, n, x, 1, y, 1), "copy"); }
  void copy(const float* x, float* y) const { check_cublas(cublasScopy(h, n, x, 1, y, 1), "copy"); }
};

inline const char* stop_name(BaselineCgResult::Stop s) {
  switch (s) {
    case BaselineCgResult::Stop::converged: return "converged";
    case BaselineCgResult::Stop::max_iterations: return "max_iterations";
    case BaselineCgResult::Stop::breakdown: return "breakdown";
    case BaselineCgResult::Stop::non_finite: return "non_finite";
  }
  return "?";
}

// One baseline run's record. The clock runs from construction: setup until
// start_iterations(), then the iterations until finish().
class Progress {
 public:
  Progress(double tolerance, bool record_history) : tolerance_(tolerance), record_history_(record_history) {}

  // Takes (b, b); true when ||b|| is 0 or not finite: nothing to iterate
  // (result() says why, and x is left as it is).
  bool trivial_right_hand_side(double bb) {
    bnorm_ = std::sqrt(bb);
    if (bnorm_ != 0 && std::isfinite(bnorm_)) return false;
    res_.stop = bnorm_ == 0 ? BaselineCgResult::Stop::converged : BaselineCgResult::Stop::non_finite;
    res_.message = "trivial right-hand side";
    return true;
  }
  // Setup is over; rr = (r, r) of the first residual.
  void start_iterations(double rr) {
    res_.setup_seconds = watch_.seconds();
    watch_.restart();
    res_.relative_residual = std::sqrt(rr) / bnorm_;
    if (record_history_) res_.history.push_back(res_.relative_residual);
    res_.stop = BaselineCgResult::Stop::max_iterations;
  }
  // Iteration k is complete and left rr = (r, r); false (stop: non_finite) when rr is not finite.
  bool record(int k, double rr) {
    res_.iterations = k;
    res_.relative_residual = std::sqrt(rr) / bnorm_;
    if (record_history_) res_.history.push_back(res_.relative_residual);
    if (std::isfinite(rr)) return true;
    res_.stop = BaselineCgResult::Stop::non_finite;
    return false;
  }
  bool converged() const { return res_.relative_residual <= tolerance_; }
  // Would a residual with (r, r) = rr meet the tolerance (a half step's test)?
  bool converged_at(double rr) const { return std::sqrt(rr) / bnorm_ <= tolerance_; }
  // The recurrence's scalar `what` = value at iteration k may be used when
  // it is finite and `ok`; otherwise the run stops (non_finite or
  // breakdown) with the quantity and the iteration as its reason.
  bool holds(bool ok, double value, const char* what, int k) {
    const bool finite = std::isfinite(value);
    if (finite && ok) return true;
    res_.stop = finite ? BaselineCgResult::Stop::breakdown : BaselineCgResult::Stop::non_finite;
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", value);
    reason_ = std::string(what) + " = " + text + " at iteration " + std::to_string(k);
    return false;
  }
  // The iterations are over: the final stop, their time (after the
  // stream's work) and the message "<method>: <stop> (<reason>)".
  BaselineCgResult finish(const Executor& ex, const std::string& method) {
    if (converged()) res_.stop = BaselineCgResult::Stop::converged;
    ex.synchronize();
    res_.seconds = watch_.seconds();
    res_.message = method + ": " + stop_name(res_.stop) + (reason_.empty() || converged() ? "" : " (" + reason_ + ")");
    return std::move(res_);
  }
  // The result so far (what trivial_right_hand_side() set).
  BaselineCgResult result() { return std::move(res_); }

 private:
  BaselineCgResult res_;
  Stopwatch watch_;
  std::string reason_;
  double bnorm_ = 0;
  double tolerance_;
  bool record_history_;
};

}  // namespace hsparse::cuda::baseline
