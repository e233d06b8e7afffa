// CSR -> COO / ELL / HYB / DIA on the device (see device_conversions.hpp).
// COO: a warp per row writes the row index over the row's entries; columns
// and values are device-to-device copies. ELL: a thread per (padded) row
// writes slot k of its row at k * padded_rows + r, so a warp's writes are
// coalesced (the host loop's strided writes are what made it slow). HYB:
// the same ELL fill with the width capped, and a thread per row copying
// the entries past the width to the COO tail at offsets scanned on the host;
// tails longer than kLongTail go in pieces of kTailPiece entries, a block
// each (a thread alone copied circuit's 950 000-entry hub row: HYB's setup
// was 0.258 s against CSR's 0.131 on circuit n = 1e7, H100).
#include <algorithm>
#include <cfloat>
#include <climits>
#include <optional>
#include <vector>

#include "device_common.cuh"
#include "hsparse/backends/cuda/device_conversions.hpp"
#include "hsparse/formats/bcsr.hpp"
#include "hsparse/formats/csr16.hpp"
#include "hsparse/formats/dia.hpp"
#include "hsparse/formats/dia_tiles.hpp"
#include "hsparse/formats/padding.hpp"
#include "hsparse/formats/sell_c_sigma.hpp"

namespace hsparse::cuda {

namespace {

template <class I>
__global__ void expand_rows_kernel(long long rows, const I* __restrict__ row_ptr, I* __restrict__ row_idx) {
  const long long r = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32;
  if (r >= rows) return;
  const long long end = row_ptr[r + 1];
  for (long long k = row_ptr[r] + threadIdx.x % 32; k < end; k += 32) row_idx[k] = static_cast<I>(r);
}

template <class V, class I>
__global__ void ell_fill_kernel(long long rows, long long padded_rows, long long width, const I* __restrict__ row_ptr,
                                const I* __restrict__ col_idx, const V* __restrict__ values, I* __restrict__ ell_col,
                                V* __restrict__ ell_val, I* __restrict__ row_len) {
  const long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (r >= padded_rows) return;
  const long long begin = r < rows ? row_ptr[r] : 0;
  const long long full = r < rows ? row_ptr[r + 1] - begin : 0;
  const long long len = full < width ? full : width;
  // Padding repeats the row's last real column (column 0 for an empty row), value 0 (ell.hpp).
  const I pad_col = len > 0 ? col_idx[begin + len - 1] : I(0);
  if (r < rows) row_len[r] = static_cast<I>(len);
  for (long long k = 0; k < width; ++k) {
    const long long slot = k * padded_rows + r;
    ell_col[slot] = k < len ? col_idx[begin + k] : pad_col;
    ell_val[slot] = k < len ? stored_entry(values[begin + k]) : V(0);  // formats/padding.hpp
  }
}

constexpr long long kLongTail = 1024, kTailPiece = 16384;

template <class V, class I>
__global__ void hyb_tail_kernel(long long rows, long long width, const I* __restrict__ row_ptr, const I* __restrict__ col_idx,
                                const V* __restrict__ values, const I* __restrict__ offset, I* __restrict__ coo_row,
                                I* __restrict__ coo_col, V* __restrict__ coo_val) {
  const long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (r >= rows) return;
  if (row_ptr[r + 1] - row_ptr[r] - width > kLongTail) return;  // hyb_long_tail_kernel's
  long long out = offset[r];
  for (long long j = row_ptr[r] + width; j < row_ptr[r + 1]; ++j, ++out) {
    coo_row[out] = static_cast<I>(r);
    coo_col[out] = col_idx[j];
    coo_val[out] = values[j];
  }
}

// pieces: (row, first entry, end) per block; the entries go to the tail at offset[row] + (j - row start - width).
template <class V, class I>
__global__ void hyb_long_tail_kernel(const long long* __restrict__ pieces, long long width, const I* __restrict__ row_ptr,
                                     const I* __restrict__ col_idx, const V* __restrict__ values, const I* __restrict__ offset,
                                     I* __restrict__ coo_row, I* __restrict__ coo_col, V* __restrict__ coo_val) {
  const long long* p = pieces + 3 * static_cast<long long>(blockIdx.x);
  const long long r = p[0], end = p[2];
  const long long shift = static_cast<long long>(offset[r]) - (static_cast<long long>(row_ptr[r]) + width);
  for (long long j = p[1] + threadIdx.x; j < end; j += blockDim.x) {
    coo_row[j + shift] = static_cast<I>(r);
    coo_col[j + shift] = col_idx[j];
    coo_val[j + shift] = values[j];
  }
}

// DIA: the slot of each present diagonal, then a thread per row scatters
// its entries into its slots of every diagonal, in DeviceDia's tiles
// (values and the last tile's padding zeroed first).
template <class I>
__global__ void dia_index_kernel(long long count, long long rows, const I* __restrict__ offsets, I* __restrict__ diagonal_of) {
  const long long d = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (d < count) diagonal_of[offsets[d] + rows] = static_cast<I>(d);
}

template <class V, class I>
__global__ void dia_fill_kernel(long long rows, long long diagonals, const I* __restrict__ row_ptr, const I* __restrict__ col_idx,
                                const V* __restrict__ values, const I* __restrict__ diagonal_of, V* __restrict__ dia_values) {
  const long long r = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (r >= rows) return;
  for (long long k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
    const long long d = diagonal_of[static_cast<long long>(col_idx[k]) - r + rows];
    dia_values[dia_tiled_slot(r, d, diagonals)] = stored_entry(values[k]);  // DeviceDia's tiles
  }
}

// SELL-C-sigma: a thread per row slot of a chunk (sorted row i = c * C + j),
// writing its chunk's width of slots k * C + j: a warp's stores at each k
// are consecutive. Padding as the host conversion's (sell_from_csr): value
// 0 and the row's last column (column 0 for an empty row).
template <class V, class I>
__global__ void sell_fill_kernel(long long padded_rows, long long rows, int chunk, const I* __restrict__ perm, const I* __restrict__ chunk_ptr,
                                 const I* __restrict__ chunk_len, const I* __restrict__ row_ptr, const I* __restrict__ col_idx,
                                 const V* __restrict__ values, I* __restrict__ sell_col, V* __restrict__ sell_values) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= padded_rows) return;
  const long long c = i / chunk, j = i - c * chunk;
  long long begin = 0, length = 0;
  if (i < rows) {
    const long long source = perm[i];
    begin = row_ptr[source];
    length = row_ptr[source + 1] - begin;
  }
  const I pad_column = length > 0 ? col_idx[begin + length - 1] : I(0);
  const long long width = chunk_len[c];
  I* const out_col = sell_col + chunk_ptr[c] + j;
  V* const out_value = sell_values + chunk_ptr[c] + j;
  for (long long k = 0; k < width; ++k) {
    out_col[k * chunk] = k < length ? col_idx[begin + k] : pad_column;
    out_value[k * chunk] = k < length ? stored_entry(values[begin + k]) : V{};  // formats/padding.hpp
  }
}

