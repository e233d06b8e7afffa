// Standalone experiment (issue 37: CSR16 >= 1.15x CSR, 0 of 6 met; best
// CSR16 at 65% of the read bandwidth on the stencil against CSR adaptive's
// 83%): CSR adaptive's short-row staging with one element per load, as in
// src/backends/cuda/csr_spmv_adaptive.cu, against vector loads.
//
// One 256-thread block per work block of at most 2048 entries and 512 whole
// rows (the stencil: 75 rows of 27, two lanes a row). Kernels:
//   csr scalar   : each lane loads 8 (column, value) pairs one element per
//                  load, gathers x, stages the products (the library's CSR).
//   csr vec2     : the same with int2 columns and double2 values (2 entries
//                  a load, from an even index; the block's first and last
//                  pair masked).
//   csr16 scalar : stages 16-bit offsets and values one element per load;
//                  each row's lanes then gather x from its base in batches
//                  of 8 (the library's CSR16, reduce_staged_row).
//   csr16 vec4   : the same staging from ushort4 offsets and 2 double2 (or
//                  one float4) values: 4 entries a load set, from an index
//                  that is a multiple of 4.
// Values in double (csr16 also in float, widened: csr16-single).
//
// Build:  nvcc -O3 -std=c++17 -arch=sm_90 -o csr16stage experiment_csr16_stage.cu
// Run:    ./csr16stage [n=155]   (27-point stencil on n^3 points)
// Prints, per kernel: max relative error against a thread-per-row reference,
// GFLOP/s with L2 flushed (median of 30) and back to back (200 calls), and
// % of the read bandwidth (4519.4 GB/s, the H200's measured) of its format's
// minimum traffic.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#define CK(x)                                                          \
  do {                                                                 \
    cudaError_t e = (x);                                               \
    if (e != cudaSuccess) {                                            \
      printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                         \
    }                                                                  \
  } while (0)

constexpr int kThreads = 256, kBlockNnz = 2048, kMaxRows = 512;

