// The CUDA backend's host-side rules and names (backends/cuda/csr_spmv.hpp,
// tridiagonal.hpp, cusparse_spmv.hpp), compiled in every build: the tuner,
// the advisor and the CLI use them whether or not this build has CUDA.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hsparse/backends/cuda/csr_spmv.hpp"
#include "hsparse/backends/cuda/cusparse_spmv.hpp"
#include "hsparse/backends/cuda/tridiagonal.hpp"
#include "hsparse/core/error.hpp"

namespace hsparse::cuda {

namespace {
// Section 5.4's coop: the smallest power of two above sqrt(mean row length), at most 32.
int rule_coop(long long rows, long long nnz) {
  const double mean = rows > 0 ? static_cast<double>(nnz) / static_cast<double>(rows) : 0;
  int coop = 1;
  while (coop < 32 && coop <= std::sqrt(mean)) coop *= 2;
  return coop;
}
// Repeat as large as keeps at least min_blocks blocks (eq. (5) solved for repeat).
int rule_repeat(long long rows, int coop, int block_size, double min_blocks) {
  const double per_repeat = static_cast<double>(rows) * coop / (block_size * std::max(1.0, min_blocks));
  return static_cast<int>(std::clamp(std::floor(per_repeat), 1.0, static_cast<double>(1 << 20)));
}
}  // namespace

CsrVectorParams csr_vector_paper_rule(long long rows, long long nnz) {
  CsrVectorParams p;
  p.block_size = 128;
  p.coop = rule_coop(rows, nnz);
  p.repeat = rule_repeat(rows, p.coop, p.block_size, 1500);
  return p;
}

CsrVectorParams csr_vector_fixed_rule(long long rows, long long nnz, const GpuShape& gpu) {
  CsrVectorParams p;
  p.block_size = 128;
  p.coop = rule_coop(rows, nnz);
  const int resident = std::max(1, std::min(gpu.threads_per_multiprocessor / p.block_size, gpu.blocks_per_multiprocessor));
  p.repeat = rule_repeat(rows, p.coop, p.block_size, kFixedRuleWaves * gpu.multiprocessors * resident);
  return p;
}

const char* to_string(TridiagonalAlgorithm a) {
  switch (a) {
    case TridiagonalAlgorithm::automatic: return "auto";
    case TridiagonalAlgorithm::thomas: return "thomas";
    case TridiagonalAlgorithm::cr: return "cr";
    case TridiagonalAlgorithm::pcr: return "pcr";
    case TridiagonalAlgorithm::hybrid: return "hybrid";
    case TridiagonalAlgorithm::partition: return "partition";
  }
  return "?";
}

TridiagonalAlgorithm parse_tridiagonal_algorithm(const std::string& name) {
  for (auto a : {TridiagonalAlgorithm::automatic, TridiagonalAlgorithm::thomas, TridiagonalAlgorithm::cr, TridiagonalAlgorithm::pcr,
                 TridiagonalAlgorithm::hybrid, TridiagonalAlgorithm::partition}) {
    if (name == to_string(a)) return a;
  }
  throw Error(ErrorCode::invalid_argument, "unknown tridiagonal algorithm '" + name + "' (known: auto, thomas, cr, pcr, hybrid, partition)");
}

std::string CusparseSpmmVariant::name() const {
  const char* alg = algorithm == CusparseSpmmAlgorithm::csr_alg1 ? "ALG1" : algorithm == CusparseSpmmAlgorithm::csr_alg2 ? "ALG2" : "default";
  return std::string(alg) + (order == DenseOrder::row_major ? ", row-major" : ", column-major");
}

const std::vector<CusparseSpmmVariant>& cusparse_spmm_variants() {
  using A = CusparseSpmmAlgorithm;
  static const std::vector<CusparseSpmmVariant> all = {{A::default_algorithm, DenseOrder::column_major}, {A::csr_alg1, DenseOrder::column_major},
                                                       {A::csr_alg2, DenseOrder::column_major},          {A::csr_alg1, DenseOrder::row_major},
                                                       {A::csr_alg2, DenseOrder::row_major}};
  return all;
}

}  // namespace hsparse::cuda
