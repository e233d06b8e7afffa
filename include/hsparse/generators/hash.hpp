#pragma once
// Counter-based randomness of the generators: a pure function of (seed, a, b),
// identical on every platform and thread count.
#include <cstdint>

namespace hsparse::generators {

// splitmix64 finaliser: a good 64-bit mix, the basis of all generator randomness.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
inline std::uint64_t hash3(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  return mix64(mix64(mix64(seed) ^ a) ^ b);
}
// Uniform in [0, 1).
inline double hash_uniform(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  return static_cast<double>(hash3(seed, a, b) >> 11) * 0x1.0p-53;
}

}  // namespace hsparse::generators