static unsigned long long mix(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// The lanes per row of a block of `rows` rows (the library's rule).
__device__ __forceinline__ int width_for(int rows) {
  int width = 32;
  while (width > 1 && width * rows > kThreads) width /= 2;
  return width;
}

__device__ __forceinline__ double group_sum(double v, int width) {
  for (int o = width / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o, width);
  return v;
}

// Rows' sums from staged products (CSR).
__device__ __forceinline__ void reduce_products(const double* products, const int* __restrict__ row_ptr, int r0, int rows, int k0,
                                                double* __restrict__ y) {
  const int width = width_for(rows), groups = kThreads / width, group = threadIdx.x / width, lane = threadIdx.x % width;
  for (int base = 0; base < rows; base += groups) {
    const int r = base + group;
    double sum = 0, sum2 = 0;
    if (r < rows) {
      const int end = row_ptr[r0 + r + 1] - k0;
      int k = row_ptr[r0 + r] - k0 + lane;
      for (; k + 3 * width < end; k += 4 * width) {
        sum += products[k] + products[k + width];
        sum2 += products[k + 2 * width] + products[k + 3 * width];
      }
      for (; k < end; k += width) sum += products[k];
    }
    sum = group_sum(sum + sum2, width);
    if (lane == 0 && r < rows) y[r0 + r] = sum;
  }
}

// MINB 8: __launch_bounds__(256, 8), at most 32 registers (the library's
// occupancy); MINB 0: __launch_bounds__(256) alone, what the compiler wants
// (an explicit minimum of 1 takes more registers still).
template <bool VEC>
__device__ __forceinline__ void csr_body(const int* __restrict__ blocks, const int* __restrict__ row_ptr,
                                                       const int* __restrict__ col, const double* __restrict__ val,
                                                       const double* __restrict__ x, double* __restrict__ y) {
  __shared__ double products[kBlockNnz];
  const int r0 = blocks[blockIdx.x], r1 = blocks[blockIdx.x + 1];
  const int k0 = row_ptr[r0], k1 = row_ptr[r1], n = k1 - k0;
  if constexpr (!VEC) {
    constexpr int P = kBlockNnz / kThreads;
    int c[P];
    double v[P];
#pragma unroll
    for (int u = 0; u < P; ++u) {
      const int i = threadIdx.x + u * kThreads;
      if (i < n) {
        c[u] = col[k0 + i];
        v[u] = val[k0 + i];
      }
    }
#pragma unroll
    for (int u = 0; u < P; ++u) {
      const int i = threadIdx.x + u * kThreads;
      if (i < n) products[i] = v[u] * x[c[u]];
    }
  } else {
    // Pairs from an even index: at most (2048 + 2) / 2 = 1025 pairs, 5 per lane.
    constexpr int P = (kBlockNnz / 2 + kThreads) / kThreads;
    const int a0 = k0 & ~1;
    int2 c[P];
    double2 v[P];
#pragma unroll
    for (int u = 0; u < P; ++u) {
      const int e = a0 + 2 * (threadIdx.x + u * kThreads);
      if (e < k1) {
        c[u] = *reinterpret_cast<const int2*>(col + e);
        v[u] = *reinterpret_cast<const double2*>(val + e);
      }
    }
#pragma unroll
    for (int u = 0; u < P; ++u) {
      const int e = a0 + 2 * (threadIdx.x + u * kThreads);
      if (e >= k0 && e < k1) products[e - k0] = v[u].x * x[c[u].x];
      if (e + 1 >= k0 && e + 1 < k1) products[e + 1 - k0] = v[u].y * x[c[u].y];
    }
  }
  __syncthreads();
  reduce_products(products, row_ptr, r0, r1 - r0, k0, y);
}

template <class S>
struct Vec4;
template <>
struct Vec4<double> {
  double2 lo, hi;
  __device__ static Vec4 load(const double* p) { return {reinterpret_cast<const double2*>(p)[0], reinterpret_cast<const double2*>(p)[1]}; }
  __device__ double at(int j) const { return j == 0 ? lo.x : j == 1 ? lo.y : j == 2 ? hi.x : hi.y; }
};
template <>
struct Vec4<float> {
  float4 v;
  __device__ static Vec4 load(const float* p) { return {*reinterpret_cast<const float4*>(p)}; }
  __device__ float at(int j) const { return j == 0 ? v.x : j == 1 ? v.y : j == 2 ? v.z : v.w; }
};

template <bool VEC, class S>
__device__ __forceinline__ void csr16_body(const int* __restrict__ blocks, const int* __restrict__ row_ptr,
                                                         const int* __restrict__ base, const std::uint16_t* __restrict__ offset,
                                                         const S* __restrict__ val, const double* __restrict__ x, double* __restrict__ y) {
  __shared__ S staged_values[kBlockNnz];
  __shared__ std::uint16_t staged_offsets[kBlockNnz];
  const int r0 = blocks[blockIdx.x], r1 = blocks[blockIdx.x + 1];
  const int k0 = row_ptr[r0], k1 = row_ptr[r1], n = k1 - k0;
  if constexpr (!VEC) {
    constexpr int P = kBlockNnz / kThreads;
    std::uint16_t o[P];
    S v[P];
#pragma unroll
    for (int u = 0; u < P; ++u) {
      const int i = threadIdx.x + u * kThreads;
      if (i < n) {
        o[u] = offset[k0 + i];
        v[u] = val[k0 + i];
      }
    }
#pragma unroll
    for (int u = 0; u < P; ++u) {
      const int i = threadIdx.x + u * kThreads;
      if (i < n) {
        staged_offsets[i] = o[u];
        staged_values[i] = v[u];
      }
    }
  } else {
    // Quads from a multiple of 4: at most (2048 + 6) / 4 = 513 quads, 3 per lane.
    constexpr int P = (kBlockNnz / 4 + kThreads) / kThreads;
    const int a0 = k0 & ~3;
    ushort4 o[P];
    Vec4<S> v[P];
#pragma unroll
    for (int u = 0; u < P; ++u) {
      const int e = a0 + 4 * (threadIdx.x + u * kThreads);
      if (e < k1) {
        o[u] = *reinterpret_cast<const ushort4*>(offset + e);
        v[u] = Vec4<S>::load(val + e);
      }
    }
#pragma unroll
    for (int u = 0; u < P; ++u) {
      const int e = a0 + 4 * (threadIdx.x + u * kThreads);
      const std::uint16_t oo[4] = {o[u].x, o[u].y, o[u].z, o[u].w};
#pragma unroll
      for (int j = 0; j < 4; ++j)
        if (e + j >= k0 && e + j < k1) {
          staged_offsets[e + j - k0] = oo[j];
          staged_values[e + j - k0] = v[u].at(j);
        }
    }
  }
  __syncthreads();
  const int rows = r1 - r0, width = width_for(rows), groups = kThreads / width, group = threadIdx.x / width, lane = threadIdx.x % width;
  for (int b = 0; b < rows; b += groups) {
    const int r = b + group;
    double sum = 0;
    if (r < rows) {
      const double* xr = x + base[r0 + r];
      const int end = row_ptr[r0 + r + 1] - k0;
      constexpr int kBatch = 8;
      for (int k = row_ptr[r0 + r] - k0 + lane; k < end; k += kBatch * width) {
        double p[kBatch];
#pragma unroll
        for (int u = 0; u < kBatch; ++u) {
          const int i = k + u * width;
          p[u] = i < end ? double(staged_values[i]) * xr[staged_offsets[i]] : 0.0;
        }
#pragma unroll
        for (int u = 0; u < kBatch; ++u) sum += p[u];
      }
    }
    sum = group_sum(sum, width);
    if (lane == 0 && r < rows) y[r0 + r] = sum;
  }
}

template <bool VEC, int MINB>
__global__ void __launch_bounds__(kThreads, MINB == 0 ? 1 : MINB) csr_kernel_bounded(const int* __restrict__ blocks, const int* __restrict__ row_ptr,
                                                                             const int* __restrict__ col, const double* __restrict__ val,
                                                                             const double* __restrict__ x, double* __restrict__ y) {
  csr_body<VEC>(blocks, row_ptr, col, val, x, y);
}
template <bool VEC>
__global__ void __launch_bounds__(kThreads) csr_kernel_natural(const int* __restrict__ blocks, const int* __restrict__ row_ptr,
                                                               const int* __restrict__ col, const double* __restrict__ val,
                                                               const double* __restrict__ x, double* __restrict__ y) {
  csr_body<VEC>(blocks, row_ptr, col, val, x, y);
}
template <bool VEC, class S, int MINB>
__global__ void __launch_bounds__(kThreads, MINB == 0 ? 1 : MINB) csr16_kernel_bounded(const int* __restrict__ blocks, const int* __restrict__ row_ptr,
                                                                               const int* __restrict__ base, const std::uint16_t* __restrict__ offset,
                                                                               const S* __restrict__ val, const double* __restrict__ x,
                                                                               double* __restrict__ y) {
  csr16_body<VEC, S>(blocks, row_ptr, base, offset, val, x, y);
}
template <bool VEC, class S>
__global__ void __launch_bounds__(kThreads) csr16_kernel_natural(const int* __restrict__ blocks, const int* __restrict__ row_ptr,
                                                                 const int* __restrict__ base, const std::uint16_t* __restrict__ offset,
                                                                 const S* __restrict__ val, const double* __restrict__ x, double* __restrict__ y) {
  csr16_body<VEC, S>(blocks, row_ptr, base, offset, val, x, y);
}

__global__ void reference_kernel(int rows, const int* __restrict__ row_ptr, const int* __restrict__ col, const double* __restrict__ val,
                                 const double* __restrict__ x, double* __restrict__ y) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  double sum = 0;
  for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) sum += val[k] * x[col[k]];
  y[r] = sum;
}

