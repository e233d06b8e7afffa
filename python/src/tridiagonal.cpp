// hsparse.tridiagonal.solve's C++ side: a batch of tridiagonal systems by
// the library's one entry point (solvers/tridiagonal.hpp's TridiagonalSolver:
// Thomas on the CPU's threads; Thomas, CR, PCR, the hybrid or the partition
// method on the GPU), from host buffers (copied to a GPU) or device arrays
// (CuPy and any __cuda_array_interface__ object: no copies).
#include <array>

#include "bindings.hpp"
#include "device_array.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/solvers/tridiagonal.hpp"

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
  TridiagonalSolver<V> solver(ex);
  TridiagonalOptions o;
  o.algorithm = algorithm;  // refused there, naming the backend's, when it lacks it
  if (ex->backend() == Backend::cpu) {
    solver.solve({size, count, layout, a.data(), b.data(), c.data()}, d.data(), x.data(), o);
    description = solver.description();
    return;
  }
  const Array<V> ad(ex, a), bd(ex, b), cd(ex, c), dd(ex, d);
  Array<V> xd(ex, x.size());
  solver.solve({size, count, layout, ad.data(), bd.data(), cd.data()}, dd.data(), xd.data(), o);
  solver.check();  // a zero pivot: the Error names its system and row
  description = solver.description();
  ex->copy_to_host(x.data(), xd.data(), x.size() * sizeof(V));
}

// The same on device arrays (CuPy; no copies): a, b, c, d and out 2-D,
// C-contiguous, of one shape and type, read and checked here; out None: a
// new CuPy array. Ordered after the inputs' streams on the device; returns
// once solved (the zero-pivot check reads a flag back).
template <class V>
py::object solve_device_typed(TridiagonalLayout layout, const std::string& algorithm, const py::object& ao, const py::object& bo,
                              const py::object& co, const py::object& d_o, py::object out, std::string& description) {
  const ExecutorPtr ex = make_executor("cuda");
  const auto& cuda = cuda_executor(*ex, "a GPU tridiagonal solve");
  const ReadOptions input{false, nullptr, reinterpret_cast<std::uintptr_t>(cuda.stream())};
  std::array<DeviceArray, 4> in;
  const std::array<std::pair<const py::object*, const char*>, 4> named{{{&ao, "a"}, {&bo, "b"}, {&co, "c"}, {&d_o, "d"}}};
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto arr = read_device_array(*named[i].first, named[i].second, typestr<V>(), dtype_name<V>(), sizeof(V), input);
    if (!arr) throw py::type_error(std::string(named[i].second) + ": a device array is needed when any of a, b, c, d is one");
    in[i] = *arr;
  }
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i].ndim != 2 || in[i].shape != in[0].shape || !in[i].c_contiguous()) {
      throw py::value_error(std::string(named[i].second) + ": expected C-contiguous 2-D device arrays of one shape; a is " + in[0].shape_text() +
                            ", " + named[i].second + " " + in[i].shape_text());
    }
  }
  const long long rows = in[0].shape[0], cols = in[0].shape[1];
  if (out.is_none()) out = new_cupy_array(py::make_tuple(rows, cols), dtype_name<V>(), "C");
  const auto x = read_device_array(out, "out", typestr<V>(), dtype_name<V>(), sizeof(V), ReadOptions{true, &in[3], input.our_stream});
  if (!x) throw py::type_error("out: a device array is needed when a, b, c, d are");
  if (x->ndim != 2 || x->shape != in[0].shape || !x->c_contiguous()) {
    throw py::value_error("out: expected a C-contiguous device array of shape " + in[0].shape_text() + ", got " + x->shape_text());
  }
  const long long size = layout == TridiagonalLayout::contiguous ? cols : rows;
  const long long count = layout == TridiagonalLayout::contiguous ? rows : cols;
  py::gil_scoped_release release;
  StreamOrder order;
  for (const auto& arr : in) order.before(cuda.stream(), arr);
  order.before(cuda.stream(), *x);
  const auto ptr = [](const DeviceArray& arr) { return reinterpret_cast<const V*>(arr.data); };
  const TridiagonalSystems<V> s{size, count, layout, ptr(in[0]), ptr(in[1]), ptr(in[2])};
  TridiagonalSolver<V> solver(ex);
  TridiagonalOptions o;
  o.algorithm = algorithm;
  solver.solve(s, ptr(in[3]), reinterpret_cast<V*>(x->data), o);
  solver.check();  // waits for the solve (lent DLPack inputs included); a zero pivot: the Error names its system and row
  description = solver.description();
  return out;
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
  m.def(
      "_tridiagonal_solve_device",
      [](const std::string& layout, const std::string& algorithm, const std::string& dtype, const py::object& a, const py::object& b,
         const py::object& c, const py::object& d, const py::object& out) {
        std::string description;
        py::object x;
        if (dtype == "float64") {
          x = solve_device_typed<double>(parse_layout(layout), algorithm, a, b, c, d, out, description);
        } else if (dtype == "float32") {
          x = solve_device_typed<float>(parse_layout(layout), algorithm, a, b, c, d, out, description);
        } else {
          throw py::type_error("a, b, c, d: expected float32 or float64 values, got " + dtype);
        }
        return py::make_tuple(x, description);
      },
      py::arg("layout"), py::arg("algorithm"), py::arg("dtype"), py::arg("a"), py::arg("b"), py::arg("c"), py::arg("d"), py::arg("out"),
      "Solves a batch of tridiagonal systems on device arrays (no copies); returns (out, what ran).");
}

}  // namespace hsparse::python
