#include "hsparse/io/file_bytes.hpp"

#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "hsparse/core/error.hpp"

#ifdef HSPARSE_HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>
#endif

namespace hsparse::io {

namespace {

[[noreturn]] void io_error(const std::string& path, const std::string& why) {
  throw Error(ErrorCode::io, path + ": " + why);
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
      if (out.size() < limit) out.append(buffer, std::min<std::size_t>(got, limit - out.size()));
    }
  }
  if (found == 0) io_error(path, "archive holds no .mtx file");
  return out;
}
#endif

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
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) io_error(path, "not a regular file");
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

std::string read_file_prefix(const std::string& path, std::size_t limit) {
  return read_any(path, limit);
}

void write_file_bytes(const std::string& path, std::string_view bytes) {
  if (ends_with(path, ".gz")) {
    gzFile file = gzopen(path.c_str(), "wb6");
    if (file == nullptr) io_error(path, "cannot create file");
    std::size_t done = 0;
    while (done < bytes.size()) {
      const auto n = static_cast<unsigned>(std::min<std::size_t>(bytes.size() - done, 1u << 30));
      if (gzwrite(file, bytes.data() + done, n) != static_cast<int>(n)) {
        gzclose(file);
        io_error(path, "write failed");
      }
      done += n;
    }
    if (gzclose(file) != Z_OK) io_error(path, "write failed on close");
    return;
  }
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), std::fclose);
  if (!f) io_error(path, "cannot create file");
  if (std::fwrite(bytes.data(), 1, bytes.size(), f.get()) != bytes.size()) io_error(path, "write failed");
  if (std::fflush(f.get()) != 0) io_error(path, "write failed on flush");
}

}  // namespace hsparse::io
