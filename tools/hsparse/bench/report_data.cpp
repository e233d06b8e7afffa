// results.json and results.csv of a bench run (report_parts.hpp); reading them back is report.cpp's read_json.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "hsparse/io/atomic_file.hpp"
#include "hsparse/core/error.hpp"
#include "report_parts.hpp"

namespace hsparse::bench::detail {

json to_json(const Result& x) {
  json j = {{"matrix", x.matrix}, {"backend", x.backend}, {"library", x.library}, {"format", x.format}, {"kernel", x.kernel},
            {"status", x.status}, {"message", x.message}, {"setup_s", x.setup_s}, {"median_s", x.time.median_s},
            {"min_s", x.time.min_s}, {"max_s", x.time.max_s}, {"repetitions", x.time.repetitions}, {"gflops", x.gflops},
            {"matrix_bytes", x.matrix_bytes}, {"occupancy", x.occupancy}, {"bytes_min", x.bytes_min}, {"bytes_csr_min", x.bytes_csr_min},
            {"bytes_effective", x.bytes_effective}, {"gbs_min", x.gbs_min}, {"gbs_csr_min", x.gbs_csr_min},
            {"gbs_effective", x.gbs_effective}, {"bandwidth_fraction", x.bandwidth_fraction}, {"alpha", x.alpha},
            {"model_gflops", x.model_gflops}, {"csr_reference", x.csr_reference}, {"automatic", x.automatic},
            {"csr_measured", x.csr_measured}, {"above_model", x.above_model}, {"breakeven", breakeven_text(x)}};
  j["choice_s"] = x.choice_s;  // auto's own overhead, beside setup_s (0 for the other kernels: every row has every column)
  // The GPU's second timing mode (flat, for the CSV; 0 samples: not measured).
  j["back_to_back_median_s"] = x.time_back_to_back.median_s;
  j["back_to_back_min_s"] = x.time_back_to_back.min_s;
  j["back_to_back_max_s"] = x.time_back_to_back.max_s;
  j["back_to_back_samples"] = x.time_back_to_back.repetitions;
  j["gflops_back_to_back"] = x.gflops_back_to_back;
  j["relative_error"] = x.relative_error;
  j["speedup_vs_baseline_csr"] = x.speedup_vs_baseline_csr ? json(*x.speedup_vs_baseline_csr) : json(nullptr);
  j["speedup_vs_baseline_best"] = x.speedup_vs_baseline_best ? json(*x.speedup_vs_baseline_best) : json(nullptr);
  j["breakeven_spmvs"] = x.breakeven_spmvs ? json(*x.breakeven_spmvs) : json(nullptr);
  return j;
}

json to_json(const Report& r) {
  const auto& e = r.env;
  json j;
  j["hsparse_bench"] = 1;
  j["environment"] = {{"backend", e.backend}, {"date", e.date}, {"commit", e.commit}, {"device", e.device}, {"driver", e.driver},
                      {"cpu", e.cpu}, {"threads", e.threads}, {"read_bytes_per_s", e.read_bytes_per_s},
                      {"copy_bytes_per_s", e.copy_bytes_per_s}, {"cache_bytes", e.cache_bytes}};
  j["interrupted"] = r.interrupted;
  j["spmv_count"] = r.spmv_count;
  j["matrices"] = json::array();
  for (const auto& m : r.matrices) {
    j["matrices"].push_back({{"name", m.name}, {"rows", m.rows}, {"cols", m.cols}, {"nnz", m.nnz}, {"csr_bytes", m.csr_bytes},
                             {"row_cv", m.row_cv}, {"max_row", m.max_row}, {"cache_resident", m.cache_resident}, {"load_s", m.load_s}, {"values", m.values}});
  }
  j["results"] = json::array();
  for (const auto& x : r.results) j["results"].push_back(to_json(x));
  return j;
}

std::string csv_quote(const std::string& s) {
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void write_csv(const Report& r, const std::string& path) {
  io::AtomicOutputFile file(path);
  std::ostream& out = file.stream();
  const json j = to_json(r);
  const std::vector<std::string> env_keys = {"date", "commit", "device", "driver"};
  std::vector<std::string> keys;
  if (!j["results"].empty()) {
    for (auto it = j["results"][0].begin(); it != j["results"][0].end(); ++it) keys.push_back(it.key());
  }
  for (const auto& k : env_keys) out << k << ",";
  for (std::size_t i = 0; i < keys.size(); ++i) out << keys[i] << (i + 1 < keys.size() ? "," : "\n");
  for (const auto& row : j["results"]) {
    for (const auto& k : env_keys) out << csv_quote(j["environment"][k].get<std::string>()) << ",";
    for (std::size_t i = 0; i < keys.size(); ++i) {
      // find(), not operator[]: on a const json a missing key is undefined behaviour (a row written by an older hsparse).
      const auto it = row.find(keys[i]);
      if (it != row.end() && it->is_string()) out << csv_quote(it->get<std::string>());
      else if (it != row.end() && !it->is_null()) out << it->dump();
      out << (i + 1 < keys.size() ? "," : "\n");
    }
  }  file.commit();
}

}  // namespace hsparse::bench::detail
