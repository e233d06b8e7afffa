// Output files that are complete or absent (atomic_file.hpp): a temporary in
// the target's folder, every write checked, fsync before the rename (so a
// crash after the rename cannot expose a name whose data never reached the
// disk), the temporary removed on any failure and, where the program asks,
// on SIGINT and SIGTERM.
#include "hsparse/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

#include "hsparse/core/error.hpp"

namespace hsparse::io {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what, int errnum) {
  throw Error(ErrorCode::io, path + ": " + what + ": " + std::strerror(errnum));
}

// The temporaries being written, for the signal handler: fixed storage and
// lock-free atomics only, since a handler may neither allocate nor lock.
// A slot is 0 free, 1 being filled, 2 live. More than kSlots files at once
// are still written safely; only their removal on a signal is skipped.
constexpr int kSlots = 64;
struct TemporarySlot {
  std::atomic<int> state{0};
  char path[4096];
};
TemporarySlot g_temporaries[kSlots];

int register_temporary(const std::string& path) {
  if (path.size() >= sizeof g_temporaries[0].path) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (g_temporaries[i].state.compare_exchange_strong(expected, 1)) {
      std::memcpy(g_temporaries[i].path, path.c_str(), path.size() + 1);
      g_temporaries[i].state.store(2);
      return i;
    }
  }
  return -1;
}

void unregister_temporary(int slot) {
  if (slot >= 0) g_temporaries[slot].state.store(0);
}

extern "C" void remove_temporaries_and_reraise(int sig) {
  for (auto& t : g_temporaries) {
    if (t.state.load() == 2) ::unlink(t.path);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Writes all of [p, p + n), retrying short writes; 0 or the errno.
int write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return 0;
}

// A stream buffer over the file descriptor that remembers its first error
// (the stream then goes bad, and commit() reports the reason).
class FdBuffer : public std::streambuf {
 public:
  explicit FdBuffer(int fd) : fd_(fd), buffer_(1 << 16) { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  int error() const { return error_; }
  // Writes what is buffered; false after any failure.
  bool drain() {
    if (error_ == 0) error_ = write_all(fd_, pbase(), static_cast<std::size_t>(pptr() - pbase()));
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return error_ == 0;
  }
  bool write_direct(const char* p, std::size_t n) {
    if (!drain()) return false;
    error_ = write_all(fd_, p, n);
    return error_ == 0;
  }

 protected:
  int_type overflow(int_type ch) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(ch, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(ch);
      pbump(1);
    }
    return traits_type::not_eof(ch);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n < epptr() - pptr()) return std::streambuf::xsputn(s, n);
    return write_direct(s, static_cast<std::size_t>(n)) ? n : 0;
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  int fd_;
  std::vector<char> buffer_;
  int error_ = 0;
};

std::string temporary_name(const std::string& target) {
  static std::atomic<unsigned> counter{0};
  static const unsigned seed = std::random_device{}();
  const std::filesystem::path p(target);
  const unsigned r = seed ^ (counter.fetch_add(1) * 2654435761u);
  char suffix[48];
  std::snprintf(suffix, sizeof suffix, ".tmp-%ld-%08x", static_cast<long>(::getpid()), r);
  std::string name(1, '.');  // appended, not "." + string: g++ 12 warns falsely (-Wrestrict) on that
  name += p.filename().string();
  name += suffix;
  return (p.parent_path() / name).string();
}

}  // namespace

struct AtomicOutputFile::State {
  std::string target, temporary;
  int fd = -1;
  int slot = -1;
  bool in_place = false, committed = false;
  std::unique_ptr<FdBuffer> buffer;
  std::unique_ptr<std::ostream> stream;
};

