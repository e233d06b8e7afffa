#pragma once
/// @file
/// Value and index types hsparse is instantiated for, and their traits.
/// Templates are declared in headers and explicitly instantiated in the .cpp
/// files for exactly these types, so headers stay light (Ginkgo's approach).
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace hsparse {

/// True for std::complex value types.
template <class T> struct is_complex : std::false_type {};
/// std::complex<T> is complex.
template <class T> struct is_complex<std::complex<T>> : std::true_type {};
/// is_complex<T>::value.
template <class T> inline constexpr bool is_complex_v = is_complex<T>::value;

/// The real type of a value type: T itself, or R for std::complex<R>.
template <class T> struct real_type {
  using type = T;  ///< T
};
/// The real part's type of std::complex<T>.
template <class T> struct real_type<std::complex<T>> {
  using type = T;  ///< T
};
/// real_type<T>::type.
template <class T> using real_type_t = typename real_type<T>::type;

/// The single-precision counterpart of a value type (float for double,
/// complex<float> for complex<double>; single types map to themselves): the
/// stored values of the reduced-precision formats (issue 18).
template <class T> struct single_type {
  using type = float;  ///< float
};
/// complex<float> for complex types.
template <class T> struct single_type<std::complex<T>> {
  using type = std::complex<float>;  ///< complex<float>
};
/// single_type<T>::type.
template <class T> using single_t = typename single_type<T>::type;

/// The complex conjugate of v; v itself for real types.
template <class T> constexpr T conj_value(T v) {
  if constexpr (is_complex_v<T>) return std::conj(v); else return v;
}

/// Names used in messages, the binary format and benchmark output.
template <class T> constexpr const char* type_name();
/// @cond HSPARSE_SPECIALIZATIONS
template <> constexpr const char* type_name<float>() { return "float"; }
template <> constexpr const char* type_name<double>() { return "double"; }
template <> constexpr const char* type_name<std::complex<float>>() { return "complex<float>"; }
template <> constexpr const char* type_name<std::complex<double>>() { return "complex<double>"; }
template <> constexpr const char* type_name<std::int32_t>() { return "int32"; }
template <> constexpr const char* type_name<std::int64_t>() { return "int64"; }
/// @endcond

/// True when v (a non-negative count or size) fits the index type I.
template <class I> constexpr bool fits_index(std::uint64_t v) {
  return v <= static_cast<std::uint64_t>(std::numeric_limits<I>::max());
}

}  // namespace hsparse

// The single list of instantiated (value, index) pairs. A .cpp file defines
// HSPARSE_INSTANTIATE(V, I) and expands this list once.
/// X(V, I) for every instantiated (value, index) pair (for the library's
/// explicit instantiations; users need not expand it).
#define HSPARSE_FOR_EACH_VALUE_INDEX(X)  \
  X(float, std::int32_t)                 \
  X(float, std::int64_t)                 \
  X(double, std::int32_t)                \
  X(double, std::int64_t)                \
  X(std::complex<float>, std::int32_t)   \
  X(std::complex<float>, std::int64_t)   \
  X(std::complex<double>, std::int32_t)  \
  X(std::complex<double>, std::int64_t)

// The double value types with their single counterparts (single_t) and each
// index type: the kernels of the single-value formats (issue 18), whose
// stored type differs from the products' only for these.
/// X(V, S, I) for the double value types V with their single counterparts S.
#define HSPARSE_FOR_EACH_DOUBLE_SINGLE_INDEX(X)                      \
  X(double, float, std::int32_t)                                     \
  X(double, float, std::int64_t)                                     \
  X(std::complex<double>, std::complex<float>, std::int32_t)         \
  X(std::complex<double>, std::complex<float>, std::int64_t)

// The value types alone (dense kernels, which have no index type).
/// X(V) for every instantiated value type.
#define HSPARSE_FOR_EACH_VALUE(X) \
  X(float)                        \
  X(double)                       \
  X(std::complex<float>)          \
  X(std::complex<double>)

// Complex value types only (the solvers' complex instantiations).
/// X(V, I) for the complex value types.
#define HSPARSE_FOR_EACH_COMPLEX_VALUE_INDEX(X) \
  X(std::complex<float>, std::int32_t)          \
  X(std::complex<float>, std::int64_t)          \
  X(std::complex<double>, std::int32_t)         \
  X(std::complex<double>, std::int64_t)

// Real value types only: the formats whose kernels are float/double (ELL,
// HYB, DIA, BCSR, SELL-C-sigma); COO and CSR take every value type.
/// X(V, I) for the real value types (the formats without complex kernels).
#define HSPARSE_FOR_EACH_REAL_VALUE_INDEX(X) \
  X(float, std::int32_t)                     \
  X(float, std::int64_t)                     \
  X(double, std::int32_t)                    \
  X(double, std::int64_t)
