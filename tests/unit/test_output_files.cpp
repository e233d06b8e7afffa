// Output files are complete or absent (issue 62, items 7 and 8): every writer
// goes through AtomicOutputFile, a failed write is Error(io) naming the file,
// and neither the target nor a temporary is left behind. A full disk is a
// 64 KiB tmpfs mounted for the test (root only: skipped otherwise).
// Also item 10: the GMRES restart capped at the number of unknowns.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "hsparse/core/error.hpp"
#include "hsparse/io/atomic_file.hpp"
#include "hsparse/io/binary_format.hpp"
#include "hsparse/io/file_bytes.hpp"
#include "hsparse/io/matrix_market.hpp"
#include "hsparse/generators/generators.hpp"
#include "hsparse/plans/spmv_plan.hpp"
#include "hsparse/solvers/krylov.hpp"
#include "hsparse/tuning/tuning_cache.hpp"
#include "support/test_support.hpp"

namespace hsparse::io {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A folder on its own small tmpfs: a full (or read-only) disk without
// filling a real one. Unmounted and removed when the test ends.
class SmallFilesystem {
 public:
  explicit SmallFilesystem(const char* options, unsigned long flags = 0) {
    char pattern[] = "/tmp/hsparse_full_disk_XXXXXX";
    if (!::mkdtemp(pattern)) return;
    dir_ = pattern;
    if (::mount("tmpfs", dir_.c_str(), "tmpfs", flags, options) != 0) {
      why_ = std::strerror(errno);
      ::rmdir(dir_.c_str());
      dir_.clear();
    }
  }
  ~SmallFilesystem() {
    if (dir_.empty()) return;
    ::umount(dir_.c_str());
    ::rmdir(dir_.c_str());
  }
  bool mounted() const { return !dir_.empty(); }
  const std::string& why() const { return why_; }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_, why_ = "mkdtemp failed";
};

#define REQUIRE_MOUNTED(fs_)                                                                       \
  if (!(fs_).mounted()) GTEST_SKIP() << "skipped: cannot mount a tmpfs here (needs root): " << (fs_).why()

// Runs `write`, which must throw Error(io) whose message names `target`.
template <class F>
void expect_io_error_naming(const std::string& target, F&& write) {
  try {
    write();
    ADD_FAILURE() << "no error writing " << target;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::io) << e.what();
    EXPECT_NE(std::string(e.what()).find(target), std::string::npos) << e.what();
  }
}

const std::string kMegabyte(1 << 20, 'x');

TEST(AtomicOutputFile, CommitWritesTheTargetAndLeavesNoTemporary) {
  const std::string target = test::temp_path("out.txt");
  fs::remove(target);
  {
    AtomicOutputFile f(target);
    f.write("hello ");
    f.stream() << "world " << 42 << "\n";
    EXPECT_FALSE(fs::exists(target)) << "the target appears only at commit";
    f.commit();
  }
  EXPECT_EQ(contents(target), "hello world 42\n");
  EXPECT_EQ(names_in(fs::path(target).parent_path().string()), std::vector<std::string>{"out.txt"});
}

TEST(AtomicOutputFile, DestroyedWithoutCommitLeavesTheOldTargetAndNoTemporary) {
  const std::string target = test::temp_path("kept.txt");
  write_file_atomically(target, "old\n");
  {
    AtomicOutputFile f(target);
    f.write("new, never committed\n");
    EXPECT_TRUE(fs::exists(f.temporary()));
    EXPECT_EQ(fs::path(f.temporary()).parent_path(), fs::path(target).parent_path()) << "same folder, so the rename is atomic";
  }
  EXPECT_EQ(contents(target), "old\n");
  EXPECT_EQ(names_in(fs::path(target).parent_path().string()), std::vector<std::string>{"kept.txt"});
}

TEST(AtomicOutputFile, MissingFolderIsAnErrorNamingTheTarget) {
  const std::string target = test::temp_path("no/such/folder/out.txt");
  expect_io_error_naming(target, [&] { AtomicOutputFile f(target); });
}

TEST(AtomicOutputFile, DeviceTargetIsWrittenInPlace) {
  // /dev/null has no name to swap: written directly, and never replaced by a regular file.
  write_file_atomically("/dev/null", "discarded\n");
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
}

TEST(AtomicOutputFile, FullDiskIsAnErrorAndLeavesNoTargetNoTemporary) {
  SmallFilesystem disk("size=64k");
  REQUIRE_MOUNTED(disk);
  const std::string target = disk.path("big.bin");
  expect_io_error_naming(target, [&] { write_file_atomically(target, kMegabyte); });
  EXPECT_TRUE(names_in(disk.dir()).empty());
}

TEST(AtomicOutputFile, FullDiskThroughTheStreamIsReportedByCommit) {
  SmallFilesystem disk("size=64k");
  REQUIRE_MOUNTED(disk);
  const std::string target = disk.path("streamed.txt");
  expect_io_error_naming(target, [&] {
    AtomicOutputFile f(target);
    for (int i = 0; i < 100000; ++i) f.stream() << "line " << i << "\n";
    f.commit();
  });
  EXPECT_TRUE(names_in(disk.dir()).empty());
}

