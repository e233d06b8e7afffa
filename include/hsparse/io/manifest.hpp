#pragma once
// The table of a matrix folder's MANIFEST.md (the shared SuiteSparse set):
// | name | collection id | rows | cols | nnz | entries | field | symmetry | kind |
// Read by the tests (which check every file against it) and by hsparse
// bench --matrices (which runs the folder in its order).
#include <cstdint>
#include <string>
#include <vector>

namespace hsparse::io {

struct ManifestEntry {
  std::string name, field, symmetry;
  std::int64_t rows = 0, cols = 0, nnz = 0, entries = 0;
};

// Empty when the folder has no MANIFEST.md; Error(parse) naming the file and
// line when a table row has a non-numeric size.
std::vector<ManifestEntry> read_manifest(const std::string& dir);

}  // namespace hsparse::io
