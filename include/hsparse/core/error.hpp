#pragma once
/// @file
/// The one error type of hsparse. Every failure the library detects (bad input
/// files, inconsistent sizes, index overflow, CUDA errors, out of memory)
/// throws hsparse::Error; the code says which kind, the message says where
/// (file and line when there is one) and why.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace hsparse {

/// What kind of failure an Error reports.
enum class ErrorCode {
  invalid_argument,  ///< a caller passed inconsistent sizes or an unknown option
  parse,             ///< a malformed input file (Matrix Market, generator spec)
  io,                ///< a file could not be opened, read or written
  corrupt,           ///< a binary file failed its checksum or header checks
  overflow,          ///< a size does not fit the chosen index type
  invalid_matrix,    ///< a container failed validation
  out_of_memory,     ///< host or device allocation failed
  cuda,              ///< any other CUDA runtime failure
  unsupported,       ///< a feature this build does not have (CUDA, libarchive, MPI)
  communication,     ///< an MPI call failed, or another rank failed in a step all ranks take
  internal,          ///< hsparse broke its own invariant (a bug: please report it)
};

/// The code's name, e.g. "parse".
const char* to_string(ErrorCode code);

/// The exception every hsparse function throws for a failure it detects.
///
/// code() says which kind; what() says where (a file and line for input
/// files) and why, in words meant for the user. Functions document the
/// codes they throw; std::bad_alloc is turned into ErrorCode::out_of_memory
/// where hsparse allocates large arrays. Copyable, as std::runtime_error.
class Error : public std::runtime_error {
 public:
  /// An error of kind `code` with the full message (no prefix is added).
  Error(ErrorCode code, const std::string& message);
  /// The kind of failure.
  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

/// "file:line: reason" — the form every parse error takes.
[[noreturn]] void throw_parse_error(const std::string& file, std::int64_t line,
                                    const std::string& reason);

}  // namespace hsparse
