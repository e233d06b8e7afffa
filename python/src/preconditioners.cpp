// hsparse.preconditioner's C++ side: a PreconditionerPlan
// (solvers/preconditioner.hpp) of the matrix's value and index types behind
// one Python class, applied to host buffers with the GIL released.
#include <pybind11/stl.h>

#include <functional>

#include "bindings.hpp"
#include "hsparse/plans/backend_choice.hpp"
#include "hsparse/solvers/preconditioner.hpp"

namespace hsparse::python {

namespace {

struct PyPreconditioner {
  std::function<void(const py::buffer&, const py::buffer&)> apply;  // (r, z)
  std::string description;
  long long rows = 0;
};

template <class V, class I>
PyPreconditioner make_typed(const Csr<V, I>& a, const SolverOptions& o, const std::string& device) {
  if constexpr (is_complex_v<V>) {
    throw Error(ErrorCode::unsupported, std::string("preconditioner: real matrices only so far (this one is ") + dtype_name<V>() + ")");
  } else {
    std::shared_ptr<PreconditionerPlan<V, I>> plan;
    {
      py::gil_scoped_release release;
      plan = std::make_shared<PreconditionerPlan<V, I>>(make_executor(device), a, o);
    }
    PyPreconditioner p;
    p.rows = plan->rows();
    p.description = plan->description();
    p.apply = [plan](const py::buffer& rb, const py::buffer& zb) {
      const auto ri = rb.request(), zi = zb.request(true);
      const auto r = as_span<const V>(ri, plan->rows(), "r");
      const auto z = as_span<V>(zi, plan->rows(), "z");
      py::gil_scoped_release release;
      plan->apply(r, z);
    };
    return p;
  }
}

}  // namespace

void register_preconditioners(py::module_& m) {
  py::class_<PyPreconditioner>(m, "_Preconditioner")
      .def("apply", [](const PyPreconditioner& p, const py::buffer& r, const py::buffer& z) { p.apply(r, z); }, py::arg("r"), py::arg("z"),
           "z = M^-1 r, both host buffers of the matrix's dtype and rows.")
      .def_readonly("description", &PyPreconditioner::description)
      .def_readonly("rows", &PyPreconditioner::rows);
  m.def(
      "_preconditioner",
      [](const Matrix& a, const std::string& kind, const std::string& device, int block_size, int chebyshev_degree) {
        SolverOptions o;
        o.preconditioner = parse_preconditioner(kind);
        o.block_size = block_size;
        o.chebyshev_degree = chebyshev_degree;
        return std::visit([&](const auto& csr) { return make_typed(csr, o, device); }, *a.csr);
      },
      py::arg("matrix"), py::arg("kind"), py::arg("device"), py::arg("block_size"), py::arg("chebyshev_degree"),
      "M^-1 of the matrix (solvers/preconditioner.hpp), to apply to vectors.");
}

}  // namespace hsparse::python
