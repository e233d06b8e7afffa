#pragma once
// The compile-time half of the format registry (formats/format.hpp): each
// format's container and its conversion from CSR. A backend's plan builds
// FormatStorage<F>::from_csr for the format asked (and reports bytes and
// stored entries through it); a Format without a
// specialization here fails to compile there.
#include "hsparse/formats/bcsr.hpp"
#include "hsparse/formats/convert.hpp"
#include "hsparse/formats/csr16.hpp"
#include "hsparse/formats/dia.hpp"
#include "hsparse/formats/ell.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/formats/hyb.hpp"
#include "hsparse/formats/sell_c_sigma.hpp"

namespace hsparse {

template <Format F>
struct FormatStorage;  // declared only: every format specializes it below

template <>
struct FormatStorage<Format::coo> {
  template <class V, class I> using type = Coo<V, I>;
  // Bytes kept (values, indices, offsets) and values stored (padding and fill included).
  template <class V, class I> static std::size_t bytes(const Coo<V, I>& a) { return a.nnz() * (sizeof(V) + 2 * sizeof(I)); }
  template <class V, class I> static std::size_t stored(const Coo<V, I>& a) { return a.nnz(); }
  template <class V, class I>
  static Coo<V, I> from_csr(const Csr<V, I>& a, const FormatOptions&) { return csr_to_coo(a); }
};

template <>
struct FormatStorage<Format::csr> {
  template <class V, class I> using type = Csr<V, I>;
  // Bytes kept (values, indices, offsets) and values stored (padding and fill included).
  template <class V, class I> static std::size_t bytes(const Csr<V, I>& a) { return a.bytes(); }
  template <class V, class I> static std::size_t stored(const Csr<V, I>& a) { return a.nnz(); }
  template <class V, class I>
  static Csr<V, I> from_csr(const Csr<V, I>& a, const FormatOptions&) { return a; }
};

template <>
struct FormatStorage<Format::ell> {
  template <class V, class I> using type = Ell<V, I>;
  // Bytes kept (values, indices, offsets) and values stored (padding and fill included).
  template <class V, class I> static std::size_t bytes(const Ell<V, I>& a) { return a.bytes(); }
  template <class V, class I> static std::size_t stored(const Ell<V, I>& a) { return a.stored(); }
  template <class V, class I>
  static Ell<V, I> from_csr(const Csr<V, I>& a, const FormatOptions& o) {
    return ell_from_csr(a, static_cast<I>(o.row_alignment), fill_limit(Format::ell, o));
  }
};

template <>
struct FormatStorage<Format::hyb> {
  template <class V, class I> using type = Hyb<V, I>;
  // Bytes kept (values, indices, offsets) and values stored (padding and fill included).
  template <class V, class I> static std::size_t bytes(const Hyb<V, I>& a) { return a.bytes(); }
  template <class V, class I> static std::size_t stored(const Hyb<V, I>& a) { return a.ell.stored() + a.coo.nnz(); }
  template <class V, class I>
  static Hyb<V, I> from_csr(const Csr<V, I>& a, const FormatOptions& o) {
    std::optional<I> width;
    if (o.hyb_width) width = static_cast<I>(*o.hyb_width);
    return hyb_from_csr(a, width, static_cast<I>(o.row_alignment));
  }
};

template <>
struct FormatStorage<Format::dia> {
  template <class V, class I> using type = Dia<V, I>;
  // Bytes kept (values, indices, offsets) and values stored (padding and fill included).
  template <class V, class I> static std::size_t bytes(const Dia<V, I>& a) { return a.bytes(); }
  template <class V, class I> static std::size_t stored(const Dia<V, I>& a) { return a.values.size(); }
  template <class V, class I>
  static Dia<V, I> from_csr(const Csr<V, I>& a, const FormatOptions& o) { return dia_from_csr(a, fill_limit(Format::dia, o)); }
};

template <>
struct FormatStorage<Format::bcsr> {
  template <class V, class I> using type = Bcsr<V, I>;
  // Bytes kept (values, indices, offsets) and values stored (padding and fill included).
  template <class V, class I> static std::size_t bytes(const Bcsr<V, I>& a) { return a.bytes(); }
  template <class V, class I> static std::size_t stored(const Bcsr<V, I>& a) { return a.values.size(); }
  template <class V, class I>
  static Bcsr<V, I> from_csr(const Csr<V, I>& a, const FormatOptions& o) {
    return bcsr_from_csr(a, o.block > 0 ? o.block : best_bcsr_block(a), o.align_blocks, fill_limit(Format::bcsr, o));
  }
};

template <>
struct FormatStorage<Format::sell> {
  template <class V, class I> using type = SellCSigma<V, I>;
  // Bytes kept (values, indices, offsets) and values stored (padding and fill included).
  template <class V, class I> static std::size_t bytes(const SellCSigma<V, I>& a) { return a.bytes(); }
  template <class V, class I> static std::size_t stored(const SellCSigma<V, I>& a) { return a.values.size(); }
  // chunk and sigma must be set (the backend fills its defaults first).
  template <class V, class I>
  static SellCSigma<V, I> from_csr(const Csr<V, I>& a, const FormatOptions& o) {
    return sell_from_csr(a, SellOptions{o.chunk, o.sigma, false});
  }
};

template <>
struct FormatStorage<Format::csr16> {
  template <class V, class I> using type = Csr16<V, I>;
  // Bytes kept (values, indices, offsets) and values stored (padding and fill included).
  template <class V, class I> static std::size_t bytes(const Csr16<V, I>& a) { return a.bytes(); }
  template <class V, class I> static std::size_t stored(const Csr16<V, I>& a) { return a.nnz(); }
  template <class V, class I>
  static Csr16<V, I> from_csr(const Csr<V, I>& a, const FormatOptions&) { return csr16_from_csr(a); }
};

template <>
struct FormatStorage<Format::csr16_single> {
  template <class V, class I> using type = Csr16<single_t<V>, I>;
  template <class V, class I> static std::size_t bytes(const Csr16<V, I>& a) { return a.bytes(); }
  template <class V, class I> static std::size_t stored(const Csr16<V, I>& a) { return a.nnz(); }
  template <class V, class I>
  static Csr16<single_t<V>, I> from_csr(const Csr<V, I>& a, const FormatOptions&) { return csr16_single_from_csr(a); }
};

}  // namespace hsparse
