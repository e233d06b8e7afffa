// `hsparse info --formats [--json]`: the format registry as a user sees it,
// every format with its traits and each backend's kernels and value types.
#include "format_listing.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/kernels/spmv_registry.hpp"

namespace hsparse::tool {

namespace {

bool backend_here(Backend b) { return b == Backend::cpu || cuda::device_available(); }

nlohmann::json formats_json() {
  nlohmann::json j = nlohmann::json::array();
  for (Format f : all_formats()) {
    const FormatTraits& t = format_traits(f);
    nlohmann::json e = {{"name", t.name}, {"title", t.title}, {"summary", t.summary}, {"gpu_converts_on_device", t.gpu_converts}};
    e["max_fill"] = t.max_fill > 0 ? nlohmann::json(t.max_fill) : nlohmann::json(nullptr);
    e["tunables"] = nlohmann::json::array();
    for (const auto& p : t.tunables) e["tunables"].push_back({{"option", p.option}, {"meaning", p.meaning}});
    for (Backend b : all_backends()) {
      nlohmann::json be = {{"available_here", backend_here(b)}, {"value_types", spmv_value_types()}};
      be["kernels"] = nlohmann::json::array();
      for (const auto& k : spmv_registration(b, f).kernels) {
        nlohmann::json params = nlohmann::json::array();
        for (const auto& p : k.params) params.push_back({{"name", p.name}, {"meaning", p.meaning}, {"values", kernel_param_range(p)}});
        be["kernels"].push_back({{"name", k.name}, {"summary", k.summary}, {"params", params}});
      }
      e["backends"][to_string(b)] = be;
    }
    j.push_back(e);
  }
  return j;
}

void print_formats_table() {
  std::string types;
  for (const auto& t : spmv_value_types()) types += (types.empty() ? "" : ", ") + t;
  std::printf("%zu formats; every format has kernels on every backend for %s.\n", all_formats().size(), types.c_str());
  std::printf("CUDA here: %s\n\n", cuda::device_description().c_str());
  for (Format f : all_formats()) {
    const FormatTraits& t = format_traits(f);
    std::printf("%-5s %s: %s\n", t.name, t.title, t.summary);
    if (t.max_fill > 0) std::printf("      refuses beyond %g %s per nonzero (--max-fill)\n", t.max_fill, t.fill_meaning);
    for (const auto& p : t.tunables) std::printf("      %-14s %s\n", p.option, p.meaning);
    for (Backend b : all_backends()) {
      std::printf("      %-5s", to_string(b));
      bool first = true;
      for (const auto& k : spmv_registration(b, f).kernels) {
        std::printf("%s%s%s", first ? " " : ", ", k.name.c_str(), first ? " (default)" : "");
        first = false;
      }
      std::printf("%s\n", b == Backend::cuda && t.gpu_converts ? "; converted on the GPU" : "");
      // Each kernel's own parameters (--param NAME=VALUE), the backend's common ones once per line.
      for (const auto& k : spmv_registration(b, f).kernels) {
        std::string own;
        for (const auto& p : k.params) {
          if (p.name != "x_in_l2" && p.name != "convert_on_device") own += (own.empty() ? "" : ", ") + p.name + " (" + kernel_param_range(p) + ")";
        }
        if (!own.empty()) std::printf("            %s takes --param %s\n", k.name.c_str(), own.c_str());
      }
    }
    std::printf("\n");
  }
  std::printf("--param NAME=VALUE sets a kernel's parameter. Every CUDA kernel but the cuSPARSE baselines also takes x_in_l2 (0 or 1),\n"
              "and every one that converts on the GPU convert_on_device (0 or 1). hsparse info --formats --json adds each kernel's summary\n"
              "and each parameter's meaning.\n");
}

}  // namespace

int print_formats(bool json) {
  if (json) {
    std::printf("%s\n", nlohmann::json{{"formats", formats_json()}}.dump(2).c_str());
  } else {
    print_formats_table();
  }
  return 0;
}

}  // namespace hsparse::tool
