// Device arrays through __cuda_array_interface__ (device_array.hpp).
#include "device_array.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <complex>
#include <string>
#include <utility>
#include <vector>

#ifdef HSPARSE_PYTHON_DLPACK
#include <dlpack/dlpack.h>
#endif

namespace hsparse::python {

template <> const char* typestr<float>() { return "<f4"; }
template <> const char* typestr<double>() { return "<f8"; }
template <> const char* typestr<std::complex<float>>() { return "<c8"; }
template <> const char* typestr<std::complex<double>>() { return "<c16"; }

// An empty array is any layout: NumPy and CuPy give it any strides (0, 0 among them).
bool DeviceArray::column_major() const {
  if (shape[0] == 0 || shape[1] == 0) return true;
  if (ndim == 1) return shape[0] <= 1 || strides[0] == 1;
  return (shape[0] <= 1 || strides[0] == 1) && (shape[1] <= 1 || strides[1] >= std::max<long long>(1, shape[0]));
}

long long DeviceArray::ld() const {
  if (ndim == 1 || shape[1] <= 1 || shape[0] == 0) return std::max<long long>(1, shape[0]);
  return strides[1];
}

bool DeviceArray::c_contiguous() const {
  if (shape[0] == 0 || shape[1] == 0) return true;
  if (ndim == 1) return shape[0] <= 1 || strides[0] == 1;
  return (shape[1] <= 1 || strides[1] == 1) && (shape[0] <= 1 || strides[0] == shape[1]);
}

std::string DeviceArray::shape_text() const {
  return ndim == 1 ? "(" + std::to_string(shape[0]) + ",)" : "(" + std::to_string(shape[0]) + ", " + std::to_string(shape[1]) + ")";
}

namespace {

// A 1-D or 2-D array's shape and strides (in bytes; none: C order), checked
// and kept in elements: what every way of reading a device array shares.
DeviceArray with_layout(const std::vector<long long>& shape, const std::vector<long long>* byte_strides, std::size_t itemsize, const char* what) {
  if (shape.empty() || shape.size() > 2) {
    throw py::value_error(std::string(what) + ": expected a 1-D or 2-D device array, got " + std::to_string(shape.size()) + " dimensions");
  }
  DeviceArray a;
  a.ndim = static_cast<int>(shape.size());
  a.shape = {shape[0], a.ndim == 2 ? shape[1] : 1};
  a.strides = {a.ndim == 2 ? a.shape[1] : 1, 1};
  if (byte_strides == nullptr) return a;
  if (byte_strides->size() != shape.size()) throw py::value_error(std::string(what) + ": strides and shape differ in length");
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const long long s = (*byte_strides)[i];
    if (s < 0 || s % static_cast<long long>(itemsize) != 0) {
      throw py::value_error(std::string(what) + ": strides must be non-negative whole elements, got " + std::to_string(s) + " bytes");
    }
    a.strides[i] = s / static_cast<long long>(itemsize);
  }
  return a;
}

// CuPy's own arrays, read through their attributes: their
// __cuda_array_interface__ builds a dict with NumPy's dtype.descr (Python
// code in NumPy) at every access, a microsecond or more per array, most of
// a product's Python overhead. The same facts, and the stream as CuPy's
// interface reports it: the current stream, its null stream as CuPy's
// default (1 the legacy one or, with CUPY_CUDA_PER_THREAD_DEFAULT_STREAM,
// 2 the per-thread one). Found once CuPy is imported; never freed (objects
// held past the interpreter's end must not be released then). Other device
// arrays, and subclasses of CuPy's, go through their interface.
struct CupyTypes {
  py::object ndarray, get_current_stream;
  std::uintptr_t null_stream = 1;
  std::vector<std::pair<std::string, py::object>> dtypes;  // NumPy dtype objects by name, made on first use
  py::object dtype(const std::string& name) {
    for (const auto& [n, d] : dtypes) {
      if (n == name) return d;
    }
    dtypes.emplace_back(name, py::module_::import("numpy").attr("dtype")(name));
    return dtypes.back().second;
  }
};

CupyTypes* cupy_types() {
  static CupyTypes* found = nullptr;
  if (found) return found;
  PyObject* cupy = PyDict_GetItemString(PySys_GetObject("modules"), "cupy");  // borrowed; only once CuPy is imported
  if (cupy == nullptr) return nullptr;
  auto* t = new CupyTypes;
  try {
    const py::module_ m = py::reinterpret_borrow<py::module_>(cupy);
    t->ndarray = m.attr("ndarray");
    t->get_current_stream = m.attr("cuda").attr("get_current_stream");
    // What CuPy's interface reports for its null stream: 1, or 2 with per-thread default streams.
    t->null_stream = py::module_::import("cupy_backends.cuda.stream").attr("get_default_stream_ptr")().cast<std::uintptr_t>();
  } catch (const py::error_already_set&) {  // a CuPy without these: its interface only
    delete t;
    return nullptr;
  }
  found = t;
  return found;
}

char dtype_char(const char* typestr) {  // "<f8" -> 'd', as NumPy's dtype.char
  const std::string t = typestr;
  return t == "<f4" ? 'f' : t == "<f8" ? 'd' : t == "<c8" ? 'F' : t == "<c16" ? 'D' : '?';
}

std::optional<DeviceArray> read_cupy_array(py::handle obj, const CupyTypes& cupy, const char* what, const char* expected_typestr, const char* dtype,
                                           std::size_t itemsize, const DeviceArray* earlier) {
  const py::object dt = obj.attr("dtype");
  if (dt.attr("char").cast<std::string>() != std::string(1, dtype_char(expected_typestr))) {
    throw py::type_error(std::string(what) + ": expected a " + dtype + " device array (typestr '" + expected_typestr + "'), got typestr '" +
                         dt.attr("str").cast<std::string>() + "'");
  }
  const auto strides = obj.attr("strides").cast<std::vector<long long>>();
  DeviceArray a = with_layout(obj.attr("shape").cast<std::vector<long long>>(), &strides, itemsize, what);
  a.data = obj.attr("data").attr("ptr").cast<std::uintptr_t>();
  a.cupy = true;
  if (earlier && earlier->cupy) {
    a.stream = earlier->stream;
  } else {
    a.stream = cupy.get_current_stream().attr("ptr").cast<std::uintptr_t>();
    if (a.stream == 0) a.stream = cupy.null_stream;
  }
  return a;  // CuPy's arrays are writable
}

#ifdef HSPARSE_PYTHON_DLPACK
// A DLPack object on a CUDA device (JAX, PyTorch, ...): __dlpack__(stream=)
// with our stream, so its producer makes the data ready there; the capsule
// is kept (unconsumed: its destructor returns the memory) for the call.
// std::nullopt for host memory (NumPy's arrays have __dlpack__ too).
std::optional<DeviceArray> read_dlpack(py::handle obj, const char* what, const char* expected_typestr, const char* dtype, std::size_t itemsize,
                                       const ReadOptions& o) {
  PyObject* device_fn = PyObject_GetAttrString(obj.ptr(), "__dlpack_device__");
  if (device_fn == nullptr) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw py::error_already_set();
    PyErr_Clear();
    return std::nullopt;
  }
  const auto device = py::reinterpret_steal<py::object>(device_fn)().cast<py::tuple>();
  const int type = device[0].cast<int>(), id = device[1].cast<int>();
  if (type != kDLCUDA && type != kDLCUDAManaged) return std::nullopt;
  if (o.writable) {
    throw py::type_error(std::string(what) + ": DLPack lends arrays to read; pass a CuPy or __cuda_array_interface__ array (or None) for a result");
  }
  if (id != 0) throw py::value_error(std::string(what) + ": on CUDA device " + std::to_string(id) + "; hsparse's GPU plans run on device 0");
  const py::object capsule = o.our_stream ? obj.attr("__dlpack__")(py::arg("stream") = o.our_stream) : obj.attr("__dlpack__")();
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (managed == nullptr) throw py::error_already_set();
  const DLTensor& t = managed->dl_tensor;
  const std::string want = expected_typestr;
  const int code = want[1] == 'c' ? kDLComplex : kDLFloat;
  if (t.dtype.code != code || t.dtype.bits != 8 * itemsize || t.dtype.lanes != 1) {
    throw py::type_error(std::string(what) + ": expected a " + dtype + " device array, got DLPack type code " + std::to_string(t.dtype.code) + ", " +
                         std::to_string(t.dtype.bits) + " bits, " + std::to_string(t.dtype.lanes) + " lanes");
  }
  const std::vector<long long> shape(t.shape, t.shape + std::max(t.ndim, 0));
  std::vector<long long> byte_strides;  // DLPack's strides are in elements (none: C order)
  if (t.strides != nullptr) {
    for (int i = 0; i < t.ndim; ++i) byte_strides.push_back(t.strides[i] * static_cast<long long>(itemsize));
  }
  DeviceArray a = with_layout(shape, t.strides ? &byte_strides : nullptr, itemsize, what);
  a.data = reinterpret_cast<std::uintptr_t>(t.data) + t.byte_offset;
  a.readonly = true;
  a.lent = capsule;
  return a;
}
#endif

}  // namespace

