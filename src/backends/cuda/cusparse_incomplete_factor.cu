// cuSPARSE's incomplete factorisations, the baselines' preconditioner
// (cusparse_incomplete_factor.hpp). The factorisation is csrilu02 or
// csric02 on a copy of A's values, in the four steps cuSPARSE documents
// (bufferSize, analysis, factorisation, zeroPivot after the analysis for a
// structural zero and after the factorisation for a numerical one). The
// factors stay in A's pattern, and each triangular solve is the generic
// SpSV on a CSR descriptor of them whose fill mode and diagonal type pick
// the triangle:
//   ILU(0): L (lower, unit diagonal), then U (upper, the stored diagonal);
//   IC(0):  L (lower, the stored diagonal), then the same L transposed
//           (csric02 leaves A's upper triangle as it was; the lower fill
//           mode never reads it).
//
// csrilu02 and csric02 are deprecated in cuSPARSE 12 (to be removed in its
// next major release). They are still the incomplete factorisations a
// cuSPARSE user has, and so the baseline the benchmark's issue asks for.
// Their deprecation warnings are therefore switched off here, for this file
// only, with the macro cuSPARSE documents for it, defined before cusparse.h;
// no other file calls them.
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>

#include <algorithm>
#include <string>
#include <type_traits>

#include "cusparse_check.hpp"
#include "cusparse_incomplete_factor.hpp"
#include "device_common.cuh"
#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/timer.hpp"

namespace hsparse::cuda {

namespace {

// A cuSPARSE object, destroyed with its owner.
template <class T, auto Destroy>
class Owned {
 public:
  Owned() = default;
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() {
    if (h_) Destroy(h_);
  }
  T* out() { return &h_; }  ///< for the create call
  T get() const { return h_; }

