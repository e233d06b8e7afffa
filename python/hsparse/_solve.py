"""hsparse.solve: Krylov solvers (CG, pipelined CG, GMRES, BiCGStab) on an hsparse SpMV plan."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Tuple

import numpy as np

from . import _hsparse

_METHODS = ("cg", "pipecg", "pipecg-gv", "gmres", "bicgstab", "pipebicgstab")
_PRECONDS = (None, "none", "jacobi", "block-jacobi", "chebyshev", "ilu0", "ic0")


@dataclass
class SolveInfo:
    """What a solve did."""
    status: str                      #: "converged", "max-iterations", "breakdown", "non-finite" or "diverged"
    converged: bool                  #: status is converged
    iterations: int                  #: iterations completed
    residual: float                  #: the solver's ||r|| / ||b|| at the end
    history: List[float] = field(default_factory=list)  #: ||r|| / ||b|| before the first iteration and after each
    seconds: float = 0.0             #: the iterations
    setup_seconds: float = 0.0       #: preconditioner, workspace, first residual
    total_seconds: float = 0.0       #: everything, the plan's conversion included
    message: str = ""                #: why it stopped, in words
    preconditioner: str = ""         #: what M^-1 was, in words (Chebyshev's eigenvalue bounds, block Jacobi's blocks); "" without one


def solve(A: Any, b: Any, method: str = "cg", precond: Optional[str] = None, tol: float = 1e-8, maxiter: int = 10000,
          restart: int = 30, x0: Optional[Any] = None, device: str = "auto", format: str = "csr",
          callback: Optional[Callable[[int, float], None]] = None, block_size: int = 0,
          chebyshev_degree: int = 4, triangular: str = "auto", sweeps: int = 3,
          single_factors: bool = False) -> Tuple[np.ndarray, SolveInfo]:
    """Solves A x = b; returns (x, SolveInfo).

    ``method``: "cg", "pipecg" or "pipecg-gv" (symmetric positive definite
    A), "gmres" (restarted every ``restart`` iterations), "bicgstab"
    (nonsymmetric A, no basis to store) or "pipebicgstab" (its reductions
    overlapped with the preconditioner and the SpMV). ``precond``: None, "jacobi",
    "block-jacobi" (diagonal blocks of ``block_size`` rows inverted; 0:
    detected), "chebyshev" (a polynomial of ``chebyshev_degree`` in D^-1 A,
    SpMVs only), "ilu0" or "ic0".
    ILU(0)/IC(0)'s factors are applied by ``triangular``: "auto" (the
    faster exact solve, measured), "level-scheduled", "sync-free" (GPU),
    "serial" (CPU) or "jacobi" (``sweeps`` Jacobi sweeps per triangle;
    ``single_factors`` stores them in single precision).
    Stops at ||r|| / ||b|| <= ``tol``, after ``maxiter`` iterations, or at a
    breakdown (never reporting a NaN as converged). ``device`` as for
    SpmvPlan; ``format`` the operator's format ("auto": the advisor's).
    ``callback(iteration, relative_residual)`` is called as it goes (every
    iteration on the CPU; at every host check of the GPU's pipelined CG).
    Real matrices (float32, float64); complex ones (complex64, complex128)
    with "cg" (Hermitian positive definite A), "gmres", "bicgstab" (and
    "pipebicgstab" on the CPU), and None, "jacobi", "chebyshev", "ilu0" or
    "ic0". The GIL is released while solving."""
    from . import _as_matrix
    M = _as_matrix(A)
    if method not in _METHODS:
        raise ValueError(f"method: expected one of {', '.join(_METHODS)}, got {method!r}")
    if precond not in _PRECONDS:
        raise ValueError(f"precond: expected one of {', '.join(str(p) for p in _PRECONDS)}, got {precond!r}")
    if callback is not None and not callable(callback):
        raise TypeError("callback: expected a callable(iteration, residual)")
    if device not in ("auto", "cpu", "cuda"):
        raise ValueError(f"device: expected one of auto, cpu, cuda, got {device!r}")
    rows, cols = M.shape
    if rows != cols:
        raise ValueError(f"solve: A must be square, got {rows} x {cols}")
    b = np.asarray(b)
    if b.shape != (rows,):
        raise ValueError(f"b: expected shape ({rows},), got {b.shape}")
    if not np.can_cast(b.dtype, M.dtype, casting="safe"):
        raise TypeError(f"b: {b.dtype} does not cast safely to the matrix's {M.dtype}")
    x = np.zeros(cols, dtype=M.dtype) if x0 is None else np.array(x0, dtype=M.dtype, copy=True)
    if x.shape != (cols,):
        raise ValueError(f"x0: expected shape ({cols},), got {x.shape}")
    report = _hsparse._solve(M._m, np.ascontiguousarray(b, dtype=M.dtype), x, method, precond or "none", float(tol), int(maxiter),
                             int(restart), device, format, callback, int(block_size), int(chebyshev_degree), triangular, int(sweeps),
                             bool(single_factors))
    return x, SolveInfo(**report)


def preconditioner(A: Any, kind: str, device: str = "cpu", block_size: int = 0, chebyshev_degree: int = 4):
    """M^-1 of A as a ``scipy.sparse.linalg.LinearOperator`` (``M=`` of
    scipy's cg, gmres, bicgstab, ...), built once by hsparse: ``kind`` is
    "jacobi", "block-jacobi", "chebyshev", "ilu0" or "ic0" (the
    preconditioners of :func:`solve`, with its ``block_size`` and
    ``chebyshev_degree``), on ``device`` ("cpu", "cuda" or "auto"; the
    vectors travel to it and back on each application). Its
    ``description`` attribute says what M^-1 is. Errors as :func:`solve`'s:
    a zero pivot names its row, a singular block its rows."""
    from scipy.sparse.linalg import LinearOperator
    from . import _as_matrix
    M = _as_matrix(A)
    if kind not in _PRECONDS or kind in (None, "none"):
        raise ValueError(f"kind: expected one of jacobi, block-jacobi, chebyshev, ilu0, ic0, got {kind!r}")
    if device not in ("auto", "cpu", "cuda"):
        raise ValueError(f"device: expected one of auto, cpu, cuda, got {device!r}")
    if not 0 <= int(block_size) <= 32:
        raise ValueError(f"block_size: must be in 0..32 (0: detected), got {block_size}")
    if not 1 <= int(chebyshev_degree) <= 64:
        raise ValueError(f"chebyshev_degree: must be in 1..64, got {chebyshev_degree}")
    p = _hsparse._preconditioner(M._m, kind, device, int(block_size), int(chebyshev_degree))

    def matvec(r):
        r = np.ascontiguousarray(np.ravel(r), dtype=M.dtype)
        z = np.empty_like(r)
        p.apply(r, z)
        return z

    op = LinearOperator(M.shape, matvec=matvec, dtype=M.dtype)
    op.description = p.description
    return op
