// hsparse.SpmvPlan's C++ side: an SpmvHandle (the advisor's or a given
// format, tuned over the products) of the matrix's value and index types on
// a CPU or CUDA executor. Products take host buffers (NumPy; copied to the
// GPU and back for a CUDA plan) or device pointers (CuPy and any
// __cuda_array_interface__ object: no copy, ordered with the arrays'
// streams, StreamOrder). The GIL is released while a product runs.
// `out` overlapping `x` (plan.apply(x, out=x)) is answered as scipy would:
// x is copied first (the C++ API refuses an overlap, spmv_plan.hpp).
// Several threads may share a plan: the handle serializes its products.
#include <pybind11/complex.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include "device_array.hpp"
#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/array.hpp"
#include "hsparse/core/executor.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/dense/dense_matrix.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/tuning/spmv_handle.hpp"

namespace hsparse::python {

namespace {

template <class A>
struct handle_of;
template <class V, class I>
struct handle_of<Csr<V, I>> {
  using type = std::unique_ptr<SpmvHandle<V, I>>;
};
template <class Variant>
struct handles_of;
template <class... Ts>
struct handles_of<std::variant<Ts...>> {
  using type = std::variant<typename handle_of<Ts>::type...>;
};
using AnyHandle = handles_of<io::AnyCsr>::type;

template <class V, class I>
void apply_host(SpmvHandle<V, I>& h, const Executor& ex, long long rows, long long cols, const py::buffer& xb, const py::buffer& yb, V alpha, V beta) {
  const auto xi = xb.request(), yi = yb.request(true);
  auto x = as_span<const V>(xi, cols, "x");
  const auto y = as_span<V>(yi, rows, "out");
  py::gil_scoped_release release;
  std::vector<V> x_copy;  // out overlapping x: the product reads this copy
  if (ranges_overlap(x.data(), x.size_bytes(), y.data(), y.size_bytes())) {
    x_copy.assign(x.begin(), x.end());
    x = x_copy;
  }
  if (ex.backend() == Backend::cpu) {
    h.apply(alpha, x, beta, y);
  } else {
    const ExecutorPtr& e = h.executor();
    const Array<V> xd(e, x);
    Array<V> yd = beta == V(0) ? Array<V>(e, y.size()) : Array<V>(e, std::span<const V>(y.data(), y.size()));
    h.apply(alpha, xd, beta, yd);
    e->copy_to_host(y.data(), yd.data(), y.size() * sizeof(V));  // waits for the product
  }
}

// Y = alpha A X + beta Y for host X (cols x k) and Y (rows x k), both
// column-major (Fortran order): one block product through the handle's plan
// (its format's SpMM kernel where it has one), via DenseMatrix copies on the
// plan's executor.
template <class V, class I>
void apply_host_block(SpmvHandle<V, I>& h, long long rows, long long cols, const py::buffer& xb, const py::buffer& yb, V alpha, V beta) {
  const auto xi = xb.request(), yi = yb.request(true);
  const auto fortran = [](const py::buffer_info& b, long long r, const char* what) {
    if (b.ndim != 2 || b.shape[0] != r) throw py::value_error(std::string(what) + ": expected " + std::to_string(r) + " rows in 2 dimensions");
    const bool empty = b.shape[0] == 0 || b.shape[1] == 0;  // NumPy gives an empty array any strides (0, 0 among them)
    const bool contiguous = b.shape[0] <= 1 || b.strides[0] == b.itemsize;
    if (!empty && (!contiguous || (b.shape[1] > 1 && b.strides[1] != b.itemsize * b.shape[0]))) {
      throw py::value_error(std::string(what) + ": expected a column-major (Fortran-order) array");
    }
  };
  fortran(xi, cols, "x");
  fortran(yi, rows, "out");
  if (xi.shape[1] != yi.shape[1]) throw py::value_error("x and out have different column counts");
  if (!buffer_holds<V>(xi) || !buffer_holds<V>(yi)) throw py::type_error(std::string("x and out must hold ") + dtype_name<V>() + " values");
  const long long k = xi.shape[1];
  const auto* x = static_cast<const V*>(xi.ptr);
  auto* y = static_cast<V*>(yi.ptr);
  py::gil_scoped_release release;
  const ExecutorPtr& e = h.executor();
  const DenseMatrix<V> xd(e, cols, k, std::span<const V>(x, static_cast<std::size_t>(cols * k)));
  DenseMatrix<V> yd = beta == V(0) ? DenseMatrix<V>(e, rows, k) : DenseMatrix<V>(e, rows, k, std::span<const V>(y, static_cast<std::size_t>(rows * k)));
  h.apply(alpha, xd, beta, yd);
  const std::vector<V> out = yd.to_host();
  std::copy(out.begin(), out.end(), y);
}

// out = alpha A x + beta out for device arrays (__cuda_array_interface__),
// read and checked here (device_array.hpp): x of cols entries, or cols x k
// column-major for one block product (SpMM); out None: a new CuPy array.
// py::none() when x is no device array (the caller takes the host path).
template <class V, class I>
py::object apply_device(SpmvHandle<V, I>& h, StreamOrder& order, long long rows, long long cols, const py::object& xo, py::object out, V alpha,
                        V beta) {
  std::uintptr_t our_stream = 0;  // where the product runs: DLPack producers make x ready there
  if (h.executor()->backend() == Backend::cuda) our_stream = reinterpret_cast<std::uintptr_t>(cuda_executor(*h.executor(), "a product").stream());
  const auto x = read_device_array(xo, "x", typestr<V>(), dtype_name<V>(), sizeof(V), ReadOptions{false, nullptr, our_stream});
  if (!x) return py::none();
  if (h.executor()->backend() != Backend::cuda) throw py::value_error("x: device arrays need a plan on device='cuda'");
  if (x->shape[0] != cols) {
    throw py::value_error("x: expected shape (" + std::to_string(cols) + ",) or (" + std::to_string(cols) + ", k), got " + x->shape_text());
  }
  if (!x->column_major()) {
    throw py::value_error(x->ndim == 1 ? "x: expected a contiguous device array"
                                       : "x: a 2-D device array must be column-major (Fortran order): cupy.asfortranarray(x)");
  }
  std::optional<DeviceArray> y;
  if (out.is_none()) {
    if (beta != V(0)) throw py::value_error("beta != 0 needs out (the y that beta scales)");
    out = x->ndim == 1 ? new_cupy_array(py::make_tuple(rows), dtype_name<V>(), "C") : new_cupy_array(py::make_tuple(rows, x->shape[1]), dtype_name<V>(), "F");
    if (x->cupy) {  // the result just made: its layout is known and its stream is x's (CuPy's current one); only its pointer is read
      y = DeviceArray{};
      y->ndim = x->ndim, y->shape = {rows, x->shape[1]}, y->strides = {1, rows}, y->cupy = true, y->stream = x->stream;
      y->data = out.attr("data").attr("ptr").cast<std::uintptr_t>();
    }
  }
  if (!y) y = read_device_array(out, "out", typestr<V>(), dtype_name<V>(), sizeof(V), ReadOptions{true, &*x, our_stream});
  if (!y) throw py::type_error("out: a device array (with __cuda_array_interface__) is needed when x is one");
  if (y->ndim != x->ndim || y->shape[0] != rows || y->shape[1] != x->shape[1]) {
    throw py::value_error("out: expected shape " + (x->ndim == 1 ? "(" + std::to_string(rows) + ",)" : "(" + std::to_string(rows) + ", " + std::to_string(x->shape[1]) + ")") +
                          ", got " + y->shape_text());
  }
  if (!y->column_major()) {
    throw py::value_error(y->ndim == 1 ? "out: expected a contiguous device array" : "out: a 2-D device array must be column-major (Fortran order)");
  }
  {
    py::gil_scoped_release release;
    void* ours = reinterpret_cast<void*>(our_stream);
    order.before(ours, *x);
    if (y->stream != x->stream) order.before(ours, *y);  // beta != 0 reads y
    auto* xp = reinterpret_cast<const V*>(x->data);
    auto* yp = reinterpret_cast<V*>(y->data);
    // out overlapping x: the product reads a device copy of x, made on our stream.
    const auto span_bytes = [](const DeviceArray& a) {
      return static_cast<std::size_t>(a.ndim == 1 ? a.shape[0] : (a.shape[1] - 1) * a.ld() + a.shape[0]) * sizeof(V);
    };
    Array<V> x_copy;
    if (x->shape[0] > 0 && x->shape[1] > 0 && ranges_overlap(xp, span_bytes(*x), yp, span_bytes(*y))) {
      x_copy = Array<V>(h.executor(), span_bytes(*x) / sizeof(V));
      h.executor()->copy(x_copy.data(), xp, span_bytes(*x));
      xp = x_copy.data();
    }
    if (x->ndim == 1) {
      h.apply(alpha, xp, beta, yp);
    } else {
      h.apply(alpha, ConstDenseView<V>(xp, x->shape[0], x->shape[1], x->ld()), beta, DenseView<V>{yp, y->shape[0], y->shape[1], y->ld()});
    }
    order.after(ours, y->stream);
    order.finish_lent(ours, *x);
  }
  return out;
}

// The C++ product alone on device arrays, `repetitions` times in a C++
// loop: the median seconds of the call (the launch; the wait for the
// stream after it, untimed) and of the call and the wait. What the Python
// layers' overhead on the GPU is measured against (python/benchmarks/overhead.py).
template <class V, class I>
std::pair<double, double> time_device_typed(SpmvHandle<V, I>& h, std::uintptr_t x, std::uintptr_t y, int repetitions) {
  if (h.executor()->backend() != Backend::cuda) throw py::value_error("_time_device: a CUDA plan");
  py::gil_scoped_release release;
  std::vector<double> call, call_and_wait;
  for (int r = 0; r < repetitions; ++r) {
    const Stopwatch watch;
    h.apply(V(1), reinterpret_cast<const V*>(x), V(0), reinterpret_cast<V*>(y));
    call.push_back(watch.seconds());
    h.executor()->synchronize();
    call_and_wait.push_back(watch.seconds());
  }
  return {summarize_times(std::move(call)).median_s, summarize_times(std::move(call_and_wait)).median_s};
}

template <class V, class I>
double time_host_typed(SpmvHandle<V, I>& h, const Executor& ex, long long rows, long long cols, const py::buffer& xb, const py::buffer& yb,
                       int repetitions) {
  const auto xi = xb.request(), yi = yb.request(true);
  const auto x = as_span<const V>(xi, cols, "x");
  const auto y = as_span<V>(yi, rows, "out");
  if (ex.backend() != Backend::cpu) throw py::value_error("_time_host: a CPU plan");
  py::gil_scoped_release release;
  std::vector<double> times;
  for (int r = 0; r < repetitions; ++r) {
    const Stopwatch watch;
    h.apply(V(1), x, V(0), y);
    times.push_back(watch.seconds());
  }
  return summarize_times(std::move(times)).median_s;
}

template <class V, class I>
int tune_handle(SpmvHandle<V, I>& h, long long rows, long long cols, int calls) {
  py::gil_scoped_release release;
  const ExecutorPtr& e = h.executor();
  const std::vector<V> ones(static_cast<std::size_t>(cols), V(1));
  const Array<V> x(e, std::span<const V>(ones));
  Array<V> y(e, static_cast<std::size_t>(rows));
  int done = 0;
  for (; done < calls && h.tuning(); ++done) h.apply(V(1), x, V(0), y);
  e->synchronize();
  return done;
}

class Plan {
 public:
  Plan(const Matrix& m, const std::string& device, const std::string& format, const std::string& kernel, long long spmv_count, bool tune,
       bool use_cache)
      : matrix_(m.csr) {
    if (spmv_count < 1) throw py::value_error("spmv_count: must be >= 1, got " + std::to_string(spmv_count));
    if (format == "auto" && !kernel.empty()) throw py::value_error("kernel: needs a format (format='auto' picks the kernel too)");
    HandleOptions o;
    o.format = parse_format_choice(format);  // Error(invalid_argument) naming the formats
    o.kernel = kernel;
    o.spmv_count = spmv_count;
    o.tune = tune;
    o.use_cache = use_cache;
    ex_ = make_executor(device);  // Error(unsupported) saying why for "cuda" without a device
    py::gil_scoped_release release;
    handle_ = std::visit(
        [&](const auto& a) -> AnyHandle {
          using A = std::decay_t<decltype(a)>;
          return std::make_unique<SpmvHandle<typename A::value_type, typename A::index_type>>(ex_, a, o);
        },
        *matrix_);
  }

