// The GPU backend's conversions, handles, errors and launch rules. Every
// kernel variant against the reference is test_cuda_spmv_variants.cpp.
// Skipped with "skipped: no CUDA device" where there is none (CI).
#include <gtest/gtest.h>

#include <complex>
#include <cstdio>
#include <limits>
#include <filesystem>
#include <optional>

#include "hsparse/analysis/spmv_check.hpp"
#include "hsparse/backends/cuda/device_conversions.hpp"
#include "hsparse/backends/cuda/device_formats.hpp"
#include "hsparse/backends/cuda/format_spmv.hpp"
#include "hsparse/backends/cuda/timing.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/bcsr.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/formats/dia.hpp"
#include "hsparse/formats/dia_tiles.hpp"
#include "hsparse/formats/ell.hpp"
#include "hsparse/formats/hyb.hpp"
#include "hsparse/formats/sell_c_sigma.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/formats/csr16.hpp"
#include "hsparse/io/matrix_source.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/tuning/spmv_handle.hpp"
#include "hsparse/tuning/tuning_spaces.hpp"
#include "support/test_support.hpp"

namespace hsparse::cuda {
namespace {

#define REQUIRE_CUDA_DEVICE() \
  if (!device_available()) GTEST_SKIP() << "skipped: no CUDA device: " << device_description()

// The GPU conversions must give the host conversions' arrays exactly, padding included.
TEST(CudaConversions, DeviceConversionsEqualTheHostOnes) {
  REQUIRE_CUDA_DEVICE();
  Executor ex;
  auto cases = test::edge_case_matrices();
  cases.push_back({"powerlaw_50k", generators::power_law<double, std::int64_t>(generators::PowerLawOptions{50000})});
  for (const auto& [name, a64] : cases) {
    const auto a = convert_types<double, std::int32_t>(a64);
    const auto staged = DeviceCsr<double, std::int32_t>::upload(a);
    const auto coo = csr_to_coo(a);
    const auto d_coo = coo_from_device_csr(ex, staged);
    EXPECT_EQ(d_coo.row_idx.download(), coo.row_idx) << name;
    EXPECT_EQ(d_coo.col_idx.download(), coo.col_idx) << name;
    EXPECT_EQ(d_coo.values.download(), coo.values) << name;
    try {
      const auto ell = ell_from_csr(a, 32, 20.0);
      const auto d_ell = ell_from_device_csr(ex, a, staged, 32, 20.0);
      EXPECT_EQ(d_ell.padded_rows, ell.padded_rows) << name;
      EXPECT_EQ(d_ell.width, ell.width) << name;
      EXPECT_EQ(d_ell.col_idx.download(), ell.col_idx) << name;
      EXPECT_EQ(d_ell.values.download(), ell.values) << name;
    } catch (const Error& e) {  // both must refuse alike
      EXPECT_THROW(ell_from_device_csr(ex, a, staged, 32, 20.0), Error) << name;
    }
    for (std::optional<std::int32_t> width : {std::optional<std::int32_t>{}, std::optional<std::int32_t>{2}}) {
      const auto hyb = hyb_from_csr(a, width, 32);
      const auto d_hyb = hyb_from_device_csr(ex, a, staged, width, 32);
      EXPECT_EQ(d_hyb.ell.width, hyb.ell.width) << name;
      EXPECT_EQ(d_hyb.ell.col_idx.download(), hyb.ell.col_idx) << name;
      EXPECT_EQ(d_hyb.ell.values.download(), hyb.ell.values) << name;
      EXPECT_EQ(d_hyb.coo.row_idx.download(), hyb.coo.row_idx) << name;
      EXPECT_EQ(d_hyb.coo.col_idx.download(), hyb.coo.col_idx) << name;
      EXPECT_EQ(d_hyb.coo.values.download(), hyb.coo.values) << name;
    }
    for (int block : {1, 2, 3, 5}) {  // BCSR: the same blocks, padding and refusals
      for (bool align : {false, true}) {
        try {
          const auto bcsr = bcsr_from_csr(a, block, align, 16.0);
          const auto d_bcsr = bcsr_from_device_csr(ex, a, staged, block, align, 16.0);
          EXPECT_EQ(d_bcsr.block_stride, bcsr.block_stride) << name << " b" << block;
          EXPECT_EQ(d_bcsr.row_ptr.download(), bcsr.row_ptr) << name << " b" << block;
          EXPECT_EQ(d_bcsr.col_idx.download(), bcsr.col_idx) << name << " b" << block;
          EXPECT_EQ(d_bcsr.values.download(), std::vector<double>(bcsr.values.begin(), bcsr.values.end()))
              << name << " b" << block << (align ? " aligned" : "");
        } catch (const Error&) {
          EXPECT_THROW(bcsr_from_device_csr(ex, a, staged, block, align, 16.0), Error) << name << " b" << block;
        }
      }
    }
    {  // CSR16 and csr16-single: equal where no row is wide; the host's (std::nullopt) where one is
      const auto c16 = csr16_from_csr(a);
      const auto d16 = csr16_from_device_csr<double>(ex, a, DeviceCsr<double, std::int32_t>::upload(a));
      EXPECT_EQ(d16.has_value(), !c16.has_wide()) << name;
      if (d16) {
        EXPECT_EQ(d16->row_ptr.download(), c16.row_ptr) << name;
        EXPECT_EQ(d16->base.download(), c16.base) << name;
        EXPECT_EQ(d16->offset.download(), c16.offset) << name;
        EXPECT_EQ(d16->values.download(), c16.values) << name;
      }
      const auto s16 = csr16_single_from_csr(a);
      const auto ds16 = csr16_from_device_csr<float>(ex, a, DeviceCsr<double, std::int32_t>::upload(a));
      EXPECT_EQ(ds16.has_value(), !s16.has_wide()) << name;
      if (ds16) {
        EXPECT_EQ(ds16->base.download(), s16.base) << name;
        EXPECT_EQ(ds16->offset.download(), s16.offset) << name;
        EXPECT_EQ(ds16->values.download(), s16.values) << name;
      }
    }
    for (long long sigma : {1LL, 64LL, 1LL << 40}) {  // SELL: the same layout, entries and padding, unsorted, in windows, sorted globally
      for (int chunk : {1, 32}) {
        const SellOptions options{chunk, sigma, false};
        const auto sell = sell_from_csr(a, options);
        const auto d_sell = sell_from_device_csr(ex, sell_layout(a, options), staged);
        const std::string what = name + " C" + std::to_string(chunk) + " sigma" + std::to_string(sigma);
        EXPECT_EQ(d_sell.identity_order, sell.sigma == 1) << what;
        EXPECT_EQ(d_sell.chunk_ptr.download(), sell.chunk_ptr) << what;
        EXPECT_EQ(d_sell.chunk_len.download(), sell.chunk_len) << what;
        EXPECT_EQ(d_sell.row_len.download(), sell.row_len) << what;
        EXPECT_EQ(d_sell.perm.download(), sell.perm) << what;
        EXPECT_EQ(d_sell.col_idx.download(), std::vector<std::int32_t>(sell.col_idx.begin(), sell.col_idx.end())) << what;
        EXPECT_EQ(d_sell.values.download(), std::vector<double>(sell.values.begin(), sell.values.end())) << what;
        EXPECT_EQ(d_sell.nnz, sell.nnz) << what;
      }
    }
    if (a.rows == a.cols) {  // permuted columns: the host's (sell_layout refuses them on a rectangular matrix)
      EXPECT_THROW(sell_from_device_csr(ex, sell_layout(a, SellOptions{32, 1, true}), staged), Error) << name;
    }
    // A layout of another matrix: refused by name, never read out of bounds.
    EXPECT_THROW(sell_from_device_csr(ex, sell_layout(generators::generate<double, std::int32_t>("banded:bandwidth=1,n=7"), SellOptions{32, 1, false}), staged),
                 Error) << name;
    for (double max_fill : {3.0, 1e9}) {  // DIA: refused alike at the default limit, equal where stored
      try {
        const auto dia = dia_from_csr(a, max_fill);
        const auto d_dia = dia_from_device_csr(ex, a, staged, max_fill);
        EXPECT_EQ(d_dia.offsets.download(), dia.offsets) << name;
        EXPECT_EQ(d_dia.values.download(), dia_tiled_values(dia)) << name;  // DeviceDia's tiles, padding zero
      } catch (const Error&) {
        EXPECT_THROW(dia_from_device_csr(ex, a, staged, max_fill), Error) << name;
      }
    }
  }
}

// csr16-single of a value beyond single precision's range: the device
// conversion declines (std::nullopt) and the plan's host conversion names
// the entry in its error, as without a GPU.
TEST(CudaConversions, Csr16SingleBeyondFloatRangeIsRefusedByName) {
  REQUIRE_CUDA_DEVICE();
  Executor ex;
  auto a = convert_types<double, std::int32_t>(generators::stencil_2d<double, std::int64_t>(10, 10, 5));
  a.values[7] = 1e300;
  EXPECT_FALSE(csr16_from_device_csr<float>(ex, a, DeviceCsr<double, std::int32_t>::upload(a)).has_value());
  try {
    SpmvPlan<double, std::int32_t> plan(make_cuda_executor(), a, SpmvOptions{Format::csr16_single});
    ADD_FAILURE() << "a value beyond float's range was stored";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::overflow);
    EXPECT_NE(std::string(e.what()).find("entry 7"), std::string::npos) << e.what();
  }
}

// The device's CSR16 conversion validates the CSR as the host's does: an
// unsorted row would give wrapped 16-bit offsets, not an error.
TEST(CudaConversions, Csr16RefusesAnUnsortedRowByName) {
  REQUIRE_CUDA_DEVICE();
  auto a = convert_types<double, std::int32_t>(generators::stencil_2d<double, std::int64_t>(10, 10, 5));
  std::swap(a.col_idx[a.row_ptr[3]], a.col_idx[a.row_ptr[3] + 1]);
  for (Format f : {Format::csr16, Format::csr16_single}) {
    try {
      SpmvPlan<double, std::int32_t> plan(make_cuda_executor(), a, SpmvOptions{f});
      ADD_FAILURE() << to_string(f) << ": an unsorted row was converted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_matrix) << e.what();
      EXPECT_NE(std::string(e.what()).find("row 3"), std::string::npos) << e.what();
    }
  }
}

// Every product a tuning handle makes is right, whatever parameters the
// tuner is trying; the tuner converges, stores its choice, and a second
// handle for the same matrix starts from the cache.
TEST(CudaHandle, TuningProductsAreCorrectAndTheCacheIsUsed) {
  REQUIRE_CUDA_DEVICE();
  const auto exp = make_cuda_executor();
  const Executor& ex = *exp;
  const std::string cache = ::testing::TempDir() + "/hsparse_gpu_handle_cache.json";
  std::filesystem::remove(cache);
  for (const char* spec : {"powerlaw:rows=20000", "stencil3d:n=20,points=27"}) {
    const auto a = io::load_matrix<double, std::int32_t>(spec);
    const auto x = test::test_vector<double>(static_cast<std::size_t>(a.cols), 5);
    const auto y0 = test::test_vector<double>(static_cast<std::size_t>(a.rows), 6);
    DeviceArray<double> d_x(x);
    HandleOptions o;
    o.format = Format::csr;
    o.kernel = "vector";
    o.cache_path = cache;
    SpmvHandle<double, std::int32_t> h(exp, a, o);
    EXPECT_TRUE(h.matches(a));
    EXPECT_EQ(h.origin(), "tuning") << spec;
    for (int call = 0; call < 60 && h.tuning(); ++call) {
      DeviceArray<double> d_y(y0);
      h.apply(-0.5, d_x.data(), 2.0, d_y.data());
      ex.synchronize();
      const auto c = check_spmv_result<double, std::int32_t>(a, x, -0.5, 2.0, y0, d_y.download());
      ASSERT_TRUE(c.passed) << spec << " call " << call << ": " << c.message;
    }
    EXPECT_FALSE(h.tuning()) << spec << ": not converged in 60 calls";
    EXPECT_EQ(h.origin(), "tuned");
    SpmvHandle<double, std::int32_t> second(exp, a, o);
    EXPECT_EQ(second.origin(), "cache") << spec;
    EXPECT_EQ(second.configuration(), h.configuration());
    EXPECT_EQ(second.axis_names(), (std::vector<std::string>{"coop", "repeat", "block"}));
    DeviceArray<double> d_y(y0);
    second.apply(1.0, d_x.data(), 0.0, d_y.data());
    ex.synchronize();
    EXPECT_TRUE((check_spmv_result<double, std::int32_t>(a, x, 1.0, 0.0, {}, d_y.download()).passed));
  }
  std::filesystem::remove(cache);
}

// SELL (T, sigma) and BCSR (block size, algorithm) tuned over the products,
// and format=auto: every product right while the plan is rebuilt under it,
// BCSR's refused combinations skipped, the choice cached.
TEST(CudaHandle, SellBcsrAndAutoTuneWithCorrectProducts) {
  REQUIRE_CUDA_DEVICE();
  const auto exp = make_cuda_executor();
  const Executor& ex = *exp;
  const std::string cache = ::testing::TempDir() + "/hsparse_gpu_handle_cache2.json";
  std::filesystem::remove(cache);
  struct Case {
    const char* spec;
    std::optional<Format> format;
  };
  for (const Case& k : {Case{"fem:n=12,block=6", Format::bcsr}, Case{"powerlaw:rows=20000", Format::sell},
                        Case{"stencil3d:n=20,points=27", std::nullopt}, Case{"fem:n=10,block=3", std::nullopt}}) {
    const auto a = io::load_matrix<double, std::int32_t>(k.spec);
    const auto x = test::test_vector<double>(static_cast<std::size_t>(a.cols), 5);
    const auto y0 = test::test_vector<double>(static_cast<std::size_t>(a.rows), 6);
    DeviceArray<double> d_x(x);
    HandleOptions o;
    o.format = k.format;
    o.kernel = "";
    o.cache_path = cache;
    SpmvHandle<double, std::int32_t> h(exp, a, o);
    if (k.format) EXPECT_EQ(h.format(), *k.format) << k.spec;
    const std::string first = h.description();
    int call = 0;
    for (; call < 45; ++call) {
      DeviceArray<double> d_y(y0);
      h.apply(-0.5, d_x.data(), 2.0, d_y.data());
      ex.synchronize();
      const auto c = check_spmv_result<double, std::int32_t>(a, x, -0.5, 2.0, y0, d_y.download());
      ASSERT_TRUE(c.passed) << k.spec << " (" << h.description() << ") call " << call << ": " << c.message;
    }
    EXPECT_FALSE(h.tuning()) << k.spec << ": still tuning after " << call << " calls (the budget is 40)";
    if (h.format() == Format::sell || h.format() == Format::bcsr || h.description().rfind("csr/vector", 0) == 0) {
      EXPECT_EQ(h.configuration().size(), h.format() == Format::csr ? 3u : 2u) << k.spec;
      SpmvHandle<double, std::int32_t> second(exp, a, o);
      EXPECT_EQ(second.origin(), "cache") << k.spec;
      EXPECT_EQ(second.configuration(), h.configuration()) << k.spec;
      DeviceArray<double> d_y(y0);
      second.apply(1.0, d_x.data(), 0.0, d_y.data());
      ex.synchronize();
      EXPECT_TRUE((check_spmv_result<double, std::int32_t>(a, x, 1.0, 0.0, {}, d_y.download()).passed)) << k.spec;
    } else {
      EXPECT_EQ(h.origin(), k.format ? "given" : "advisor") << k.spec << ": " << h.description();
    }
    std::printf("  handle %s: %s -> %s (%s)\n", k.spec, first.c_str(), h.description().c_str(), h.origin().c_str());
  }
  std::filesystem::remove(cache);
}

TEST(CudaSpmvErrors, BadParametersAndUnsortedCooAreErrors) {
  REQUIRE_CUDA_DEVICE();
  const ExecutorPtr ex = make_cuda_executor();
  const auto a = convert_types<double, std::int32_t>(test::edge_case_matrices()[8].matrix);
  SpmvOptions bad{Format::csr, "vector"};
  bad.params["coop"] = 3;  // not a power of two
  DeviceArray<double> x(static_cast<std::size_t>(a.cols)), y(static_cast<std::size_t>(a.rows));
  EXPECT_THROW((SpmvPlan<double, std::int32_t>(ex, a, bad).apply(1.0, x.data(), 0.0, y.data())), Error);
  EXPECT_THROW((SpmvPlan<double, std::int32_t>(ex, a, SpmvOptions{Format::csr, "no-such-kernel"})), Error);
  SpmvOptions bsr1{Format::bcsr, "cusparse"};
  bsr1.layout.block = 1;  // cuSPARSE's BSR takes blocks from 2 up: a clear refusal, not a cuSPARSE status
  try {
    SpmvPlan<double, std::int32_t> plan(ex, a, bsr1);
    FAIL() << "cuSPARSE BSR with block 1 was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("at least 2"), std::string::npos) << e.what();
  }
  Coo<double, std::int32_t> unsorted;
  unsorted.rows = unsorted.cols = 2;
  unsorted.row_idx = {1, 0};
  unsorted.col_idx = {0, 1};
  unsorted.values = {1, 2};
  EXPECT_THROW((DeviceCoo<double, std::int32_t>::upload(unsorted)), Error);
}

// The one plan and the one handle on a CUDA executor: Arrays in device
// memory, the same products as the CPU executor's plan, and clear errors
// when host memory meets a GPU plan.
// Uploads of 32 MB and more go through pinned staging buffers in 16 MB
// chunks (staged_upload.cpp): sizes that end mid-chunk and mid-piece arrive
// exactly, and the executor's stream sees them (a copy on it right after).
TEST(CudaExecutor, LargeUploadsArriveExactlyAndInOrder) {
  REQUIRE_CUDA_DEVICE();
  const auto ex = make_cuda_executor();
  for (std::size_t n : {std::size_t{4} << 20, (std::size_t{33} << 20) / 8 + 3, (std::size_t{80} << 20) / 8 + 131071}) {
    std::vector<double> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<double>(i % 100003) * 0.5 - static_cast<double>(n % 7);
    for (int round = 0; round < 2; ++round) {  // the second reuses the buffers
      const Array<double> up(ex, std::span<const double>(host));
      const Array<double> copy = up.copy_of();  // on the executor's stream
      const std::vector<double> back = copy.to_host();
      ASSERT_EQ(back.size(), n);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += back[i] != host[i];
      EXPECT_EQ(wrong, 0u) << n << " doubles, round " << round;
      host[n / 2] += 1;  // the next round must see new data
    }
  }
}

TEST(CudaExecutor, ArraysPlansAndHandlesOnTheDevice) {
  REQUIRE_CUDA_DEVICE();
  const ExecutorPtr gpu = make_executor("cuda");
  const ExecutorPtr cpu = make_executor("cpu");
  EXPECT_EQ(make_executor("auto")->backend(), Backend::cuda);
  EXPECT_NE(gpu->description().find("cuda:0"), std::string::npos) << gpu->description();
  const auto values = test::test_vector<double>(100001, 9);
  Array<double> d(gpu, 100001);
  for (double v : d.to_host()) ASSERT_EQ(v, 0.0);
  d.assign(values);
  EXPECT_EQ(d.copy_of().to_host(), values);
  const auto a = io::load_matrix<double, std::int32_t>("powerlaw:rows=20000");
  const auto x = test::test_vector<double>(static_cast<std::size_t>(a.cols), 5);
  const auto y0 = test::test_vector<double>(static_cast<std::size_t>(a.rows), 6);
  for (Format f : all_formats()) {
    SpmvOptions o;
    o.format = f;
    o.layout.max_fill = 1e9;
    const SpmvPlan<double, std::int32_t> gp(gpu, a, o), cp(cpu, a, o);
    EXPECT_EQ(gp.backend(), Backend::cuda);
    const Array<double> gx(gpu, std::span<const double>(x));
    Array<double> gy(gpu, std::span<const double>(y0));
    gp.apply(0.5, gx, 2.0, gy);
    const double rounding = format_traits(f).value_rounding;  // csr16-single: single-precision values
    const auto c = check_spmv_result<double, std::int32_t>(a, x, 0.5, 2.0, y0, gy.to_host(), rounding);
    EXPECT_TRUE(c.passed) << gp.description() << ": " << c.message;
    const Array<double> cx(cpu, std::span<const double>(x));
    Array<double> cy(cpu, std::span<const double>(y0));
    EXPECT_THROW(gp.apply(0.5, cx, 2.0, cy), Error) << "host arrays given to a GPU plan";
    std::vector<double> hy = y0;
    EXPECT_THROW(gp.apply(0.5, std::span<const double>(x), 2.0, std::span<double>(hy)), Error) << "host spans given to a GPU plan";
    cp.apply(0.5, cx, 2.0, cy);
    EXPECT_TRUE((check_spmv_result<double, std::int32_t>(a, x, 0.5, 2.0, y0, cy.to_host(), rounding).passed)) << cp.description();
  }
  HandleOptions ho;
  ho.use_cache = false;
  SpmvHandle<double, std::int32_t> h(gpu, a, ho);  // the advisor's format on the GPU
  const Array<double> gx(gpu, std::span<const double>(x));
  for (int call = 0; call < 45; ++call) {
    Array<double> gy(gpu, std::span<const double>(y0));
    h.apply(1.0, gx, 1.0, gy);
    ASSERT_TRUE((check_spmv_result<double, std::int32_t>(a, x, 1.0, 1.0, y0, gy.to_host()).passed)) << h.description() << " call " << call;
  }
  EXPECT_EQ(h.executor()->backend(), Backend::cuda);
}

TEST(CudaDevice, OutOfMemoryIsAnErrorNamingTheSize) {
  REQUIRE_CUDA_DEVICE();
  try {
    DeviceArray<double> huge(std::size_t{1} << 45);  // 256 TiB
    FAIL() << "allocation of 256 TiB succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::out_of_memory);
    EXPECT_NE(std::string(e.what()).find("281474976710656 bytes"), std::string::npos) << e.what();
  }
  DeviceArray<double> small(std::vector<double>{1, 2, 3});
  EXPECT_EQ(small.download(), (std::vector<double>{1, 2, 3}));
}

TEST(CudaFixedRule, PaperRuleFollowsSection54) {
  // mean 27 per row: sqrt = 5.2 -> coop 8; mean 4: sqrt = 2 -> coop 4 (strictly above); long rows cap at 32.
  EXPECT_EQ(csr_vector_paper_rule(1000000, 27000000).coop, 8);
  EXPECT_EQ(csr_vector_paper_rule(1000000, 4000000).coop, 4);
  EXPECT_EQ(csr_vector_paper_rule(1000, 5000000).coop, 32);
  EXPECT_EQ(csr_vector_paper_rule(1000000, 27000000).block_size, 128);
  // At least 1500 blocks: rows * coop / (repeat * 128) >= 1500, and repeat as large as that allows.
  const auto p = csr_vector_paper_rule(4000000, 108000000);
  EXPECT_GE(4000000LL * p.coop / (static_cast<long long>(p.repeat) * p.block_size), 1500);
  EXPECT_LT(4000000LL * p.coop / (static_cast<long long>(p.repeat + 1) * p.block_size), 1500);
  EXPECT_EQ(csr_vector_paper_rule(10, 10).repeat, 1);
}

TEST(CudaTuningAxes, StartAtTheRuleAndRoundTrip) {
  const CsrVectorParams rule{8, 9, 128};
  const auto axes = csr_vector_tuning_axes(rule);
  ASSERT_EQ(axes.size(), 3u);
  EXPECT_EQ(axes[0].name, "coop");
  std::vector<int> start;
  for (const auto& a : axes) start.push_back(a.values.at(a.start));
  EXPECT_EQ(csr_vector_params(start).coop, 8);
  EXPECT_EQ(csr_vector_params(start).repeat, 9);
  EXPECT_EQ(csr_vector_params(start).block_size, 128);
  EXPECT_EQ(csr_vector_configuration(csr_vector_params(start)), start);
  EXPECT_EQ(axes[1].values.front(), 1);  // repeat reaches 1 (9, 4, 2, 1) and 8x up (72)
  EXPECT_EQ(axes[1].values.back(), 72);
  const auto sell = cuda_sell_tuning_axes(4, 1024);
  EXPECT_EQ(sell[0].values.at(sell[0].start), 1024);
  EXPECT_GT(sell[0].values.at(1), 32);  // the first sorting step spans several chunks of 32
  EXPECT_EQ(sell[1].values.at(sell[1].start), 4);
  const auto o = tuned_plan_options(Backend::cuda, SpmvOptions{Format::sell}, {4096, 1});
  EXPECT_EQ(o.layout.sigma, 4096);
  EXPECT_EQ(o.kernel, "thread");
  const auto b = tuned_plan_options(Backend::cuda, SpmvOptions{Format::bcsr}, {3, 0});
  EXPECT_EQ(b.layout.block, 3);
  EXPECT_EQ(b.kernel, "by-block");
}

TEST(CudaFixedRule, KeepsWavesOfResidentBlocks) {
  const GpuShape h200{132, 2048, 32};
  const GpuShape fermi{14, 1536, 8};
  // Same coop as the paper's rule; repeat scaled to the GPU's resident blocks.
  const auto p = csr_vector_fixed_rule(4000000, 108000000, h200);
  EXPECT_EQ(p.coop, 8);
  EXPECT_EQ(p.block_size, 128);
  const double min_blocks = kFixedRuleWaves * 132 * 16;  // 2048 / 128 = 16 resident blocks per SM
  EXPECT_GE(4000000.0 * p.coop / (p.repeat * 128.0), min_blocks);
  EXPECT_LT(4000000.0 * p.coop / ((p.repeat + 1) * 128.0), min_blocks);
  // A bigger GPU gets a smaller repeat (Fermi: 14 x 8 resident blocks, the H200 132 x 16).
  EXPECT_LT(p.repeat, csr_vector_paper_rule(4000000, 108000000).repeat);
  const auto f = csr_vector_fixed_rule(4000000, 108000000, fermi);
  EXPECT_GT(f.repeat, 10 * p.repeat);
  // Small matrices: repeat 1.
  EXPECT_EQ(csr_vector_fixed_rule(1000, 5000, h200).repeat, 1);
}

// BCSR by-column's lanes per block row (bcsr_by_column_lanes): the fewest
// with at most 16 of the mean block row's values per lane, the group sizes
// measured best on the suite's block matrices (H100 and H200, scripts/experiments/bcsr-lanes.sh).
TEST(CudaBcsrByColumn, LanesGiveEachLaneAtMost16Values) {
  EXPECT_EQ(bcsr_by_column_lanes(405224LL * 79 / 3, 405224, 3), 16);  // FEM bs = 3: 79 columns, 237 values per block row
  EXPECT_EQ(bcsr_by_column_lanes(32890, 1628, 3), 16);                 // bcsstk16: 61
  EXPECT_EQ(bcsr_by_column_lanes(166375LL * 26, 166375, 6), 32);       // FEM bs = 6: 156
  EXPECT_EQ(bcsr_by_column_lanes(3846154LL * 13 / 2, 3846154, 2), 4);   // banded bs = 2: 13
  EXPECT_EQ(bcsr_by_column_lanes(10000LL * 2600, 10000, 1), 32);       // short-wide bs = 1: 2600
  EXPECT_EQ(bcsr_by_column_lanes(1000, 100, 16), 32);                  // past 8: the warp (not measured)
  EXPECT_EQ(bcsr_by_column_lanes(0, 0, 3), 32);                        // empty
  for (long long columns = 1; columns <= 4096; columns *= 3) {         // more columns never fewer lanes
    EXPECT_LE(bcsr_by_column_lanes(columns, 1, 1), bcsr_by_column_lanes(columns * 2, 1, 1)) << columns;
  }
}

// CSR adaptive loads its entries evict-first where x's lines are gathered
// again after the cache lost them (CsrAdaptiveSchedule::evict_first): a
// power-law matrix whose x is larger than a quarter of L2, not a stencil
// nor a circuit matrix (whose far columns are a few hubs).
// Both kernels against the reference, real and complex, y poisoned.
template <class V>
void check_evict_first_choice(const std::string& spec, bool expected) {
  const auto exp = make_cuda_executor();
  const auto a = io::load_matrix<V, std::int32_t>(spec);
  const auto x = test::test_vector<V>(static_cast<std::size_t>(a.cols), 5);
  const Array<V> d_x(exp, std::span<const V>(x));
  SpmvOptions o;
  o.format = Format::csr;
  o.kernel = "adaptive";
  const SpmvPlan<V, std::int32_t> plan(exp, a, o);
  EXPECT_EQ(plan.description().find("evict-first") != std::string::npos, expected) << spec << ": " << plan.description();
  std::vector<V> poison(static_cast<std::size_t>(a.rows), V(std::numeric_limits<double>::quiet_NaN()));
  Array<V> d_y(exp, std::span<const V>(poison));
  plan.apply(V(1), d_x, V(0), d_y);
  const auto c = check_spmv_result<V, std::int32_t>(a, x, V(1), V(0), {}, d_y.to_host());
  EXPECT_TRUE(c.passed) << spec << " " << plan.description() << ": " << c.message;
}

TEST(CudaCsrAdaptive, EvictFirstOnlyWhereXIsGatheredAgain) {
  REQUIRE_CUDA_DEVICE();
  // x of 3e6 values (24 MB) passes a quarter of the H100's 50 MiB and the H200's 60 MiB L2.
  const std::size_t x_bytes = 3000000 * sizeof(double);
  if (x_bytes <= l2_cache_bytes() / 4) GTEST_SKIP() << "skipped: this device's L2 holds the test's x";
  check_evict_first_choice<double>("powerlaw:min=2.5,rows=3000000", true);
  check_evict_first_choice<std::complex<double>>("powerlaw:min=2.5,rows=3000000", true);
  check_evict_first_choice<double>("stencil3d:points=27,n=150", false);
  // The circuit's far entries in short rows are its 8 hub columns, hot in any cache: plain loads (3.4% faster on the H200).
  check_evict_first_choice<double>("circuit:n=3000000", false);
}

// CSR adaptive keeps the occupancy it was tuned at: 8 resident blocks of 256
// threads per multiprocessor in double, and in float without evict-first (32
// registers); float with evict-first has had 38 registers, 6 blocks. Its
// one-row loop once took 48 registers, 5 blocks, and cost every matrix's
// short-row blocks a fifth of their speed on the H200. (The test
// build.csr_adaptive_registers checks the registers without a GPU.)
TEST(CudaCsrAdaptive, KeepsEightBlocksPerMultiprocessor) {
  REQUIRE_CUDA_DEVICE();
  for (bool evict_first : {false, true}) {
    EXPECT_GE((csr_adaptive_blocks_per_sm<double, std::int32_t>(evict_first)), 8) << "double, evict-first " << evict_first;
    EXPECT_GE((csr_adaptive_blocks_per_sm<float, std::int32_t>(evict_first)), evict_first ? 6 : 8) << "float, evict-first " << evict_first;
  }
}

// DIA's kernels load a slot outside the matrix like any other (thread: x at
// a clamped column; staged: a zero window element) and must drop its
// product: with inf in x's first and last elements, rows that do not touch
// those columns stay finite. Matrix: offsets -1 and +1 only, so row 0's
// offset -1 clamps to column 0 and row 3's offset +1 to column 3.
TEST(CudaDia, SlotsOutsideTheMatrixIgnoreInfiniteX) {
  REQUIRE_CUDA_DEVICE();
  const auto exp = make_cuda_executor();
  Csr<double, std::int32_t> a;
  a.rows = a.cols = 4;
  a.row_ptr = {0, 1, 3, 5, 6};
  a.col_idx = {1, 0, 2, 1, 3, 2};  // row 0: column 1; row 3: column 2
  a.values = {2, 3, 4, 5, 6, 7};
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> x = {inf, 10, 20, inf};
  const Array<double> d_x(exp, std::span<const double>(x));
  for (const char* kernel : {"thread", "staged"}) {
    SpmvOptions o;
    o.format = Format::dia;
    o.kernel = kernel;
    const SpmvPlan<double, std::int32_t> plan(exp, a, o);
    std::vector<double> poison(4, std::numeric_limits<double>::quiet_NaN());
    Array<double> d_y(exp, std::span<const double>(poison));
    plan.apply(1.0, d_x, 0.0, d_y);
    const auto y = d_y.to_host();
    EXPECT_EQ(y[0], 2.0 * 10) << kernel;  // not NaN from 0 * x[0]
    EXPECT_EQ(y[3], 7.0 * 20) << kernel;  // not NaN from 0 * x[3]
    EXPECT_EQ(y[1], inf) << kernel;       // 3 * inf + 4 * 20
    EXPECT_EQ(y[2], inf) << kernel;       // 5 * 10 + 6 * inf
  }
}

}  // namespace
}  // namespace hsparse::cuda
