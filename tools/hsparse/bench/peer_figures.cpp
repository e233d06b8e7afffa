// DASP's figures on the H200 (peer_figures.hpp).
#include "peer_figures.hpp"

namespace hsparse::bench {

const std::vector<PeerFigure>& peer_figures() {
  static const std::vector<PeerFigure> figures = {
      {"DASP", "stencil3d:points=27,n=100", 600},       {"DASP", "fem:block=3,n=48", 559},
      {"DASP", "powerlaw:min=2.5,rows=2000000", 147},   {"DASP", "circuit:n=3000000", 349},
      {"DASP", "random:per_row=10,rows=3000000", 248}, {"DASP", "shortwide:rows=6000,per_row=2600", 254},
  };
  return figures;
}

std::optional<PeerFigure> peer_figure(const std::string& matrix, const std::string& device) {
  if (device.find("H200") == std::string::npos) return std::nullopt;
  for (const auto& f : peer_figures()) {
    if (matrix == f.matrix) return f;
  }
  return std::nullopt;
}

std::vector<std::string> peer_suite() {
  std::vector<std::string> s;
  for (const auto& f : peer_figures()) s.emplace_back(f.matrix);
  return s;
}

}  // namespace hsparse::bench
