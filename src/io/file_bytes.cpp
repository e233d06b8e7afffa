#include "hsparse/io/file_bytes.hpp"

#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "hsparse/core/error.hpp"
#include "hsparse/io/atomic_file.hpp"

#ifdef HSPARSE_HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>
#endif

namespace hsparse::io {

namespace {

[[noreturn]] void io_error(const std::string& path, const std::string& why) {
  throw Error(ErrorCode::io, path + ": " + why);
}

// A folder (or a device) would otherwise fail later with a misleading gzip error.
void refuse_non_regular(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) io_error(path, "not a regular file");
}

bool is_tar_archive(const std::string& path) {
  return ends_with(path, ".tar.gz") || ends_with(path, ".tgz") || ends_with(path, ".tar");
}

// Reads a gzip (or, per zlib, a plain) file; stops after `limit` bytes.
std::string read_gzip(const std::string& path, std::size_t limit) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) io_error(path, "cannot open file");
  std::unique_ptr<gzFile_s, int (*)(gzFile)> guard(file, gzclose);
  gzbuffer(file, 1 << 18);
  std::string out;
  constexpr std::size_t chunk = 1 << 22;
  while (out.size() < limit) {
    const std::size_t old = out.size();
    const std::size_t want = std::min(chunk, limit - old);
    out.resize(old + want);
    const int got = gzread(file, out.data() + old, static_cast<unsigned>(want));
    if (got < 0) {
      int errnum = 0;
      const char* msg = gzerror(file, &errnum);
      io_error(path, std::string("corrupt or truncated gzip data (") + msg + ")");
    }
    out.resize(old + static_cast<std::size_t>(got));
    if (static_cast<std::size_t>(got) < want) {
      // gzread returns short at the end of the stream, and also when the
      // stream stops mid-way without an error code: gzeof says which.
      int errnum = 0;
      const char* msg = gzerror(file, &errnum);
      if (errnum != Z_OK && errnum != Z_STREAM_END) {
        io_error(path, std::string("corrupt or truncated gzip data (") + msg + ")");
      }
      break;
    }
  }
  return out;
}

#ifdef HSPARSE_HAVE_LIBARCHIVE
std::string read_tar(const std::string& path, std::size_t limit) {
  std::unique_ptr<archive, int (*)(archive*)> ar(archive_read_new(), archive_read_free);
  archive_read_support_filter_all(ar.get());
  archive_read_support_format_tar(ar.get());
  if (archive_read_open_filename(ar.get(), path.c_str(), 1 << 18) != ARCHIVE_OK) {
    io_error(path, std::string("cannot open archive (") + archive_error_string(ar.get()) + ")");
  }
  std::string out;
  int found = 0;
  archive_entry* entry = nullptr;
  for (;;) {
    const int rc = archive_read_next_header(ar.get(), &entry);
    if (rc == ARCHIVE_EOF) break;
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
      io_error(path, std::string("corrupt archive (") + archive_error_string(ar.get()) + ")");
    }
    const std::string name = archive_entry_pathname(entry);
    if (archive_entry_filetype(entry) != AE_IFREG || !ends_with(name, ".mtx")) continue;
    if (++found > 1) io_error(path, "archive holds more than one .mtx file");
    char buffer[1 << 16];
    for (;;) {
      const la_ssize_t got = archive_read_data(ar.get(), buffer, sizeof buffer);
      if (got < 0) {
        io_error(path, std::string("corrupt archive member ") + name + " (" +
                           archive_error_string(ar.get()) + ")");
      }
      if (got == 0) break;
      out.append(buffer, std::min<std::size_t>(got, limit - out.size()));
      // Enough: inflating the rest (a gzip bomb's gigabytes) would only be thrown away.
      if (out.size() == limit) return out;
    }
  }
  if (found == 0) io_error(path, "archive holds no .mtx file");
  return out;
}
#endif

// gzip (level 6) compressed chunk by chunk into `out`: no second copy of
// the text in memory, and every chunk's write checked by AtomicOutputFile.
void write_gzip(AtomicOutputFile& out, std::string_view bytes) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) io_error(out.target(), "cannot start gzip compression");
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, deflateEnd);
  std::vector<unsigned char> chunk(1 << 20);
  std::size_t done = 0;
  int rc = Z_OK;
  do {
    const std::size_t take = std::min<std::size_t>(bytes.size() - done, 1u << 30);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + done));
    z.avail_in = static_cast<uInt>(take);
    done += take;
    const int flush = done == bytes.size() ? Z_FINISH : Z_NO_FLUSH;
    do {
      z.next_out = chunk.data();
      z.avail_out = static_cast<uInt>(chunk.size());
      rc = deflate(&z, flush);
      if (rc == Z_STREAM_ERROR) io_error(out.target(), "gzip compression failed");
      out.write(std::string_view(reinterpret_cast<const char*>(chunk.data()), chunk.size() - z.avail_out));
    } while (z.avail_out == 0);
  } while (rc != Z_STREAM_END);
}

std::string read_any(const std::string& path, std::size_t limit) {
  if (is_tar_archive(path)) {
#ifdef HSPARSE_HAVE_LIBARCHIVE
    return read_tar(path, limit);
#else
    throw Error(ErrorCode::unsupported,
                path + ": this build has no libarchive, so .tar.gz archives cannot be read");
#endif
  }
  // zlib's gzread reads uncompressed files transparently too.
  return read_gzip(path, limit);
}

}  // namespace

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool has_libarchive() {
#ifdef HSPARSE_HAVE_LIBARCHIVE
  return true;
#else
  return false;
#endif
}

std::string read_file_bytes(const std::string& path) {
  refuse_non_regular(path);
  if (!is_tar_archive(path) && !ends_with(path, ".gz")) {
    // Plain file: one read of known size, at disk speed.
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
    if (!f) io_error(path, "cannot open file");
    std::fseek(f.get(), 0, SEEK_END);
    const long size = std::ftell(f.get());
    std::fseek(f.get(), 0, SEEK_SET);
    if (size < 0) io_error(path, "cannot determine file size");
    std::string out(static_cast<std::size_t>(size), '\0');
    if (std::fread(out.data(), 1, out.size(), f.get()) != out.size()) io_error(path, "short read");
    return out;
  }
  return read_any(path, static_cast<std::size_t>(-1));
}

std::string read_file_prefix(const std::string& path, std::size_t limit, bool* more) {
  refuse_non_regular(path);
  if (!is_tar_archive(path) && !ends_with(path, ".gz")) {
    // Plain file: its size is known, so no byte past the limit is read.
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec) {
      std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
      if (!f) io_error(path, "cannot open file");
      std::string out(static_cast<std::size_t>(std::min<std::uintmax_t>(size, limit)), '\0');
      if (std::fread(out.data(), 1, out.size(), f.get()) != out.size()) io_error(path, "short read");
      if (more) *more = size > limit;
      return out;
    }
  }
  // One byte past the limit says whether the content goes on.
  const bool want_more = more != nullptr && limit < static_cast<std::size_t>(-1);
  std::string out = read_any(path, limit + (want_more ? 1 : 0));
  if (want_more) {
    *more = out.size() > limit;
    if (*more) out.resize(limit);
  }
  return out;
}

void write_file_bytes(const std::string& path, std::string_view bytes) {
  AtomicOutputFile out(path);
  if (ends_with(path, ".gz")) {
    write_gzip(out, bytes);
  } else {
    out.write(bytes);
  }
  out.commit();
}

}  // namespace hsparse::io
