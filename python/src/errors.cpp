// hsparse::Error -> the Python exception of its code (hsparse/_errors.py
// defines them: hsparse.Error and one subclass per ErrorCode, keeping the
// code and the message with its file:line).
#include "bindings.hpp"

namespace hsparse::python {

void register_errors(py::module_& m) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const hsparse::Error& e) {
      // Python-side classes: looked up when an error happens (rare), so the
      // module imports in any order.
      py::object cls = py::module_::import("hsparse._errors").attr("error_class")(to_string(e.code()));
      PyErr_SetObject(cls.ptr(), py::make_tuple(to_string(e.code()), e.what()).ptr());
    }
  });
  m.def("_error_codes", [] {
    py::list codes;
    for (ErrorCode c : {ErrorCode::invalid_argument, ErrorCode::parse, ErrorCode::io, ErrorCode::corrupt, ErrorCode::overflow,
                        ErrorCode::invalid_matrix, ErrorCode::out_of_memory, ErrorCode::cuda, ErrorCode::unsupported, ErrorCode::communication,
                        ErrorCode::internal}) {
      codes.append(to_string(c));
    }
    return codes;
  }, "The C++ error codes, as hsparse.Error.code names them.");
}

}  // namespace hsparse::python