  py::tuple shape() const {
    return std::visit([](const auto& a) { return py::make_tuple(static_cast<long long>(a.rows), static_cast<long long>(a.cols)); }, *matrix_);
  }

  void apply_host_any(const py::buffer& x, const py::buffer& y, const py::object& alpha, const py::object& beta) {
    const auto [rows, cols] = dims();
    std::visit([&](auto& h) { apply_with_scalars(*h, alpha, beta, [&](auto& hh, auto a, auto b) { apply_host(hh, *ex_, rows, cols, x, y, a, b); }); },
               handle_);
  }

  void apply_host_block_any(const py::buffer& x, const py::buffer& y, const py::object& alpha, const py::object& beta) {
    const auto [rows, cols] = dims();
    std::visit(
        [&](auto& h) { apply_with_scalars(*h, alpha, beta, [&](auto& hh, auto a, auto b) { apply_host_block(hh, rows, cols, x, y, a, b); }); },
        handle_);
  }

  py::object apply_device_any(const py::object& x, const py::object& out, const py::object& alpha, const py::object& beta) {
    const auto [rows, cols] = dims();
    py::object result;
    std::visit(
        [&](auto& h) {
          apply_with_scalars(*h, alpha, beta, [&](auto& hh, auto a, auto b) { result = apply_device(hh, order_, rows, cols, x, out, a, b); });
        },
        handle_);
    return result;
  }

