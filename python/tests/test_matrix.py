"""Matrices: scipy round trips, files, generators, info, and the errors of each."""
import gzip
import os

import numpy as np
import pytest
import scipy.sparse as sp

import hsparse

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def scipy_matrix(dtype, fmt, seed=3, shape=(40, 30)):
    rng = np.random.default_rng(seed)
    A = sp.random(*shape, density=0.2, format="coo", random_state=seed, dtype=np.float64)
    if np.dtype(dtype).kind == "c":
        A = A + 1j * sp.random(*shape, density=0.1, format="coo", random_state=seed + 1)
    A = A.astype(dtype)
    A.data[0] = 0  # an explicit zero stays an entry
    return A.asformat(fmt) if fmt != "bsr" else A.tobsr(blocksize=(2, 3))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "bsr"])
def test_from_scipy_to_scipy_round_trip(dtype, fmt):
    A = scipy_matrix(dtype, fmt)
    M = hsparse.from_scipy(A)
    assert M.shape == A.shape and M.dtype == np.dtype(dtype)
    B = M.to_scipy()
    assert B.dtype == np.dtype(dtype)
    assert (abs(B - A.tocsr())).max() == 0
    assert B.has_canonical_format


def test_to_scipy_shares_the_matrix_arrays():
    M = hsparse.from_scipy(scipy_matrix(np.float64, "csr"))
    a, b = M.to_scipy(), M.to_scipy()
    assert np.shares_memory(a.data, b.data) and np.shares_memory(a.indices, b.indices)  # views, not copies
    assert not a.data.flags.writeable
    del M
    assert np.isfinite(a.data).all()  # the views keep the matrix alive


def test_duplicates_are_summed_and_columns_sorted():
    A = sp.coo_matrix(([1.0, 2.0, 3.0], ([0, 0, 1], [2, 2, 0])), shape=(2, 3))
    B = hsparse.from_scipy(A).to_scipy()
    assert B.nnz == 2 and B[0, 2] == 3.0 and B[1, 0] == 3.0


def test_int64_indices_are_kept():
    A = scipy_matrix(np.float64, "csr")
    A.indices = A.indices.astype(np.int64)
    A.indptr = A.indptr.astype(np.int64)
    assert hsparse.from_scipy(A).index_dtype == np.int64


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ext", [".mtx", ".mtx.gz", ".hsp"])
def test_write_read_round_trip(tmp_path, dtype, ext):
    A = scipy_matrix(dtype, "csr")
    path = tmp_path / f"a{ext}"
    hsparse.write(path, A)
    M = hsparse.read(path, single=np.dtype(dtype) in (np.float32, np.complex64))
    assert M.dtype == np.dtype(dtype) or ext != ".hsp"  # text carries no precision
    assert abs(M.to_scipy().astype(np.complex128) - A.astype(np.complex128)).max() == 0


def test_read_gzip_and_archive(tmp_path, data_dir):
    text = (data_dir / "nonsymmetric.mtx").read_bytes()
    gz = tmp_path / "n.mtx.gz"
    gz.write_bytes(gzip.compress(text))
    assert hsparse.read(gz).shape == hsparse.read(data_dir / "nonsymmetric.mtx").shape
    try:
        M = hsparse.read(data_dir / "small_archive.tar.gz")
    except hsparse.UnsupportedError as e:  # a build without libarchive says so
        pytest.skip(f"skipped: {e}")
    assert M.nnz > 0


def test_generate_and_info():
    M = hsparse.generate("stencil3d:n=10,points=7")
    assert M.shape == (1000, 1000)
    i = hsparse.info(M)
    assert i["rows"] == 1000 and i["nnz"] == M.nnz and i["symmetry"] == "symmetric"
    assert i["row_lengths"]["max"] == 7 and i["diagonals"] == 7
    assert set(hsparse.formats()) <= set(i["bytes_per_format"])


def test_every_bad_file_is_a_parse_error_naming_the_file(data_dir):
    # rows_overflow_int32.mtx is bad for int32 indices only: read with the
    # int64 indices it needs, its 3e9 row offsets take 45 GiB (an
    # OutOfMemoryError here, a long allocation on a large machine).
    bad = sorted(p for p in (data_dir / "bad_mtx").iterdir() if p.name != "rows_overflow_int32.mtx")
    assert bad
    for path in bad:
        with pytest.raises(hsparse.Error) as e:
            hsparse.read(path)
        assert path.name in str(e.value), str(e.value)
        assert isinstance(e.value, (hsparse.ParseError, hsparse.IndexOverflowError, hsparse.FileError)), type(e.value)


def test_parse_error_keeps_code_and_line(data_dir):
    with pytest.raises(hsparse.ParseError) as e:
        hsparse.read(data_dir / "bad_mtx" / "skew_diagonal.mtx")
    assert e.value.code == "parse error" and "skew_diagonal.mtx:3:" in e.value.message
    assert isinstance(e.value, ValueError)


