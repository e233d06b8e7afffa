// GPU tridiagonal solvers against Thomas on the CPU in double: every
// algorithm on sizes 1, 2, 3, odd, non-powers of two, 512, 1024, past one
// block and 2^20, batches of 1 to 10^5, both layouts, float and double, x
// poisoned with NaN first; zero pivots reported by check(); the cuSPARSE
// baselines agree. Skipped with "skipped: no CUDA device" where there is none.
#include <gtest/gtest.h>

#include <cmath>

#include "hsparse/backends/cuda/tridiagonal.hpp"
#include "hsparse/kernels/tridiagonal.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/generators/tridiagonal_batch.hpp"

namespace hsparse::cuda {
namespace {

#define REQUIRE_CUDA_DEVICE() \
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description()

template <class V>
struct DeviceBatch {
  DeviceArray<V> a, b, c, d, x;
  TridiagonalSystems<V> s;
  explicit DeviceBatch(const generators::TridiagonalBatch<V>& t)
      : a(t.a), b(t.b), c(t.c), d(t.d), x(std::vector<V>(t.d.size(), std::numeric_limits<V>::quiet_NaN())) {
    s = {t.size, t.count, t.layout, a.data(), b.data(), c.data()};
  }
  void poison() { x.upload(std::vector<V>(x.size(), std::numeric_limits<V>::quiet_NaN()).data(), x.size()); }
};

// Max |x - x_ref| / max |x_ref| against the CPU's Thomas in double.
template <class V>
double error_against_thomas(const generators::TridiagonalBatch<V>& t, const std::vector<V>& x) {
  const auto td = generators::random_tridiagonal_batch<double>(t.size, t.count, t.layout, 11);
  std::vector<double> ref(td.d.size());
  openmp::tridiagonal_solve<double>(td.systems(), td.d, ref);
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    if (!std::isfinite(static_cast<double>(x[i]))) return INFINITY;
    err = std::max(err, std::abs(static_cast<double>(x[i]) - ref[i]));
    scale = std::max(scale, std::abs(ref[i]));
  }
  return scale > 0 ? err / scale : err;
}

template <class V>
void check_all(double tol) {
  Executor ex;
  TridiagonalSolver<V> solver(ex);
  struct Shape {
    long long size, count;
  };
  const Shape shapes[] = {{1, 1},    {1, 1000}, {2, 3},    {3, 7},      {5, 100000}, {17, 513},  {63, 64},     {64, 4096},
                          {100, 10}, {512, 512}, {1000, 3}, {1024, 20}, {1025, 2},   {4096, 3},   {4097, 5},  {100003, 1},  {1 << 20, 1}};
  const TridiagonalAlgorithm algorithms[] = {TridiagonalAlgorithm::automatic, TridiagonalAlgorithm::thomas, TridiagonalAlgorithm::cr,
                                             TridiagonalAlgorithm::pcr, TridiagonalAlgorithm::hybrid, TridiagonalAlgorithm::partition};
  for (const auto& sh : shapes) {
    for (auto layout : {TridiagonalLayout::contiguous, TridiagonalLayout::interleaved}) {
      const auto t = generators::random_tridiagonal_batch<V>(sh.size, sh.count, layout, 11);
      DeviceBatch<V> db(t);
      for (auto alg : algorithms) {
        for (int option = 0; option < 4; ++option) {
          TridiagonalOptions o;
          o.algorithm = alg;
          if (option == 1) o.hybrid_switch = 2;   // CR all the way
          if (option == 2) o.hybrid_switch = 1024, o.partition_rows = 7;  // PCR from the start; odd partitions
          if (option == 3) o.partition_rows = 64;  // too big to stage in shared memory: the unstaged sweep
          if (option > 0 && alg != TridiagonalAlgorithm::hybrid && alg != TridiagonalAlgorithm::partition) continue;
          if (option == 3 && alg != TridiagonalAlgorithm::partition) continue;
          const std::string what = std::to_string(sh.size) + " x " + std::to_string(sh.count) + " " + to_string(layout) + " " + to_string(alg) +
                                   " option " + std::to_string(option);
          const bool shared = alg == TridiagonalAlgorithm::cr || alg == TridiagonalAlgorithm::pcr || alg == TridiagonalAlgorithm::hybrid;
          if (shared && sh.size > shared_solver_max_size(alg)) {
            EXPECT_THROW(solver.solve(db.s, db.d.data(), db.x.data(), o), Error) << what;
            continue;
          }
          if (alg == TridiagonalAlgorithm::thomas && layout == TridiagonalLayout::contiguous && sh.size * sh.count > (1 << 22)) continue;
          db.poison();
          solver.solve(db.s, db.d.data(), db.x.data(), o);
          ASSERT_NO_THROW(solver.check()) << what;
          EXPECT_LE(error_against_thomas(t, db.x.download()), tol) << what << " (" << solver.description() << ")";
        }
      }
      // cuSPARSE's solvers, for the benchmark's baselines.
      if (sh.size >= 3) {  // gtsv2StridedBatch refuses m < 3
        db.poison();
        solver.cusparse_solve(db.s, db.d.data(), db.x.data());
        ex.synchronize();
        EXPECT_LE(error_against_thomas(t, db.x.download()), tol) << sh.size << " x " << sh.count << " cuSPARSE " << to_string(layout);
      }
    }
  }
}

TEST(CudaTridiagonal, EveryAlgorithmDouble) {
  REQUIRE_CUDA_DEVICE();
  check_all<double>(1e-12);
}
TEST(CudaTridiagonal, EveryAlgorithmFloat) {
  REQUIRE_CUDA_DEVICE();
  check_all<float>(2e-5);
}

TEST(CudaTridiagonal, ZeroPivotIsReportedWithSystemAndRow) {
  REQUIRE_CUDA_DEVICE();
  Executor ex;
  TridiagonalSolver<double> solver(ex);
  for (auto layout : {TridiagonalLayout::contiguous, TridiagonalLayout::interleaved}) {
    for (long long size : {64LL, 5000LL}) {
      auto t = generators::random_tridiagonal_batch<double>(size, 6, layout, 13);
      t.b[static_cast<std::size_t>(t.systems().index(4, 0))] = 0;  // system 4, first row: a zero first pivot for every algorithm
      DeviceBatch<double> db(t);
      for (auto alg : {TridiagonalAlgorithm::thomas, TridiagonalAlgorithm::automatic, TridiagonalAlgorithm::partition}) {
        TridiagonalOptions o;
        o.algorithm = alg;
        solver.solve(db.s, db.d.data(), db.x.data(), o);
        try {
          solver.check();
          ADD_FAILURE() << "zero pivot not reported: " << size << " " << to_string(layout) << " " << to_string(alg);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("system 4, row"), std::string::npos) << e.what() << " (" << to_string(alg) << ")";
        }
      }
    }
  }
  // After a report the flag is clear: a good batch checks clean.
  const auto good = generators::random_tridiagonal_batch<double>(64, 6, TridiagonalLayout::contiguous, 13);
  DeviceBatch<double> db(good);
  solver.solve(db.s, db.d.data(), db.x.data());
  EXPECT_NO_THROW(solver.check());
}

}  // namespace
}  // namespace hsparse::cuda
