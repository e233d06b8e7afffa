"""hsparse.tridiagonal: batches of independent tridiagonal systems.

    a_i x_{i-1} + b_i x_i + c_i x_{i+1} = d_i,   i = 0 .. size-1  (a_0 and c_{size-1} ignored)

``layout="contiguous"``: arrays of shape (count, size), one system per row
(cuSPARSE gtsv2StridedBatch); ``layout="interleaved"``: shape (size, count),
one system per column (gtsvInterleavedBatch). No pivoting: diagonally
dominant or symmetric positive definite systems are safe, and a zero pivot
raises an hsparse.Error naming its system and row.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from . import _hsparse
from ._plan import is_device_array

__all__ = ["solve"]

_ALGORITHMS = ("auto", "thomas", "cr", "pcr", "hybrid", "partition")


def solve(a: Any, b: Any, c: Any, d: Any, layout: str = "contiguous", algorithm: str = "auto", device: Optional[str] = None,
          out: Optional[Any] = None) -> Any:
    """x with A_k x_k = d_k for every system k of the batch (see the module).

    ``algorithm``: "auto", or on the GPU "thomas", "cr", "pcr", "hybrid",
    "partition", or "cusparse" (cuSPARSE's gtsv2, a baseline); on the CPU "thomas"
    (systems in parallel) or "reference" (serial). Another is refused, naming
    those the device has.
    ``device``: "cpu", "cuda", "auto" (the GPU if there is one) or None
    (where the arrays are: the GPU for device arrays, else the CPU).

    float32 or float64, all four arrays of one shape and type (checked
    before any work): NumPy arrays (copied to the GPU for a GPU solve), or
    device arrays (CuPy, any ``__cuda_array_interface__`` object, or
    DLPack ones; C-contiguous; solved on the GPU without copies, into
    ``out``, a ``__cuda_array_interface__`` array, or a new CuPy array when
    None). The GIL is released while
    solving."""
    if layout not in ("contiguous", "interleaved"):
        raise ValueError(f"layout: expected 'contiguous' or 'interleaved', got {layout!r}")
    if algorithm not in _ALGORITHMS:
        raise ValueError(f"algorithm: expected one of {', '.join(_ALGORITHMS)}, got {algorithm!r}")
    if device not in (None, "auto", "cpu", "cuda"):
        raise ValueError(f"device: expected None, 'auto', 'cpu' or 'cuda', got {device!r}")
    if any(is_device_array(v) for v in (a, b, c, d)):
        if device == "cpu":
            raise ValueError("device: device arrays are solved on the GPU: device='cuda' or 'auto'")
        # d's value type as the C++ side reads it (a host d among device arrays: its NumPy type, refused there).
        dtype = _hsparse._device_array_dtype(d) or np.asarray(d).dtype.name
        out, _ = _hsparse._tridiagonal_solve_device(layout, algorithm, dtype, a, b, c, d, out)
        return out
    arrays = [np.asarray(v) for v in (a, b, c, d)]
    if len({v.shape for v in arrays}) != 1 or arrays[0].ndim != 2:
        raise ValueError(f"a, b, c, d: expected four 2-D arrays of one shape, got {[v.shape for v in arrays]}")
    dtype = np.result_type(*arrays)
    if dtype not in (np.float32, np.float64):
        raise TypeError(f"a, b, c, d: expected float32 or float64 values, got {dtype}")
    rows, cols = arrays[0].shape
    size, count = (cols, rows) if layout == "contiguous" else (rows, cols)
    if out is None:
        out = np.empty((rows, cols), dtype=dtype)
    elif not isinstance(out, np.ndarray) or out.shape != (rows, cols) or out.dtype != dtype or not out.flags.c_contiguous:
        raise ValueError(f"out: expected a C-contiguous {dtype} array of shape {(rows, cols)}")
    flat = [np.ascontiguousarray(v, dtype=dtype).reshape(-1) for v in arrays]
    _hsparse._tridiagonal_solve(size, count, layout, algorithm, device or "cpu", *flat, out.reshape(-1))
    return out
