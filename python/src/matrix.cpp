// hsparse.Matrix: a CSR matrix of any value and index type, made from a
// file, a generator spec or CSR arrays (scipy.sparse), and read back as
// arrays without a copy (a buffer-protocol view that keeps the matrix alive).
#include <pybind11/complex.h>
#include <pybind11/stl.h>


#include "bindings.hpp"
#include "hsparse/analysis/matrix_analysis.hpp"
#include "hsparse/io/binary_format.hpp"
#include "hsparse/io/file_bytes.hpp"
#include "hsparse/io/matrix_market.hpp"

namespace hsparse::python {

template <> const char* dtype_name<float>() { return "float32"; }
template <> const char* dtype_name<double>() { return "float64"; }
template <> const char* dtype_name<std::complex<float>>() { return "complex64"; }
template <> const char* dtype_name<std::complex<double>>() { return "complex128"; }
template <> const char* dtype_name<std::int32_t>() { return "int32"; }
template <> const char* dtype_name<std::int64_t>() { return "int64"; }

template <class T>
bool buffer_holds(const py::buffer_info& info) {
  if (info.itemsize != static_cast<py::ssize_t>(sizeof(T))) return false;
  // Formats differ in spelling ("l" vs "q" for int64, "Zd" for complex):
  // compare pybind11's own descriptor, and the kind of number by its letter.
  const std::string f = info.format;
  if (f == py::format_descriptor<T>::format()) return true;
  if constexpr (std::is_integral_v<T>) return f == "i" || f == "l" || f == "q" || f == "<i" || f == "<l" || f == "<q";
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) return f == "f" || f == "d" || f == "<f" || f == "<d";
  return f == "Zf" || f == "Zd" || f == "<Zf" || f == "<Zd";
}

template <class T>
std::span<T> as_span(const py::buffer_info& info, long long n, const char* what) {
  using U = std::remove_const_t<T>;
  if (!buffer_holds<U>(info)) {
    throw py::type_error(std::string(what) + ": expected " + dtype_name<U>() + " values, got buffer format '" + info.format + "'");
  }
  if (info.ndim != 1 || (info.shape[0] > 1 && info.strides[0] != static_cast<py::ssize_t>(sizeof(T)))) {
    throw py::value_error(std::string(what) + ": expected a contiguous 1-D array");
  }
  if (n >= 0 && info.shape[0] != n) {
    throw py::value_error(std::string(what) + ": expected " + std::to_string(n) + " entries, got " + std::to_string(info.shape[0]));
  }
  return {static_cast<T*>(info.ptr), static_cast<std::size_t>(info.shape[0])};
}

#define HSPARSE_PY_SPANS(T)                                                                   \
  template bool buffer_holds<T>(const py::buffer_info&);                                      \
  template std::span<T> as_span<T>(const py::buffer_info&, long long, const char*);           \
  template std::span<const T> as_span<const T>(const py::buffer_info&, long long, const char*);
HSPARSE_PY_SPANS(float)
HSPARSE_PY_SPANS(double)
HSPARSE_PY_SPANS(std::complex<float>)
HSPARSE_PY_SPANS(std::complex<double>)
HSPARSE_PY_SPANS(std::int32_t)
HSPARSE_PY_SPANS(std::int64_t)
#undef HSPARSE_PY_SPANS