// BCSR: a warp per row, its lanes striding over the row's entries; each
// entry finds its block among its block row's sorted block columns (binary
// search) and lands at the host conversion's place (column-major inside the
// block). A thread per row took 2.2 s on circuit's 950 000-entry hub rows at
// b = 1 (H100), twice the host conversion.
template <class V, class I>
__global__ void bcsr_fill_kernel(long long rows, int block, std::size_t block_stride, const I* __restrict__ row_ptr,
                                 const I* __restrict__ col_idx, const V* __restrict__ values, const I* __restrict__ block_row_ptr,
                                 const I* __restrict__ block_col, V* __restrict__ block_values) {
  const long long r = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32;
  if (r >= rows) return;
  const long long br = r / block, i = r - br * block;
  const long long first = block_row_ptr[br], last = block_row_ptr[br + 1];
  for (long long k = row_ptr[r] + threadIdx.x % 32; k < row_ptr[r + 1]; k += 32) {
    const long long c = col_idx[k], bc = c / block;
    long long lo = first, hi = last;  // the first block column >= bc: it is bc (the pattern holds every entry's block)
    while (lo < hi) {
      const long long mid = (lo + hi) / 2;
      if (block_col[mid] < bc) lo = mid + 1;
      else hi = mid;
    }
    block_values[static_cast<std::size_t>(lo) * block_stride + static_cast<std::size_t>((c - bc * block) * block + i)] = stored_entry(values[k]);
  }
}