 private:
  T h_ = nullptr;
};
using SpMatrix = Owned<cusparseSpMatDescr_t, cusparseDestroySpMat>;
using DnVector = Owned<cusparseDnVecDescr_t, cusparseDestroyDnVec>;

// float's routine or double's.
template <class V, class S, class D>
constexpr auto by_type(S single, D double_precision) {
  if constexpr (std::is_same_v<V, float>) {
    return single;
  } else {
    return double_precision;
  }
}

// The two factorisations' routines: the same steps, with the same arguments.
struct Ilu0 {
  using Info = csrilu02Info_t;
  static constexpr const char* name = "ILU(0)";
  static constexpr const char* routine = "csrilu02";
  static constexpr auto create = cusparseCreateCsrilu02Info;
  static constexpr auto destroy = cusparseDestroyCsrilu02Info;
  static constexpr auto zero_pivot = cusparseXcsrilu02_zeroPivot;
  template <class V> static constexpr auto buffer_size = by_type<V>(cusparseScsrilu02_bufferSize, cusparseDcsrilu02_bufferSize);
  template <class V> static constexpr auto analysis = by_type<V>(cusparseScsrilu02_analysis, cusparseDcsrilu02_analysis);
  template <class V> static constexpr auto factor = by_type<V>(cusparseScsrilu02, cusparseDcsrilu02);
};
struct Ic0 {
  using Info = csric02Info_t;
  static constexpr const char* name = "IC(0)";
  static constexpr const char* routine = "csric02";
  static constexpr auto create = cusparseCreateCsric02Info;
  static constexpr auto destroy = cusparseDestroyCsric02Info;
  static constexpr auto zero_pivot = cusparseXcsric02_zeroPivot;
  template <class V> static constexpr auto buffer_size = by_type<V>(cusparseScsric02_bufferSize, cusparseDcsric02_bufferSize);
  template <class V> static constexpr auto analysis = by_type<V>(cusparseScsric02_analysis, cusparseDcsric02_analysis);
  template <class V> static constexpr auto factor = by_type<V>(cusparseScsric02, cusparseDcsric02);
};

// Checks a step of routine R; a failure names the call, e.g. "cusparseDcsrilu02_analysis".
template <class R, class V>
void check_step(cusparseStatus_t status, const char* step) {
  detail::check_cusparse(status, (std::string("cusparse") + (std::is_same_v<V, float> ? "S" : "D") + R::routine + step).c_str());
}

// cuSPARSE reports a zero pivot (0-based, as the matrix descriptor's base)
// only when asked; `kind` says which zero this check can find.
template <class R>
void throw_on_zero_pivot(cusparseHandle_t handle, typename R::Info info, const char* kind) {
  int position = -1;
  const cusparseStatus_t status = R::zero_pivot(handle, info, &position);
  if (status == CUSPARSE_STATUS_ZERO_PIVOT) {
    throw Error(ErrorCode::invalid_matrix, std::string("cuSPARSE ") + R::name + ": zero pivot in row " + std::to_string(position + 1) + " (1-based), " + kind);
  }
  detail::check_cusparse(status, (std::string("cusparseX") + R::routine + "_zeroPivot").c_str());
}

// Overwrites `values` (m's pattern) with m's incomplete factors.
template <class R, class V>
void factorise(const Executor& ex, cusparseHandle_t handle, const DeviceCsr<V, std::int32_t>& m, V* values, BaselineFactorTimes& times) {
  Stopwatch watch;
  Owned<cusparseMatDescr_t, cusparseDestroyMatDescr> descr;  // the defaults: general, zero-based
  HSPARSE_CUSPARSE_CHECK(cusparseCreateMatDescr(descr.out()));
  Owned<typename R::Info, R::destroy> info;
  detail::check_cusparse(R::create(info.out()), (std::string("creating the ") + R::routine + " info").c_str());
  const int rows = m.rows, nnz = static_cast<int>(m.nnz());
  const int *row_ptr = m.row_ptr.data(), *col_idx = m.col_idx.data();
  int bytes = 0;
  check_step<R, V>(R::template buffer_size<V>(handle, rows, nnz, descr.get(), values, row_ptr, col_idx, info.get(), &bytes), "_bufferSize");
  DeviceArray<unsigned char> buffer(static_cast<std::size_t>(std::max(bytes, 1)));
  check_step<R, V>(R::template analysis<V>(handle, rows, nnz, descr.get(), values, row_ptr, col_idx, info.get(), CUSPARSE_SOLVE_POLICY_USE_LEVEL,
                                          buffer.data()),
                   "_analysis");
  throw_on_zero_pivot<R>(handle, info.get(), "a structural zero (no stored diagonal entry)");
  ex.synchronize();
  times.analysis_seconds += watch.seconds();
  watch.restart();
  check_step<R, V>(R::template factor<V>(handle, rows, nnz, descr.get(), values, row_ptr, col_idx, info.get(), CUSPARSE_SOLVE_POLICY_USE_LEVEL,
                                        buffer.data()),
                   "");
  throw_on_zero_pivot<R>(handle, info.get(), "a numerical zero");
  ex.synchronize();
  times.factor_seconds = watch.seconds();
}

// A CSR descriptor of the factors in m's pattern, seen as one triangle.
template <class V>
void describe_triangle(SpMatrix& out, const DeviceCsr<V, std::int32_t>& m, V* values, cusparseFillMode_t fill, cusparseDiagType_t diag) {
  HSPARSE_CUSPARSE_CHECK(cusparseCreateCsr(out.out(), m.rows, m.cols, static_cast<std::int64_t>(m.nnz()), const_cast<std::int32_t*>(m.row_ptr.data()),
                                           const_cast<std::int32_t*>(m.col_idx.data()), values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                           CUSPARSE_INDEX_BASE_ZERO, detail::cusparse_value_type<V>()));
  HSPARSE_CUSPARSE_CHECK(cusparseSpMatSetAttribute(out.get(), CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
  HSPARSE_CUSPARSE_CHECK(cusparseSpMatSetAttribute(out.get(), CUSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)));
}

// One triangular solve y = op(T)^-1 x, analysed once; its buffer lives as long as it does.
template <class V>
class SpsvSolve {
 public:
  void analyse(cusparseHandle_t handle, cusparseSpMatDescr_t triangle, cusparseOperation_t op, cusparseDnVecDescr_t x, cusparseDnVecDescr_t y) {
    triangle_ = triangle;
    op_ = op;
    HSPARSE_CUSPARSE_CHECK(cusparseSpSV_createDescr(descr_.out()));
    const V one(1);
    std::size_t bytes = 0;
    HSPARSE_CUSPARSE_CHECK(cusparseSpSV_bufferSize(handle, op_, &one, triangle_, x, y, detail::cusparse_value_type<V>(), CUSPARSE_SPSV_ALG_DEFAULT,
                                                   descr_.get(), &bytes));
    buffer_ = DeviceArray<unsigned char>(std::max<std::size_t>(bytes, 1));
    HSPARSE_CUSPARSE_CHECK(cusparseSpSV_analysis(handle, op_, &one, triangle_, x, y, detail::cusparse_value_type<V>(), CUSPARSE_SPSV_ALG_DEFAULT,
                                                 descr_.get(), buffer_.data()));
  }
  void solve(cusparseHandle_t handle, cusparseDnVecDescr_t x, cusparseDnVecDescr_t y) const {
    const V one(1);
    HSPARSE_CUSPARSE_CHECK(cusparseSpSV_solve(handle, op_, &one, triangle_, x, y, detail::cusparse_value_type<V>(), CUSPARSE_SPSV_ALG_DEFAULT,
                                              descr_.get()));
  }

 private:
  Owned<cusparseSpSVDescr_t, cusparseSpSV_destroyDescr> descr_;
  DeviceArray<unsigned char> buffer_;
  cusparseSpMatDescr_t triangle_ = nullptr;  // not owned
  cusparseOperation_t op_ = CUSPARSE_OPERATION_NON_TRANSPOSE;
};

}  // namespace

template <class V>
struct CusparseIncompleteFactor<V>::State {
  const Executor* ex = nullptr;
  Owned<cusparseHandle_t, cusparseDestroy> handle;
  DeviceArray<V> factors;  // L and U (ILU(0)) or L (IC(0)) in A's pattern
  DeviceArray<V> between;  // L^-1 r
  SpMatrix lower, upper;   // upper: ILU(0) only
  DnVector in, mid, out;   // r, L^-1 r and z: apply() points in and out at its vectors
  SpsvSolve<V> first, second;
};

template <class V>
CusparseIncompleteFactor<V>::CusparseIncompleteFactor(const Executor& ex, const DeviceCsr<V, std::int32_t>& m, BaselinePreconditioner kind,
                                                      BaselineFactorTimes* times)
    : state_(new State) {
  if (kind == BaselinePreconditioner::none) throw Error(ErrorCode::invalid_argument, "an incomplete factorisation: ilu0 or ic0, not none");
  if (m.rows != m.cols) throw Error(ErrorCode::invalid_argument, std::string("cuSPARSE ") + preconditioner_name(kind) + " needs a square matrix");
  const bool ilu = kind == BaselinePreconditioner::ilu0;
  BaselineFactorTimes unused;
  BaselineFactorTimes& t = times ? *times : unused;
  State& s = *state_;
  s.ex = &ex;
  HSPARSE_CUSPARSE_CHECK(cusparseCreate(s.handle.out()));
  HSPARSE_CUSPARSE_CHECK(cusparseSetStream(s.handle.get(), detail::stream_of(ex)));
  const auto n = static_cast<std::size_t>(m.rows);
  s.factors = DeviceArray<V>(m.nnz());
  ex.copy(s.factors.data(), m.values.data(), m.nnz() * sizeof(V));
  s.between = DeviceArray<V>(n);
  if (ilu) {
    factorise<Ilu0>(ex, s.handle.get(), m, s.factors.data(), t);
  } else {
    factorise<Ic0>(ex, s.handle.get(), m, s.factors.data(), t);
  }
  Stopwatch watch;
  describe_triangle(s.lower, m, s.factors.data(), CUSPARSE_FILL_MODE_LOWER, ilu ? CUSPARSE_DIAG_TYPE_UNIT : CUSPARSE_DIAG_TYPE_NON_UNIT);
  if (ilu) describe_triangle(s.upper, m, s.factors.data(), CUSPARSE_FILL_MODE_UPPER, CUSPARSE_DIAG_TYPE_NON_UNIT);
  DeviceArray<V> probe(n);  // the analysis's x and y; apply() sets its own
  HSPARSE_CUSPARSE_CHECK(cusparseCreateDnVec(s.in.out(), m.rows, probe.data(), detail::cusparse_value_type<V>()));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateDnVec(s.mid.out(), m.rows, s.between.data(), detail::cusparse_value_type<V>()));
  HSPARSE_CUSPARSE_CHECK(cusparseCreateDnVec(s.out.out(), m.rows, probe.data(), detail::cusparse_value_type<V>()));
  s.first.analyse(s.handle.get(), s.lower.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, s.in.get(), s.mid.get());
  s.second.analyse(s.handle.get(), ilu ? s.upper.get() : s.lower.get(), ilu ? CUSPARSE_OPERATION_NON_TRANSPOSE : CUSPARSE_OPERATION_TRANSPOSE,
                   s.mid.get(), s.out.get());
  ex.synchronize();
  t.analysis_seconds += watch.seconds();
}

template <class V>
CusparseIncompleteFactor<V>::~CusparseIncompleteFactor() = default;

template <class V>
void CusparseIncompleteFactor<V>::apply(const V* r, V* z) const {
  const State& s = *state_;
  HSPARSE_CUSPARSE_CHECK(cusparseDnVecSetValues(s.in.get(), const_cast<V*>(r)));
  HSPARSE_CUSPARSE_CHECK(cusparseDnVecSetValues(s.out.get(), z));
  s.first.solve(s.handle.get(), s.in.get(), s.mid.get());
  s.second.solve(s.handle.get(), s.mid.get(), s.out.get());
}

template <class V>
double CusparseIncompleteFactor<V>::seconds_per_apply(const V* r, V* z, int repetitions) const {
  return time_back_to_back(*state_->ex, [&] { apply(r, z); }, repetitions, 1).median_s;
}

template class CusparseIncompleteFactor<float>;
template class CusparseIncompleteFactor<double>;

}  // namespace hsparse::cuda
