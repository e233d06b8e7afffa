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

// At most `limit` decompressed bytes from the start (for peeking at headers,
// or for a bounded read); `*more`, when given, says whether the content goes
// on past them. Decompression stops at the limit: a small compressed file
// that inflates to gigabytes (a gzip bomb) costs only `limit` bytes of work.
std::string read_file_prefix(const std::string& path, std::size_t limit, bool* more = nullptr);

// Writes `bytes`, gzip-compressed when the path ends in ".gz", through an
// AtomicOutputFile (atomic_file.hpp): the file is complete or absent, and a
// failed write is Error(io) naming it.
void write_file_bytes(const std::string& path, std::string_view bytes);

bool ends_with(std::string_view s, std::string_view suffix);
bool has_libarchive();

}  // namespace hsparse::io
