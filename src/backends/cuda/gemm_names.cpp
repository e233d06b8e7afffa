// The GPU GEMM's names and compiled tiles (backends/cuda/dense_ops.hpp),
// compiled in every build: the CLI and the dispatcher name them even where
// CUDA is absent (and then say so when asked to run).
#include <string>
#include <vector>

#include "hsparse/backends/cuda/dense_ops.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

const char* to_string(GemmAlgorithm a) {
  switch (a) {
    case GemmAlgorithm::untiled: return "untiled";
    case GemmAlgorithm::tiled: return "tiled";
    case GemmAlgorithm::register_blocked: return "register";
    case GemmAlgorithm::cublas: return "cublas";
  }
  return "?";
}

GemmAlgorithm parse_gemm_algorithm(const std::string& name) {
  for (auto a : {GemmAlgorithm::untiled, GemmAlgorithm::tiled, GemmAlgorithm::register_blocked, GemmAlgorithm::cublas}) {
    if (name == to_string(a)) return a;
  }
  throw Error(ErrorCode::invalid_argument, "unknown GEMM algorithm '" + name + "' (untiled, tiled, register, cublas)");
}

std::string GemmTile::name() const {
  return std::to_string(bm) + "x" + std::to_string(bn) + "x" + std::to_string(bk) + "/" + std::to_string(tm) + "x" + std::to_string(tn);
}

const std::vector<GemmTile>& gemm_tiles() {
  static const std::vector<GemmTile> tiles = {{64, 64, 16, 4, 4}, {128, 128, 8, 8, 8}, {128, 64, 8, 8, 4}, {64, 128, 8, 4, 8}, {128, 128, 16, 8, 8}};
  return tiles;
}

}  // namespace hsparse::cuda
