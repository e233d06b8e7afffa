// The GPU GEMM's names and compiled tiles (backends/cuda/dense_ops.hpp),
// compiled in every build: the CLI and the dispatcher name them even where
// CUDA is absent (and then say so when asked to run).
#include <cstdio>
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
    case GemmAlgorithm::tensor: return "tensor";
    case GemmAlgorithm::tf32: return "tf32";
    case GemmAlgorithm::cublas: return "cublas";
    case GemmAlgorithm::cublas_tf32: return "cublas-tf32";
  }
  return "?";
}

GemmAlgorithm parse_gemm_algorithm(const std::string& name) {
  constexpr GemmAlgorithm all[] = {GemmAlgorithm::untiled, GemmAlgorithm::tiled, GemmAlgorithm::register_blocked, GemmAlgorithm::tensor,
                                   GemmAlgorithm::tf32,    GemmAlgorithm::cublas, GemmAlgorithm::cublas_tf32};
  std::string names;
  for (auto a : all) {
    if (name == to_string(a)) return a;
    names += std::string(names.empty() ? "" : ", ") + to_string(a);
  }
  throw Error(ErrorCode::invalid_argument, "unknown GEMM algorithm '" + name + "' (" + names + ")");
}

std::string GemmTile::name() const {
  if (bk == 0) return std::to_string(bm) + "x" + std::to_string(bn) + "/" + std::to_string(tm) + "x" + std::to_string(tn);
  return std::to_string(bm) + "x" + std::to_string(bn) + "x" + std::to_string(bk) + "/" + std::to_string(tm) + "x" + std::to_string(tn);
}

const std::vector<GemmTile>& gemm_tiles() {
  // First: the fastest at 8192^3 NN on the H200 in float and double (16-byte panel copies: 128x128x32/8x8 35.5 and
  // 21.5 TFLOP/s, 128x128x16 34.4 and 20.4, 128x128x8 30.2 and 18.0; MAGMA's 64x64x16/4x4 17.3 and 11.2).
  static const std::vector<GemmTile> tiles = {{128, 128, 32, 8, 8}, {128, 128, 16, 8, 8}, {128, 128, 8, 8, 8}, {64, 64, 16, 4, 4}, {128, 64, 8, 8, 4}};
  return tiles;
}

const std::vector<GemmTile>& gemm_tensor_tiles() {
  // First: the fastest DGEMM at 8192^3 NN on the H200 (128x64/64x32 55.0 TFLOP/s, 128x128/64x32 50.7, 64x64/32x32 46.7).
  static const std::vector<GemmTile> tiles = {{128, 64, 0, 64, 32}, {128, 128, 0, 64, 32}, {64, 64, 0, 32, 32}};
  return tiles;
}

GemmTile gemm_tf32_default_tile() {
  // TF32 at 8192^3 NN on the H200: 128x128/64x32 47.0 TFLOP/s, 128x64/64x32 29.0 (the DGEMM's default).
  return {128, 128, 0, 64, 32};
}

GemmTile gemm_tile_for(const std::string& algorithm, const GemmTile& tile) {
  const bool tensor = algorithm == "tensor" || algorithm == "tf32";
  if (!tensor && algorithm != "register") return tile;
  if ((tile.bk == 0) == tensor) return tile;
  if (algorithm == "tf32") return gemm_tf32_default_tile();
  return tensor ? gemm_tensor_tiles().front() : gemm_tiles().front();
}

GemmTile parse_gemm_tile(const std::string& text, const std::string& option) {
  GemmTile t;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%dx%dx%d/%dx%d%c", &t.bm, &t.bn, &t.bk, &t.tm, &t.tn, &tail) == 5) return t;
  t.bk = 0;
  if (std::sscanf(text.c_str(), "%dx%d/%dx%d%c", &t.bm, &t.bn, &t.tm, &t.tn, &tail) == 4) return t;
  throw Error(ErrorCode::invalid_argument,
              option + " " + text + ": expected BMxBNxBK/TMxTN (register-blocked, e.g. 64x64x16/4x4) or BMxBN/WMxWN (tensor-core, e.g. 128x128/64x32)");
}

}  // namespace hsparse::cuda