// CSR16: a warp per row writes its base (its first column; 0 for an empty
// row, as the host conversion) and each entry's offset from it.
template <class I>
__global__ void csr16_offsets_kernel(long long rows, const I* __restrict__ row_ptr, const I* __restrict__ col_idx, I* __restrict__ base,
                                     std::uint16_t* __restrict__ offset) {
  const long long r = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32;
  if (r >= rows) return;
  const long long b = row_ptr[r], e = row_ptr[r + 1];
  const I first = b < e ? col_idx[b] : I(0);
  if (threadIdx.x % 32 == 0) base[r] = first;
  for (long long k = b + threadIdx.x % 32; k < e; k += 32) offset[k] = static_cast<std::uint16_t>(col_idx[k] - first);
}

// csr16-single's values: rounded to float; *over set where one exceeds
// float's range (the host conversion refuses such a matrix).
__global__ void round_to_single_kernel(long long n, const double* __restrict__ in, float* __restrict__ out, int* __restrict__ over) {
  for (long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; k < n; k += static_cast<long long>(gridDim.x) * blockDim.x) {
    const double v = in[k];
    if (fabs(v) > static_cast<double>(FLT_MAX)) *over = 1;
    out[k] = static_cast<float>(v);
  }
}

template <class T>
void copy_on_device(const Executor& ex, DeviceArray<T>& to, const DeviceArray<T>& from) {
  if (from.size() == 0) return;
  HSPARSE_CUDA_CHECK(cudaMemcpyAsync(to.data(), from.data(), from.size() * sizeof(T), cudaMemcpyDeviceToDevice, detail::stream_of(ex)));
}

template <class V, class I>
DeviceEll<V, I> ell_with_width(const Executor& ex, const DeviceCsr<V, I>& a, I width, I row_alignment) {
  if (row_alignment < 1) throw Error(ErrorCode::invalid_argument, "ELL: row alignment must be >= 1");
  DeviceEll<V, I> e;
  e.rows = a.rows;
  e.cols = a.cols;
  e.width = width;
  e.padded_rows = static_cast<I>((static_cast<long long>(a.rows) + row_alignment - 1) / row_alignment * row_alignment);
  const std::size_t slots = static_cast<std::size_t>(e.padded_rows) * static_cast<std::size_t>(width);
  e.col_idx = DeviceArray<I>(slots);
  e.values = DeviceArray<V>(slots);
  DeviceArray<I> row_len(static_cast<std::size_t>(a.rows));  // kept by the host format only; the kernel does not need it
  if (e.padded_rows > 0 && width > 0) {
    ell_fill_kernel<detail::device_t<V>, I><<<detail::grid_for(e.padded_rows, 256), 256, 0, detail::stream_of(ex)>>>(
        a.rows, e.padded_rows, width, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), e.col_idx.data(),
        detail::dev(e.values.data()), row_len.data());
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
  ex.synchronize();  // row_len is freed on return
  return e;
}

}  // namespace

