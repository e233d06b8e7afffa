// The CPU's baseline libraries as bench candidates: Eigen's parallel
// row-major SpMV and librsb, where this build has them (hsparse's own plans
// are candidates_plans.cpp's, for either executor).
#include <algorithm>
#include <limits>

#include "bench.hpp"
#include "hsparse/core/error.hpp"
#ifdef HSPARSE_HAVE_EIGEN
#include <Eigen/SparseCore>
#endif
#ifdef HSPARSE_HAVE_LIBRSB
#include <rsb.h>
#endif

namespace hsparse::bench {

int repetitions_for(double min_time_s, double trial_s) {
  const double reps = min_time_s / std::max(trial_s, 1e-7);
  return static_cast<int>(std::clamp(reps, 5.0, 10000.0));
}

void apply_bench_variant(const std::string& variant, SpmvOptions& o) {
  if (variant.empty()) return;
  if (variant.rfind("sigma=", 0) == 0) {
    o.layout.sigma = std::stoll(variant.substr(6));
  } else if (variant == "no-preprocess") {  // the cuSPARSE baselines' parameter preprocess
    o.params["preprocess"] = 0;
  } else {
    throw Error(ErrorCode::internal, "unknown bench variant '" + variant + "' in a kernel registration");
  }
}

std::string bench_label(Format format, const std::string& kernel, const std::string& variant) {
  std::string label = std::string(to_string(format)) + "/" + kernel;
  if (variant.empty()) return label;
  std::string v = variant;
  v.erase(std::remove(v.begin(), v.end(), '='), v.end());
  return label + "-" + v;
}

void initialize_cpu_baselines() {
#ifdef HSPARSE_HAVE_LIBRSB
  if (rsb_lib_init(RSB_NULL_INIT_OPTIONS) != RSB_ERR_NO_ERROR) throw Error(ErrorCode::unsupported, "librsb initialisation failed");
#endif
}

void finalize_cpu_baselines() {
#ifdef HSPARSE_HAVE_LIBRSB
  rsb_lib_exit(RSB_NULL_EXIT_OPTIONS);
#endif
}

namespace {

// A candidate around y = A x on host memory; `keep` holds what `run` uses.
std::unique_ptr<Candidate> host_candidate(std::string library, std::string format, std::string kernel, double setup_s, double bytes,
                                          std::size_t stored, const Csr<V, I>& a, const V* x, const SpmvReference<V, I>& reference,
                                          std::function<void(const V*, V*)> run) {
  auto c = std::make_unique<Candidate>();
  c->library = std::move(library);
  c->format = std::move(format);
  c->kernel = std::move(kernel);
  c->setup_s = setup_s;
  c->matrix_bytes = bytes;
  c->stored_entries = stored;
  auto y = std::make_shared<std::vector<V>>(static_cast<std::size_t>(a.rows));
  c->run_and_check = [run, y, x, &reference](double rounding) {
    std::fill(y->begin(), y->end(), std::numeric_limits<V>::quiet_NaN());
    run(x, y->data());
    return reference.check(*y, rounding);
  };
  c->time = [run, y, x](double min_time_s) {
    Stopwatch trial;
    run(x, y->data());
    return time_repeated([&] { run(x, y->data()); }, repetitions_for(min_time_s, trial.seconds()), 1);
  };
  return c;
}

}  // namespace

std::vector<CandidateMaker> cpu_baseline_candidates(const Csr<V, I>& a, const V* x, const SpmvReference<V, I>& reference) {
  std::vector<CandidateMaker> makers;
#ifdef HSPARSE_HAVE_EIGEN
  makers.push_back({"eigen", [&a, x, &reference] {
                      Stopwatch w;
                      auto m = std::make_shared<Eigen::Map<const Eigen::SparseMatrix<V, Eigen::RowMajor, I>>>(
                          a.rows, a.cols, static_cast<I>(a.nnz()), a.row_ptr.data(), a.col_idx.data(), a.values.data());
                      const double bytes = static_cast<double>(a.nnz() * (sizeof(V) + sizeof(I)) + (a.row_ptr.size()) * sizeof(I));
                      return host_candidate("eigen", "csr", "eigen/row-major", w.seconds(), bytes, a.nnz(), a, x, reference,
                                            [m, rows = a.rows, cols = a.cols](const V* xv, V* yv) {
                                              Eigen::Map<const Eigen::VectorXd> xm(xv, cols);
                                              Eigen::Map<Eigen::VectorXd> ym(yv, rows);
                                              ym.noalias() = (*m) * xm;
                                            });
                    }});
#endif
#ifdef HSPARSE_HAVE_LIBRSB
  makers.push_back({"librsb", [&a, x, &reference] {
                      Stopwatch w;
                      rsb_err_t err = RSB_ERR_NO_ERROR;
                      rsb_mtx_t* m = rsb_mtx_alloc_from_csr_const(a.values.data(), a.row_ptr.data(), a.col_idx.data(),
                                                                  static_cast<rsb_nnz_idx_t>(a.nnz()), RSB_NUMERICAL_TYPE_DOUBLE, a.rows,
                                                                  a.cols, 1, 1, RSB_FLAG_NOFLAGS, &err);
                      if (m == nullptr || err != RSB_ERR_NO_ERROR) throw Error(ErrorCode::unsupported, "librsb: matrix allocation failed");
                      std::shared_ptr<rsb_mtx_t> owner(m, [](rsb_mtx_t* p) { rsb_mtx_free(p); });
                      std::size_t bytes = 0;
                      rsb_mtx_get_info(m, RSB_MIF_TOTAL_SIZE__TO__SIZE_T, &bytes);
                      return host_candidate("librsb", "rsb", "librsb/recursive", w.seconds(), static_cast<double>(bytes), a.nnz(), a, x, reference,
                                            [owner](const V* xv, V* yv) {
                                              const V one = 1, zero = 0;
                                              rsb_spmv(RSB_TRANSPOSITION_N, &one, owner.get(), xv, 1, &zero, yv, 1);
                                            });
                    }});
#endif
  return makers;
}

}  // namespace hsparse::bench