  std::pair<double, double> time_device(std::uintptr_t x, std::uintptr_t y, int repetitions) {
    if (repetitions < 1) throw py::value_error("repetitions: must be >= 1");
    return std::visit([&](auto& h) { return time_device_typed(*h, x, y, repetitions); }, handle_);
  }

  // Seconds per product of the C++ call alone, `repetitions` calls in a C++
  // loop on the same buffers (what the Python layers' overhead is measured
  // against: python/benchmarks/overhead.py).
  double time_host(const py::buffer& x, const py::buffer& y, int repetitions) {
    if (repetitions < 1) throw py::value_error("repetitions: must be >= 1");
    const auto [rows, cols] = dims();
    return std::visit([&](auto& h) { return time_host_typed(*h, *ex_, rows, cols, x, y, repetitions); }, handle_);
  }

  // Runs products on x = ones until the tuner settles or `calls` are done.
  int tune(int calls) {
    if (calls < 1) throw py::value_error("calls: must be >= 1, got " + std::to_string(calls));
    const auto [rows, cols] = dims();
    return std::visit([&](auto& h) { return tune_handle(*h, rows, cols, calls); }, handle_);
  }

  std::string format() const { return std::visit([](const auto& h) { return std::string(to_string(h->format())); }, handle_); }
  std::string kernel() const { return std::visit([](const auto& h) { return h->description(); }, handle_); }
  std::string origin() const { return std::visit([](const auto& h) { return h->origin(); }, handle_); }
  bool tuning() const { return std::visit([](const auto& h) { return h->tuning(); }, handle_); }
  int calls() const { return std::visit([](const auto& h) { return h->calls(); }, handle_); }
  std::string device() const { return to_string(ex_->backend()); }
  std::size_t matrix_bytes() const { return std::visit([](const auto& h) { return h->matrix_bytes(); }, handle_); }
  std::string executor() const { return ex_->description(); }

