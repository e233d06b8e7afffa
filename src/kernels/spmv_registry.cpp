// The registry's lookups across backends (kernels/spmv_registry.hpp).
#include "hsparse/kernels/spmv_registry.hpp"

#include <algorithm>

#include "hsparse/core/error.hpp"

namespace hsparse {

namespace {

// The parameters every CUDA kernel of ours honours, added here once rather
// than by each registration: x kept in L2 (backends/cuda/l2_window.hpp;
// never for the cuSPARSE baselines, which run as their users run them), and,
// for the formats the GPU converts, where the conversion runs.
void add_cuda_backend_params(Format format, BackendFormat& r) {
  const bool converts = format_traits(format).gpu_converts;
  for (SpmvKernel& k : r.kernels) {
    const bool baseline = k.name.rfind("cusparse", 0) == 0;
    const bool has_convert = std::any_of(k.params.begin(), k.params.end(), [](const KernelParam& p) { return p.name == "convert_on_device"; });
    if (converts && !has_convert) {
      k.params.push_back({"convert_on_device", "1: upload the CSR and convert on the GPU (where it fits in half the free memory); 0: convert on the host, upload the result", {0, 1}});
    }
    if (!baseline) {
      k.params.push_back({"x_in_l2", "1: keep x in L2 with an access-policy window during each product; 0: never (absent: the backend's rule, cuda::keep_x_in_l2)", {0, 1}});
    }
  }
}

template <class Make>
std::vector<BackendFormat> table(Make make) {
  std::vector<BackendFormat> t;
  for (Format f : all_formats()) t.push_back(make(f));
  return t;
}

}  // namespace

const BackendFormat& spmv_registration(Backend backend, Format format) {
  // One table per backend, built on first use in HSPARSE_FORMATS' order.
#define HSPARSE_REGISTRATION_CASE(ns, f) \
  case Format::f: r = ns::registration_##f(); break;
#define HSPARSE_OPENMP_CASE(f) HSPARSE_REGISTRATION_CASE(openmp, f)
#define HSPARSE_CUDA_CASE(f) HSPARSE_REGISTRATION_CASE(cuda, f)
  static const std::vector<BackendFormat> cpu = table([](Format f) {
    BackendFormat r;
    switch (f) { HSPARSE_FORMATS(HSPARSE_OPENMP_CASE) }
    return r;
  });
  static const std::vector<BackendFormat> gpu = table([](Format f) {
    BackendFormat r;
    switch (f) { HSPARSE_FORMATS(HSPARSE_CUDA_CASE) }
    add_cuda_backend_params(f, r);
    return r;
  });
#undef HSPARSE_CUDA_CASE
#undef HSPARSE_OPENMP_CASE
#undef HSPARSE_REGISTRATION_CASE
  return (backend == Backend::cuda ? gpu : cpu).at(static_cast<std::size_t>(format));
}

std::vector<std::string> spmv_kernel_names(Backend backend, Format format) {
  std::vector<std::string> names;
  for (const auto& k : spmv_registration(backend, format).kernels) names.push_back(k.name);
  return names;
}

std::string choose_spmv_kernel(Backend backend, Format format, const std::string& kernel) {
  const auto& kernels = spmv_registration(backend, format).kernels;
  if (kernels.empty()) {
    throw Error(ErrorCode::internal, std::string("format ") + to_string(format) + " registers no " + to_string(backend) + " kernel");
  }
  if (kernel.empty()) return kernels.front().name;
  std::string list;
  for (const auto& k : kernels) {
    if (k.name == kernel) return kernel;
    list += (list.empty() ? "" : ", ") + k.name;
  }
  throw Error(ErrorCode::invalid_argument, std::string("unknown ") + (backend == Backend::cuda ? "CUDA" : "CPU") + " kernel '" + kernel +
                                               "' for format " + to_string(format) + " (known: " + list + ")");
}

const SpmvKernel& spmv_kernel(Backend backend, Format format, const std::string& kernel) {
  for (const auto& k : spmv_registration(backend, format).kernels) {
    if (k.name == kernel) return k;
  }
  throw Error(ErrorCode::internal, "no " + std::string(to_string(backend)) + " kernel " + to_string(format) + "/" + kernel + " registered");
}

std::string kernel_param_range(const KernelParam& param) {
  if (param.choices.empty()) return std::to_string(param.min) + ".." + std::to_string(param.max);
  std::string list;
  for (std::size_t i = 0; i < param.choices.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == param.choices.size() ? " or " : ", ") + std::to_string(param.choices[i]);
  }
  return list;
}

void check_kernel_params(Backend backend, Format format, const std::string& kernel, const std::map<std::string, long long>& params) {
  const SpmvKernel& k = spmv_kernel(backend, format, kernel);
  const std::string who = std::string(backend == Backend::cuda ? "CUDA" : "CPU") + " kernel " + to_string(format) + "/" + kernel;
  for (const auto& [name, value] : params) {
    const auto p = std::find_if(k.params.begin(), k.params.end(), [&](const KernelParam& q) { return q.name == name; });
    if (p == k.params.end()) {
      std::string known;
      for (const auto& q : k.params) known += (known.empty() ? "" : ", ") + q.name;
      throw Error(ErrorCode::invalid_argument, who + " has no parameter '" + name + "' (" + (known.empty() ? "it takes none" : "its parameters: " + known) + ")");
    }
    const bool ok = p->choices.empty() ? value >= p->min && value <= p->max
                                       : std::find(p->choices.begin(), p->choices.end(), value) != p->choices.end();
    if (!ok) {
      throw Error(ErrorCode::invalid_argument, who + ": parameter " + name + " must be " + kernel_param_range(*p) + ", not " + std::to_string(value));
    }
  }
}

const std::vector<std::string>& spmv_value_types() {
  static const std::vector<std::string> t = {"float", "double", "complex<float>", "complex<double>"};
  return t;
}

}  // namespace hsparse
