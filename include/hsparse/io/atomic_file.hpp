#pragma once
/// @file
/// Output files that are complete or absent. Every file hsparse writes goes
/// through AtomicOutputFile: the bytes go to a temporary in the target's
/// folder, and only a checked commit() renames it over the target, so an
/// interrupted run (Ctrl-C, kill -9, a crash) or a full disk leaves the old
/// target (or none), never a truncated one.
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

namespace hsparse::io {

/// One output file written under a temporary name, ".NAME.tmp-PID-RANDOM" in
/// the target's folder (the same filesystem, so the rename is atomic), and
/// renamed over the target by commit().
///
/// Errors: every write, the flush, fsync and close are checked; a failure
/// throws Error(io) naming the target and the reason (e.g. "No space left on
/// device"). The constructor throws Error(io) when the temporary cannot be
/// created (a missing or read-only folder). write() throws at the first
/// failed write; what went to stream() is checked by commit().
///
/// Cleanup: destroyed without a successful commit() (an exception on the
/// way, a failed write), the temporary is removed and the target is left as
/// it was. On SIGINT and SIGTERM it is removed too, once a program has
/// called remove_temporaries_on_signal(); a kill -9 can leave a temporary,
/// never a partial target.
///
/// A target that exists and is not a regular file (/dev/null, /dev/stdout,
/// a FIFO) is written in place: it has no name to swap. A new file gets the
/// umask's permissions; one replacing an existing file keeps that file's.
///
/// Threads: one object, one thread; distinct objects may be used at once.
class AtomicOutputFile {
 public:
  /// Creates the temporary next to `target`.
  explicit AtomicOutputFile(std::string target);
  /// Removes the temporary unless commit() succeeded.
  ~AtomicOutputFile();
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  /// Appends `bytes`; Error(io) naming the target when a write fails.
  void write(std::string_view bytes);
  /// A stream onto the same file, for formatted output; its errors are
  /// reported by commit(). Do not use it after commit().
  std::ostream& stream();
  /// Flushes, fsyncs, closes and renames the temporary over the target;
  /// Error(io) naming the target when any step fails (the temporary is then
  /// removed). Call it once, after the last write.
  void commit();
  /// The file written in the end.
  const std::string& target() const;
  /// The temporary's path (the target itself for a device or FIFO target).
  const std::string& temporary() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

/// Writes `bytes` to `path` through an AtomicOutputFile (complete or absent).
void write_file_atomically(const std::string& path, std::string_view bytes);

/// Creates the folder `dir` (and its parents) when missing and proves it
/// writable by creating and removing a probe file in it. For commands that
/// measure for minutes before they write: check first, fail at once.
/// Error(io) naming the folder and the reason otherwise (a read-only
/// filesystem, an existing file of that name, no permission).
void prepare_output_folder(const std::string& dir);

/// Installs SIGINT and SIGTERM handlers that remove the temporaries of
/// every AtomicOutputFile being written (async-signal-safe: unlink only),
/// restore the default action and raise the signal again, so the exit
/// status still names it. For programs: the library never installs signal
/// handlers itself. A signal the process was started ignoring (nohup, a
/// background job) stays ignored. Calling it again is harmless; a handler
/// installed later for the same signal replaces it.
void remove_temporaries_on_signal();

}  // namespace hsparse::io