std::optional<DeviceArray> read_device_array(py::handle obj, const char* what, const char* expected_typestr, const char* dtype, std::size_t itemsize,
                                             const ReadOptions& options) {
  if (const CupyTypes* cupy = cupy_types(); cupy && Py_TYPE(obj.ptr()) == reinterpret_cast<PyTypeObject*>(cupy->ndarray.ptr())) {
    return read_cupy_array(obj, *cupy, what, expected_typestr, dtype, itemsize, options.earlier);
  }
  PyObject* raw = PyObject_GetAttrString(obj.ptr(), "__cuda_array_interface__");
  if (raw == nullptr) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw py::error_already_set();
    PyErr_Clear();
#ifdef HSPARSE_PYTHON_DLPACK
    return read_dlpack(obj, what, expected_typestr, dtype, itemsize, options);
#else
    if (PyObject_HasAttrString(obj.ptr(), "__dlpack_device__") && !py::isinstance<py::buffer>(obj)) {
      throw py::type_error(std::string(what) + ": this build has no DLPack support (built without libdlpack-dev); pass a CuPy array");
    }
    return std::nullopt;
#endif
  }
  const auto iface = py::reinterpret_steal<py::object>(raw);
  if (!PyDict_Check(iface.ptr())) throw py::type_error(std::string(what) + ": __cuda_array_interface__ is not a dict");
  const py::dict d = py::reinterpret_borrow<py::dict>(iface);
  const auto field = [&](const char* key) -> py::object {
    PyObject* v = PyDict_GetItemString(d.ptr(), key);  // borrowed; null when absent
    return v ? py::reinterpret_borrow<py::object>(v) : py::object(py::none());
  };
  const py::object typestr_field = field("typestr");
  const std::string got = typestr_field.is_none() ? "" : typestr_field.cast<std::string>();
  if (got != expected_typestr) {
    throw py::type_error(std::string(what) + ": expected a " + dtype + " device array (typestr '" + expected_typestr + "'), got typestr '" + got + "'");
  }
  const py::object strides = field("strides");
  const auto byte_strides = strides.is_none() ? std::vector<long long>{} : strides.cast<std::vector<long long>>();
  DeviceArray a = with_layout(field("shape").cast<std::vector<long long>>(), strides.is_none() ? nullptr : &byte_strides, itemsize, what);
  if (!field("mask").is_none()) throw py::value_error(std::string(what) + ": masked device arrays are not supported");
  const auto data = field("data").cast<py::tuple>();
  a.data = data[0].cast<std::uintptr_t>();
  a.readonly = data[1].cast<bool>();
  if (options.writable && a.readonly) throw py::value_error(std::string(what) + ": the device array is read-only");
  const py::object stream = field("stream");
  a.stream = stream.is_none() ? 0 : stream.cast<std::uintptr_t>();
  return a;
}

