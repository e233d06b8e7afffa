#pragma once
// Tuned parameters on disk, so that a second run starts tuned: one JSON
// file mapping "device | kernel | matrix key" to the parameter values found.
// Default path: $HSPARSE_TUNING_CACHE, else $XDG_CACHE_HOME/hsparse/tuning.json,
// else ~/.cache/hsparse/tuning.json. A damaged file is ignored (and then
// replaced), never trusted: the cache is an optimisation only.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace hsparse {

class TuningCache {
 public:
  explicit TuningCache(std::string path = default_path());
  static std::string default_path();

  std::optional<std::vector<int>> find(const std::string& key) const;
  // Stores and writes the file at once (read-merge-write, so concurrent
  // processes lose at most each other's newest entry; the file is replaced
  // whole, never left half-written). Best effort, for callers to whom the
  // cache is an optimisation: false when the file could not be written.
  bool store(const std::string& key, const std::vector<int>& values);
  // The same for callers whose job is storing (hsparse tune): Error(io)
  // naming the file and the reason when it cannot be written.
  void store_or_throw(const std::string& key, const std::vector<int>& values);
  const std::string& path() const { return path_; }

 private:
  std::map<std::string, std::vector<int>> load() const;
  std::string path_;
  std::map<std::string, std::vector<int>> entries_;
};

}  // namespace hsparse