template <class V, class I>
DeviceCoo<V, I> coo_from_device_csr(const Executor& ex, const DeviceCsr<V, I>& a) {
  DeviceCoo<V, I> c{a.rows, a.cols, DeviceArray<I>(a.nnz()), DeviceArray<I>(a.nnz()), DeviceArray<V>(a.nnz())};
  copy_on_device(ex, c.col_idx, a.col_idx);
  copy_on_device(ex, c.values, a.values);
  if (a.rows > 0 && a.nnz() > 0) {
    expand_rows_kernel<I><<<detail::grid_for(32LL * a.rows, 256), 256, 0, detail::stream_of(ex)>>>(a.rows, a.row_ptr.data(),
                                                                                                   c.row_idx.data());
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
  return c;
}

template <class V, class I>
DeviceEll<V, I> ell_from_device_csr(const Executor& ex, const Csr<V, I>& host, const DeviceCsr<V, I>& a, I row_alignment,
                                    double max_fill) {
  return ell_with_width(ex, a, hsparse::detail::ell_width_within_fill(host, row_alignment, max_fill), row_alignment);
}

template <class V, class I>
DeviceHyb<V, I> hyb_from_device_csr(const Executor& ex, const Csr<V, I>& host, const DeviceCsr<V, I>& a, std::optional<I> width,
                                    I row_alignment) {
  const I k = hsparse::detail::hyb_width(host, width);
  DeviceHyb<V, I> h{ell_with_width(ex, a, k, row_alignment), DeviceCoo<V, I>{a.rows, a.cols, {}, {}, {}}};
  std::vector<I> offset(static_cast<std::size_t>(a.rows) + 1, 0);
  std::vector<long long> pieces;  // long tails: (row, first entry, end) per kTailPiece entries
  for (I r = 0; r < host.rows; ++r) {
    const I tail = std::max<I>(0, host.row_ptr[r + 1] - host.row_ptr[r] - k);
    offset[r + 1] = offset[r] + tail;
    if (tail <= kLongTail) continue;
    for (long long j = static_cast<long long>(host.row_ptr[r]) + k; j < host.row_ptr[r + 1]; j += kTailPiece)
      pieces.insert(pieces.end(), {static_cast<long long>(r), j, std::min<long long>(j + kTailPiece, host.row_ptr[r + 1])});
  }
  const auto extra = static_cast<std::size_t>(offset.back());
  if (extra == 0) return h;
  h.coo.row_idx = DeviceArray<I>(extra);
  h.coo.col_idx = DeviceArray<I>(extra);
  h.coo.values = DeviceArray<V>(extra);
  const DeviceArray<I> d_offset(offset);
  hyb_tail_kernel<detail::device_t<V>, I><<<detail::grid_for(a.rows, 256), 256, 0, detail::stream_of(ex)>>>(
      a.rows, k, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), d_offset.data(), h.coo.row_idx.data(),
      h.coo.col_idx.data(), detail::dev(h.coo.values.data()));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  const DeviceArray<long long> d_pieces(pieces);
  if (!pieces.empty()) {
    hyb_long_tail_kernel<detail::device_t<V>, I><<<static_cast<unsigned>(pieces.size() / 3), 256, 0, detail::stream_of(ex)>>>(
        d_pieces.data(), k, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), d_offset.data(), h.coo.row_idx.data(),
        h.coo.col_idx.data(), detail::dev(h.coo.values.data()));
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
  ex.synchronize();  // d_offset and d_pieces are freed on return
  return h;
}

template <class V, class I>
DeviceDia<V, I> dia_from_device_csr(const Executor& ex, const Csr<V, I>& host, const DeviceCsr<V, I>& a, double max_fill) {
  const std::vector<I> offsets = dia_offsets(host, max_fill);  // the host conversion's diagonals and refusal
  const auto diagonals = static_cast<long long>(offsets.size());
  DeviceDia<V, I> d{a.rows, a.cols, DeviceArray<I>(offsets), DeviceArray<V>(static_cast<std::size_t>(diagonals * dia_tiled_rows(a.rows)))};
  if (d.values.size() == 0) return d;
  HSPARSE_CUDA_CHECK(cudaMemsetAsync(d.values.data(), 0, d.values.size() * sizeof(V), detail::stream_of(ex)));  // V(0) is all zero bits: padding (formats/padding.hpp)
  // Only the present diagonals' slots are written, and only they are read.
  DeviceArray<I> diagonal_of(static_cast<std::size_t>(a.rows) + static_cast<std::size_t>(a.cols));
  dia_index_kernel<I><<<detail::grid_for(static_cast<long long>(offsets.size()), 256), 256, 0, detail::stream_of(ex)>>>(
      static_cast<long long>(offsets.size()), a.rows, d.offsets.data(), diagonal_of.data());
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  dia_fill_kernel<detail::device_t<V>, I><<<detail::grid_for(a.rows, 256), 256, 0, detail::stream_of(ex)>>>(
      a.rows, diagonals, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), diagonal_of.data(), detail::dev(d.values.data()));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  ex.synchronize();  // diagonal_of is freed on return
  return d;
}

