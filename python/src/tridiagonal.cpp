// hsparse.tridiagonal.solve's C++ side: a batch of tridiagonal systems
// (solvers/tridiagonal.hpp) by Thomas' algorithm on the CPU's threads, or on
// the GPU by cuda::TridiagonalSolver (Thomas, CR, PCR, the hybrid, the
// partition method) from host buffers (copied) or device pointers (CuPy).
#include "bindings.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/solvers/tridiagonal.hpp"
#ifdef HSPARSE_HAVE_CUDA
#include "hsparse/backends/cuda/tridiagonal.hpp"
#endif

namespace hsparse::python {

namespace {

TridiagonalLayout parse_layout(const std::string& layout) {
  if (layout == "contiguous") return TridiagonalLayout::contiguous;
  if (layout == "interleaved") return TridiagonalLayout::interleaved;
  throw py::value_error("layout: expected 'contiguous' or 'interleaved', got '" + layout + "'");
}

template <class V>
void solve_typed(long long size, long long count, TridiagonalLayout layout, const std::string& algorithm, const std::string& device,
                 const py::buffer_info& ai, const py::buffer_info& bi, const py::buffer_info& ci, const py::buffer_info& di, const py::buffer_info& xi,
                 std::string& description) {
  const long long n = size * count;
  const auto a = as_span<const V>(ai, n, "a"), b = as_span<const V>(bi, n, "b"), c = as_span<const V>(ci, n, "c"), d = as_span<const V>(di, n, "d");
  const auto x = as_span<V>(xi, n, "out");
  const ExecutorPtr ex = make_executor(device);
  py::gil_scoped_release release;
  if (ex->backend() == Backend::cpu) {
    if (algorithm != "auto" && algorithm != "thomas") throw Error(ErrorCode::invalid_argument, "algorithm: the CPU has 'thomas' only (got '" + algorithm + "')");
    const TridiagonalSystems<V> s{size, count, layout, a.data(), b.data(), c.data()};
    check_tridiagonal_shape(s);
    openmp::tridiagonal_solve(s, d, x);
    description = "thomas (openmp)";
    return;
  }
#ifdef HSPARSE_HAVE_CUDA
  const Array<V> ad(ex, a), bd(ex, b), cd(ex, c), dd(ex, d);
  Array<V> xd(ex, x.size());
  const TridiagonalSystems<V> s{size, count, layout, ad.data(), bd.data(), cd.data()};
  check_tridiagonal_shape(s);
  cuda::TridiagonalSolver<V> solver(cuda_executor(*ex, "a GPU tridiagonal solve"));
  cuda::TridiagonalOptions o;
  o.algorithm = algorithm == "auto" ? cuda::TridiagonalAlgorithm::automatic : cuda::parse_tridiagonal_algorithm(algorithm);
  solver.solve(s, dd.data(), xd.data(), o);
  solver.check();  // a zero pivot: the Error names its system and row
  description = solver.description();
  ex->copy_to_host(x.data(), xd.data(), x.size() * sizeof(V));
#else
  throw Error(ErrorCode::unsupported, "built without CUDA");
#endif
}

}  // namespace

void register_tridiagonal(py::module_& m) {
  m.def(
      "_tridiagonal_solve",
      [](long long size, long long count, const std::string& layout, const std::string& algorithm, const std::string& device, const py::buffer& a,
         const py::buffer& b, const py::buffer& c, const py::buffer& d, const py::buffer& x) {
        const auto ai = a.request(), bi = b.request(), ci = c.request(), di = d.request(), xi = x.request(true);
        std::string description;
        if (buffer_holds<double>(di)) {
          solve_typed<double>(size, count, parse_layout(layout), algorithm, device, ai, bi, ci, di, xi, description);
        } else if (buffer_holds<float>(di)) {
          solve_typed<float>(size, count, parse_layout(layout), algorithm, device, ai, bi, ci, di, xi, description);
        } else {
          throw py::type_error(std::string("d: expected float32 or float64 values, got buffer format '") + di.format + "'");
        }
        return description;
      },
      py::arg("size"), py::arg("count"), py::arg("layout"), py::arg("algorithm"), py::arg("device"), py::arg("a"), py::arg("b"), py::arg("c"),
      py::arg("d"), py::arg("out"), "Solves a batch of tridiagonal systems into out; returns what ran.");
}

}  // namespace hsparse::python