namespace {

// One of a matrix's arrays, exposed through the buffer protocol (read-only),
// owning a reference to the matrix: numpy.asarray(view) is a zero-copy array.
struct ArrayView {
  std::shared_ptr<const io::AnyCsr> owner;
  const void* data = nullptr;
  std::size_t size = 0, itemsize = 0;
  std::string format;
};

template <class T>
ArrayView view_of(const std::shared_ptr<const io::AnyCsr>& owner, const std::vector<T>& v) {
  return {owner, v.data(), v.size(), sizeof(T), py::format_descriptor<T>::format()};
}

// indptr[0] == 0, never decreasing, indptr[-1] == nnz: Error(invalid_matrix)
// naming indptr (the rest, indices in range and sorted, Csr::validate checks).
template <class I>
void check_indptr(std::span<const I> p, std::size_t nnz) {
  const auto bad = [](const std::string& what) { throw Error(ErrorCode::invalid_matrix, "CSR arrays: " + what); };
  if (p[0] != 0) bad("indptr[0] is " + std::to_string(p[0]) + ", expected 0");
  for (std::size_t r = 0; r + 1 < p.size(); ++r) {
    if (p[r + 1] < p[r]) {
      bad("indptr decreases at row " + std::to_string(r) + " (indptr[" + std::to_string(r) + "] = " + std::to_string(p[r]) + ", indptr[" +
          std::to_string(r + 1) + "] = " + std::to_string(p[r + 1]) + ")");
    }
  }
  if (static_cast<std::size_t>(p.back()) != nnz) {
    bad("indptr[-1] is " + std::to_string(p.back()) + " but indices has " + std::to_string(nnz) + " entries");
  }
}

template <class V, class I>
Matrix make_matrix(long long rows, long long cols, const py::buffer_info& indptr, const py::buffer_info& indices, const py::buffer_info& data) {
  if (rows < 0 || cols < 0) throw py::value_error("shape: rows and columns must be >= 0");
  if (!fits_index<I>(static_cast<std::uint64_t>(rows)) || !fits_index<I>(static_cast<std::uint64_t>(cols))) {
    throw py::value_error(std::string("shape does not fit the ") + dtype_name<I>() + " indices");
  }
  Csr<V, I> a;
  a.rows = static_cast<I>(rows);
  a.cols = static_cast<I>(cols);
  const auto p = as_span<const I>(indptr, rows + 1, "indptr");
  const auto c = as_span<const I>(indices, -1, "indices");
  const auto v = as_span<const V>(data, static_cast<long long>(c.size()), "data");
  {
    py::gil_scoped_release release;
    check_indptr(p, c.size());  // named as Python names it, before anything is copied
    a.row_ptr.assign(p.begin(), p.end());
    a.col_idx.assign(c.begin(), c.end());
    a.values.assign(v.begin(), v.end());
    a.validate();  // Error(invalid_matrix) naming the first broken rule
  }
  return {std::make_shared<const io::AnyCsr>(std::move(a))};
}

template <class I>
Matrix make_matrix_of_index(long long rows, long long cols, const py::buffer_info& p, const py::buffer_info& c, const py::buffer_info& d) {
  // buffer_holds tells complex64 from float64 (both 8 bytes) by the format's letter.
  if (buffer_holds<double>(d)) return make_matrix<double, I>(rows, cols, p, c, d);
  if (buffer_holds<float>(d)) return make_matrix<float, I>(rows, cols, p, c, d);
  if (buffer_holds<std::complex<double>>(d)) return make_matrix<std::complex<double>, I>(rows, cols, p, c, d);
  if (buffer_holds<std::complex<float>>(d)) return make_matrix<std::complex<float>, I>(rows, cols, p, c, d);
  throw py::type_error(std::string("data: expected float32, float64, complex64 or complex128 values, got buffer format '") + d.format + "'");
}

Matrix from_csr_arrays(long long rows, long long cols, const py::buffer& indptr, const py::buffer& indices, const py::buffer& data) {
  const auto p = indptr.request(), c = indices.request(), d = data.request();
  if (buffer_holds<std::int32_t>(c)) return make_matrix_of_index<std::int32_t>(rows, cols, p, c, d);
  if (buffer_holds<std::int64_t>(c)) return make_matrix_of_index<std::int64_t>(rows, cols, p, c, d);
  throw py::type_error(std::string("indices: expected int32 or int64, got buffer format '") + c.format + "'");
}

Matrix load(const std::string& source, bool single) {
  py::gil_scoped_release release;
  return {std::make_shared<const io::AnyCsr>(io::load_any_matrix(source, single))};
}

void write(const std::string& path, const Matrix& m) {
  py::gil_scoped_release release;
  std::visit(
      [&](const auto& a) {
        if (io::ends_with(path, ".hsp")) {
          io::write_hsp(path, a);
        } else if (io::ends_with(path, ".mtx") || io::ends_with(path, ".mtx.gz")) {
          io::write_matrix_market(path, a);  // gzip for .gz
        } else {
          throw Error(ErrorCode::invalid_argument, path + ": write needs a .mtx, .mtx.gz or .hsp file name");
        }
      },
      *m.csr);
}

py::dict info(const Matrix& m) {
  return std::visit(
      [](const auto& a) {
        using A = std::decay_t<decltype(a)>;
        MatrixAnalysis s;
        {
          py::gil_scoped_release release;
          s = analyze_matrix(a);
        }
        py::dict d;
        d["rows"] = s.rows;
        d["cols"] = s.cols;
        d["nnz"] = s.nnz;
        d["dtype"] = dtype_name<typename A::value_type>();
        d["index_dtype"] = dtype_name<typename A::index_type>();
        d["symmetry"] = s.symmetry;
        py::dict rows;
        rows["min"] = s.row_lengths.min_length;
        rows["max"] = s.row_lengths.max_length;
        rows["mean"] = s.row_lengths.mean_length;
        rows["std"] = s.row_lengths.std_deviation;
        rows["empty"] = s.row_lengths.empty_rows;
        d["row_lengths"] = rows;
        d["lower_bandwidth"] = s.lower_bandwidth;
        d["upper_bandwidth"] = s.upper_bandwidth;
        d["diagonals"] = s.diagonals;
        d["best_bcsr_block"] = s.best_bcsr_block;
        py::dict bytes;
        for (const auto& f : s.formats) bytes[to_string(f.format)] = f.bytes;
        d["bytes_per_format"] = bytes;
        return d;
      },
      *m.csr);
}

}  // namespace

