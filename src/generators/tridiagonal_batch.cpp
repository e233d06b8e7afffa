#include "hsparse/generators/tridiagonal_batch.hpp"

#include <cmath>

#include "hsparse/core/error.hpp"
#include "hsparse/generators/hash.hpp"

namespace hsparse::generators {

template <class V>
TridiagonalBatch<V> random_tridiagonal_batch(long long size, long long count, TridiagonalLayout layout, std::uint64_t seed, double margin) {
  TridiagonalBatch<V> t;
  t.size = size;
  t.count = count;
  t.layout = layout;
  if (size < 0 || count < 0 || (size > 0 && count > (1LL << 40) / size)) {
    throw Error(ErrorCode::invalid_argument, "tridiagonal batch: " + std::to_string(size) + " x " + std::to_string(count) + " is not a batch this generator makes");
  }
  const auto n = static_cast<std::size_t>(size * count);
  t.a.resize(n);
  t.b.resize(n);
  t.c.resize(n);
  t.d.resize(n);
  const auto s = TridiagonalSystems<V>{size, count, layout, nullptr, nullptr, nullptr};
#pragma omp parallel for schedule(static)
  for (long long k = 0; k < count; ++k) {
    for (long long i = 0; i < size; ++i) {
      const auto j = static_cast<std::size_t>(s.index(k, i));
      const auto row = static_cast<std::uint64_t>(k * size + i);
      const double a = i > 0 ? 2 * hash_uniform(seed, row, 1) - 1 : 0.0;
      const double c = i + 1 < size ? 2 * hash_uniform(seed, row, 2) - 1 : 0.0;
      const double sign = hash_uniform(seed, row, 3) < 0.5 ? -1.0 : 1.0;
      t.a[j] = static_cast<V>(a);
      t.c[j] = static_cast<V>(c);
      t.b[j] = static_cast<V>(sign * ((std::abs(a) + std::abs(c)) * (1 + margin) + margin));
      t.d[j] = static_cast<V>(2 * hash_uniform(seed, row, 4) - 1);
    }
  }
  return t;
}

template TridiagonalBatch<float> random_tridiagonal_batch(long long, long long, TridiagonalLayout, std::uint64_t, double);
template TridiagonalBatch<double> random_tridiagonal_batch(long long, long long, TridiagonalLayout, std::uint64_t, double);

}  // namespace hsparse::generators
