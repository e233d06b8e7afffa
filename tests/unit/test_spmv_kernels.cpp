// Every SpMV kernel of every backend against the serial double-precision
// CSR reference, written once for every executor (Ginkgo's
// *IsEquivalentToRef): one test per kernel and check. The instances come
// from the registry, not from a list here: each backend of all_backends() x
// each format of all_formats() x each kernel of
// spmv_registration(backend, format).kernels is one instance, named
// <backend>_<format>_<kernel> (cpu_sell_avx512, cuda_csr_adaptive,
// cuda_csr16_single_vector), so a kernel a backend registers is tested the
// day it is registered. Each instance makes SpmvPlans on
// make_executor(backend) with SpmvOptions{format, kernel} and with the
// layouts that change the kernel's decomposition (layouts(): BCSR block
// sizes and lanes, SELL C, sigma and T, CSR vector's coop and repeat, HYB's
// width, host or device conversion); a CPU instance also runs its kernel's
// direct cases (support/kernel_cases.hpp: forced OpenMP schedules, CSR's
// sorted rows, SELL in the solvers' permuted ordering, every BCSR block size
// and SELL chunk), which a plan does not expose.
//
// The checks, each a test of every instance:
//  - MatchesTheReferenceOnEdgeCases: the generated edge cases
//    (test::edge_case_matrices(): 0x0, no entries, 1x1, explicit zeros,
//    rectangular both ways, empty rows, one long row, very long and wide
//    rows, stencils, power law, dense) and a regular stencil, in float,
//    double, complex<float> and complex<double>, int32 and int64 indices,
//    y poisoned with NaN under beta = 0, and alpha = -0.5, beta = 2.
//  - MatchesTheReferenceOnSharedMatrices: every shared matrix (real ones in
//    double and float, complex ones in complex<double> and complex<float>;
//    beta too below 20,000 entries); skipped without the folder.
//  - KeepsNonFiniteXInTheRowsThatReferenceIt (issue 62, item 5): NaN and
//    infinity in x (support/nonfinite.hpp): a padded slot adds nothing, an
//    explicit zero gives 0 * NaN = NaN, as the serial CSR reference computes.
//
// Refusals are recorded, never passed silently:
//  - on the regular matrices (must_run()) every layout must build in every
//    value and index type, except where the kernel does not take the type
//    (expected_refusal(): the CPU's AVX2 and AVX-512 SELL kernels take real
//    values with int32 indices), and there it must refuse with
//    Error(unsupported);
//  - elsewhere a format may refuse a matrix with Error(invalid_argument)
//    (fill limits, CSR panels' and slabs' rules, cuSPARSE's shape rules):
//    counted and printed per instance; Error(unsupported) only where
//    expected_refusal() says so, or from a cuSPARSE baseline;
//  - a cuda instance skips with "skipped: no CUDA device: ..." where there is
//    none (CI, the build machine), a CPU SIMD kernel where this CPU or
//    HSPARSE_SIMD lacks its instruction set (tests/CMakeLists.txt runs the
//    CPU instances again capped at AVX2 and at the baseline).
// The GPU-only checks (device conversions against the host's, L2-sized
// slabs, carries over many blocks, the advisor on a device model) stay in
// tests/gpu/test_cuda_spmv_variants.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <complex>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/backend.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/kernels/csr_spmv.hpp"
#include "hsparse/kernels/spmv_registry.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "support/kernel_cases.hpp"
#include "support/nonfinite.hpp"
#include "support/spmv_plan_check.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

// One registered kernel of one backend and format: a test instance.
struct KernelVariant {
  Backend backend;
  Format format;
  std::string kernel;  // the registry's name, e.g. "cusparse-alg1"
  std::string name;    // the instance's, e.g. "cuda_csr_cusparse_alg1"
};
void PrintTo(const KernelVariant& k, std::ostream* os) { *os << k.name; }

