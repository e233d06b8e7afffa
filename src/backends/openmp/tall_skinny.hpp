#pragma once
// The CPU's dot products of many columns (private to the OpenMP backend):
// out[a + b k] = sum_i v[a][i] w[b][i] over n rows, in double, rows in
// blocks that keep a block of every column in cache, thread partials added
// in thread order (deterministic). tall_skinny_dot (V^T W) and mdot (W one
// column) are both this.
namespace hsparse::openmp {
template <class T, class Acc>
void block_dots(const T* const* v, long long k, const T* const* w, long long l, long long n, Acc* out);
}  // namespace hsparse::openmp
