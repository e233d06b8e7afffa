"""hsparse across MPI ranks, from Python (docs/distributed.md).

Each rank holds its own rows of the matrix and its own entries of the
vectors; products and solves are collective (every rank calls them, in the
same order, with the same options). Works under ``mpirun -np P python3
script.py`` with mpi4py, or with no launcher at all (one rank)::

    from mpi4py import MPI
    import hsparse.distributed as hd
    first, end = hd.row_range(n, MPI.COMM_WORLD)      # this rank's rows
    A = hd.DistributedMatrix(my_rows, comm=MPI.COMM_WORLD)   # scipy CSR: (end - first) x n
    y = A.matvec(x[first:end])
    x_mine, info = A.solve(b[first:end], method="cg", precond="jacobi")

The communicator may be any mpi4py communicator (hsparse works on its own
duplicate of it); ``comm=None`` takes every rank the launcher started (or
this process alone). On GPUs each rank takes the GPU its node-local rank
names. float64 values.
"""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from . import _hsparse
from ._solve import SolveInfo

_TRANSPORTS = ("automatic", "host", "device-mpi", "nccl")


def _handle(comm: Any) -> int:
    if comm is None:
        return -1
    py2f = getattr(comm, "py2f", None)
    if py2f is None:
        raise TypeError(f"comm: expected an mpi4py communicator (or None), got {type(comm).__name__}")
    if not _hsparse._built_with_mpi():
        raise RuntimeError("comm: this hsparse was built without MPI (install libopenmpi-dev and rebuild)")
    return int(py2f())


def row_range(n: int, comm: Any = None) -> Tuple[int, int]:
    """This rank's rows [first, end) of an n-row matrix cut into contiguous
    blocks whose sizes differ by at most one (the cut ``mpirun hsparse``
    uses for generated matrices, PETSc's default)."""
    if n < 0:
        raise ValueError(f"n: must be >= 0, got {n}")
    rank, size = _hsparse._world_rank_size() if comm is None else (comm.Get_rank(), comm.Get_size())
    base, extra = divmod(n, size)
    first = rank * base + min(rank, extra)
    return first, first + base + (1 if rank < extra else 0)


class DistributedMatrix:
    """This rank's rows of a distributed matrix, ready for products and solves.

    ``rows``: a scipy.sparse matrix (or hsparse.Matrix) with this rank's rows
    and the global column count; the ranks' rows follow each other in rank
    order. ``format``: both parts' storage format ("auto": the advisor's, per
    part and rank). ``transport``: how GPU ranks exchange the halo
    ("automatic": the fastest measured at setup). ``overlap``: the local
    product runs while the halo travels. Collective."""

    def __init__(self, rows: Any, comm: Any = None, device: str = "auto", format: str = "csr", transport: str = "automatic",
                 overlap: bool = True) -> None:
        from . import _as_matrix
        if device not in ("auto", "cpu", "cuda"):
            raise ValueError(f"device: expected one of auto, cpu, cuda, got {device!r}")
        if transport not in _TRANSPORTS:
            raise ValueError(f"transport: expected one of {', '.join(_TRANSPORTS)}, got {transport!r}")
        M = _as_matrix(rows)
        self._d = _hsparse._Distributed(M._m, _handle(comm), device, format, transport, bool(overlap))

    @property
    def row_offsets(self) -> np.ndarray:
        """Rank r owns rows [row_offsets[r], row_offsets[r + 1])."""
        return np.asarray(self._d.row_offsets, dtype=np.int64)

    @property
    def column_offsets(self) -> np.ndarray:
        """Rank r owns entries [column_offsets[r], column_offsets[r + 1]) of x."""
        return np.asarray(self._d.column_offsets, dtype=np.int64)

    @property
    def shape(self) -> Tuple[int, int]:
        """The global shape."""
        return int(self._d.row_offsets[-1]), int(self._d.column_offsets[-1])

    @property
    def description(self) -> str:
        """This rank's parts, halo and transport, in one line."""
        return self._d.description

    @property
    def transport(self) -> str:
        """The halo transport in use."""
        return self._d.transport

    def matvec(self, x: Any) -> np.ndarray:
        """y = A x on this rank's entries of x (column_offsets) and y (row_offsets). Collective."""
        r = self._d.rank
        x = np.ascontiguousarray(x, dtype=np.float64)
        cols = self._d.column_offsets[r + 1] - self._d.column_offsets[r]
        if x.shape != (cols,):
            raise ValueError(f"x: rank {r} owns {cols} entries, got shape {x.shape}")
        y = np.empty(self._d.row_offsets[r + 1] - self._d.row_offsets[r], dtype=np.float64)
        self._d._matvec(x, y)
        return y

    def solve(self, b: Any, method: str = "cg", precond: Optional[str] = None, tol: float = 1e-8, maxiter: int = 10000, restart: int = 30,
              x0: Optional[Any] = None) -> Tuple[np.ndarray, SolveInfo]:
        """Solves A x = b, b and x this rank's entries; returns (x, SolveInfo),
        the same status and iterations on every rank. As hsparse.solve.
        Collective."""
        if method not in ("cg", "pipecg", "pipecg-gv", "gmres"):
            raise ValueError(f"method: expected one of cg, pipecg, pipecg-gv, gmres, got {method!r}")
        if precond not in (None, "none", "jacobi", "chebyshev", "block-jacobi", "ilu0", "ic0"):
            raise ValueError(f"precond: expected None, 'jacobi', 'chebyshev', or 'block-jacobi', 'ilu0', 'ic0' (on each rank's diagonal block), got {precond!r}")
        if not tol > 0 or maxiter < 1 or restart < 1:
            raise ValueError("tol must be > 0, maxiter and restart >= 1")
        r = self._d.rank
        n = self._d.row_offsets[r + 1] - self._d.row_offsets[r]
        b = np.ascontiguousarray(b, dtype=np.float64)
        if b.shape != (n,):
            raise ValueError(f"b: rank {r} owns {n} rows, got shape {b.shape}")
        x = np.zeros(n) if x0 is None else np.array(x0, dtype=np.float64, copy=True)
        if x.shape != (n,):
            raise ValueError(f"x0: rank {r} owns {n} rows, got shape {x.shape}")
        report = self._d._solve(b, x, method, precond or "none", float(tol), int(maxiter), int(restart))
        return x, SolveInfo(**report)
