"""hsparse: sparse matrix-vector products (SpMV) and the solvers built on
them, on multicore CPUs and NVIDIA GPUs.

>>> import hsparse, numpy as np, scipy.sparse as sp
>>> A = hsparse.from_scipy(sp.random(1000, 1000, density=0.01, format="csr"))
>>> plan = hsparse.SpmvPlan(A, device="auto", format="auto", spmv_count=1000)
>>> y = plan @ np.ones(1000)

Matrices: ``read``/``write`` (.mtx, .mtx.gz, .tar.gz, .hsp), ``generate``
("stencil3d:n=100"), ``from_scipy``/``to_scipy``, ``info``. Products:
``SpmvPlan`` on NumPy arrays (CPU, or copied to the GPU) and CuPy or any
``__cuda_array_interface__`` array (GPU, no copy). Solvers: ``solve`` (CG,
pipelined CG, GMRES; Jacobi), ``as_linear_operator``. Errors are
``hsparse.Error`` subclasses keeping the C++ code and message.
"""
from __future__ import annotations

import os

# OpenMP threads spin briefly, then sleep, unless the user chose a policy:
# libgomp's default spins 300,000 times, and on a busy 2-core machine GMRES
# iterations took up to 92 ms where 0.1-3 ms is the norm; sleeping at once
# (OMP_WAIT_POLICY=passive) cost 2-4x on an idle machine; GOMP_SPINCOUNT=10000
# kept the idle speed and the best busy median
# (docs/results/2026-11-28-openmp-wait-policy-cpu, the same rule as the
# hsparse tool's). libgomp reads these once, when it is loaded, so this must
# come before the extension module is imported; a user's own OMP_WAIT_POLICY
# or GOMP_SPINCOUNT wins.
if "OMP_WAIT_POLICY" not in os.environ and "GOMP_SPINCOUNT" not in os.environ:
    os.environ["GOMP_SPINCOUNT"] = "10000"

from typing import Any, List, Tuple  # noqa: E402

import numpy as np  # noqa: E402

from . import _hsparse  # noqa: E402
from ._errors import (CommunicationError, CorruptFileError, CudaError, Error, FileError, IndexOverflowError, InternalError, InvalidArgumentError,
                      InvalidMatrixError, OutOfMemoryError, ParseError, UnsupportedError)

__version__: str = _hsparse.__version__

__all__ = [
    "Matrix", "read", "write", "generate", "from_scipy", "to_scipy", "info", "advise", "SpmvPlan", "solve", "SolveInfo", "preconditioner", "as_linear_operator", "tridiagonal", "bench",
    "formats", "built_with_cuda", "cuda_available", "Error", "ParseError", "FileError", "CorruptFileError", "IndexOverflowError",
    "InvalidMatrixError", "InvalidArgumentError", "OutOfMemoryError", "CudaError", "UnsupportedError", "CommunicationError", "InternalError",
]

#: The value types hsparse computes in.
VALUE_DTYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.complex64), np.dtype(np.complex128))
#: The index types of its matrices.
INDEX_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))


def formats() -> List[str]:
    """The storage formats SpmvPlan takes (besides "auto"), in the registry's order."""
    return list(_hsparse._format_names())


def built_with_cuda() -> bool:
    """Whether this build of hsparse has the CUDA backend."""
    return _hsparse.built_with_cuda()


def cuda_available() -> bool:
    """Whether a CUDA device can be used now (False in a CPU-only build)."""
    return _hsparse.cuda_available()


