#pragma once
// The tool's option validators and its one backend choice. A value outside
// its range is an error naming the option and the range in words (CLI11's
// own PositiveNumber prints the largest double, 300 digits); nothing is
// ever replaced by a default behind the user's back.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

#include "hsparse/backends/cuda/device.hpp"
#include "hsparse/core/error.hpp"
#include "hsparse/formats/format.hpp"
#include "hsparse/plans/backend_choice.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include <vector>

namespace hsparse::tool {

namespace detail {
// The whole text as an integer, or nothing.
inline std::optional<long long> whole_integer(const std::string& s) {
  std::size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(s, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return used == s.size() ? std::optional<long long>(v) : std::nullopt;
}

// A validator accepting the integers `ok` accepts, described as `range`.
template <class Ok>
CLI::Validator integer_validator(Ok ok, const std::string& range, const std::string& name) {
  return CLI::Validator(
      [ok, range](std::string& s) -> std::string {
        const auto v = whole_integer(s);
        return v && ok(*v) ? std::string{} : "'" + s + "' is not " + range;
      },
      name);
}
}  // namespace detail

// An integer in [lo, hi] (hi < 0: no upper bound).
inline CLI::Validator integer_in(long long lo, long long hi = -1) {
  const std::string range = hi < 0 ? "an integer >= " + std::to_string(lo)
                                   : "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return detail::integer_validator([lo, hi](long long v) { return v >= lo && (hi < 0 || v <= hi); }, range,
                                   range.substr(range.find(' ') + 1));
}

// A power of two in [1, hi].
inline CLI::Validator power_of_two_up_to(long long hi) {
  const std::string range = "a power of two in [1, " + std::to_string(hi) + "]";
  return detail::integer_validator([hi](long long v) { return v >= 1 && v <= hi && (v & (v - 1)) == 0; }, range, range);
}

namespace detail {
// The whole text as a finite number, or nothing: NaN and infinities are no
// option's valid value (CLI::Range compares, and every comparison with NaN
// is false, so it let --value-tolerance nan through).
inline std::optional<double> finite_real(const std::string& s) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  return used == s.size() && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

// 0.01, not 0.010000 (std::to_string) or CLI11's 17 digits.
inline std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// A validator accepting the finite numbers `ok` accepts, described as `range`.
template <class Ok>
CLI::Validator real_validator(Ok ok, const std::string& range) {
  return CLI::Validator(
      [ok, range](std::string& s) -> std::string {
        const auto v = finite_real(s);
        return v && ok(*v) ? std::string{} : "'" + s + "' is not " + range;
      },
      range);
}
}  // namespace detail

// A finite real number > 0 (or >= 0 when zero_allowed).
inline CLI::Validator real_above_zero(bool zero_allowed = false) {
  return detail::real_validator([zero_allowed](double v) { return v > 0 || (zero_allowed && v == 0); },
                                zero_allowed ? "a number >= 0" : "a number > 0");
}

// A finite real number in [lo, hi]: the checked CLI::Range for doubles.
inline CLI::Validator real_in(double lo, double hi) {
  return detail::real_validator([lo, hi](double v) { return v >= lo && v <= hi; },
                                "a number in [" + detail::short_number(lo) + ", " + detail::short_number(hi) + "]");
}

// Any finite real number (e.g. a scaling factor).
inline CLI::Validator finite_number() {
  return detail::real_validator([](double) { return true; }, "a finite number");
}

// --backend of every subcommand: auto (the GPU if there is one), cpu or cuda.
inline constexpr const char* kBackendHelp = "auto (the GPU if there is one, else the CPU), cpu or cuda";
// --value-tolerance: the relative rounding of stored values the advisor may
// accept (issue 18's opt-in reduced precision: csr16-single rounds to 2^-24
// = 6e-8); 0, the default, keeps every choice exact.
inline CLI::Option* add_value_tolerance_option(CLI::App* cmd, double& tolerance) {
  return cmd->add_option("--value-tolerance", tolerance,
                         "auto/advice: relative rounding of stored values allowed, in [0, 0.01] (0: exact formats only; 1e-7 admits csr16-single)")
      ->check(real_in(0.0, 0.01))
      ->capture_default_str();
}

// --x-in-l2 (spmv, bench): the CUDA kernels' parameter x_in_l2 by name;
// auto leaves it unset (the backend's rule).
inline CLI::Option* add_x_in_l2_option(CLI::App* cmd, std::optional<bool>& choice) {
  return cmd
      ->add_option_function<std::string>(
          "--x-in-l2", [&choice](const std::string& v) { choice = v == "auto" ? std::nullopt : std::optional<bool>(v == "on"); },
          "CUDA: keep x in L2 during each product, a persisting access-policy window: auto (the backend's rule), on or off")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->default_str("auto");
}

// A kernel parameter (SpmvOptions::params) set by its own option, e.g.
// --coop for CUDA CSR vector's coop; the plan checks that the kernel takes it.
inline CLI::Option* add_kernel_param_option(CLI::App* cmd, const std::string& option, const std::string& param,
                                            std::map<std::string, long long>& params, const std::string& help) {
  return cmd->add_option_function<long long>(option, [&params, param](long long v) { params[param] = v; }, help);
}

// --param NAME=VALUE (repeatable): any parameter a kernel registers
// (hsparse info --formats lists them with their ranges).
inline CLI::Option* add_kernel_params_option(CLI::App* cmd, std::map<std::string, long long>& params) {
  return cmd->add_option_function<std::vector<std::string>>(
      "--param",
      [&params](const std::vector<std::string>& settings) {
        for (const std::string& s : settings) {
          const auto eq = s.find('=');
          std::size_t used = 0;
          long long value = 0;
          try {
            if (eq == std::string::npos || eq == 0) throw std::invalid_argument(s);
            value = std::stoll(s.substr(eq + 1), &used);
          } catch (const std::exception&) {
            throw CLI::ValidationError("--param", "'" + s + "' is not NAME=INTEGER (hsparse info --formats lists each kernel's parameters)");
          }
          if (used != s.size() - eq - 1) throw CLI::ValidationError("--param", "'" + s + "': the value is not an integer");
          params[s.substr(0, eq)] = value;
        }
      },
      "A kernel's own parameter, NAME=INTEGER, repeatable (hsparse info --formats lists each kernel's, with their ranges; a parameter the "
      "kernel does not take is an error)");
}

inline CLI::Option* add_backend_option(CLI::App* cmd, std::string& backend) {
  backend = "auto";
  return cmd->add_option("--backend", backend, kBackendHelp)->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
}

// Under mpirun with several ranks (hsparse spmv and solve): how the rows
// are cut and how GPU ranks' halo travels (docs/distributed.md).
inline void add_rank_options(CLI::App* cmd, std::string& cut, std::string& transport) {
  cut = "nonzeros";
  transport = "automatic";
  cmd->add_option("--cut", cut,
                  "Under mpirun with several ranks: cut a file's rows into equal rows or equal nonzeros (generators: equal rows), or in proportion "
                  "to each rank's measured SpMV speed (speed: CPU and GPU ranks together), or by METIS's graph cut (graph: a file)")
      ->check(CLI::IsMember({"rows", "nonzeros", "speed", "graph"}))
      ->capture_default_str();
  cmd->add_option("--transport", transport, "Under mpirun with several GPU ranks: how the halo travels (automatic: the fastest measured at setup)")
      ->check(CLI::IsMember({"automatic", "host", "device-mpi", "nccl"}))
      ->capture_default_str();
}

// --backend resolved by the library's one rule (plans/backend_choice.hpp), as a name.
inline std::string resolve_backend(const std::string& requested) { return to_string(hsparse::resolve_backend(requested)); }

// --format values: the registry's formats, then "auto" (the advisor's choice).
inline std::vector<std::string> format_choices() {
  std::vector<std::string> names = format_name_list();
  names.push_back("auto");
  return names;
}

}  // namespace hsparse::tool