template <class V, class I>
DeviceSell<V, I> sell_from_device_csr(const Executor& ex, SellCSigma<V, I>&& layout, const DeviceCsr<V, I>& a) {
  if (layout.permuted_columns) throw Error(ErrorCode::invalid_argument, "SELL-C-sigma on the device: permuted columns are converted on the host");
  if (layout.rows != a.rows || layout.cols != a.cols || layout.nnz != a.nnz() || layout.chunk_ptr.empty()) {
    throw Error(ErrorCode::invalid_argument, "SELL-C-sigma on the device: the layout (" + std::to_string(layout.rows) + " x " +
                                                 std::to_string(layout.cols) + ", " + std::to_string(layout.nnz) + " entries) is not the CSR's (" +
                                                 std::to_string(a.rows) + " x " + std::to_string(a.cols) + ", " + std::to_string(a.nnz()) + ")");
  }
  const auto slots = static_cast<std::size_t>(layout.chunk_ptr.back());
  DeviceSell<V, I> d{layout.rows, layout.cols, layout.chunk, false, layout.sigma == 1, DeviceArray<I>(layout.chunk_ptr),
                     DeviceArray<I>(layout.chunk_len), DeviceArray<I>(layout.row_len), DeviceArray<I>(layout.perm), DeviceArray<I>(slots),
                     DeviceArray<V>(slots), layout.nnz};
  const long long padded_rows = static_cast<long long>(layout.chunks()) * layout.chunk;
  if (slots > 0) {
    sell_fill_kernel<detail::device_t<V>, I><<<detail::grid_for(padded_rows, 256), 256, 0, detail::stream_of(ex)>>>(
        padded_rows, static_cast<long long>(layout.rows), layout.chunk, d.perm.data(), d.chunk_ptr.data(), d.chunk_len.data(), a.row_ptr.data(),
        a.col_idx.data(), detail::dev(a.values.data()), d.col_idx.data(), detail::dev(d.values.data()));
    HSPARSE_CUDA_CHECK(cudaGetLastError());
  }
  ex.synchronize();  // the caller may free the staged CSR on return
  return d;
}

template <class V, class I>
DeviceBcsr<V, I> bcsr_from_device_csr(const Executor& ex, const Csr<V, I>& host, const DeviceCsr<V, I>& a, int block, bool align_blocks_64,
                                      double max_fill) {
  const Bcsr<V, I> pattern = bcsr_pattern(host, block, align_blocks_64, max_fill);  // the host conversion's blocks and refusal
  DeviceBcsr<V, I> b{pattern.rows, pattern.cols, pattern.block_rows, pattern.block, pattern.block_stride, DeviceArray<I>(pattern.row_ptr),
                     DeviceArray<I>(pattern.col_idx), DeviceArray<V>(pattern.col_idx.size() * pattern.block_stride)};
  if (b.values.size() == 0) return b;
  HSPARSE_CUDA_CHECK(cudaMemsetAsync(b.values.data(), 0, b.values.size() * sizeof(V), detail::stream_of(ex)));  // V(0) is all zero bits: padding (formats/padding.hpp)
  bcsr_fill_kernel<detail::device_t<V>, I><<<detail::grid_for(32 * static_cast<long long>(a.rows), 256), 256, 0, detail::stream_of(ex)>>>(
      a.rows, block, b.block_stride, a.row_ptr.data(), a.col_idx.data(), detail::dev(a.values.data()), b.row_ptr.data(), b.col_idx.data(),
      detail::dev(b.values.data()));
  HSPARSE_CUDA_CHECK(cudaGetLastError());
  ex.synchronize();  // the caller may free the staged CSR on return
  return b;
}