 private:
  std::pair<long long, long long> dims() const {
    return std::visit([](const auto& a) { return std::pair<long long, long long>(a.rows, a.cols); }, *matrix_);
  }
  // alpha and beta as the handle's value type (a complex scalar for a real
  // matrix is a TypeError).
  template <class V, class I, class Fn>
  static void apply_with_scalars(SpmvHandle<V, I>& h, const py::object& alpha, const py::object& beta, Fn&& fn) {
    V a, b;
    try {
      a = alpha.cast<V>();
      b = beta.cast<V>();
    } catch (const py::cast_error&) {
      throw py::type_error(std::string("alpha and beta must be ") + dtype_name<V>() + " scalars for this matrix");
    }
    fn(h, a, b);
  }

  std::shared_ptr<const io::AnyCsr> matrix_;
  ExecutorPtr ex_;
  AnyHandle handle_;
  StreamOrder order_;
};

}  // namespace

void register_plan(py::module_& m) {
  py::class_<Plan>(m, "_SpmvPlan", "The C++ SpMV handle behind hsparse.SpmvPlan.")
      .def(py::init<const Matrix&, const std::string&, const std::string&, const std::string&, long long, bool, bool>(), py::arg("matrix"),
           py::arg("device"), py::arg("format"), py::arg("kernel"), py::arg("spmv_count"), py::arg("tune"), py::arg("use_cache"))
      .def_property_readonly("shape", &Plan::shape)
      .def_property_readonly("format", &Plan::format)
      .def_property_readonly("kernel", &Plan::kernel)
      .def_property_readonly("origin", &Plan::origin)
      .def_property_readonly("tuning", &Plan::tuning)
      .def_property_readonly("calls", &Plan::calls)
      .def_property_readonly("device", &Plan::device)
      .def_property_readonly("matrix_bytes", &Plan::matrix_bytes)
      .def_property_readonly("executor", &Plan::executor)
      .def("_apply_host", &Plan::apply_host_any, py::arg("x"), py::arg("out"), py::arg("alpha"), py::arg("beta"))
      .def("_apply_host_block", &Plan::apply_host_block_any, py::arg("x"), py::arg("out"), py::arg("alpha"), py::arg("beta"))
      .def("_apply_device", &Plan::apply_device_any, py::arg("x"), py::arg("out"), py::arg("alpha"), py::arg("beta"),
           "out = alpha A x + beta out for device arrays (None when x is not one; out None: a new CuPy array); returns out.")
      .def("_time_device", &Plan::time_device, py::arg("x"), py::arg("out"), py::arg("repetitions"),
           "Median seconds of the C++ product's call and of the call and a wait for it, on device pointers (a CUDA plan): "
           "what the Python layers' overhead is measured against.")
      .def("_tune", &Plan::tune, py::arg("calls"))
      .def("_time_host", &Plan::time_host, py::arg("x"), py::arg("out"), py::arg("repetitions"),
           "Median seconds of the C++ product alone (a CPU plan), for measuring the Python layers' overhead.");
}

}  // namespace hsparse::python
