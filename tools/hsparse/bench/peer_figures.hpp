#pragma once
// Figures of SpMV libraries the bench cannot run in-process (issue 18):
// DASP (Lu and Liu, SC'23, tensor-core SpMV, public code), measured on an
// NVIDIA H200 in double precision, 1000 back-to-back calls without an L2
// flush (../shared/ENVIRONMENT.md). They are compared only with
// our back-to-back figures, and only on an H200 (device name checked), on
// exactly the matrices they were measured on (`hsparse bench --peer-suite`).
#include <optional>
#include <string>
#include <vector>

namespace hsparse::bench {

struct PeerFigure {
  const char* library;  // "DASP"
  const char* matrix;   // the generator spec, as the bench names it
  double gflops;        // back to back
};

const std::vector<PeerFigure>& peer_figures();
// The peer's figure for `matrix` when `device` is the one it was measured on (an H200).
std::optional<PeerFigure> peer_figure(const std::string& matrix, const std::string& device);
// The matrices of peer_figures(), in order (the --peer-suite sources).
std::vector<std::string> peer_suite();

}  // namespace hsparse::bench