py::object new_cupy_array(py::tuple shape, const char* dtype, const char* order) {
  CupyTypes* cupy = cupy_types();
  if (cupy == nullptr) {  // not imported yet (a result for another library's arrays): import it, or say it is missing
    try {
      py::module_::import("cupy");
    } catch (const py::error_already_set&) {
      throw py::type_error("out: pass a device array as out= (CuPy, which would make one, is not installed)");
    }
    cupy = cupy_types();
    if (cupy == nullptr) throw py::type_error("out: pass a device array as out= (this CuPy has no ndarray to make one)");
  }
  // cupy.ndarray(shape, dtype, memptr, strides, order) itself, the dtype a
  // NumPy dtype object made once: cupy.empty's Python layer and a dtype
  // parsed from its name each time cost a microsecond of a product's overhead.
  const py::object type = cupy->dtype(dtype);
  return cupy->ndarray(shape, type, py::none(), py::none(), order);
}

namespace {

// NumPy's name of a device array's value type ("" when obj is no device array).
std::string device_dtype_name(const py::handle& obj) {
  for (const auto* name : {"float32", "float64", "complex64", "complex128"}) {
    const std::string n = name;
    const auto read = [&](auto value) {
      using V = decltype(value);
      try {
        return read_device_array(obj, "x", typestr<V>(), dtype_name<V>(), sizeof(V), ReadOptions{}).has_value();
      } catch (const py::type_error&) {  // another value type
        return false;
      }
    };
    const bool found = n == "float32" ? read(float{}) : n == "float64" ? read(double{}) : n == "complex64" ? read(std::complex<float>{}) : read(std::complex<double>{});
    if (found) return n;
  }
  return "";
}

}  // namespace

