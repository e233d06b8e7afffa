// hsparse.distributed's C++ side: one rank's DistributedSpmv
// (distributed/distributed_spmv.hpp) over MPI's world or the caller's
// communicator (mpi4py's, by its Fortran handle), and the distributed
// Krylov solve. float64 values; NumPy arrays of the rank's own entries in
// and out. The GIL is released while products and solves run: they are
// collective, and another Python thread may have to run meanwhile.
#include <pybind11/stl.h>

#include "bindings.hpp"

#include "hsparse/core/array.hpp"
#include "hsparse/core/communicator.hpp"
#include "hsparse/distributed/distributed_spmv.hpp"
#include "hsparse/distributed/rank_executor.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/solvers/distributed_krylov.hpp"

namespace hsparse::python {

namespace {

using distributed::DistributedSpmv;
using distributed::RowPartition;

// The partition the ranks' row counts make: rank r owns the next counts[r] rows.
RowPartition partition_of(const Communicator& comm, std::int64_t mine) {
  std::vector<double> counts(static_cast<std::size_t>(comm.size()), 0.0);
  counts[static_cast<std::size_t>(comm.rank())] = static_cast<double>(mine);
  comm.allreduce_sum(counts.data(), counts.size());  // exact: counts < 2^53
  RowPartition p;
  for (double c : counts) p.offsets.push_back(p.offsets.back() + static_cast<std::int64_t>(c));
  return p;
}

template <class I>
Csr<double, std::int64_t> widened(const Csr<double, I>& a) {
  Csr<double, std::int64_t> w;
  w.rows = a.rows;
  w.cols = a.cols;
  w.row_ptr.assign(a.row_ptr.begin(), a.row_ptr.end());
  w.col_idx.assign(a.col_idx.begin(), a.col_idx.end());
  w.values = a.values;
  return w;
}

class Distributed {
 public:
  Distributed(const Matrix& rows, std::int64_t handle, const std::string& device, const std::string& format, const std::string& transport,
              bool overlap) {
    comm_ = handle < 0 ? world_communicator() : mpi_communicator(handle);
    py::gil_scoped_release release;
    // A rank whose rows are refused fails every rank (agreed before the first collective).
    Csr<double, std::int64_t> mine;
    on_every_rank(*comm_, [&] {
      mine = std::visit(
          [](const auto& a) -> Csr<double, std::int64_t> {
            using V = typename std::decay_t<decltype(a)>::value_type;
            if constexpr (!std::is_same_v<V, double>) {
              throw Error(ErrorCode::unsupported, std::string("DistributedMatrix: float64 rows only so far, got ") + dtype_name<V>());
            } else {
              return widened(a);
            }
          },
          *rows.csr);
    });
    const RowPartition part = partition_of(*comm_, mine.rows);
    // Square matrices share the cut of rows and x (a Krylov solve needs it);
    // others cut x into blocks as even as contiguous_rows makes them.
    std::int64_t cols = mine.cols;
    comm_->allreduce_max(&cols, 1);
    const RowPartition columns = cols == part.rows() ? part : distributed::contiguous_rows(cols, comm_->size());
    distributed::DistributedSpmvOptions o;
    SpmvOptions p;
    p.format = parse_format_choice(format);
    o.local = o.remote = p;
    o.transport = distributed::parse_halo_transport(transport);
    o.overlap = overlap;
    const ExecutorPtr ex = distributed::rank_executor(*comm_, device);
    op_ = std::make_unique<DistributedSpmv<double, std::int32_t>>(comm_, ex, mine, part, columns, o);
  }

  // y = A x on this rank's entries.
  void matvec(const py::buffer& xb, const py::buffer& yb) const {
    const auto xi = xb.request(), yi = yb.request(true);
    const auto x = as_span<const double>(xi, op_->cols(), "x");
    const auto y = as_span<double>(yi, op_->rows(), "out");
    py::gil_scoped_release release;
    const Array<double> xv(op_->executor(), x);
    Array<double> yv(op_->executor(), y.size());
    op_->apply(1.0, xv, 0.0, yv);
    const std::vector<double> h = yv.to_host();
    std::copy(h.begin(), h.end(), y.begin());
  }

  py::dict solve(const py::buffer& bb, const py::buffer& xb, const std::string& method, const std::string& precond, double tol, int maxiter,
                 int restart) const {
    const auto bi = bb.request(), xi = xb.request(true);
    const auto b = as_span<const double>(bi, op_->rows(), "b");
    const auto x = as_span<double>(xi, op_->rows(), "x");
    SolverOptions o;
    o.method = parse_krylov_method(method);
    o.preconditioner = parse_preconditioner(precond);
    o.tolerance = tol;
    o.max_iterations = maxiter;
    o.restart = restart;
    SolverResult r;
    {
      py::gil_scoped_release release;
      const Array<double> bv(op_->executor(), b);
      Array<double> xv(op_->executor(), std::span<const double>(x.data(), x.size()));
      r = hsparse::solve(*op_, bv, xv, o);
      const std::vector<double> h = xv.to_host();
      std::copy(h.begin(), h.end(), x.begin());
    }
    return solver_report(r, r.seconds + r.setup_seconds);
  }

  std::int64_t rank() const { return comm_->rank(); }
  std::int64_t size() const { return comm_->size(); }
  std::vector<std::int64_t> row_offsets() const { return op_->row_partition().offsets; }
  std::vector<std::int64_t> column_offsets() const { return op_->column_partition().offsets; }
  std::string description() const { return op_->description(); }
  std::string transport() const { return distributed::to_string(op_->transport()); }

 private:
  CommunicatorPtr comm_;
  std::unique_ptr<DistributedSpmv<double, std::int32_t>> op_;
};

}  // namespace

void register_distributed(py::module_& m) {
  m.def("_built_with_mpi", &built_with_mpi, "Whether the library was built with MPI.");
  m.def(
      "_world_rank_size",
      [] {
        const CommunicatorPtr w = world_communicator();
        return std::make_pair(static_cast<long long>(w->rank()), static_cast<long long>(w->size()));
      },
      "This process's rank and the number of ranks the launcher started (0, 1 without one).");
  py::class_<Distributed>(m, "_Distributed", "The C++ side of hsparse.distributed.DistributedMatrix.")
      .def(py::init<const Matrix&, std::int64_t, const std::string&, const std::string&, const std::string&, bool>(), py::arg("rows"),
           py::arg("comm_handle"), py::arg("device"), py::arg("format"), py::arg("transport"), py::arg("overlap"))
      .def("_matvec", &Distributed::matvec, py::arg("x"), py::arg("out"))
      .def("_solve", &Distributed::solve, py::arg("b"), py::arg("x"), py::arg("method"), py::arg("precond"), py::arg("tol"), py::arg("maxiter"),
           py::arg("restart"))
      .def_property_readonly("rank", &Distributed::rank)
      .def_property_readonly("size", &Distributed::size)
      .def_property_readonly("row_offsets", &Distributed::row_offsets)
      .def_property_readonly("column_offsets", &Distributed::column_offsets)
      .def_property_readonly("description", &Distributed::description)
      .def_property_readonly("transport", &Distributed::transport);
}

}  // namespace hsparse::python
