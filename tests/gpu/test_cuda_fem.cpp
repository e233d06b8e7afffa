// The LMA and sum-factorised products and solves on the GPU
// (backends/cuda/lma_spmv.hpp, fem/element_operators.hpp) against the CPU
// reference: both scatters (atomics, colouring), Q1-Q4, float and double,
// beta = 0 with NaN in y.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <limits>
#include <type_traits>
#include <vector>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/backends/cuda/lma_spmv.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/fem/element_operators.hpp"
#include "hsparse/fem/poisson.hpp"
#include "hsparse/kernels/lma_spmv.hpp"
#include "hsparse/kernels/pa_spmv.hpp"
#include "hsparse/fem/partial_assembly.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "support/test_support.hpp"

namespace hsparse::cuda {
namespace {

// A device product y = 2 A x + beta y (run(x, beta, y) on device pointers)
// against the CPU reference's (reference(x, beta, y) on host spans), with
// beta = 0 (NaN in y) and -0.5.
template <class V>
void check_device_product(const fem::PoissonProblem<V, std::int32_t>& pr, const std::string& what,
                          const std::function<void(std::span<const V>, V, std::span<V>)>& reference_product,
                          const std::function<void(const V*, V, V*)>& device_product) {
  const ExecutorPtr gpu = make_executor(Backend::cuda);
  const auto xh = test::test_vector<V>(pr.load.size(), 3);
  const Array<V> x(gpu, std::span<const V>(xh));
  for (const V beta : {V(0), V(-0.5)}) {
    std::vector<V> expect = test::test_vector<V>(pr.load.size(), 4);
    const std::vector<V> start = beta == V(0) ? std::vector<V>(expect.size(), std::numeric_limits<V>::quiet_NaN()) : expect;
    reference_product(xh, beta, expect);
    Array<V> y(gpu, std::span<const V>(start));
    device_product(x.data(), beta, y.data());
    const auto got = y.to_host();
    const double tol = std::is_same_v<V, float> ? 1e-4 : 1e-11;
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_LE(std::abs(static_cast<double>(got[i]) - static_cast<double>(expect[i])), tol * std::max(1.0, std::abs(static_cast<double>(expect[i]))))
          << what << " Q" << pr.options.degree << " n " << pr.options.elements << " entry " << i;
    }
  }
}

template <class V>
void check_lma_product(int p, long long n, LmaScatter scatter) {
  const ExecutorPtr gpu = make_executor(Backend::cuda);  // kept alive: ex refers into it
  const Executor& ex = cuda_executor(*gpu, "the LMA test");
  const auto pr = fem::assemble_poisson<V, std::int32_t>({p, n, 0.15});
  const auto packed = fem::upper_triangle(pr.local);
  for (const auto* local : {&pr.local, &packed}) {
    const auto dev = DeviceLocalMatrices<V, std::int32_t>::upload(*local);
    check_device_product<V>(
        pr, std::string(local->symmetric ? "LMA upper triangles " : "LMA ") + to_string(scatter),
        [&](std::span<const V> x, V beta, std::span<V> y) { reference::lma_spmv<V, std::int32_t>(V(2), *local, x, beta, y); },
        [&](const V* x, V beta, V* y) { lma_spmv<V, std::int32_t>(ex, scatter, V(2), dev, x, beta, y); });
  }
}

template <class V>
void check_pa_product(int p, long long n, LmaScatter scatter) {
  const ExecutorPtr gpu = make_executor(Backend::cuda);  // kept alive: ex refers into it
  const Executor& ex = cuda_executor(*gpu, "the PA test");
  const auto pr = fem::assemble_poisson<V, std::int32_t>({p, n, 0.15});
  const auto qd = fem::partial_assembly(pr);
  const auto dev = DeviceQuadratureData<V, std::int32_t>::upload(qd);
  check_device_product<V>(
      pr, std::string("PA ") + to_string(scatter),
      [&](std::span<const V> x, V beta, std::span<V> y) { reference::pa_spmv<V, std::int32_t>(V(2), qd, x, beta, y); },
      [&](const V* x, V beta, V* y) { pa_spmv<V, std::int32_t>(ex, scatter, V(2), dev, x, beta, y); });
}

TEST(CudaLma, SumFactorisedProductMatchesTheReference) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  for (const LmaScatter scatter : {LmaScatter::atomics, LmaScatter::colouring}) {
    for (int p = 1; p <= 4; ++p) {
      for (const long long n : {1LL, 2LL, 7LL, 40LL}) {
        check_pa_product<double>(p, n, scatter);
        check_pa_product<float>(p, n, scatter);
      }
    }
  }
}