void register_device_arrays(py::module_& m) {
  m.def("_device_array_dtype", &device_dtype_name, py::arg("obj"),
        "NumPy's name of a device array's value type (float32, float64, complex64, complex128), or '' for anything else.");
  m.def(
      "_device_array_info",
      [](const py::object& obj, const std::string& dtype, bool writable) -> py::object {
        const auto read = [&](auto value) {
          using V = decltype(value);
          return read_device_array(obj, "x", typestr<V>(), dtype_name<V>(), sizeof(V), ReadOptions{writable});
        };
        std::optional<DeviceArray> a;
        if (dtype == "float32") a = read(float{});
        else if (dtype == "float64") a = read(double{});
        else if (dtype == "complex64") a = read(std::complex<float>{});
        else if (dtype == "complex128") a = read(std::complex<double>{});
        else throw py::value_error("dtype: expected float32, float64, complex64 or complex128, got " + dtype);
        if (!a) return py::none();
        py::dict d;
        d["data"] = a->data, d["stream"] = a->stream, d["ndim"] = a->ndim, d["shape"] = py::make_tuple(a->shape[0], a->shape[1]);
        d["strides"] = py::make_tuple(a->strides[0], a->strides[1]), d["readonly"] = a->readonly;
        d["column_major"] = a->column_major(), d["ld"] = a->ld(), d["c_contiguous"] = a->c_contiguous(), d["cupy"] = a->cupy;
        d["lent"] = static_cast<bool>(a->lent);
        return d;
      },
      py::arg("obj"), py::arg("dtype"), py::arg("writable"),
      "What the C++ side reads from obj's __cuda_array_interface__ (None: it has none), checked as for a product: for tests.");
}


}  // namespace hsparse::python