TEST(AtomicOutputFile, FullDiskLeavesTheExistingTargetUntouched) {
  SmallFilesystem disk("size=64k");
  REQUIRE_MOUNTED(disk);
  const std::string target = disk.path("report.md");
  write_file_atomically(target, "the old report\n");
  expect_io_error_naming(target, [&] { write_file_atomically(target, kMegabyte); });
  EXPECT_EQ(contents(target), "the old report\n");
  EXPECT_EQ(names_in(disk.dir()), std::vector<std::string>{"report.md"});
}

TEST(WriteFileBytes, FullDiskLeavesNoPartialMatrixMarketFile) {
  SmallFilesystem disk("size=64k");
  REQUIRE_MOUNTED(disk);
  const auto a = generators::generate<double, int>("stencil2d:n=300");  // about 9 MB of text, 1 MB gzipped
  for (const std::string name : {"a.mtx", "a.mtx.gz"}) {
    const std::string target = disk.path(name);
    expect_io_error_naming(target, [&] { write_matrix_market(target, a); });
  }
  const std::vector<double> y(100000, 1.0 / 3);
  const std::string vector_target = disk.path("y.mtx");
  expect_io_error_naming(vector_target, [&] { write_matrix_market_vector<double>(vector_target, y); });
  EXPECT_TRUE(names_in(disk.dir()).empty());
}

TEST(WriteHsp, FullDiskLeavesNoPartialFile) {
  SmallFilesystem disk("size=64k");
  REQUIRE_MOUNTED(disk);
  const auto a = generators::generate<double, int>("stencil2d:n=100");  // 0.6 MB
  const std::string target = disk.path("a.hsp");
  expect_io_error_naming(target, [&] { write_hsp(target, a); });
  EXPECT_TRUE(names_in(disk.dir()).empty());
}

TEST(WriteFileBytes, GzipOutputReadsBackWhole) {
  const std::string target = test::temp_path("text.gz");
  std::string text;
  for (int i = 0; i < 200000; ++i) text += std::to_string(i) + "\n";
  write_file_bytes(target, text);
  EXPECT_EQ(read_file_bytes(target), text);
}

TEST(PrepareOutputFolder, ExistingFileIsAnErrorNamingTheFolder) {
  const std::string file = test::temp_path("not-a-folder");
  write_file_atomically(file, "x");
  expect_io_error_naming(file, [&] { prepare_output_folder(file); });
  expect_io_error_naming(file + "/sub", [&] { prepare_output_folder(file + "/sub"); });
}

TEST(PrepareOutputFolder, ReadOnlyFilesystemIsAnErrorNamingTheFolder) {
  SmallFilesystem disk("size=64k", MS_RDONLY);
  REQUIRE_MOUNTED(disk);
  expect_io_error_naming(disk.dir(), [&] { prepare_output_folder(disk.dir()); });
  expect_io_error_naming(disk.path("report"), [&] { prepare_output_folder(disk.path("report")); });
}

TEST(PrepareOutputFolder, CreatesTheFolderAndLeavesNoProbe) {
  const std::string dir = test::temp_path("made/here");
  fs::remove_all(test::temp_path("made"));
  prepare_output_folder(dir);
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_TRUE(names_in(dir).empty());
}

TEST(TuningCache, StoreOnReadOnlyFilesystemThrowsOrReportsFalse) {
  SmallFilesystem disk("size=64k", MS_RDONLY);
  REQUIRE_MOUNTED(disk);
  TuningCache cache(disk.path("tuning.json"));
  expect_io_error_naming(cache.path(), [&] { cache.store_or_throw("key", {4, 256}); });
  EXPECT_FALSE(cache.store("key", {4, 256}));
  EXPECT_TRUE(names_in(disk.dir()).empty());
}

TEST(TuningCache, StoreWritesAFileTheNextCacheReads) {
  const std::string path = test::temp_path("cache/tuning.json");
  fs::remove_all(fs::path(path).parent_path());
  EXPECT_TRUE(TuningCache(path).store("key", {4, 256}));
  EXPECT_EQ(TuningCache(path).find("key"), (std::vector<int>{4, 256}));
  EXPECT_EQ(names_in(fs::path(path).parent_path().string()), std::vector<std::string>{"tuning.json"});
}

// Issue 62, item 10 (here with the other issue-62 tests): a GMRES restart
// past the number of unknowns is capped at it in the library, so the C++ API
// cannot build a basis of 2^31 vectors for 125 unknowns (before the cap:
// std::bad_alloc or an exhausted machine).
TEST(GmresRestart, IsCappedAtTheNumberOfUnknowns) {
  EXPECT_EQ(gmres_restart(100000, 125), 125);
  EXPECT_EQ(gmres_restart(30, 125), 30);
  EXPECT_EQ(gmres_restart(30, 0), 1);
}

TEST(GmresRestart, HugeRestartOnASmallSystemSolvesWithTheCappedBasis) {
  const auto a = generators::generate<double, int>("stencil3d:n=5");  // 125 unknowns
  const SpmvPlan<double, int> plan(make_executor(Backend::cpu), a, {});
  const std::vector<double> b(125, 1.0);
  std::vector<double> x(125, 0.0);
  SolverOptions o;
  o.method = KrylovMethod::gmres;
  o.restart = std::numeric_limits<int>::max();
  const auto r = solve<double, int>(a, plan, std::span<const double>(b), std::span<double>(x), o);
  EXPECT_EQ(r.status, SolverStatus::converged) << r.message;
  EXPECT_LE(r.iterations, 125);
}

}  // namespace
}  // namespace hsparse::io
