// hsparse.solve's C++ side: CG, pipelined CG or GMRES (solvers/krylov.hpp)
// with an SpMV plan of a given format (or the advisor's) as the operator, on
// the CPU or the GPU. The GIL is released during the solve and taken back
// only to call the Python callback.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "bindings.hpp"
#include <optional>

#include "hsparse/core/array.hpp"
#include "hsparse/core/timer.hpp"
#include "hsparse/plans/backend_choice.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "hsparse/tuning/advisor.hpp"

namespace hsparse::python {

namespace {

struct SolveRequest {
  std::string method, precond, device, format;
  double tol = 1e-8;
  int maxiter = 10000, restart = 30, block_size = 0, chebyshev_degree = 4;
  std::string triangular = "auto";
  int sweeps = 3;
  bool single_factors = false;
  py::object callback;  // None, or f(iteration, relative_residual)
};

template <class V, class I>
py::dict solve_typed(const Csr<V, I>& a, const py::buffer& bb, const py::buffer& xb, const SolveRequest& r) {
  {  // complex too: cg (Hermitian), gmres and bicgstab, on the CPU (solve() says so elsewhere)
    const auto bi = bb.request(), xi = xb.request(true);
    const auto b = as_span<const V>(bi, a.rows, "b");
    const auto x = as_span<V>(xi, a.cols, "x");  // the initial guess in, the solution out
    if (a.rows != a.cols) throw py::value_error("solve: the matrix must be square, got " + std::to_string(a.rows) + " x " + std::to_string(a.cols));
    SolverOptions o;
    o.method = parse_krylov_method(r.method);
    o.preconditioner = parse_preconditioner(r.precond);
    o.tolerance = r.tol;
    o.max_iterations = r.maxiter;
    o.restart = r.restart;
    o.block_size = r.block_size;
    o.chebyshev_degree = r.chebyshev_degree;
    o.triangular = r.triangular;
    o.triangular_sweeps = r.sweeps;
    o.single_factors = r.single_factors;
    std::optional<py::error_already_set> callback_error;
    if (!r.callback.is_none()) {
      // The solver must not throw from progress: a failing callback is kept
      // and raised after the solve.
      o.progress = [&](int iteration, double residual) {
        py::gil_scoped_acquire acquire;
        if (callback_error) return;
        try {
          r.callback(iteration, residual);
        } catch (py::error_already_set& e) {
          callback_error.emplace(std::move(e));
        }
      };
    }
    SolverResult result;
    double total = 0;
    {
      py::gil_scoped_release release;
      const Stopwatch watch;
      const ExecutorPtr ex = make_executor(r.device);
      SpmvOptions so;
      so.format = parse_format_choice(r.format);  // "auto": the plan's own choice (resolve_spmv_options)
      so.spmv_count = std::max(1, r.maxiter);
      const SpmvPlan<V, I> plan(ex, a, so);
      result = solve(a, plan, b, x, o);
      total = watch.seconds();
    }
    if (callback_error) throw std::move(*callback_error);
    return solver_report(result, total);
  }
}

}  // namespace

py::dict solver_report(const SolverResult& result, double total_seconds) {
  py::dict info;
  info["status"] = to_string(result.status);
  info["converged"] = result.converged();
  info["iterations"] = result.iterations;
  info["residual"] = result.relative_residual;
  info["history"] = result.history;
  info["seconds"] = result.seconds;
  info["setup_seconds"] = result.setup_seconds;
  info["total_seconds"] = total_seconds;
  info["message"] = result.message;
  info["preconditioner"] = result.preconditioner;
  return info;
}

py::list advise_any(const Matrix& m, long long spmv_count, const std::string& device, double value_tolerance) {
  if (spmv_count < 1) throw py::value_error("spmv_count: must be >= 1, got " + std::to_string(spmv_count));
  if (!(value_tolerance >= 0)) throw py::value_error("value_tolerance: must be >= 0");
  const Backend backend = resolve_backend(device);  // Error(unsupported) saying why for "cuda" without a device
  Advice advice;
  std::string note;
  {
    py::gil_scoped_release release;
    const MachineModel machine = measured_machine(to_string(backend), &note);
    advice = std::visit([&](const auto& a) { return advise(a, machine, spmv_count, value_tolerance); }, *m.csr);
  }
  py::list ranked;
  for (const FormatPrediction& p : advice.ranked) {
    py::dict d;
    d["format"] = to_string(p.format);
    d["kernel"] = p.kernel;
    d["possible"] = p.possible;
    d["why"] = p.why;
    d["matrix_bytes"] = p.matrix_bytes;
    d["efficiency"] = p.efficiency;
    d["predicted_gflops"] = p.predicted_gflops;
    d["spmv_seconds"] = p.spmv_seconds;
    d["conversion_seconds"] = p.conversion_seconds;
    d["total_seconds"] = p.total_seconds;
    d["machine_note"] = note;
    ranked.append(d);
  }
  return ranked;
}

void register_solvers(py::module_& m) {
  m.def(
      "_solve",
      [](const Matrix& a, const py::buffer& b, const py::buffer& x, const std::string& method, const std::string& precond, double tol, int maxiter,
         int restart, const std::string& device, const std::string& format, const py::object& callback, int block_size, int chebyshev_degree,
         const std::string& triangular, int sweeps, bool single_factors) {
        if (!(tol > 0)) throw py::value_error("tol: must be > 0");
        if (maxiter < 1) throw py::value_error("maxiter: must be >= 1, got " + std::to_string(maxiter));
        if (restart < 1) throw py::value_error("restart: must be >= 1, got " + std::to_string(restart));
        if (block_size < 0 || block_size > 32) throw py::value_error("block_size: must be in 0..32 (0: detected), got " + std::to_string(block_size));
        if (chebyshev_degree < 1 || chebyshev_degree > 64) throw py::value_error("chebyshev_degree: must be in 1..64, got " + std::to_string(chebyshev_degree));
        const SolveRequest r{method, precond, device, format, tol, maxiter, restart, block_size, chebyshev_degree, triangular, sweeps, single_factors, callback};
        return std::visit([&](const auto& csr) { return solve_typed(csr, b, x, r); }, *a.csr);
      },
      py::arg("matrix"), py::arg("b"), py::arg("x"), py::arg("method"), py::arg("precond"), py::arg("tol"), py::arg("maxiter"), py::arg("restart"),
      py::arg("device"), py::arg("format"), py::arg("callback"), py::arg("block_size") = 0, py::arg("chebyshev_degree") = 4, py::arg("triangular") = "auto",
      py::arg("sweeps") = 3, py::arg("single_factors") = false,
      "Solves A x = b in place of x (the initial guess); returns the solver's report as a dict.");
  m.def(
      "_machine",
      [](const std::string& device) {
        const Backend backend = resolve_backend(device);
        std::string note;
        MachineModel machine;
        {
          py::gil_scoped_release release;
          machine = measured_machine(to_string(backend), &note);
        }
        py::dict d;
        d["backend"] = machine.backend;
        d["read_bytes_per_s"] = machine.read_bytes_per_s;
        d["cache_bytes"] = machine.cache_bytes;
        d["note"] = note;
        return d;
      },
      py::arg("device"), "The advisor's model of this machine: measured read bandwidth and cache (kept in the tuning cache once measured).");
  m.def("_advise", &advise_any, py::arg("matrix"), py::arg("spmv_count"), py::arg("device"), py::arg("value_tolerance"),
        "The advisor's ranking of every format (least total time first, refusals last), as dicts.");
}

}  // namespace hsparse::python
