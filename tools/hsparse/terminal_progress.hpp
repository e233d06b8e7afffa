#pragma once
// A solver's progress on a terminal (hsparse solve, hsparse fem): the
// iteration and residual, redrawn at most 5 times a second; nothing when
// stderr is piped (logs stay clean). The caller clears the line at the end.
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <memory>

#include "hsparse/core/timer.hpp"

namespace hsparse::tool {

inline std::function<void(int, double)> terminal_progress() {
  if (!isatty(2)) return {};
  auto watch = std::make_shared<Stopwatch>();
  auto last = std::make_shared<double>(-1);
  return [watch, last](int iteration, double residual) {
    const double now = watch->seconds();
    if (now - *last < 0.2) return;
    *last = now;
    std::fprintf(stderr, "\r\033[K  iteration %d  ||r||/||b|| %.3e  (%.1f s)", iteration, residual, now);
    std::fflush(stderr);
  };
}

}  // namespace hsparse::tool
