// Standalone experiment (issue 37, FEM bs = 3 at 79% of the read bandwidth):
// BCSR 3x3 by-column, as in src/backends/cuda/bcsr_spmv.cu (V0), against a
// variant whose value loads are coalesced (V1).
//
// V0: lane l of a group of G lanes takes block-row columns l, l+G, ...; each
//     column's 3 values are contiguous (column-major blocks), so a warp-wide
//     load of "value i of my column" touches lanes 24 bytes apart: about 3x
//     the L1 wavefronts of a coalesced load.
// V1: the group still takes G columns a step (one x gather and one col_idx
//     load a lane), but loads the step's 3G values as 3 coalesced doubles a
//     lane (value v = m*G + l, m = 0..2). Value v belongs to column v / 3,
//     whose x lane v / 3 gathered: one shuffle a value. Its row is
//     (l + m*(G mod 3)) mod 3, fixed per lane and m, so each lane keeps 3
//     accumulators in lane-relative order and maps them to rows once at the
//     end (G is a power of two, never a multiple of 3).
//
// Build:  nvcc -O3 -std=c++17 -arch=sm_90 -o bcsr3 experiment_bcsr3.cu
// Run:    ./bcsr3 [n=74]   (FEM-like: n^3 block rows, 27 block neighbours)
// Prints, per kernel: max relative error against a thread-per-row reference
// (itself checked against the host on sampled rows), GFLOP/s with L2 flushed
// (median of 30) and back to back (200 calls), and % of the read bandwidth
// of the minimum traffic.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                        \
  do {                                                                               \
    cudaError_t e = (x);                                                             \
    if (e != cudaSuccess) {                                                          \
      printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e));               \
      exit(1);                                                                       \
    }                                                                                \
  } while (0)

constexpr int BS = 3, BB = 9;

static unsigned long long mix(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct Bcsr {
  int block_rows = 0;
  long long blocks = 0;
  std::vector<int> row_ptr, col_idx;
  std::vector<double> values;  // block k: values[k*9 + j*3 + i] = entry (i, j)
};

// 27-point node connectivity on an n^3 grid, one 3x3 block per node pair.
Bcsr fem_like(int n) {
  Bcsr a;
  a.block_rows = n * n * n;
  a.row_ptr.assign(a.block_rows + 1, 0);
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y)
      for (int x = 0; x < n; ++x) {
        const int r = (z * n + y) * n + x;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const int xx = x + dx, yy = y + dy, zz = z + dz;
              if (xx < 0 || yy < 0 || zz < 0 || xx >= n || yy >= n || zz >= n) continue;
              a.col_idx.push_back((zz * n + yy) * n + xx);  // increasing: dz, dy, dx in order
            }
        a.row_ptr[r + 1] = static_cast<int>(a.col_idx.size());
      }
  a.blocks = static_cast<long long>(a.col_idx.size());
  a.values.resize(a.blocks * BB);
  for (long long i = 0; i < a.blocks * BB; ++i) a.values[i] = 0.5 + static_cast<double>(mix(i) % 1000) / 1000.0;
  return a;
}

// Reference: one thread per scalar row.
__global__ void reference_kernel(int block_rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                 const double* __restrict__ values, const double* __restrict__ x, double* __restrict__ y) {
  const long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (r >= static_cast<long long>(block_rows) * BS) return;
  const long long br = r / BS;
  const int i = static_cast<int>(r % BS);
  double sum = 0;
  for (int k = row_ptr[br]; k < row_ptr[br + 1]; ++k)
    for (int j = 0; j < BS; ++j) sum += values[static_cast<long long>(k) * BB + j * BS + i] * x[static_cast<long long>(col_idx[k]) * BS + j];
  y[r] = sum;
}

template <int G>
__device__ __forceinline__ double group_sum(double v) {
  for (int o = G / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o, G);
  return v;
}