class Matrix:
    """A sparse matrix held by hsparse, in CSR (immutable).

    Made by ``read``, ``generate`` or ``from_scipy``; ``to_scipy()`` views its
    arrays without copying them (read-only).
    """

    __slots__ = ("_m",)

    def __init__(self, handle: Any) -> None:
        if not isinstance(handle, _hsparse._Matrix):
            raise TypeError("hsparse.Matrix is made by hsparse.read, hsparse.generate or hsparse.from_scipy")
        self._m = handle

    @property
    def shape(self) -> Tuple[int, int]:
        """(rows, cols)."""
        return tuple(self._m.shape)

    @property
    def nnz(self) -> int:
        """Stored entries (explicit zeros included)."""
        return self._m.nnz

    @property
    def dtype(self) -> np.dtype:
        """The value type."""
        return np.dtype(self._m.dtype)

    @property
    def index_dtype(self) -> np.dtype:
        """The index type (int32, or int64 when the sizes need it)."""
        return np.dtype(self._m.index_dtype)

    def arrays(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(indptr, indices, data): read-only NumPy views of the CSR arrays (no copy)."""
        return tuple(np.asarray(self._m._view(name)) for name in ("indptr", "indices", "data"))

    def to_scipy(self):
        """A ``scipy.sparse.csr_matrix`` sharing this matrix's arrays (read-only, no copy)."""
        import scipy.sparse as sp
        indptr, indices, data = self.arrays()
        return sp.csr_matrix((data, indices, indptr), shape=self.shape, copy=False)

    def __repr__(self) -> str:
        return f"<hsparse.Matrix {self.shape[0]}x{self.shape[1]}, {self.nnz} entries, {self.dtype}, {self.index_dtype} indices>"


def read(path: str, *, single: bool = False) -> Matrix:
    """Reads a matrix: Matrix Market (.mtx, .mtx.gz), a SuiteSparse .tar.gz,
    or hsparse's binary .hsp. Complex files give complex matrices; ``single``
    asks for single precision. Raises ParseError naming the file and line,
    FileError, CorruptFileError. The GIL is released while reading."""
    return Matrix(_hsparse._load(_path(path), single))


def generate(spec: str) -> Matrix:
    """A generated matrix: ``"stencil3d:n=100"``, ``"fem:n=40,block=3"``,
    ``"powerlaw:rows=1e6"``, ... (``hsparse info --generators`` lists them).
    Deterministic on every machine."""
    if not isinstance(spec, str):
        raise TypeError(f"generate: spec must be a str, got {type(spec).__name__}")
    return Matrix(_hsparse._load(spec, False))


def write(path: str, A: Any) -> None:
    """Writes ``A`` (a Matrix or a scipy.sparse matrix) as Matrix Market
    (.mtx, or gzip-compressed .mtx.gz; full precision) or .hsp, by the file
    name's extension."""
    _hsparse._write(_path(path), _as_matrix(A)._m)


def from_scipy(A: Any) -> Matrix:
    """A Matrix from any scipy.sparse matrix or array (csr, csc, coo, bsr, ...).

    Converted to canonical CSR (sorted columns, duplicates summed) in
    scipy, then copied once into hsparse. Value types float32, float64,
    complex64, complex128 (others raise TypeError); indices int32 or int64.
    The compressed arrays of a CSR, CSC or BSR matrix are checked first
    (InvalidMatrixError naming the array): scipy's own conversions trust
    them, and a decreasing ``indptr`` made them fail with "vector::_M_default_append"
    or corrupt the heap."""
    import scipy.sparse as sp
    if not sp.issparse(A):
        raise TypeError(f"from_scipy: expected a scipy.sparse matrix, got {type(A).__name__}")
    if np.dtype(A.dtype) not in VALUE_DTYPES:
        raise TypeError(f"from_scipy: value type {A.dtype} is not one of float32, float64, complex64, complex128")
    _check_compressed(A)
    csr = A.tocsr()
    if not csr.has_canonical_format:
        csr = csr.copy()
        csr.sum_duplicates()  # also sorts the columns of each row
    indices = np.ascontiguousarray(csr.indices)
    indptr = np.ascontiguousarray(csr.indptr, dtype=indices.dtype)
    return Matrix(_hsparse._from_csr_arrays(csr.shape[0], csr.shape[1], indptr, indices, np.ascontiguousarray(csr.data)))


def _check_compressed(A: Any) -> None:
    """InvalidMatrixError naming the array when a CSR, CSC or BSR matrix's
    indptr, indices or data break the compressed layout; other formats
    (COO, DOK, LIL, DIA) have no indptr for scipy to trust."""
    fmt = getattr(A, "format", "")
    if fmt not in ("csr", "csc", "bsr"):
        return
    rows, cols = A.shape
    block = A.blocksize if fmt == "bsr" else (1, 1)
    major, minor = (cols, rows) if fmt == "csc" else (rows // block[0], cols // block[1])
    lines = "column" if fmt == "csc" else "row" if fmt == "csr" else "block row"

    def bad(what: str) -> InvalidMatrixError:
        return InvalidMatrixError("invalid matrix", f"from_scipy: {fmt} matrix {rows}x{cols}: {what}")

    indptr, indices = np.asarray(A.indptr), np.asarray(A.indices)
    if indptr.ndim != 1 or indptr.shape[0] != major + 1:
        raise bad(f"indptr has {indptr.size} entries, expected {major + 1} ({lines}s + 1)")
    if indptr[0] != 0:
        raise bad(f"indptr[0] is {indptr[0]}, expected 0")
    steps = np.diff(indptr)
    if steps.size and steps.min() < 0:
        i = int(np.argmax(steps < 0))
        raise bad(f"indptr decreases at {lines} {i} (indptr[{i}] = {indptr[i]}, indptr[{i + 1}] = {indptr[i + 1]})")
    nnz = indptr[-1]
    if indices.ndim != 1 or indices.shape[0] != nnz:
        raise bad(f"indptr[-1] is {nnz} but indices has {indices.size} entries")
    if np.shape(A.data)[0] != nnz:
        raise bad(f"indptr[-1] is {nnz} but data has {np.shape(A.data)[0]} entries")
    if nnz and (indices.min() < 0 or indices.max() >= minor):
        k = int(np.argmax((indices < 0) | (indices >= minor)))
        raise bad(f"indices[{k}] is {indices[k]}, outside [0, {minor})")


def to_scipy(A: Matrix):
    """``A.to_scipy()``: a scipy.sparse.csr_matrix sharing A's arrays."""
    return _as_matrix(A).to_scipy()


def info(A: Any) -> dict:
    """What ``hsparse info`` reports of a matrix: shape, symmetry, row
    lengths, bandwidth, diagonals, best BCSR block, bytes per format."""
    return _hsparse._info(_as_matrix(A)._m)


def advise(A: Any, spmv_count: int = 1000, device: str = "auto", value_tolerance: float = 0.0) -> List[dict]:
    """The format advisor's ranking for ``spmv_count`` products on ``device``
    (what ``hsparse advise`` prints): a dict per format, the choice first
    (the least predicted total time, products plus conversion, or on the GPU
    CSR when no conversion is predicted to gain more than 5%), then the others by
    total, the formats that refuse the matrix last with ``why``. Lossy formats (csr16-single) are ranked
    only when ``value_tolerance`` allows their rounding (2**-24)."""
    if device not in ("auto", "cpu", "cuda"):
        raise ValueError(f"device: expected one of auto, cpu, cuda, got {device!r}")
    return list(_hsparse._advise(_as_matrix(A)._m, int(spmv_count), device, float(value_tolerance)))


def _path(path: Any) -> str:
    import os
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"expected a file name, got {type(path).__name__}")
    return os.fspath(path)


def _as_matrix(A: Any) -> Matrix:
    if isinstance(A, Matrix):
        return A
    try:
        import scipy.sparse as sp
        if sp.issparse(A):
            return from_scipy(A)
    except ImportError:
        pass
    raise TypeError(f"expected an hsparse.Matrix or a scipy.sparse matrix, got {type(A).__name__}")


from ._plan import SpmvPlan, as_linear_operator  # noqa: E402  (uses the names above)
from ._solve import SolveInfo, preconditioner, solve  # noqa: E402
from . import tridiagonal  # noqa: E402
from ._bench import bench  # noqa: E402
