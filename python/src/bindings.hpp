#pragma once
// The Python module's shared pieces (issue 20): the matrix it holds (any
// value and index type, io::AnyCsr), buffers in and out through the buffer
// protocol (so one build is not tied to one NumPy ABI), and the dispatch on
// a matrix's types. Each binding file registers its part of `_hsparse`.
#include <pybind11/pybind11.h>

#include <complex>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <variant>

#include "hsparse/core/error.hpp"
#include "hsparse/io/matrix_source.hpp"

namespace hsparse {
struct SolverResult;  // solvers/krylov.hpp
}  // namespace hsparse

namespace hsparse::python {

namespace py = pybind11;

/// A matrix held by Python: immutable once made, shared by the plans made
/// from it (a tuning handle reads it while it tunes).
struct Matrix {
  std::shared_ptr<const io::AnyCsr> csr;
};

/// "float64", "complex64", ...: NumPy's name of a value type.
template <class V>
const char* dtype_name();

/// Whether a buffer holds T: its item size and its format's kind of number
/// (the spellings of NumPy and pybind11 differ: "l" or "q", "Zd").
template <class T>
bool buffer_holds(const py::buffer_info& info);

/// A contiguous 1-D buffer of T with `n` entries (n < 0: any length), else
/// ValueError/TypeError naming `what` (the Python side converts before
/// calling, so this is the last line of defence).
template <class T>
std::span<T> as_span(const py::buffer_info& info, long long n, const char* what);

/// A solve's report as hsparse.SolveInfo's fields (solvers.cpp), with
/// `total_seconds` the whole call's time.
py::dict solver_report(const SolverResult& result, double total_seconds);

/// Registration of each part of the module.
void register_errors(py::module_& m);
void register_matrix(py::module_& m);
void register_device_arrays(py::module_& m);
void register_plan(py::module_& m);
void register_solvers(py::module_& m);
void register_preconditioners(py::module_& m);
void register_tridiagonal(py::module_& m);
void register_bench(py::module_& m);
void register_distributed(py::module_& m);

}  // namespace hsparse::python
