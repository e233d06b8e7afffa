#pragma once
/// @file
/// How the padded formats tell a padded slot from an entry whose value is
/// zero, so that a product keeps IEEE semantics: a padded slot is not an
/// entry and contributes nothing, whatever x holds there, while an entry
/// stored as 0 (an explicit zero in the file, as scipy keeps it) gives
/// 0 * x, which is NaN where x is NaN or infinite.
///
/// The rule, one place for every padded layout (ELL and HYB's ELL part,
/// SELL-C-sigma, DIA, block CSR's block fill) and every backend:
///  - a padded slot holds +0 with every bit zero, which is what zero-filled
///    allocations (value-initialised vectors, cudaMemset) already give;
///  - an entry whose value is zero is stored with its sign bit set (-0), by
///    stored_entry() at the conversion's scatter;
///  - a kernel's fast loop multiplies every slot, padding included: a padded
///    slot times a finite x adds +-0, which leaves every sum unchanged (sums
///    start at +0, and +0 + -0 is +0). A padded slot can change a row only
///    by making it NaN, so a row whose sum is not finite (is_finite_value)
///    is summed again without its padded slots (entry_product). That costs
///    one test per row, where a select per slot cost the DIA and BCSR
///    kernels up to a third of their speed
///    (docs/results/2026-11-28-padding-ieee/).
/// Storing an entry's +0 as -0 changes no result: a zero entry times a finite
/// x adds nothing either way; times NaN or infinity it gives NaN either way.
#include <cstring>
#include <type_traits>

#include "hsparse/core/host_device.hpp"

namespace hsparse {

/// True when every bit of v is zero: a padded slot (see the file description).
template <class V>
HSPARSE_HOST_DEVICE inline bool is_padding(const V& v) {
  static_assert(std::is_trivially_copyable_v<V> && (sizeof(V) == 4 || sizeof(V) == 8 || sizeof(V) == 16),
                "is_padding: a float, double or complex value type");
  if constexpr (sizeof(V) == 4) {
    unsigned int bits;
    std::memcpy(&bits, &v, 4);
    return bits == 0u;
  } else if constexpr (sizeof(V) == 8) {
    unsigned long long bits;
    std::memcpy(&bits, &v, 8);
    return bits == 0ull;
  } else {
    unsigned long long bits[2];
    std::memcpy(bits, &v, 16);
    return (bits[0] | bits[1]) == 0ull;
  }
}

/// The value an entry is stored as in a padded layout: v itself, except an
/// all-bits-zero +0, which becomes -0 so that is_padding() is false for it.
template <class V>
HSPARSE_HOST_DEVICE inline V stored_entry(const V& v) {
  if (!is_padding(v)) return v;
  V negative_zero = v;
  // The sign bit of a float or double, and of each part of a complex value
  // (its parts are two reals, real part first).
  constexpr std::size_t part = sizeof(V) == 16 || (sizeof(V) == 8 && !std::is_floating_point_v<V>) ? sizeof(V) / 2 : sizeof(V);
  unsigned char* bytes = reinterpret_cast<unsigned char*>(&negative_zero);
  for (std::size_t p = part - 1; p < sizeof(V); p += part) bytes[p] = 0x80;  // little-endian: the sign is the top bit of the last byte
  return negative_zero;
}

/// What a slot adds to its row: 0 for a padded slot, v * x for an entry.
template <class V>
HSPARSE_HOST_DEVICE inline V entry_product(const V& v, const V& x) {
  return is_padding(v) ? V(0) : v * x;
}

/// False for NaN and infinity (in either part of a complex value): the
/// exponent's bits all set. A bit test, the same on the host and the device.
template <class V>
HSPARSE_HOST_DEVICE inline bool is_finite_value(const V& v) {
  if constexpr (sizeof(V) == 4 || (sizeof(V) == 8 && !std::is_floating_point_v<V>)) {  // float, complex<float>
    unsigned int bits[sizeof(V) / 4];
    std::memcpy(bits, &v, sizeof(V));
    for (unsigned int b : bits) {
      if ((b & 0x7f800000u) == 0x7f800000u) return false;
    }
    return true;
  } else {  // double, complex<double>
    unsigned long long bits[sizeof(V) / 8];
    std::memcpy(bits, &v, sizeof(V));
    for (unsigned long long b : bits) {
      if ((b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull) return false;
    }
    return true;
  }
}

}  // namespace hsparse
