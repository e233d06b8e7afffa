// hsparse.bench's C++ side: `hsparse bench` (tools/hsparse/bench) run from
// Python, its report written to a folder whose results.json the Python side
// reads back. Only where the benchmark library is built (the tool's
// hsparse_bench; HSPARSE_BUILD_TOOLS).
#include <pybind11/stl.h>

#include <atomic>

#include "bindings.hpp"
#ifdef HSPARSE_PYTHON_BENCH
#include "bench/bench.hpp"
#endif

namespace hsparse::python {

void register_bench(py::module_& m) {
  m.def(
      "_bench",
      [](const std::vector<std::string>& matrices, const std::string& matrices_dir, const std::string& device, bool quick, double min_time,
         long long spmv_count, const std::string& out_dir) {
#ifdef HSPARSE_PYTHON_BENCH
        if (min_time < 0) throw py::value_error("min_time: must be >= 0 (0: the benchmark's default)");
        if (spmv_count < 1) throw py::value_error("spmv_count: must be >= 1, got " + std::to_string(spmv_count));
        bench::Options o;
        o.matrices = matrices;
        o.matrices_dir = matrices_dir;
        o.backend = device;
        o.quick = quick;
        o.min_time_s = min_time;
        o.spmv_count = spmv_count;
        o.out_dir = out_dir;
        py::gil_scoped_release release;
        const std::atomic<bool> stop{false};
        const bench::Report report = bench::run_benchmark(o, stop);
        bench::write_report(report, out_dir);
        return report.interrupted;
#else
        (void)matrices, (void)matrices_dir, (void)device, (void)quick, (void)min_time, (void)spmv_count, (void)out_dir;
        throw Error(ErrorCode::unsupported, "hsparse.bench: this build has no benchmark library (configure with HSPARSE_BUILD_TOOLS=ON)");
#endif
      },
      py::arg("matrices"), py::arg("matrices_dir"), py::arg("device"), py::arg("quick"), py::arg("min_time"), py::arg("spmv_count"),
      py::arg("out_dir"), "Runs hsparse bench, writing its report (report.md, results.json, results.csv, plots) to out_dir.");
}

}  // namespace hsparse::python
