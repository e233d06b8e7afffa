#include "hsparse/io/binary_format.hpp"

#include <zlib.h>

#include <bit>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>

#include "hsparse/core/error.hpp"
#include "hsparse/io/atomic_file.hpp"
#include "hsparse/core/host_system.hpp"
#include "hsparse/formats/convert.hpp"

namespace hsparse::io {

static_assert(std::endian::native == std::endian::little, ".hsp files are little-endian");

namespace {

constexpr char kMagic[8] = {'H', 'S', 'P', 'A', 'R', 'S', 'E', '\n'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kFormatCsr = 1;
constexpr std::size_t kHeaderBytes = 64;

struct Header {
  char magic[8];
  std::uint32_t version, format, value_type, index_type;
  std::uint64_t rows, cols, nnz;
  std::uint32_t payload_crc, header_crc;
  std::uint8_t reserved[8];
};
static_assert(sizeof(Header) == kHeaderBytes);

template <class V> constexpr std::uint32_t value_code() {
  if constexpr (std::is_same_v<V, float>) return 1;
  else if constexpr (std::is_same_v<V, double>) return 2;
  else if constexpr (std::is_same_v<V, std::complex<float>>) return 3;
  else return 4;
}
template <class I> constexpr std::uint32_t index_code() { return sizeof(I) == 4 ? 1 : 2; }

// CRC-32 over several arrays, computed in parallel chunks and combined.
class Crc32 {
 public:
  void update(const void* data, std::size_t bytes) {
    constexpr std::size_t chunk = std::size_t{1} << 24;
    const auto* p = static_cast<const unsigned char*>(data);
    const std::size_t chunks = (bytes + chunk - 1) / chunk;
    std::vector<uLong> crcs(chunks);
#pragma omp parallel for schedule(static)
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t n = std::min(chunk, bytes - c * chunk);
      crcs[c] = crc32_z(crc32_z(0, nullptr, 0), p + c * chunk, n);
    }
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t n = std::min(chunk, bytes - c * chunk);
      crc_ = crc32_combine(crc_, crcs[c], static_cast<z_off_t>(n));
    }
  }
  std::uint32_t value() const { return static_cast<std::uint32_t>(crc_); }

 private:
  uLong crc_ = crc32_z(0, nullptr, 0);
};

std::uint32_t header_crc(const Header& h) {
  return static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const unsigned char*>(&h), offsetof(Header, header_crc)));
}

[[noreturn]] void corrupt(const std::string& path, const std::string& why) {
  throw Error(ErrorCode::corrupt, path + ": " + why);
}

using FilePtr = std::unique_ptr<FILE, int (*)(FILE*)>;

template <class T>
void read_array(FILE* f, std::vector<T>& v, std::size_t n, const std::string& path, Crc32& crc) {
  v.resize(n);
  if (std::fread(v.data(), sizeof(T), n, f) != n) corrupt(path, "file is truncated");
  crc.update(v.data(), n * sizeof(T));
}

template <class VS, class IS, class V, class I>
Csr<V, I> load_payload(FILE* f, const Header& h, const std::string& path) {
  if (!fits_index<IS>(h.rows) || !fits_index<IS>(h.cols) || !fits_index<IS>(h.nnz)) {
    corrupt(path, "header sizes overflow the stored index type");
  }
  require_host_memory((h.rows + 1) * sizeof(IS) + h.nnz * (sizeof(IS) + sizeof(VS)) + (h.rows + 1) * sizeof(I) + h.nnz * (sizeof(I) + sizeof(V)),
                      path + ": " + std::to_string(h.nnz) + " nonzeros");
  Csr<VS, IS> stored;
  stored.rows = static_cast<IS>(h.rows);
  stored.cols = static_cast<IS>(h.cols);
  Crc32 crc;
  read_array(f, stored.row_ptr, h.rows + 1, path, crc);
  read_array(f, stored.col_idx, h.nnz, path, crc);
  read_array(f, stored.values, h.nnz, path, crc);
  if (crc.value() != h.payload_crc) corrupt(path, "payload checksum mismatch");
  try {
    stored.validate();
  } catch (const Error& e) {
    corrupt(path, std::string("stored matrix is invalid: ") + e.what());
  }
  if constexpr (std::is_same_v<VS, V> && std::is_same_v<IS, I>) {
    return stored;
  } else if constexpr (is_complex_v<VS> && !is_complex_v<V>) {
    throw Error(ErrorCode::invalid_argument, path + ": holds a complex matrix, which cannot be loaded as " + type_name<V>());
  } else {
    try {
      return convert_types<V, I>(stored);
    } catch (const Error& e) {
      throw Error(e.code(), path + ": " + e.what());
    }
  }
}

template <class VS, class V, class I>
Csr<V, I> dispatch_index(FILE* f, const Header& h, const std::string& path) {
  if (h.index_type == 1) return load_payload<VS, std::int32_t, V, I>(f, h, path);
  return load_payload<VS, std::int64_t, V, I>(f, h, path);
}

}  // namespace

