// The compiled part of the hsparse Python package (python/hsparse/ wraps it).
#include "bindings.hpp"
#include <pybind11/stl.h>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/version.hpp"

PYBIND11_MODULE(_hsparse, m) {
  namespace hp = hsparse::python;
  m.doc() = "hsparse's C++ core; use the hsparse package, not this module.";
  m.attr("__version__") = hsparse::version_string();
  m.def("built_with_cuda", &hsparse::built_with_cuda, "Whether the library was built with the CUDA backend.");
#ifdef HSPARSE_PYTHON_DLPACK
  m.attr("_has_dlpack") = true;  // DLPack device arrays are read (libdlpack-dev's header was found)
#else
  m.attr("_has_dlpack") = false;
#endif
  m.def("cuda_available", &hsparse::cuda::device_available, "Whether a CUDA device is usable now.");
  m.def("_format_names", &hsparse::format_name_list, "Every storage format's name, in the registry's order.");
  m.def("_value_rounding", [](const std::string& name) { return hsparse::format_traits(hsparse::parse_format(name)).value_rounding; },
        "The relative rounding of a format's stored values (0: exact).");
  hp::register_errors(m);
  hp::register_matrix(m);
  hp::register_device_arrays(m);
  hp::register_plan(m);
  hp::register_solvers(m);
  hp::register_preconditioners(m);
  hp::register_tridiagonal(m);
  hp::register_bench(m);
  hp::register_distributed(m);
}
