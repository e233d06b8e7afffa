#pragma once
// CSR to COO, ELL, HYB, DIA, BCSR, SELL and CSR16 on the GPU. The host CSR supplies only O(rows)
// facts (row lengths: ELL's width and fill check, HYB's width and tail
// offsets; DIA's diagonals; BCSR's block pattern; SELL's layout); the O(nnz) work runs on the device from a DeviceCsr already
// uploaded. The results are identical, entry for entry, to the host
// conversions (formats/*.hpp), padding included, except DIA's values, which
// are in DeviceDia's tiles of rows (formats/dia_tiles.hpp). Measured against the host
// path in docs/results/2026-11-22-gpu-kernels-h200: uploading CSR and
// converting there beats converting on the host and uploading the result.
#include "hsparse/backends/cuda/device_formats.hpp"

namespace hsparse::cuda {

template <class V, class I>
DeviceCoo<V, I> coo_from_device_csr(const Executor& ex, const DeviceCsr<V, I>& a);

template <class V, class I>
DeviceEll<V, I> ell_from_device_csr(const Executor& ex, const Csr<V, I>& host, const DeviceCsr<V, I>& a, I row_alignment,
                                    double max_fill);

template <class V, class I>
DeviceHyb<V, I> hyb_from_device_csr(const Executor& ex, const Csr<V, I>& host, const DeviceCsr<V, I>& a, std::optional<I> width,
                                    I row_alignment);

// DIA: the diagonals (and the refusal beyond max_fill) from the host CSR
// (dia_offsets), the values scattered on the device.
template <class V, class I>
DeviceDia<V, I> dia_from_device_csr(const Executor& ex, const Csr<V, I>& host, const DeviceCsr<V, I>& a, double max_fill);

// BCSR: the block pattern (and the refusal beyond max_fill) from the host
// CSR (bcsr_pattern, O(nnz) index reads on the host's cores), the values
// zeroed and scattered on the device: the host conversion wrote every
// block value on one core's page faults and uploaded them.
template <class V, class I>
DeviceBcsr<V, I> bcsr_from_device_csr(const Executor& ex, const Csr<V, I>& host, const DeviceCsr<V, I>& a, int block, bool align_blocks_64,
                                      double max_fill);

// SELL-C-sigma: the layout (row order, chunk widths and offsets: O(rows),
// and the refusal of an offset overflow) from the host CSR (sell_layout),
// the entries and padding written on the device. Unpermuted columns only
// (the GPU plan's SELL); Error(invalid_argument) for a permuted layout.
// The host conversion wrote every slot on the host's cores and uploaded
// them: 0.14-0.28 s for the suite's 100-156 M entries on the H200's host,
// 3-6x CSR's setup (docs/results/2026-11-27-vector-dia-sell-kernels-h200).
template <class V, class I>
DeviceSell<V, I> sell_from_device_csr(const Executor& ex, SellCSigma<V, I>&& layout, const DeviceCsr<V, I>& a);

// CSR16 (S = V) and csr16-single (S = float, V = double): the row bases and
// 16-bit offsets computed on the device from the uploaded CSR, a warp per
// row; the values moved (S = V) or rounded on the device. std::nullopt where
// the host conversion must run instead: a row spans kCsr16Span columns or
// more (its wide part is split on the host), complex single values, or a
// value beyond single precision's range (the host conversion names it in
// its error). The host CSR is read for its row spans only, O(rows).
// The host conversion copied the values and wrote the offsets on the host's
// cores, then uploaded them: 1.1-2.0 s for 100-156 M entries on the H200's
// 16-core host, 20-40x CSR's own upload (docs/results/2026-11-27-csr-vector-bcsr-32bit-h200).
template <class S, class V, class I>
std::optional<DeviceCsr16<S, I>> csr16_from_device_csr(const Executor& ex, const Csr<V, I>& host, DeviceCsr<V, I>&& a);

}  // namespace hsparse::cuda
