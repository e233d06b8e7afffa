// CPU-only builds: the GPU triangular solves and factorisations
// (backends/cuda/triangular_solve.hpp) are absent; each entry point throws
// Error(unsupported) saying so, as no_device.cpp does for the rest of the
// CUDA backend.
#include <string>

#include "hsparse/backends/cuda/triangular_solve.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/core/types.hpp"

namespace hsparse::cuda {

namespace {
[[noreturn]] void absent(const char* what) {
  throw Error(ErrorCode::unsupported, std::string(what) + ": this hsparse was built without CUDA");
}
}  // namespace

template <class V, class I>
struct TriangularSolve<V, I>::State {};

template <class V, class I>
TriangularSolve<V, I>::TriangularSolve(const Executor&, const Csr<V, I>&, Triangle, bool, TriangularAlgorithm) {
  absent("a GPU triangular solve");
}
template <class V, class I> TriangularSolve<V, I>::~TriangularSolve() = default;
template <class V, class I> TriangularSolve<V, I>::TriangularSolve(TriangularSolve&&) noexcept = default;
template <class V, class I> TriangularSolve<V, I>& TriangularSolve<V, I>::operator=(TriangularSolve&&) noexcept = default;
template <class V, class I> void TriangularSolve<V, I>::solve(const V*, V*) const { absent("a GPU triangular solve"); }
template <class V, class I> TriangularAlgorithm TriangularSolve<V, I>::algorithm() const { absent("a GPU triangular solve"); }
template <class V, class I> std::int64_t TriangularSolve<V, I>::levels() const { absent("a GPU triangular solve"); }
template <class V, class I> std::int64_t TriangularSolve<V, I>::rows() const { absent("a GPU triangular solve"); }
template <class V, class I> std::size_t TriangularSolve<V, I>::bytes() const { absent("a GPU triangular solve"); }

template <class V, class I>
Csr<V, I> ilu0(const Executor&, const Csr<V, I>&) {
  absent("GPU ILU(0)");
}
template <class V, class I>
Csr<V, I> ic0(const Executor&, const Csr<V, I>&) {
  absent("GPU IC(0)");
}

#define HSPARSE_INSTANTIATE(V, I)                              \
  template class TriangularSolve<V, I>;                        \
  template Csr<V, I> ilu0(const Executor&, const Csr<V, I>&); \
  template Csr<V, I> ic0(const Executor&, const Csr<V, I>&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::cuda
