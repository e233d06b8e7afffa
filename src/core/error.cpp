#include "hsparse/core/error.hpp"

namespace hsparse {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::invalid_argument: return "invalid argument";
    case ErrorCode::parse: return "parse error";
    case ErrorCode::io: return "I/O error";
    case ErrorCode::corrupt: return "corrupt file";
    case ErrorCode::overflow: return "index overflow";
    case ErrorCode::invalid_matrix: return "invalid matrix";
    case ErrorCode::out_of_memory: return "out of memory";
    case ErrorCode::cuda: return "CUDA error";
    case ErrorCode::unsupported: return "unsupported";
    case ErrorCode::communication: return "communication error";
    case ErrorCode::internal: return "internal error";
  }
  return "error";
}

Error::Error(ErrorCode code, const std::string& message)
    : std::runtime_error(message), code_(code) {}

void throw_parse_error(const std::string& file, std::int64_t line, const std::string& reason) {
  throw Error(ErrorCode::parse, file + ":" + std::to_string(line) + ": " + reason);
}

}  // namespace hsparse
