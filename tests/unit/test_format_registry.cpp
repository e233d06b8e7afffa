// The format registry (formats/format.hpp, kernels/spmv_registry.hpp): every
// format has its traits and kernels on both backends, names parse back,
// the byte model matches what the conversions store, and every format
// builds a CPU plan for every value type. A format added to the enum but
// not registered fails here (or does not link: the registry's tables are
// generated from HSPARSE_FORMATS). Every kernel parameter is checked
// against its kernel and range.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "hsparse/formats/convert.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/formats/format_storage.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/kernels/spmv_registry.hpp"
#include "support/test_support.hpp"

namespace hsparse {
namespace {

TEST(FormatRegistry, EveryFormatHasTraitsAndParsesBack) {
  EXPECT_EQ(all_formats().size(), 9u);
  std::set<std::string> names;
  for (Format f : all_formats()) {
    const FormatTraits& t = format_traits(f);
    EXPECT_EQ(t.format, f);
    EXPECT_FALSE(std::string(t.name).empty());
    EXPECT_FALSE(std::string(t.title).empty()) << t.name;
    EXPECT_FALSE(std::string(t.summary).empty()) << t.name;
    EXPECT_TRUE(t.bytes && t.fill && t.shape) << t.name;
    EXPECT_TRUE(names.insert(t.name).second) << "duplicate name " << t.name;
    EXPECT_EQ(parse_format(t.name), f);
    if (t.max_fill > 0) EXPECT_FALSE(std::string(t.fill_meaning).empty()) << t.name;
  }
  try {
    parse_format("csc");
    FAIL() << "csc parsed";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find(format_names()), std::string::npos) << e.what();
  }
}

TEST(FormatRegistry, EveryBackendRegistersKernelsForEveryFormat) {
  for (Backend b : all_backends()) {
    for (Format f : all_formats()) {
      const BackendFormat& r = spmv_registration(b, f);
      ASSERT_FALSE(r.kernels.empty()) << to_string(b) << " " << to_string(f);
      std::set<std::string> names;
      for (const auto& k : r.kernels) {
        EXPECT_TRUE(names.insert(k.name).second) << to_string(b) << " " << to_string(f) << " lists " << k.name << " twice";
        EXPECT_FALSE(k.summary.empty()) << k.name;
      }
      EXPECT_EQ(choose_spmv_kernel(b, f, ""), r.kernels.front().name);
      EXPECT_THROW(choose_spmv_kernel(b, f, "no-such-kernel"), Error);
      ASSERT_TRUE(r.model.efficiency && r.model.parallel_units) << to_string(b) << " " << to_string(f);
      for (int block : {1, 3, 8}) {
        const double e = r.model.efficiency(block);
        EXPECT_GT(e, 0.0);
        EXPECT_LE(e, 1.0);
      }
    }
  }
  EXPECT_EQ(spmv_value_types().size(), 4u);
  // Each backend keeps its own table (a shared one would give both the same kernels).
  EXPECT_NE(spmv_kernel_names(Backend::cpu, Format::csr), spmv_kernel_names(Backend::cuda, Format::csr));
}

// Kernel parameters: each registered one has a meaning and a range; a value
// outside it, a parameter the kernel does not take, and one of another
// kernel are refused naming the kernel, the parameter and what it takes.
TEST(FormatRegistry, KernelParametersAreCheckedAgainstTheirKernel) {
  for (Backend b : all_backends()) {
    for (Format f : all_formats()) {
      for (const auto& k : spmv_registration(b, f).kernels) {
        std::set<std::string> names;
        for (const KernelParam& p : k.params) {
          EXPECT_TRUE(names.insert(p.name).second) << to_string(f) << "/" << k.name << " lists " << p.name << " twice";
          EXPECT_FALSE(p.meaning.empty()) << p.name;
          EXPECT_TRUE(!p.choices.empty() || p.min <= p.max) << p.name;
          const long long inside = p.choices.empty() ? p.max : p.choices.back();
          EXPECT_NO_THROW(check_kernel_params(b, f, k.name, {{p.name, inside}})) << to_string(f) << "/" << k.name << " " << p.name;
          const long long outside = p.choices.empty() ? p.max + 1 : p.choices.back() + 1000;
          EXPECT_THROW(check_kernel_params(b, f, k.name, {{p.name, outside}}), Error) << to_string(f) << "/" << k.name << " " << p.name;
        }
        EXPECT_THROW(check_kernel_params(b, f, k.name, {{"no_such_parameter", 1}}), Error);
      }
    }
  }
  const auto message = [](Backend b, Format f, const std::string& kernel, const std::map<std::string, long long>& params) {
    try {
      check_kernel_params(b, f, kernel, params);
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(message(Backend::cuda, Format::bcsr, "by-column", {{"lanes", 12}}), "CUDA kernel bcsr/by-column: parameter lanes must be 4, 8, 16 or 32, not 12");
  EXPECT_EQ(message(Backend::cuda, Format::csr, "slabs", {{"slabs", 65}}), "CUDA kernel csr/slabs: parameter slabs must be 1..64, not 65");
  EXPECT_EQ(message(Backend::cpu, Format::csr, "openmp", {{"x_in_l2", 1}}), "CPU kernel csr/openmp has no parameter 'x_in_l2' (it takes none)");
  EXPECT_EQ(message(Backend::cuda, Format::csr, "adaptive", {{"coop", 4}}), "CUDA kernel csr/adaptive has no parameter 'coop' (its parameters: x_in_l2)");
  // The backend's own parameters, added once to every kernel that honours them.
  EXPECT_EQ(message(Backend::cuda, Format::ell, "thread", {{"x_in_l2", 1}, {"convert_on_device", 0}}), "accepted");
  EXPECT_NE(message(Backend::cuda, Format::csr, "cusparse-alg1", {{"x_in_l2", 1}}).find("has no parameter 'x_in_l2'"), std::string::npos);
  EXPECT_EQ(message(Backend::cuda, Format::csr, "cusparse-alg1", {{"preprocess", 0}}), "accepted");
}

// The byte model (FormatTraits::bytes of the footprint) is what the CPU
// plan's converted matrix holds, to the byte, for int32 and double.
TEST(FormatRegistry, ByteModelMatchesTheConversions) {
  std::vector<std::pair<std::string, Csr<double, std::int32_t>>> cases;
  for (const auto& [name, a] : test::edge_case_matrices()) cases.push_back({name, convert_types<double, std::int32_t>(a)});
  cases.push_back({"fem3", generators::fem_blocks<double, std::int32_t>(6, 6, 6, 3, 1)});
  for (const auto& [name, a] : cases) {
    const FormatFootprint fp = format_footprint(a, 32, 4096);
    for (Format f : all_formats()) {
      const FormatTraits& t = format_traits(f);
      SpmvOptions o;
      o.format = f;
      o.kernel = "reference";
      o.layout.chunk = 32;
      o.layout.sigma = fp.sell.sigma;
      o.layout.block = static_cast<int>(fp.bcsr.block);
      o.layout.max_fill = 1e9;  // measure every format, however padded
      const SpmvPlan<double, std::int32_t> plan(make_executor(Backend::cpu), a, o);
      EXPECT_EQ(t.bytes(fp, sizeof(double), sizeof(std::int32_t)), plan.matrix_bytes()) << name << " " << t.name;
      if (a.nnz() > 0) {
        EXPECT_NEAR(t.fill(fp), static_cast<double>(plan.stored_entries()) / static_cast<double>(a.nnz()), 1e-9) << name << " " << t.name;
      }
    }
  }
}

template <class V>
class FormatRegistryTypes : public ::testing::Test {};
using ValueTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(FormatRegistryTypes, ValueTypes);

// Every format and every registered CPU kernel builds for every value type
// on a regular matrix (SIMD kernels this CPU lacks, or that a complex value
// cannot use, refuse with Error(unsupported) and say why).
TYPED_TEST(FormatRegistryTypes, EveryFormatAndKernelBuildsOnTheCpu) {
  using V = TypeParam;
  const auto a = convert_types<V, std::int32_t>(generators::stencil_2d<double, std::int64_t>(20, 20, 5));
  for (Format f : all_formats()) {
    for (const auto& k : spmv_registration(Backend::cpu, f).kernels) {
      SpmvOptions o;
      o.format = f;
      o.kernel = k.name;
      try {
        const SpmvPlan<V, std::int32_t> plan(make_executor(Backend::cpu), a, o);
        EXPECT_EQ(plan.description().rfind(to_string(f), 0), 0u) << plan.description();
      } catch (const Error& e) {
        EXPECT_EQ(e.code(), ErrorCode::unsupported) << to_string(f) << "/" << k.name << ": " << e.what();
        EXPECT_TRUE(k.name == "avx512" || k.name == "avx2") << to_string(f) << "/" << k.name << " refused: " << e.what();
      }
    }
  }
}

}  // namespace
}  // namespace hsparse
