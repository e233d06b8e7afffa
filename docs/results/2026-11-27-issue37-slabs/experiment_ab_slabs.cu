// Standalone experiment (untracked): L2 column slabs for a random matrix.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <thrust/device_ptr.h>
#include <thrust/scan.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

__device__ unsigned long long mix(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ull; z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull; z = (z ^ (z >> 27)) * 0x94d049bb133111ebull; return z ^ (z >> 31);
}
__global__ void gen(long long n, int per_row, int* col, double* val, double* x) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; if (i >= n) return;
  for (int k = 0; k < per_row; ++k) { col[i * per_row + k] = int(mix(i * 131 + k) % n); val[i * per_row + k] = 1.0 + (mix(i * 7 + k + 99) % 1000) / 1000.0; }
  x[i] = 1.0 + (mix(i + 12345) % 997) / 997.0;
}
__global__ void count_slabs(long long n, int per_row, const int* col, long long slab_cols, int slabs, int* counts /* slabs x (n+1) */) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; if (i >= n) return;
  for (int s = 0; s < slabs; ++s) counts[s * (n + 1) + i] = 0;
  for (int k = 0; k < per_row; ++k) { int s = int(col[i * per_row + k] / slab_cols); counts[s * (n + 1) + i]++; }
}
__global__ void scatter_slabs(long long n, int per_row, const int* col, const double* val, long long slab_cols, int slabs, const int* ptr, const long long* slab_base, int* scol, double* sval) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; if (i >= n) return;
  int fill[16] = {0};
  for (int k = 0; k < per_row; ++k) { int c = col[i * per_row + k]; int s = int(c / slab_cols); long long at = slab_base[s] + ptr[s * (n + 1) + i] + fill[s]++; scol[at] = c; sval[at] = val[i * per_row + k]; }
}
template <int COOP, bool STREAM>
__global__ void csr_vec(long long rows, const int* __restrict__ ptr, const int* __restrict__ col, const double* __restrict__ val, const double* __restrict__ x, double beta, double* __restrict__ y) {
  long long row = (blockIdx.x * (long long)blockDim.x + threadIdx.x) / COOP; int lane = threadIdx.x % COOP;
  double sum = 0;
  if (row < rows) {
    int b = STREAM ? __ldcs(ptr + row) : ptr[row], e = STREAM ? __ldcs(ptr + row + 1) : ptr[row + 1];
    for (int k = b + lane; k < e; k += COOP) { int c = STREAM ? __ldcs(col + k) : col[k]; double v = STREAM ? __ldcs(val + k) : val[k]; sum += v * __ldg(x + c); }
  }
  for (int o = COOP / 2; o > 0; o /= 2) sum += __shfl_down_sync(0xffffffffu, sum, o, COOP);
  if (lane == 0 && row < rows) y[row] = beta == 0 ? sum : sum + beta * y[row];
}
struct Csr { long long rows, nnz; int* ptr; int* col; double* val; };
template <bool STREAM>
void launch(int coop, const Csr& a, const double* x, double beta, double* y) {
  long long threads = a.rows * coop; unsigned g = unsigned((threads + 255) / 256);
  switch (coop) {
    case 1: csr_vec<1, STREAM><<<g, 256>>>(a.rows, a.ptr, a.col, a.val, x, beta, y); break;
    case 2: csr_vec<2, STREAM><<<g, 256>>>(a.rows, a.ptr, a.col, a.val, x, beta, y); break;
    case 4: csr_vec<4, STREAM><<<g, 256>>>(a.rows, a.ptr, a.col, a.val, x, beta, y); break;
    default: csr_vec<8, STREAM><<<g, 256>>>(a.rows, a.ptr, a.col, a.val, x, beta, y); break;
  }
}
int main(int argc, char** argv) {
  long long n = argc > 1 ? atoll(argv[1]) : 10000000; int per_row = argc > 2 ? atoi(argv[2]) : 10;
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0)); printf("%s L2 %d MB n %lld per_row %d\n", p.name, p.l2CacheSize >> 20, n, per_row);
  long long nnz = n * per_row;
  int *col; double *val, *x, *y, *yref; CK(cudaMalloc(&col, nnz * 4)); CK(cudaMalloc(&val, nnz * 8)); CK(cudaMalloc(&x, n * 8)); CK(cudaMalloc(&y, n * 8)); CK(cudaMalloc(&yref, n * 8));
  unsigned g = unsigned((n + 255) / 256);
  gen<<<g, 256>>>(n, per_row, col, val, x); CK(cudaDeviceSynchronize());
  std::vector<int> hptr(n + 1); for (long long i = 0; i <= n; ++i) hptr[i] = int(i * per_row);
  int* ptr; CK(cudaMalloc(&ptr, (n + 1) * 4)); CK(cudaMemcpy(ptr, hptr.data(), (n + 1) * 4, cudaMemcpyHostToDevice));
  Csr full{n, nnz, ptr, col, val};
  char* flush; size_t fb = 512ull << 20; CK(cudaMalloc(&flush, fb));
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  launch<true>(4, full, x, 0, yref); CK(cudaDeviceSynchronize());
  std::vector<double> href(n), hy(n); CK(cudaMemcpy(href.data(), yref, n * 8, cudaMemcpyDeviceToHost));
  auto time = [&](auto&& body, bool do_flush) {
    std::vector<float> t;
    for (int r = 0; r < 25; ++r) {
      if (do_flush) CK(cudaMemsetAsync(flush, r, fb));
      CK(cudaMemsetAsync(y, 0xff, n * 8));
      cudaEventRecord(e0); body(); cudaEventRecord(e1); CK(cudaEventSynchronize(e1)); float ms; cudaEventElapsedTime(&ms, e0, e1); t.push_back(ms);
    }
    std::sort(t.begin(), t.end()); CK(cudaMemcpy(hy.data(), y, n * 8, cudaMemcpyDeviceToHost));
    double err = 0, nr = 0; for (long long i = 0; i < n; ++i) { err = std::max(err, std::abs(hy[i] - href[i])); nr = std::max(nr, std::abs(href[i])); }
    return std::make_pair(t[t.size() / 2], err / nr);
  };
  for (int coop : {1, 2, 4, 8}) for (int stream = 0; stream < 2; ++stream) {
    auto r = time([&] { if (stream) launch<true>(coop, full, x, 0, y); else launch<false>(coop, full, x, 0, y); }, true);
    printf("full coop%d stream%d: %.3f ms %.1f GFLOP/s err %.1e\n", coop, stream, r.first, 2.0 * nnz / r.first / 1e6, r.second);
  }
  for (int slabs : {2, 3, 4, 6, 8, 12}) {
    long long slab_cols = (n + slabs - 1) / slabs;
    int* counts; CK(cudaMalloc(&counts, slabs * (n + 1) * 4));
    count_slabs<<<g, 256>>>(n, per_row, col, slab_cols, slabs, counts);
    std::vector<long long> base(slabs + 1, 0); std::vector<Csr> parts;
    for (int s = 0; s < slabs; ++s) {
      thrust::device_ptr<int> c(counts + s * (n + 1)); CK(cudaMemset(counts + s * (n + 1) + n, 0, 4)); count_slabs<<<1,1>>>(0,0,nullptr,1,0,nullptr);
    }
    count_slabs<<<g, 256>>>(n, per_row, col, slab_cols, slabs, counts);
    for (int s = 0; s < slabs; ++s) { CK(cudaMemset(counts + s * (n + 1) + n, 0, 4)); thrust::device_ptr<int> c(counts + s * (n + 1)); thrust::exclusive_scan(c, c + n + 1, c); int last; CK(cudaMemcpy(&last, counts + s * (n + 1) + n, 4, cudaMemcpyDeviceToHost)); base[s + 1] = base[s] + last; }
    long long* dbase; CK(cudaMalloc(&dbase, slabs * 8)); CK(cudaMemcpy(dbase, base.data(), slabs * 8, cudaMemcpyHostToDevice));
    int* scol; double* sval; CK(cudaMalloc(&scol, nnz * 4)); CK(cudaMalloc(&sval, nnz * 8));
    scatter_slabs<<<g, 256>>>(n, per_row, col, val, slab_cols, slabs, counts, dbase, scol, sval); CK(cudaDeviceSynchronize());
    for (int s = 0; s < slabs; ++s) parts.push_back(Csr{n, base[s + 1] - base[s], counts + s * (n + 1), scol + base[s], sval + base[s]});
    for (int coop : {1, 2, 4}) for (int stream = 0; stream < 2; ++stream) for (int fl = 1; fl >= 0; --fl) {
      auto r = time([&] { for (int s = 0; s < slabs; ++s) { if (stream) launch<true>(coop, parts[s], x, s ? 1.0 : 0.0, y); else launch<false>(coop, parts[s], x, s ? 1.0 : 0.0, y); } }, fl);
      printf("slabs %d (x %.1f MB) coop%d stream%d flush%d: %.3f ms %.1f GFLOP/s err %.1e\n", slabs, slab_cols * 8 / 1e6, coop, stream, fl, r.first, 2.0 * nnz / r.first / 1e6, r.second);
    }
    cudaFree(counts); cudaFree(dbase); cudaFree(scol); cudaFree(sval);
  }
  CK(cudaGetLastError()); return 0;
}
