#include "hsparse/tuning/tuning_cache.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "hsparse/core/error.hpp"
#include "hsparse/io/atomic_file.hpp"

namespace hsparse {

std::string TuningCache::default_path() {
  if (const char* p = std::getenv("HSPARSE_TUNING_CACHE"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/hsparse/tuning.json";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/hsparse/tuning.json";
  return ".hsparse-tuning.json";
}

TuningCache::TuningCache(std::string path) : path_(std::move(path)) { entries_ = load(); }

std::map<std::string, std::vector<int>> TuningCache::load() const {
  std::map<std::string, std::vector<int>> m;
  std::ifstream in(path_);
  if (!in) return m;
  try {
    const auto j = nlohmann::json::parse(in);
    for (auto it = j.at("entries").begin(); it != j.at("entries").end(); ++it) m[it.key()] = it.value().get<std::vector<int>>();
  } catch (const std::exception&) {
    m.clear();  // damaged: ignored, replaced on the next store
  }
  return m;
}

std::optional<std::vector<int>> TuningCache::find(const std::string& key) const {
  const auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  return it->second;
}

void TuningCache::store_or_throw(const std::string& key, const std::vector<int>& values) {
  entries_ = load();
  entries_[key] = values;
  nlohmann::json j;
  j["hsparse_tuning_cache"] = 1;
  j["entries"] = nlohmann::json::object();
  for (const auto& [k, v] : entries_) j["entries"][k] = v;
  const std::filesystem::path folder = std::filesystem::path(path_).parent_path();
  if (!folder.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec) throw Error(ErrorCode::io, path_ + ": cannot create its folder: " + ec.message());
  }
  // Complete or absent: a reader in another process never sees half a file.
  io::write_file_atomically(path_, j.dump(1) + "\n");
}

bool TuningCache::store(const std::string& key, const std::vector<int>& values) {
  try {
    store_or_throw(key, values);
    return true;
  } catch (const Error&) {
    return false;  // an unwritable cache only costs the next run its tuning
  }
}

}  // namespace hsparse