// V0: the library's by-column kernel for BS = 3 (U = 4), 4 warps a block.
template <int G>
__global__ void __launch_bounds__(128) by_column_v0(int block_rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                                    const double* __restrict__ values, const double* __restrict__ x, double* __restrict__ y) {
  constexpr int U = 4;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % G;
  const long long br = (static_cast<long long>(blockIdx.x) * 4 + warp) * (32 / G) + static_cast<int>(threadIdx.x % 32) / G;
  double acc[BS] = {0, 0, 0};
  if (br < block_rows) {
    const long long first = row_ptr[br], columns = (static_cast<long long>(row_ptr[br + 1]) - first) * BS;
    for (long long c0 = lane; c0 < columns; c0 += G * U) {
      double xv[U];
      long long offset[U];
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const long long c = c0 + static_cast<long long>(G) * u;
        xv[u] = 0;
        offset[u] = -1;
        if (c < columns) {
          const long long k = first + c / BS;
          const int j = static_cast<int>(c % BS);
          xv[u] = x[static_cast<long long>(col_idx[k]) * BS + j];
          offset[u] = k * BB + static_cast<long long>(j) * BS;
        }
      }
#pragma unroll
      for (int u = 0; u < U; ++u) {
        if (offset[u] < 0) continue;
        const double* column = values + offset[u];
#pragma unroll
        for (int i = 0; i < BS; ++i) acc[i] += column[i] * xv[u];
      }
    }
  }
#pragma unroll
  for (int i = 0; i < BS; ++i) acc[i] = group_sum<G>(acc[i]);
  if (br < block_rows && lane == 0)
#pragma unroll
    for (int i = 0; i < BS; ++i) y[br * BS + i] = acc[i];
}