bool is_hsp_file(const std::string& path) {
  FilePtr f(std::fopen(path.c_str(), "rb"), std::fclose);
  char magic[8];
  return f && std::fread(magic, 1, 8, f.get()) == 8 && std::memcmp(magic, kMagic, 8) == 0;
}

namespace {
Header read_checked_header(FILE* f, const std::string& path, long file_size) {
  Header h{};
  if (file_size < static_cast<long>(kHeaderBytes) || std::fread(&h, sizeof h, 1, f) != 1) {
    corrupt(path, "too short for an .hsp header");
  }
  if (std::memcmp(h.magic, kMagic, 8) != 0) corrupt(path, "not an hsparse binary (.hsp) file: bad magic");
  if (h.header_crc != header_crc(h)) corrupt(path, "header checksum mismatch");
  if (h.version != kVersion) corrupt(path, "unsupported .hsp version " + std::to_string(h.version));
  if (h.format != kFormatCsr) corrupt(path, "unknown storage format code " + std::to_string(h.format));
  if (h.value_type < 1 || h.value_type > 4 || h.index_type < 1 || h.index_type > 2) {
    corrupt(path, "unknown value or index type code");
  }
  return h;
}

long file_size_of(FILE* f) {
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  return size;
}
}  // namespace

bool hsp_holds_complex(const std::string& path) {
  FilePtr f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) throw Error(ErrorCode::io, path + ": cannot open file");
  return read_checked_header(f.get(), path, file_size_of(f.get())).value_type >= 3;
}

bool hsp_holds_single(const std::string& path) {
  FilePtr f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) throw Error(ErrorCode::io, path + ": cannot open file");
  const auto type = read_checked_header(f.get(), path, file_size_of(f.get())).value_type;
  return type == 1 || type == 3;
}

template <class V, class I>
void write_hsp(const std::string& path, const Csr<V, I>& a) {
  a.validate();
  Header h{};
  std::memcpy(h.magic, kMagic, 8);
  h.version = kVersion;
  h.format = kFormatCsr;
  h.value_type = value_code<V>();
  h.index_type = index_code<I>();
  h.rows = static_cast<std::uint64_t>(a.rows);
  h.cols = static_cast<std::uint64_t>(a.cols);
  h.nnz = a.nnz();
  Crc32 crc;
  crc.update(a.row_ptr.data(), a.row_ptr.size() * sizeof(I));
  crc.update(a.col_idx.data(), a.col_idx.size() * sizeof(I));
  crc.update(a.values.data(), a.values.size() * sizeof(V));
  h.payload_crc = crc.value();
  h.header_crc = header_crc(h);
  // Complete or absent (atomic_file.hpp): every write checked, renamed into place at the end.
  AtomicOutputFile out(path);
  const auto bytes = [](const auto& v) {
    return std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(v[0]));
  };
  out.write(std::string_view(reinterpret_cast<const char*>(&h), sizeof h));
  out.write(bytes(a.row_ptr));
  out.write(bytes(a.col_idx));
  out.write(bytes(a.values));
  out.commit();
}

template <class V, class I>
Csr<V, I> read_hsp(const std::string& path) {
  FilePtr f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) throw Error(ErrorCode::io, path + ": cannot open file");
  const long file_size = file_size_of(f.get());
  const Header h = read_checked_header(f.get(), path, file_size);
  const std::uint64_t value_bytes[] = {0, 4, 8, 8, 16};
  const std::uint64_t index_bytes = h.index_type == 1 ? 4 : 8;
  // Checked in 128 bits: a corrupt header must not wrap around to a plausible size.
  const unsigned __int128 expected = kHeaderBytes + (static_cast<unsigned __int128>(h.rows) + 1) * index_bytes +
                                     static_cast<unsigned __int128>(h.nnz) * (index_bytes + value_bytes[h.value_type]);
  if (expected != static_cast<unsigned __int128>(file_size)) {
    corrupt(path, "file size " + std::to_string(file_size) + " does not match the header's sizes (truncated or extended)");
  }
  switch (h.value_type) {
    case 1: return dispatch_index<float, V, I>(f.get(), h, path);
    case 2: return dispatch_index<double, V, I>(f.get(), h, path);
    case 3: return dispatch_index<std::complex<float>, V, I>(f.get(), h, path);
    default: return dispatch_index<std::complex<double>, V, I>(f.get(), h, path);
  }
}

#define HSPARSE_INSTANTIATE(V, I)                                        \
  template void write_hsp(const std::string&, const Csr<V, I>&); \
  template Csr<V, I> read_hsp<V, I>(const std::string&);
HSPARSE_FOR_EACH_VALUE_INDEX(HSPARSE_INSTANTIATE)
#undef HSPARSE_INSTANTIATE

}  // namespace hsparse::io