// A test name: letters, digits and underscores.
std::string test_name(std::string s) {
  for (char& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

std::vector<KernelVariant> registered_kernels() {
  std::vector<KernelVariant> v;
  for (Backend b : all_backends()) {
    for (Format f : all_formats()) {
      for (const auto& k : spmv_registration(b, f).kernels) {
        v.push_back({b, f, k.name, test_name(std::string(to_string(b)) + "_" + to_string(f) + "_" + k.name)});
      }
    }
  }
  return v;
}

bool is_cusparse(const KernelVariant& k) { return k.backend == Backend::cuda && k.kernel.rfind("cusparse", 0) == 0; }

// A plan's options under a name, e.g. "C8-sigma256".
struct Layout {
  std::string name;
  SpmvOptions options;
};

// The kernel's default layout first, then those that change its
// decomposition (the GPU's parameter sweeps; on the CPU the layouts that
// take another path through the plan, the rest being its direct cases).
std::vector<Layout> layouts(const KernelVariant& k) {
  SpmvOptions base{k.format, k.kernel};
  const bool cuda = k.backend == Backend::cuda;
  const auto is = [&](Format f, const char* kernel) { return k.format == f && k.kernel == kernel; };
  // CUDA CSR slabs: the test matrices' x fits in L2, where the L2 rule
  // refuses (one slab is CSR adaptive itself); three slabs by hand.
  if (cuda && is(Format::csr, "slabs")) base.params["slabs"] = 3;
  std::vector<Layout> out = {{"default", base}};
  const auto add = [&](const std::string& name, auto set) {
    SpmvOptions o = base;
    set(o);
    out.push_back({name, o});
  };
  if (cuda) {
    // Converted on the host and uploaded, where the GPU converts by default
    // (the slabs cut on the host; by default the entries are copied on the device).
    if (format_traits(k.format).gpu_converts || is(Format::csr, "slabs")) add("host-converted", [](SpmvOptions& o) { o.params["convert_on_device"] = 0; });
    if (is(Format::csr, "vector")) {
      for (int coop : {1, 2, 8, 32}) {
        for (int repeat : {1, 3}) {
          add("coop" + std::to_string(coop) + "-repeat" + std::to_string(repeat),
              [&](SpmvOptions& o) { o.params = {{"coop", coop}, {"repeat", repeat}, {"block", coop == 32 ? 64 : 128}}; });
        }
      }
    }
    if (is(Format::hyb, "thread")) add("width2", [](SpmvOptions& o) { o.layout.hyb_width = 2; });
    if (is(Format::sell, "thread")) {
      for (int chunk : {32, 8}) {
        for (long long sigma : {1LL, 256LL}) {
          add("C" + std::to_string(chunk) + "-sigma" + std::to_string(sigma), [&](SpmvOptions& o) {
            o.layout.chunk = chunk;
            o.layout.sigma = sigma;
          });
        }
      }
    }
    if (is(Format::sell, "cusparse")) {
      for (int chunk : {32, 8}) add("C" + std::to_string(chunk), [&](SpmvOptions& o) { o.layout.chunk = chunk; });
    }
    if (is(Format::sell, "threads")) {
      for (int t : {2, 8, 32}) {
        add("T" + std::to_string(t) + "-sigma64", [&](SpmvOptions& o) {
          o.params["threads"] = t;
          o.layout.sigma = 64;
        });
      }
    }
    const std::map<std::string, std::vector<int>> bcsr_blocks = {
        {"by-block", {2, 3, 5}}, {"by-column", {3, 16}}, {"row-per-thread", {3, 7, 32}}, {"cusparse", {2, 3}}};
    if (k.format == Format::bcsr && bcsr_blocks.count(k.kernel)) {
      for (int block : bcsr_blocks.at(k.kernel)) add("b" + std::to_string(block), [&](SpmvOptions& o) { o.layout.block = block; });
    }
    if (is(Format::bcsr, "by-column")) {  // smaller groups than the warp; short and long block rows alike
      for (int lanes : {4, 8, 16}) {
        for (int block : {1, 3}) {
          add("b" + std::to_string(block) + "-lanes" + std::to_string(lanes), [&](SpmvOptions& o) {
            o.layout.block = block;
            o.params["lanes"] = lanes;
          });
        }
      }
    }
  } else {
    if (k.format == Format::ell) add("rows-aligned-8", [](SpmvOptions& o) { o.layout.row_alignment = 8; });
    if (k.format == Format::hyb) {
      for (int width : {0, 2}) add("width" + std::to_string(width), [&](SpmvOptions& o) { o.layout.hyb_width = width; });
    }
    if (k.format == Format::bcsr) {
      add("b3-aligned", [](SpmvOptions& o) {
        o.layout.block = 3;
        o.layout.align_blocks = true;
      });
    }
    if (k.format == Format::sell) {  // C is the kernel's SIMD width (the plan's default); sigma from none to every row
      for (long long sigma : {1LL, 64LL, 1LL << 40}) {
        add("sigma" + (sigma > 1000 ? std::string("-all") : std::to_string(sigma)), [&](SpmvOptions& o) { o.layout.sigma = sigma; });
      }
    }
  }
  return out;
}

// Why the kernel does not take values V with indices I ("" when it must).
template <class V, class I>
std::string expected_refusal(const KernelVariant& k) {
  if (k.backend == Backend::cpu && k.format == Format::sell && (k.kernel == "avx512" || k.kernel == "avx2")) {
    if (is_complex_v<V>) return "complex values (the SIMD SELL kernels take real values)";
    if (!std::is_same_v<I, std::int32_t>) return "int64 indices (the SIMD SELL kernels take int32)";
  }
  return "";
}

// Why the instance cannot run here, as its skip message ("" when it can).
std::string unavailable(const KernelVariant& k) {
  if (k.backend == Backend::cuda && !cuda::device_available()) return "skipped: no CUDA device: " + cuda::device_description();
  if (k.backend == Backend::cpu && k.format == Format::sell) {
    if (k.kernel == "avx512" && simd_level() < SimdLevel::avx512) return "skipped: this CPU (or HSPARSE_SIMD) lacks AVX-512F for cpu sell avx512";
    if (k.kernel == "avx2" && simd_level() < SimdLevel::avx2) return "skipped: this CPU (or HSPARSE_SIMD) lacks AVX2 and FMA for cpu sell avx2";
  }
  return "";
}

#define SKIP_WHERE_UNAVAILABLE(k)                          \
  if (const std::string why = unavailable(k); !why.empty()) \
  GTEST_SKIP() << why

// Calls f.template operator()<V, I>() for every value and index type.
template <class F>
void for_each_value_and_index(F&& f) {
  f.template operator()<float, std::int32_t>();
  f.template operator()<float, std::int64_t>();
  f.template operator()<double, std::int32_t>();
  f.template operator()<double, std::int64_t>();
  f.template operator()<std::complex<float>, std::int32_t>();
  f.template operator()<std::complex<float>, std::int64_t>();
  f.template operator()<std::complex<double>, std::int32_t>();
  f.template operator()<std::complex<double>, std::int64_t>();
}

// The matrices every layout of every kernel must take: a 2D stencil of 2304
// rows (a multiple of cuSPARSE BSR's block sizes here; five diagonals, so
// DIA and ELL fit) and the 7-point 3D stencil of the edge cases.
bool must_run(const std::string& matrix) { return matrix == "stencil2d_48x48" || matrix == "stencil3d_7pt"; }

std::vector<test::NamedMatrix> edge_cases_and_regular() {
  auto m = test::edge_case_matrices();
  m.insert(m.begin(), {"stencil2d_48x48", generators::stencil_2d<double, std::int64_t>(48, 48, 5)});
  return m;
}

// What one instance did: runs, refusals by reason.
struct Tally {
  int plan_runs = 0, case_runs = 0, refused = 0, expected = 0;
  std::string first_refusal;
  void print(const KernelVariant& k, const std::string& what) const {
    std::printf("%s, %s: %d plan runs, %d direct kernel-case runs, %d refusals by the format's rules%s%s, %d refusals of types it does not take\n",
                k.name.c_str(), what.c_str(), plan_runs, case_runs, refused, first_refusal.empty() ? "" : " (first: ", first_refusal.empty() ? "" : (first_refusal + ")").c_str(),
                expected);
  }
};

// Judges what became of one plan: on a must-run matrix it must build (or
// refuse as expected); elsewhere an invalid_argument refusal is counted.
template <class V, class I>
void judge(const KernelVariant& k, const test::PlanRun& run, const std::string& matrix, const Layout& layout, Tally& t) {
  const std::string expected = expected_refusal<V, I>(k);
  const std::string what = k.name + " [" + layout.name + "] on " + matrix + " (" + type_name<V>() + ", " + type_name<I>() + ")";
  if (run.built) {
    ++t.plan_runs;
    EXPECT_TRUE(expected.empty()) << what << " built (" << run.description << "), though it takes no " << expected;
    return;
  }
  if (!expected.empty()) {
    ++t.expected;
    EXPECT_EQ(run.refusal, ErrorCode::unsupported) << what << " refused " << expected << " with the wrong code: " << run.reason;
    return;
  }
  if (must_run(matrix)) {
    ADD_FAILURE() << what << " refused a regular matrix: " << run.reason;
    return;
  }
  if (run.refusal == ErrorCode::unsupported && !is_cusparse(k)) {
    ADD_FAILURE() << what << " refused as unsupported (only cuSPARSE's baselines and the types expected_refusal() names may): " << run.reason;
    return;
  }
  ++t.refused;
  if (t.first_refusal.empty()) t.first_refusal = "[" + layout.name + "] " + matrix + ": " + run.reason;
}

// The CPU instance's direct kernel cases on one matrix (support/kernel_cases.hpp).
template <class V, class I>
void check_kernel_cases(const KernelVariant& k, const Csr<V, I>& a, const std::string& matrix, bool with_beta, Tally& t) {
  const auto cases = test::all_cpu_kernels(a, k.format);
  if (matrix == "stencil3d_7pt") {  // every block size and chunk fits it (the 2D stencil is too sparse for BCSR's largest blocks)
    for (const auto& r : cases.refused) ADD_FAILURE() << k.name << " on " << matrix << " (" << type_name<V>() << ", " << type_name<I>() << "): " << r;
  }
  const auto x = test::test_vector<V>(static_cast<std::size_t>(a.cols), 31);
  const auto y0 = test::test_vector<V>(static_cast<std::size_t>(a.rows), 32);
  std::vector<std::pair<V, V>> scalars = {{V(1), V(0)}};
  if (with_beta) scalars.push_back({V(-0.75), V(1.5)});
  for (const auto& kc : cases.cases) {
    if (kc.kernel != k.kernel) continue;
    ++t.case_runs;
    for (const auto& [alpha, beta] : scalars) {
      std::vector<V> y = beta == V(0) ? std::vector<V>(y0.size(), V(std::numeric_limits<real_type_t<V>>::quiet_NaN())) : y0;
      kc.run(alpha, x, beta, y);
      const auto check = check_spmv_result<V, I>(a, x, alpha, beta, y0, y);
      EXPECT_TRUE(check.passed) << matrix << " " << kc.name << " (" << type_name<V>() << ", " << type_name<I>() << ", beta "
                                << (beta == V(0) ? "0" : "1.5") << "): " << check.message;
    }
  }
  t.refused += static_cast<int>(cases.refused.size());
}

// Every layout (and, on the CPU, every direct case) of the kernel on one matrix.
template <class V, class I>
void check_matrix(const KernelVariant& k, const ExecutorPtr& ex, const Csr<V, I>& a, const std::string& matrix, bool with_beta, Tally& t) {
  for (const auto& layout : layouts(k)) {
    judge<V, I>(k, test::check_plan(ex, a, layout.options, matrix + " [" + layout.name + "]", with_beta), matrix, layout, t);
  }
  if (k.backend == Backend::cpu) check_kernel_cases(k, a, matrix, with_beta, t);
}

class SpmvKernel : public ::testing::TestWithParam<KernelVariant> {};

TEST_P(SpmvKernel, MatchesTheReferenceOnEdgeCases) {
  const KernelVariant& k = GetParam();
  SKIP_WHERE_UNAVAILABLE(k);
  const ExecutorPtr ex = make_executor(k.backend);
  Tally t;
  const auto matrices = edge_cases_and_regular();
  for_each_value_and_index([&]<class V, class I>() {
    for (const auto& [name, a64] : matrices) check_matrix(k, ex, convert_types<V, I>(a64), name, true, t);
  });
  t.print(k, "edge cases");
}

TEST_P(SpmvKernel, MatchesTheReferenceOnSharedMatrices) {
  const KernelVariant& k = GetParam();
  SKIP_WHERE_UNAVAILABLE(k);
  const auto dir = test::shared_matrix_dir();
  if (!dir) GTEST_SKIP() << "skipped: shared matrices folder not found (set HSPARSE_MATRICES)";
  const ExecutorPtr ex = make_executor(k.backend);
  Tally t;
  int matrices = 0;
  for (const auto& m : test::read_manifest(*dir)) {
    const std::string path = *dir + "/" + m.name + ".mtx.gz";
    const bool with_beta = m.nnz < 20000;
    if (m.field == "complex") {
      const auto a = io::read_matrix_market_csr<std::complex<double>, std::int32_t>(path);
      check_matrix(k, ex, a, m.name, with_beta, t);
      check_matrix(k, ex, convert_types<std::complex<float>, std::int32_t>(a), m.name, with_beta, t);
    } else {
      const auto a = io::read_matrix_market_csr<double, std::int32_t>(path);
      check_matrix(k, ex, a, m.name, with_beta, t);
      check_matrix(k, ex, convert_types<float, std::int32_t>(a), m.name, with_beta, t);
    }
    ++matrices;
  }
  EXPECT_GT(matrices, 0) << "the shared folder's manifest lists no matrix";
  t.print(k, std::to_string(matrices) + " shared matrices");
}

TEST_P(SpmvKernel, KeepsNonFiniteXInTheRowsThatReferenceIt) {
  const KernelVariant& k = GetParam();
  SKIP_WHERE_UNAVAILABLE(k);
  // cuSPARSE is a baseline, not ours, and keeps its own semantics
  // (docs/formats.md): its BSR kernel multiplies its block fill, so NaN in x
  // spreads to rows that never reference it (as scipy's BSR does), and its
  // complex SELL product gave NaN where C99's complex arithmetic gives
  // infinity (H200: inf * (1 + 0i) summed to NaN).
  if (is_cusparse(k) && k.format == Format::bcsr) GTEST_SKIP() << "cuSPARSE's own semantics: BSR multiplies its block fill";
  const ExecutorPtr ex = make_executor(k.backend);
  Tally t;
  for_each_value_and_index([&]<class V, class I>() {
    if (is_cusparse(k) && k.format == Format::sell && is_complex_v<V>) {
      std::printf("%s (%s): not checked: cuSPARSE's complex SELL differs from C99 on infinities\n", k.name.c_str(), type_name<V>());
      return;
    }
    int ran = 0;
    for (const auto& layout : layouts(k)) {
      for (const auto& [name, a64] : test::nonfinite_cases()) {
        const auto a = convert_types<V, I>(a64);
        std::optional<SpmvPlan<V, I>> plan;
        try {
          plan.emplace(ex, a, layout.options);
        } catch (const Error& e) {
          if (e.code() != ErrorCode::invalid_argument && e.code() != ErrorCode::unsupported) throw;
          judge<V, I>(k, test::PlanRun{false, e.code(), e.what(), ""}, name, layout, t);
          continue;
        }
        judge<V, I>(k, test::PlanRun{true, ErrorCode::internal, "", plan->description()}, name, layout, t);
        ++ran;
        const auto x = test::nonfinite_vector<V>(static_cast<std::size_t>(a.cols));
        std::vector<V> want(static_cast<std::size_t>(a.rows));
        reference::csr_spmv(V(1), a, std::span<const V>(x), V(0), std::span<V>(want));
        const Array<V> dx(ex, std::span<const V>(x));
        const std::vector<V> poison(want.size(), V(std::numeric_limits<real_type_t<V>>::quiet_NaN()));
        Array<V> dy(ex, std::span<const V>(poison));
        plan->apply(V(1), dx, V(0), dy);
        const double tolerance = std::max(10 * format_traits(plan->format()).value_rounding, std::is_same_v<real_type_t<V>, float> ? 1e-4 : 1e-12);
        const std::string m = test::ieee_mismatch(want, dy.to_host(), tolerance);
        EXPECT_TRUE(m.empty()) << name << " " << plan->description() << " [" << layout.name << "] (" << type_name<V>() << ", " << type_name<I>() << "): " << m;
      }
    }
    if (expected_refusal<V, I>(k).empty()) EXPECT_GT(ran, 0) << k.name << " refused every matrix (" << type_name<V>() << ", " << type_name<I>() << ")";
  });
  t.print(k, "non-finite x");
}

INSTANTIATE_TEST_SUITE_P(, SpmvKernel, ::testing::ValuesIn(registered_kernels()),
                         [](const ::testing::TestParamInfo<KernelVariant>& info) { return info.param.name; });

// Every direct CPU kernel case belongs to a kernel the CPU registers, so the
// instance of that kernel runs it (a case naming no registered kernel would
// run in no test); none is refused on a regular matrix; and every format but
// CSR16 with single-precision values (a plan's layout alone) has cases.
TEST(SpmvKernelCases, EachBelongsToARegisteredCpuKernel) {
  const auto a = convert_types<double, std::int32_t>(generators::stencil_3d<double, std::int64_t>(9, 8, 7, 7));
  const auto cases = test::all_cpu_kernels(a);
  EXPECT_TRUE(cases.refused.empty()) << cases.refused.front();
  std::map<std::string, int> per_kernel;
  for (const auto& c : cases.cases) {
    const auto names = spmv_kernel_names(Backend::cpu, c.format);
    EXPECT_NE(std::find(names.begin(), names.end(), c.kernel), names.end())
        << c.name << " names kernel '" << c.kernel << "', which the CPU does not register for " << to_string(c.format);
    ++per_kernel[std::string(to_string(c.format)) + "/" + c.kernel];
  }
  for (const auto& [kernel, n] : per_kernel) std::printf("%s: %d direct cases\n", kernel.c_str(), n);
  for (Format f : all_formats()) {
    if (f == Format::csr16_single) continue;
    EXPECT_TRUE(std::any_of(cases.cases.begin(), cases.cases.end(), [f](const auto& c) { return c.format == f; })) << to_string(f) << " has no direct case";
  }
}

}  // namespace
}  // namespace hsparse