void register_matrix(py::module_& m) {
  py::class_<ArrayView>(m, "_ArrayView", py::buffer_protocol(), "A read-only view of one of a Matrix's arrays (keeps the matrix alive).")
      .def_buffer([](ArrayView& v) {
        return py::buffer_info(const_cast<void*>(v.data), static_cast<py::ssize_t>(v.itemsize), v.format, 1,
                               {static_cast<py::ssize_t>(v.size)}, {static_cast<py::ssize_t>(v.itemsize)}, true);
      });

  py::class_<Matrix>(m, "_Matrix", "A CSR matrix held by hsparse (any value and index type).")
      .def_property_readonly("shape", [](const Matrix& a) {
        return std::visit([](const auto& c) { return py::make_tuple(static_cast<long long>(c.rows), static_cast<long long>(c.cols)); }, *a.csr);
      }, "(rows, cols)")
      .def_property_readonly("nnz", [](const Matrix& a) { return std::visit([](const auto& c) { return c.nnz(); }, *a.csr); },
                             "Stored entries (explicit zeros included).")
      .def_property_readonly("dtype", [](const Matrix& a) {
        return std::visit([](const auto& c) { return std::string(dtype_name<typename std::decay_t<decltype(c)>::value_type>()); }, *a.csr);
      }, "NumPy name of the value type.")
      .def_property_readonly("index_dtype", [](const Matrix& a) {
        return std::visit([](const auto& c) { return std::string(dtype_name<typename std::decay_t<decltype(c)>::index_type>()); }, *a.csr);
      }, "NumPy name of the index type.")
      .def("_view", [](const Matrix& a, const std::string& which) {
        return std::visit([&](const auto& c) {
          if (which == "indptr") return view_of(a.csr, c.row_ptr);
          if (which == "indices") return view_of(a.csr, c.col_idx);
          if (which == "data") return view_of(a.csr, c.values);
          throw py::value_error("_view: indptr, indices or data");
        }, *a.csr);
      }, py::arg("which"), "A zero-copy view of the CSR array `which` (indptr, indices, data).");

  m.def("_from_csr_arrays", &from_csr_arrays, py::arg("rows"), py::arg("cols"), py::arg("indptr"), py::arg("indices"), py::arg("data"),
        "A Matrix from CSR arrays (copied; columns strictly increasing per row, checked).");
  m.def("_load", &load, py::arg("source"), py::arg("single") = false,
        "A Matrix from a .mtx/.mtx.gz/.tar.gz/.hsp file or a generator spec (the GIL is released while reading).");
  m.def("_write", &write, py::arg("path"), py::arg("matrix"), "Writes a .mtx or .hsp file.");
  m.def("_info", &info, py::arg("matrix"), "The facts `hsparse info` reports, as a dict.");
}

}  // namespace hsparse::python