TEST(CudaLma, ProductMatchesTheReference) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  for (const LmaScatter scatter : {LmaScatter::atomics, LmaScatter::colouring}) {
    for (int p = 1; p <= 4; ++p) {
      for (const long long n : {1LL, 2LL, 7LL, 40LL}) {
        check_lma_product<double>(p, n, scatter);
        check_lma_product<float>(p, n, scatter);
      }
    }
  }
}

// The discretisation error test on the GPU: CG with Jacobi on the element
// operators (LMA upper triangles and the sum-factorised one, atomics) at N
// and 4N; the L2 error falls at the elements' order (the CPU test's bounds,
// tests/unit/test_fem.cpp, on a 0.2 h perturbed mesh).
TEST(CudaLma, ErrorFallsAtTheElementsOrder) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr gpu = make_executor(Backend::cuda);
  for (int p = 1; p <= 4; ++p) {
    const long long n0 = p == 1 ? 16 : 4;
    for (const std::string op : {"lma-sym", "pa"}) {
      std::vector<double> errors;
      for (const long long n : {n0, 4 * n0}) {
        const auto pr = fem::assemble_poisson<double, std::int32_t>({p, n, 0.2});
        const auto dinv = fem::lma_inverse_diagonal(pr.local);
        SolverOptions o;
        o.tolerance = 1e-13;
        o.preconditioner = Preconditioner::jacobi;
        const Array<double> b(gpu, std::span<const double>(pr.load));
        Array<double> x(gpu, pr.load.size());
        const SolverResult r = op == "pa" ? solve(fem::PaOperator<double, std::int32_t>(gpu, fem::partial_assembly(pr)).op(), dinv, b, x, o)
                                          : solve(fem::LmaOperator<double, std::int32_t>(gpu, fem::upper_triangle(pr.local)).op(), dinv, b, x, o);
        ASSERT_TRUE(r.converged()) << op << " Q" << p << " N " << n << ": " << r.message;
        const auto u = x.to_host();
        errors.push_back(fem::l2_error(pr, std::span<const double>(u)));
      }
      const double rate = std::log2(errors[0] / errors[1]) / 2;
      std::printf("GPU %s Q%d: L2 error %.3e -> %.3e, rate %.2f\n", op.c_str(), p, errors[0], errors[1], rate);
      EXPECT_GT(rate, p + 1 - 0.4) << op << " Q" << p;
      EXPECT_LT(rate, p + 1 + 0.6) << op << " Q" << p;
    }
  }
}

// CG and pipelined CG on the GPU LMA operator reach the CPU CSR solution.
TEST(CudaLma, SolveMatchesTheCpu) {
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description();
  const ExecutorPtr gpu = make_executor(Backend::cuda), cpu = make_executor(Backend::cpu);
  for (int p : {1, 4}) {
    const auto pr = fem::assemble_poisson<double, std::int32_t>({p, 8, 0.1});
    const SpmvPlan<double, std::int32_t> plan(cpu, pr.matrix);
    std::vector<double> u_cpu(pr.load.size(), 0.0);
    SolverOptions o;
    o.tolerance = 1e-12;
    ASSERT_TRUE(solve(pr.matrix, plan, std::span<const double>(pr.load), std::span<double>(u_cpu), o).converged());
    for (const LmaScatter scatter : {LmaScatter::atomics, LmaScatter::colouring}) {
      const fem::LmaOperator<double, std::int32_t> lma(gpu, pr.local, scatter);
      const fem::PaOperator<double, std::int32_t> pa(gpu, fem::partial_assembly(pr), scatter);
      for (const KrylovMethod method : {KrylovMethod::cg, KrylovMethod::pipelined_cg}) {
        for (const auto& op : {lma.op(), pa.op()}) {
          o.method = method;
          const Array<double> b(gpu, std::span<const double>(pr.load));
          Array<double> x(gpu, pr.load.size());
          const SolverResult r = solve(op, {}, b, x, o);
          ASSERT_TRUE(r.converged()) << op.description() << ": " << r.message;
          const auto u = x.to_host();
          for (std::size_t i = 0; i < u.size(); ++i) ASSERT_NEAR(u[i], u_cpu[i], 1e-9) << op.description() << " unknown " << i;
        }
      }
    }
  }
}

}  // namespace
}  // namespace hsparse::cuda