def test_missing_file_and_bad_spec():
    with pytest.raises(hsparse.FileError):
        hsparse.read("/nonexistent/a.mtx")
    with pytest.raises(hsparse.ParseError):
        hsparse.generate("stencil3d:n=abc")


def test_bad_types_are_type_errors():
    with pytest.raises(TypeError):
        hsparse.from_scipy(sp.identity(3, dtype=np.int64, format="csr"))
    with pytest.raises(TypeError):
        hsparse.from_scipy(np.eye(3))
    with pytest.raises(TypeError):
        hsparse.generate(3)
    with pytest.raises(TypeError):
        hsparse.write(3, sp.identity(3, format="csr"))
    with pytest.raises(TypeError):
        hsparse.info("not a matrix")


def test_write_needs_a_known_extension(tmp_path):
    with pytest.raises(hsparse.InvalidArgumentError):
        hsparse.write(tmp_path / "a.txt", sp.identity(3, format="csr"))


def test_every_error_code_has_its_class():
    from hsparse import _hsparse
    from hsparse._errors import error_class
    for code in _hsparse._error_codes():
        assert error_class(code) is not hsparse.Error, code


def bad_csr(indptr, indices, data, shape):
    """A scipy CSR matrix holding exactly the arrays given (scipy checks little when it is made)."""
    A = sp.csr_matrix(shape)
    A.indptr, A.indices, A.data = (np.asarray(indptr, dtype=np.int32), np.asarray(indices, dtype=np.int32), np.asarray(data, dtype=np.float64))
    return A


@pytest.mark.parametrize("indptr,indices,data,shape,names", [
    ([0, 5, 1], [0, 1, 0, 1, 0], [1.0] * 5, (2, 2), ["indptr decreases at row 1 (indptr[1] = 5, indptr[2] = 1)"]),  # issue 62: was vector::_M_default_append
    ([1, 2, 3], [0, 1, 0], [1.0] * 3, (2, 2), ["indptr[0] is 1"]),
    ([0, 1, 4], [0, 1, 0], [1.0] * 3, (2, 2), ["indptr[-1] is 4", "indices has 3"]),
    ([0, 1, 2], [0, 7], [1.0] * 2, (2, 2), ["indices[1] is 7", "[0, 2)"]),
    ([0, 1, 2], [0, -1], [1.0] * 2, (2, 2), ["indices[1] is -1"]),
    ([0, 1], [0], [1.0], (2, 2), ["indptr has 2 entries, expected 3"]),
])
def test_bad_compressed_arrays_name_the_array(indptr, indices, data, shape, names):
    A = bad_csr(indptr, indices, data, shape)
    with pytest.raises(hsparse.InvalidMatrixError) as e:
        hsparse.from_scipy(A)
    for name in names:
        assert name in str(e.value)
    assert isinstance(e.value, ValueError) and e.value.code == "invalid matrix"


def test_the_reported_decreasing_indptr_names_indptr():
    # Issue 62: scipy accepts these arrays; its sum_duplicates then failed
    # with "vector::_M_default_append" and corrupted the heap.
    A = sp.csr_matrix((np.ones(5), np.array([0, 1, 0, 1, 0]), np.array([0, 5, 1])), shape=(2, 2))
    with pytest.raises(hsparse.InvalidMatrixError, match=r"indptr decreases at row 1 \(indptr\[1\] = 5, indptr\[2\] = 1\)"):
        hsparse.from_scipy(A)


def test_a_decreasing_csc_indptr_names_the_column():
    A = sp.csc_matrix((2, 2))
    A.indptr, A.indices, A.data = np.array([0, 2, 1], dtype=np.int32), np.array([0, 1], dtype=np.int32), np.ones(2)
    with pytest.raises(hsparse.InvalidMatrixError, match="indptr decreases at column 1"):
        hsparse.from_scipy(A)


def test_the_binding_checks_indptr_itself():
    # The last line of defence, below from_scipy: the C++ side names indptr too.
    with pytest.raises(hsparse.InvalidMatrixError, match=r"indptr decreases at row 1 \(indptr\[1\] = 2, indptr\[2\] = 1\)"):
        hsparse._hsparse._from_csr_arrays(2, 2, np.array([0, 2, 1], dtype=np.int32), np.array([0, 1], dtype=np.int32), np.ones(2))
    with pytest.raises(hsparse.InvalidMatrixError, match=r"indptr\[-1\] is 1 but indices has 2 entries"):
        hsparse._hsparse._from_csr_arrays(2, 2, np.array([0, 1, 1], dtype=np.int32), np.array([0, 1], dtype=np.int32), np.ones(2))