template <class S, class V, class I>
std::optional<DeviceCsr16<S, I>> csr16_from_device_csr(const Executor& ex, const Csr<V, I>& host, DeviceCsr<V, I>&& a) {
  constexpr bool rounds = !std::is_same_v<S, V>;
  if constexpr (rounds && !std::is_same_v<V, double>) {
    return std::nullopt;  // complex single values: the host conversion
  } else {
    if (csr16_wide_row_count(host) > 0) return std::nullopt;
    DeviceCsr16<S, I> d{a.rows, a.cols, std::move(a.row_ptr), DeviceArray<I>(static_cast<std::size_t>(a.rows)),
                        DeviceArray<std::uint16_t>(a.col_idx.size()), {}, std::nullopt, {}};
    if (a.rows > 0) {
      csr16_offsets_kernel<I><<<detail::grid_for(32 * static_cast<long long>(a.rows), 256), 256, 0, detail::stream_of(ex)>>>(
          a.rows, d.row_ptr.data(), a.col_idx.data(), d.base.data(), d.offset.data());
      HSPARSE_CUDA_CHECK(cudaGetLastError());
    }
    if constexpr (rounds) {
      d.values = DeviceArray<float>(a.values.size());
      DeviceArray<int> over(std::vector<int>{0});
      if (a.values.size() > 0) {
        const long long n = static_cast<long long>(a.values.size());
        round_to_single_kernel<<<static_cast<unsigned>(std::min<long long>((n + 255) / 256, 65535)), 256, 0, detail::stream_of(ex)>>>(
            n, a.values.data(), d.values.data(), over.data());
        HSPARSE_CUDA_CHECK(cudaGetLastError());
      }
      ex.synchronize();
      if (over.download().front() != 0) return std::nullopt;  // the host conversion names the entry
    } else {
      d.values = std::move(a.values);
      ex.synchronize();  // a's columns are freed on return
    }
    return d;
  }
}

#define HSPARSE_INSTANTIATE_ALL(V, I) template DeviceCoo<V, I> coo_from_device_csr(const Executor&, const DeviceCsr<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE_ALL)
#undef HSPARSE_INSTANTIATE_ALL
#define HSPARSE_INSTANTIATE_REAL(V, I)                                                                                  \
  template DeviceEll<V, I> ell_from_device_csr(const Executor&, const Csr<V, I>&, const DeviceCsr<V, I>&, I, double); \
  template DeviceHyb<V, I> hyb_from_device_csr(const Executor&, const Csr<V, I>&, const DeviceCsr<V, I>&, std::optional<I>, I); \
  template DeviceDia<V, I> dia_from_device_csr(const Executor&, const Csr<V, I>&, const DeviceCsr<V, I>&, double); \
  template DeviceBcsr<V, I> bcsr_from_device_csr(const Executor&, const Csr<V, I>&, const DeviceCsr<V, I>&, int, bool, double); \
  template DeviceSell<V, I> sell_from_device_csr(const Executor&, SellCSigma<V, I>&&, const DeviceCsr<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE_REAL)
#undef HSPARSE_INSTANTIATE_REAL
#define HSPARSE_INSTANTIATE_CSR16(V, I) \
  template std::optional<DeviceCsr16<V, I>> csr16_from_device_csr(const Executor&, const Csr<V, I>&, DeviceCsr<V, I>&&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE_CSR16)
#undef HSPARSE_INSTANTIATE_CSR16
#define HSPARSE_INSTANTIATE_CSR16_SINGLE(V, S, I) \
  template std::optional<DeviceCsr16<S, I>> csr16_from_device_csr(const Executor&, const Csr<V, I>&, DeviceCsr<V, I>&&);
HSPARSE_FOR_EACH_DOUBLE_SINGLE_INDEX(HSPARSE_INSTANTIATE_CSR16_SINGLE)
#undef HSPARSE_INSTANTIATE_CSR16_SINGLE

}  // namespace hsparse::cuda