AtomicOutputFile::AtomicOutputFile(std::string target) : s_(std::make_unique<State>()) {
  State& s = *s_;
  s.target = std::move(target);
  struct stat existing {};
  const bool exists = ::stat(s.target.c_str(), &existing) == 0;
  if (exists && S_ISDIR(existing.st_mode)) throw Error(ErrorCode::io, s.target + ": is a folder, not a file");
  s.in_place = exists && !S_ISREG(existing.st_mode);
  if (s.in_place) {
    s.temporary = s.target;
    s.fd = ::open(s.target.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (s.fd < 0) fail(s.target, "cannot open for writing", errno);
  } else {
    s.temporary = temporary_name(s.target);
    s.fd = ::open(s.temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (s.fd < 0) {
      const std::string folder = std::filesystem::path(s.target).parent_path().string();
      fail(s.target, "cannot create a file in " + (folder.empty() ? std::string(".") : folder), errno);
    }
    s.slot = register_temporary(s.temporary);
    if (exists) (void)::fchmod(s.fd, existing.st_mode & 07777);  // best effort: the content matters, not the mode
  }
  s.buffer = std::make_unique<FdBuffer>(s.fd);
  s.stream = std::make_unique<std::ostream>(s.buffer.get());
}

AtomicOutputFile::~AtomicOutputFile() {
  if (!s_ || s_->committed) return;
  if (s_->fd >= 0) ::close(s_->fd);
  if (!s_->in_place) ::unlink(s_->temporary.c_str());
  unregister_temporary(s_->slot);
}

void AtomicOutputFile::write(std::string_view bytes) {
  if (!s_->buffer->write_direct(bytes.data(), bytes.size())) fail(s_->target, "write failed", s_->buffer->error());
}

std::ostream& AtomicOutputFile::stream() { return *s_->stream; }

void AtomicOutputFile::commit() {
  State& s = *s_;
  if (s.committed || s.fd < 0) throw Error(ErrorCode::internal, s.target + ": AtomicOutputFile committed twice");
  s.stream->flush();
  if (!s.buffer->drain()) fail(s.target, "write failed", s.buffer->error());
  if (s.stream->bad()) fail(s.target, "write failed", EIO);
  // Some filesystems report a full disk only at fsync or close.
  if (!s.in_place && ::fsync(s.fd) != 0) fail(s.target, "write failed (fsync)", errno);
  const int fd = s.fd;
  s.fd = -1;
  if (::close(fd) != 0) fail(s.target, "write failed (close)", errno);
  if (!s.in_place && ::rename(s.temporary.c_str(), s.target.c_str()) != 0) {
    fail(s.target, "cannot rename " + s.temporary + " to it", errno);
  }
  s.committed = true;
  unregister_temporary(s.slot);
}

const std::string& AtomicOutputFile::target() const { return s_->target; }
const std::string& AtomicOutputFile::temporary() const { return s_->temporary; }

void write_file_atomically(const std::string& path, std::string_view bytes) {
  AtomicOutputFile f(path);
  f.write(bytes);
  f.commit();
}

void prepare_output_folder(const std::string& dir) {
  namespace fs = std::filesystem;
  const std::string shown = dir.empty() ? std::string(".") : dir;
  std::error_code ec;
  fs::create_directories(shown, ec);
  if (ec) throw Error(ErrorCode::io, shown + ": cannot create the output folder: " + ec.message());
  if (!fs::is_directory(shown, ec)) throw Error(ErrorCode::io, shown + ": the output folder is not a folder");
  // Creating a file proves more than access(2) would (a read-only mount, a full inode table).
  const std::string probe = temporary_name((fs::path(shown) / "write-probe").string());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) fail(shown, "the output folder is not writable", errno);
  ::close(fd);
  ::unlink(probe.c_str());
}

void remove_temporaries_on_signal() {
  for (const int sig : {SIGINT, SIGTERM}) {
    struct sigaction current {};
    ::sigaction(sig, nullptr, &current);
    // Ignored by whoever started us (nohup, a background job of a script): it stays ignored.
    if (current.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_reraise;
    sigemptyset(&action.sa_mask);
    ::sigaction(sig, &action, nullptr);
  }
}

}  // namespace hsparse::io