// V1: coalesced value loads, x by shuffle (header comment). U steps of G
// columns per iteration, their loads issued together.
template <int G, int U>
__global__ void __launch_bounds__(128) by_column_v1(int block_rows, const int* __restrict__ row_ptr, const int* __restrict__ col_idx,
                                                    const double* __restrict__ values, const double* __restrict__ x, double* __restrict__ y) {
  static_assert(G % 3 != 0, "G must not be a multiple of 3");
  const int warp = threadIdx.x / 32, lane = threadIdx.x % G, group_base = static_cast<int>(threadIdx.x % 32) - lane;
  const long long br = (static_cast<long long>(blockIdx.x) * 4 + warp) * (32 / G) + static_cast<int>(threadIdx.x % 32) / G;
  const bool live = br < block_rows;
  double a[BS] = {0, 0, 0};  // a[m]: the lane's sum of its m-th value of each step
  long long first = 0, columns = 0;
  if (live) {
    first = row_ptr[br];
    columns = (static_cast<long long>(row_ptr[br + 1]) - first) * BS;
  }
  const double* v0 = values + first * BB;  // the block row's values: column c's 3 values at 3c
  // Every lane of the warp runs the same trip count (the shuffles need them all).
  long long warp_columns = columns;
  for (int o = 16; o > 0; o /= 2) warp_columns = max(warp_columns, __shfl_xor_sync(0xffffffffu, warp_columns, o));
  for (long long c0 = 0; c0 < warp_columns; c0 += static_cast<long long>(G) * U) {
    double xv[U], val[U][BS];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const long long step = c0 + static_cast<long long>(G) * u;
      const long long c = step + lane;
      xv[u] = c < columns ? x[static_cast<long long>(col_idx[first + c / BS]) * BS + c % BS] : 0.0;
#pragma unroll
      for (int m = 0; m < BS; ++m) {
        const long long v = step * BS + m * G + lane;  // value index in the block row
        val[u][m] = v < columns * BS ? v0[v] : 0.0;
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
#pragma unroll
      for (int m = 0; m < BS; ++m) a[m] += val[u][m] * __shfl_sync(0xffffffffu, xv[u], group_base + (m * G + lane) / BS);
  }
  // a[m] holds row (lane + m*G) mod 3.
  double acc[BS];
#pragma unroll
  for (int i = 0; i < BS; ++i) {
    acc[i] = 0;
#pragma unroll
    for (int m = 0; m < BS; ++m) acc[i] += (lane + m * G) % BS == i ? a[m] : 0.0;
  }
#pragma unroll
  for (int i = 0; i < BS; ++i) acc[i] = group_sum<G>(acc[i]);
  if (live && lane == 0)
#pragma unroll
    for (int i = 0; i < BS; ++i) y[br * BS + i] = acc[i];
}

struct Dev {
  int block_rows;
  long long blocks;
  int *row_ptr, *col_idx;
  double *values, *x, *y, *yref;
  char* flush;
  size_t flush_bytes;
};

template <class Launch>
void measure(const char* name, const Dev& d, Launch launch, double bytes) {
  const long long n = static_cast<long long>(d.block_rows) * BS;
  CK(cudaMemset(d.y, 0xff, n * sizeof(double)));  // NaN poison
  launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<double> y(n), yref(n);
  CK(cudaMemcpy(y.data(), d.y, n * sizeof(double), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(yref.data(), d.yref, n * sizeof(double), cudaMemcpyDeviceToHost));
  double worst = 0;
  for (long long r = 0; r < n; ++r) {
    const double e = std::fabs(y[r] - yref[r]) / std::max(1.0, std::fabs(yref[r]));
    worst = std::isnan(y[r]) ? INFINITY : std::max(worst, e);
  }
  cudaEvent_t t0, t1;
  CK(cudaEventCreate(&t0));
  CK(cudaEventCreate(&t1));
  std::vector<float> ms;
  for (int rep = 0; rep < 30; ++rep) {
    CK(cudaMemset(d.flush, rep, d.flush_bytes));  // evict L2
    CK(cudaEventRecord(t0));
    launch();
    CK(cudaEventRecord(t1));
    CK(cudaEventSynchronize(t1));
    float t;
    CK(cudaEventElapsedTime(&t, t0, t1));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  const double flushed = ms[ms.size() / 2] * 1e-3;
  CK(cudaEventRecord(t0));
  for (int rep = 0; rep < 200; ++rep) launch();
  CK(cudaEventRecord(t1));
  CK(cudaEventSynchronize(t1));
  float total;
  CK(cudaEventElapsedTime(&total, t0, t1));
  const double b2b = total * 1e-3 / 200;
  const double flops = 2.0 * static_cast<double>(d.blocks) * BB;
  printf("%-16s error %.1e  flushed %7.1f GFLOP/s (%5.1f%% of %.0f GB/s)  back to back %7.1f GFLOP/s\n", name, worst, flops / flushed * 1e-9,
         100.0 * bytes / flushed / 4.5194e12, 4519.4, flops / b2b * 1e-9);
  if (!(worst < 1e-12)) printf("  ^^^ WRONG\n");
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 74;
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const Bcsr a = fem_like(n);
  printf("%s, L2 %d MiB; FEM-like bs 3, n %d: %d block rows, %lld blocks, %lld nonzeros\n", p.name, p.l2CacheSize >> 20, n, a.block_rows,
         a.blocks, a.blocks * BB);
  Dev d{a.block_rows, a.blocks};
  const long long rows = static_cast<long long>(a.block_rows) * BS;
  CK(cudaMalloc(&d.row_ptr, a.row_ptr.size() * sizeof(int)));
  CK(cudaMalloc(&d.col_idx, a.col_idx.size() * sizeof(int)));
  CK(cudaMalloc(&d.values, a.values.size() * sizeof(double)));
  CK(cudaMalloc(&d.x, rows * sizeof(double)));
  CK(cudaMalloc(&d.y, rows * sizeof(double)));
  CK(cudaMalloc(&d.yref, rows * sizeof(double)));
  d.flush_bytes = 512ull << 20;
  CK(cudaMalloc(&d.flush, d.flush_bytes));
  std::vector<double> x(rows);
  for (long long i = 0; i < rows; ++i) x[i] = -1.0 + 2.0 * static_cast<double>(mix(i + 777) % 10007) / 10007.0;
  CK(cudaMemcpy(d.row_ptr, a.row_ptr.data(), a.row_ptr.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d.col_idx, a.col_idx.data(), a.col_idx.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d.values, a.values.data(), a.values.size() * sizeof(double), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d.x, x.data(), rows * sizeof(double), cudaMemcpyHostToDevice));
  reference_kernel<<<static_cast<unsigned>((rows + 255) / 256), 256>>>(a.block_rows, d.row_ptr, d.col_idx, d.values, d.x, d.yref);
  CK(cudaDeviceSynchronize());
  {  // the reference against the host on sampled rows
    std::vector<double> yref(rows);
    CK(cudaMemcpy(yref.data(), d.yref, rows * sizeof(double), cudaMemcpyDeviceToHost));
    double worst = 0;
    for (long long r = 0; r < rows; r += 997) {
      const long long br = r / BS;
      const int i = static_cast<int>(r % BS);
      double sum = 0;
      for (int k = a.row_ptr[br]; k < a.row_ptr[br + 1]; ++k)
        for (int j = 0; j < BS; ++j) sum += a.values[static_cast<long long>(k) * BB + j * BS + i] * x[static_cast<long long>(a.col_idx[k]) * BS + j];
      worst = std::max(worst, std::fabs(sum - yref[r]) / std::max(1.0, std::fabs(sum)));
    }
    printf("reference against the host on sampled rows: error %.1e%s\n", worst, worst < 1e-12 ? "" : "  ^^^ WRONG");
  }
  // Minimum traffic: values, col_idx and row_ptr once, x once, y written once.
  const double bytes = a.values.size() * 8.0 + a.col_idx.size() * 4.0 + a.row_ptr.size() * 4.0 + 2.0 * rows * 8.0;
  const auto grid = [&](int g) { return static_cast<unsigned>((a.block_rows + 4LL * (32 / g) - 1) / (4LL * (32 / g))); };
  measure("v0 G8", d, [&] { by_column_v0<8><<<grid(8), 128>>>(a.block_rows, d.row_ptr, d.col_idx, d.values, d.x, d.y); }, bytes);
  measure("v0 G16", d, [&] { by_column_v0<16><<<grid(16), 128>>>(a.block_rows, d.row_ptr, d.col_idx, d.values, d.x, d.y); }, bytes);
  measure("v1 G8 U1", d, [&] { by_column_v1<8, 1><<<grid(8), 128>>>(a.block_rows, d.row_ptr, d.col_idx, d.values, d.x, d.y); }, bytes);
  measure("v1 G8 U2", d, [&] { by_column_v1<8, 2><<<grid(8), 128>>>(a.block_rows, d.row_ptr, d.col_idx, d.values, d.x, d.y); }, bytes);
  measure("v1 G8 U4", d, [&] { by_column_v1<8, 4><<<grid(8), 128>>>(a.block_rows, d.row_ptr, d.col_idx, d.values, d.x, d.y); }, bytes);
  measure("v1 G16 U1", d, [&] { by_column_v1<16, 1><<<grid(16), 128>>>(a.block_rows, d.row_ptr, d.col_idx, d.values, d.x, d.y); }, bytes);
  measure("v1 G16 U2", d, [&] { by_column_v1<16, 2><<<grid(16), 128>>>(a.block_rows, d.row_ptr, d.col_idx, d.values, d.x, d.y); }, bytes);
  measure("v1 G32 U1", d, [&] { by_column_v1<32, 1><<<grid(32), 128>>>(a.block_rows, d.row_ptr, d.col_idx, d.values, d.x, d.y); }, bytes);
  measure("v1 G4 U4", d, [&] { by_column_v1<4, 4><<<grid(4), 128>>>(a.block_rows, d.row_ptr, d.col_idx, d.values, d.x, d.y); }, bytes);
  measure("v0 G8 (again)", d, [&] { by_column_v0<8><<<grid(8), 128>>>(a.block_rows, d.row_ptr, d.col_idx, d.values, d.x, d.y); }, bytes);
  return 0;
}