struct Timing {
  char* flush;
  size_t flush_bytes;
  const double* yref;
  double* y;
  int rows;
};

template <class Launch>
void measure(const char* name, const Timing& t, Launch launch, double flops, double bytes, double tolerance) {
  CK(cudaMemset(t.y, 0xff, t.rows * sizeof(double)));  // NaN poison
  launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<double> y(t.rows), yref(t.rows);
  CK(cudaMemcpy(y.data(), t.y, t.rows * sizeof(double), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(yref.data(), t.yref, t.rows * sizeof(double), cudaMemcpyDeviceToHost));
  double worst = 0;
  for (int r = 0; r < t.rows; ++r)
    worst = std::isnan(y[r]) ? INFINITY : std::max(worst, std::fabs(y[r] - yref[r]) / std::max(1.0, std::fabs(yref[r])));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int rep = 0; rep < 30; ++rep) {
    CK(cudaMemset(t.flush, rep, t.flush_bytes));
    CK(cudaEventRecord(e0));
    launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float m;
    CK(cudaEventElapsedTime(&m, e0, e1));
    ms.push_back(m);
  }
  std::sort(ms.begin(), ms.end());
  const double flushed = ms[ms.size() / 2] * 1e-3;
  CK(cudaEventRecord(e0));
  for (int rep = 0; rep < 200; ++rep) launch();
  CK(cudaEventRecord(e1));
  CK(cudaEventSynchronize(e1));
  float total;
  CK(cudaEventElapsedTime(&total, e0, e1));
  printf("%-20s error %.1e  flushed %7.1f GFLOP/s (%5.1f%% BW)  back to back %7.1f GFLOP/s\n", name, worst, flops / flushed * 1e-9,
         100.0 * bytes / flushed / 4.5194e12, flops / (total * 1e-3 / 200) * 1e-9);
  if (!(worst < tolerance)) printf("  ^^^ WRONG (tolerance %.0e)\n", tolerance);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 155;
  const int rows = n * n * n;
  std::vector<int> row_ptr(rows + 1, 0), col, base(rows);
  col.reserve(static_cast<size_t>(rows) * 27);
  for (int z = 0; z < n; ++z)
    for (int yy = 0; yy < n; ++yy)
      for (int xx = 0; xx < n; ++xx) {
        const int r = (z * n + yy) * n + xx;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int a = xx + dx, b = yy + dy, c = z + dz;
              if (a < 0 || b < 0 || c < 0 || a >= n || b >= n || c >= n) continue;
              col.push_back((c * n + b) * n + a);
            }
        row_ptr[r + 1] = static_cast<int>(col.size());
      }
  const long long nnz = static_cast<long long>(col.size());
  std::vector<double> val(nnz);
  std::vector<float> val_single(nnz);
  std::vector<std::uint16_t> offset(nnz);
  for (long long k = 0; k < nnz; ++k) {
    val[k] = 0.5 + static_cast<double>(mix(k) % 4096) / 4096.0;  // exact in float: the single run checks at double tolerance
    val_single[k] = static_cast<float>(val[k]);
  }
  for (int r = 0; r < rows; ++r) {
    base[r] = col[row_ptr[r]];  // sorted columns: the first is the smallest
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
      if (col[k] - base[r] > 65535) {
        printf("row %d spans more than 65536 columns: n too large for this experiment\n", r);
        return 1;
      }
      offset[k] = static_cast<std::uint16_t>(col[k] - base[r]);
    }
  }
  std::vector<int> blocks = {0};  // work blocks: row boundaries
  for (int r = 0; r < rows;) {
    int end = r + 1;
    while (end < rows && end - r < kMaxRows && row_ptr[end + 1] - row_ptr[r] <= kBlockNnz) ++end;
    blocks.push_back(end);
    r = end;
  }
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  printf("%s; stencil 27-point n %d: %d rows, %lld nonzeros, %zu work blocks\n", p.name, n, rows, nnz, blocks.size() - 1);
  auto up = [](const auto& v) {
    using T = typename std::decay_t<decltype(v)>::value_type;
    T* d;
    CK(cudaMalloc(&d, v.size() * sizeof(T) + 64));  // + 64: a vector load past the end stays inside
    CK(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
  };
  std::vector<double> x(rows);
  for (int i = 0; i < rows; ++i) x[i] = -1.0 + 2.0 * static_cast<double>(mix(i + 99) % 10007) / 10007.0;
  int *d_rp = up(row_ptr), *d_col = up(col), *d_base = up(base), *d_blocks = up(blocks);
  std::uint16_t* d_off = up(offset);
  double *d_val = up(val), *d_x = up(x), *d_y, *d_yref;
  float* d_val_single = up(val_single);
  CK(cudaMalloc(&d_y, rows * sizeof(double)));
  CK(cudaMalloc(&d_yref, rows * sizeof(double)));
  reference_kernel<<<(rows + 255) / 256, 256>>>(rows, d_rp, d_col, d_val, d_x, d_yref);
  CK(cudaDeviceSynchronize());
  {  // the reference against the host on sampled rows
    std::vector<double> yref(rows);
    CK(cudaMemcpy(yref.data(), d_yref, rows * sizeof(double), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int r = 0; r < rows; r += 997) {
      double s = 0;
      for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) s += val[k] * x[col[k]];
      worst = std::max(worst, std::fabs(s - yref[r]) / std::max(1.0, std::fabs(s)));
    }
    printf("reference against the host on sampled rows: error %.1e%s\n", worst, worst < 1e-12 ? "" : "  ^^^ WRONG");
  }
  Timing t{nullptr, 512ull << 20, d_yref, d_y, rows};
  CK(cudaMalloc(&t.flush, t.flush_bytes));
  const unsigned grid = static_cast<unsigned>(blocks.size() - 1);
  const double flops = 2.0 * nnz, xy = 2.0 * rows * 8.0;
  const double csr_bytes = nnz * 12.0 + (rows + 1) * 4.0 + xy, csr16_bytes = nnz * 10.0 + (rows + 1) * 8.0 + xy,
               single_bytes = nnz * 6.0 + (rows + 1) * 8.0 + xy;
  for (int round = 0; round < 2; ++round) {
    measure("csr scalar", t, [&] { csr_kernel_natural<false><<<grid, kThreads>>>(d_blocks, d_rp, d_col, d_val, d_x, d_y); }, flops, csr_bytes, 1e-12);
    measure("csr vec2", t, [&] { csr_kernel_natural<true><<<grid, kThreads>>>(d_blocks, d_rp, d_col, d_val, d_x, d_y); }, flops, csr_bytes, 1e-12);
    measure("csr vec2 8 blocks", t, [&] { csr_kernel_bounded<true, 8><<<grid, kThreads>>>(d_blocks, d_rp, d_col, d_val, d_x, d_y); }, flops, csr_bytes,
            1e-12);
    measure("csr16 scalar", t, [&] { csr16_kernel_natural<false, double><<<grid, kThreads>>>(d_blocks, d_rp, d_base, d_off, d_val, d_x, d_y); },
            flops, csr16_bytes, 1e-12);
    measure("csr16 scalar 8 blk", t,
            [&] { csr16_kernel_bounded<false, double, 8><<<grid, kThreads>>>(d_blocks, d_rp, d_base, d_off, d_val, d_x, d_y); }, flops, csr16_bytes, 1e-12);
    measure("csr16 vec4", t, [&] { csr16_kernel_natural<true, double><<<grid, kThreads>>>(d_blocks, d_rp, d_base, d_off, d_val, d_x, d_y); }, flops,
            csr16_bytes, 1e-12);
    measure("csr16 vec4 8 blk", t,
            [&] { csr16_kernel_bounded<true, double, 8><<<grid, kThreads>>>(d_blocks, d_rp, d_base, d_off, d_val, d_x, d_y); }, flops, csr16_bytes, 1e-12);
    measure("csr16-single scalar", t,
            [&] { csr16_kernel_bounded<false, float, 8><<<grid, kThreads>>>(d_blocks, d_rp, d_base, d_off, d_val_single, d_x, d_y); }, flops, single_bytes,
            1e-12);
    measure("csr16-single vec4", t,
            [&] { csr16_kernel_bounded<true, float, 8><<<grid, kThreads>>>(d_blocks, d_rp, d_base, d_off, d_val_single, d_x, d_y); }, flops, single_bytes,
            1e-12);
  }
  return 0;
}
