#pragma once
// Reading and writing whole files, transparently (de)compressed:
//   *.gz               gzip (zlib), read with full integrity checks (CRC, length)
//   *.tar.gz, *.tgz    a SuiteSparse archive holding exactly one .mtx (libarchive)
//   anything else      raw bytes
// The one place hsparse touches compressed files, so every reader shares the
// same truncation and corruption errors.
#include <cstddef>
#include <string>
#include <string_view>

namespace hsparse::io {

// The whole (decompressed) content. Throws Error(io) naming the file when it
// cannot be opened, is truncated or corrupt, or an archive holds no or several .mtx.
std::string read_file_bytes(const std::string& path);

// At most `limit` decompressed bytes from the start (for peeking at headers).
std::string read_file_prefix(const std::string& path, std::size_t limit);

// Writes `bytes`, gzip-compressed when the path ends in ".gz".
void write_file_bytes(const std::string& path, std::string_view bytes);

bool ends_with(std::string_view s, std::string_view suffix);
bool has_libarchive();

}  // namespace hsparse::io
