#include "hsparse/io/manifest.hpp"

#include <fstream>
#include <sstream>

#include "hsparse/core/error.hpp"

namespace hsparse::io {

std::vector<ManifestEntry> read_manifest(const std::string& dir) {
  const std::string path = dir + "/MANIFEST.md";
  std::ifstream in(path);
  std::vector<ManifestEntry> out;
  std::string line;
  long long line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) {
      const auto b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    if (cells.size() < 8 || cells[0] == "name" || cells[0].rfind("---", 0) == 0) continue;
    ManifestEntry m;
    m.name = cells[0];
    try {
      m.rows = std::stoll(cells[2]);
      m.cols = std::stoll(cells[3]);
      m.nnz = std::stoll(cells[4]);
      m.entries = std::stoll(cells[5]);
    } catch (const std::exception&) {
      throw_parse_error(path, line_no, "a size of '" + m.name + "' is not a number");
    }
    m.field = cells[6];
    m.symmetry = cells[7];
    out.push_back(m);
  }
  return out;
}

}  // namespace hsparse::io
