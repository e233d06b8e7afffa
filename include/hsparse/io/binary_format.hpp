#pragma once
/// @file
/// The .hsp binary format: a CSR matrix stored so it reloads at disk speed.
///
/// Layout (little-endian), version 1:
///   offset  0  char[8]  magic "HSPARSE\n"
///           8  u32      version (1)
///          12  u32      format (1 = CSR)
///          16  u32      value type (1 float, 2 double, 3 complex<float>, 4 complex<double>)
///          20  u32      index type (1 int32, 2 int64)
///          24  u64      rows, cols, nnz
///          48  u32      CRC-32 of the payload
///          52  u32      CRC-32 of bytes 0..51 (the header itself)
///          56  u8[8]    reserved, zero
///          64  payload  row_ptr[rows+1], col_idx[nnz], values[nnz] (stored types)
/// The file size must equal 64 + payload bytes exactly. Loading checks magic,
/// version, both checksums, the size, and validates the CSR, so a corrupt or
/// foreign file is an Error, never a crash. Stored types are converted to the
/// requested ones (index overflow is an error).
#include <string>

#include "hsparse/formats/csr.hpp"

namespace hsparse::io {

template <class V, class I>
/// Writes `a` as an .hsp file, complete or not at all (atomic_file.hpp);
/// Error(io) naming the file when it cannot be written.
void write_hsp(const std::string& path, const Csr<V, I>& a);

template <class V, class I>
/// Reads an .hsp file; Error(corrupt) naming the check that failed, Error(io), Error(overflow).
Csr<V, I> read_hsp(const std::string& path);

/// True when the file starts with the .hsp magic.
bool is_hsp_file(const std::string& path);

/// True when an .hsp file stores complex values (checks the header first).
bool hsp_holds_complex(const std::string& path);
/// True when an .hsp file stores single-precision values (float or complex<float>).
bool hsp_holds_single(const std::string& path);

}  // namespace hsparse::io
