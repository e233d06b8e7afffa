#pragma once
/// @file
/// The batched tridiagonal solvers of the CPU backends (Thomas' algorithm;
/// formats/tridiagonal_systems.hpp for the batch): the serial reference, the
/// definition every other solver is held to, and OpenMP over the systems.
/// solvers/tridiagonal.hpp's TridiagonalSolver is the entry point that
/// chooses between them and the GPU's.
#include <span>

#include "hsparse/formats/tridiagonal_systems.hpp"

namespace hsparse {

namespace reference {
/// Thomas' algorithm, one system after another, pivots and sums in V.
template <class V>
void tridiagonal_solve(const TridiagonalSystems<V>& s, std::span<const V> d, std::span<V> x);
}  // namespace reference

namespace openmp {
/// Thomas' algorithm, systems in parallel (one system: serial).
template <class V>
void tridiagonal_solve(const TridiagonalSystems<V>& s, std::span<const V> d, std::span<V> x);
}  // namespace openmp

}  // namespace hsparse
