"""hsparse.SpmvPlan: y = alpha A x + beta y, planned once."""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from . import _hsparse

_DEVICES = ("auto", "cpu", "cuda")


class SpmvPlan:
    """A matrix stored once in a format on a device, its kernel chosen (and
    tuned over the first products) for repeated products.

    ``device``: "cpu", "cuda" or "auto" (the GPU if there is one).
    ``format``: "auto" (the advisor's choice for ``spmv_count`` products,
    conversion counted) or a format of ``hsparse.formats()`` (the library's
    registry: "csr", "sell", ...; "csr16-single" stores values in single
    precision).
    ``kernel``: a kernel of that format ("" for its default).
    ``tune``: tune the kernel's parameters over the first products (each
    product is correct while tuning); the result is kept in the tuning cache.

    ``plan @ x`` and ``plan.apply(x, out=, alpha=, beta=)`` take NumPy arrays
    (on a GPU plan they are copied to the device and back) or device arrays
    with ``__cuda_array_interface__`` (CuPy; no copy: the result is written
    to the device array ``out``, or a new CuPy array, and ordered on the
    arrays' stream like a CuPy operation: synchronise that stream before
    timing it from the host). A 2-D ``x`` (NumPy or device) is one block
    product: the format's SpMM kernel reads the matrix once per 32 columns
    where it has one (CSR, SELL, BCSR). The GIL is released while the
    product runs.
    """

    def __init__(self, A: Any, device: str = "auto", format: str = "auto", kernel: str = "", spmv_count: int = 1000,
                 tune: bool = True, use_cache: bool = True) -> None:
        from . import _as_matrix
        if device not in _DEVICES:
            raise ValueError(f"device: expected one of {', '.join(_DEVICES)}, got {device!r}")
        if not isinstance(format, str):
            raise TypeError(f"format: expected a str, got {type(format).__name__}")
        if not isinstance(spmv_count, (int, np.integer)) or spmv_count < 1:
            raise ValueError(f"spmv_count: expected an int >= 1, got {spmv_count!r}")
        self._matrix = _as_matrix(A)
        self._p = _hsparse._SpmvPlan(self._matrix._m, device, format, kernel, int(spmv_count), bool(tune), bool(use_cache))
        self._dtype = self._matrix.dtype
        self._on_gpu = self._p.device == "cuda"

    @property
    def shape(self) -> Tuple[int, int]:
        """(rows, cols) of the matrix."""
        return self._matrix.shape

    @property
    def dtype(self) -> np.dtype:
        """The value type products compute in."""
        return self._dtype

    @property
    def format(self) -> str:
        """The storage format in use, e.g. "sell"."""
        return self._p.format

    @property
    def kernel(self) -> str:
        """The kernel in use, e.g. "csr/vector-coop8-repeat4-block128"."""
        return self._p.kernel

    @property
    def device(self) -> str:
        """"cpu" or "cuda"."""
        return self._p.device

    @property
    def origin(self) -> str:
        """Where the configuration came from: "advisor", "given", "tuning", "tuned", "cache", ..."""
        return self._p.origin

    @property
    def tuning(self) -> bool:
        """Whether the plan is still trying parameters."""
        return self._p.tuning

    @property
    def calls(self) -> int:
        """Products computed so far."""
        return self._p.calls

    @property
    def stats(self) -> dict:
        """What the plan is and what the performance model expects of it:
        device, executor, format, kernel, origin, calls, the stored matrix's
        bytes (and per nonzero), and ``model``: the machine's measured read
        bandwidth (bytes/s), the minimum traffic of one product (the stored
        matrix, x and y once) and the time and GFLOP/s that traffic allows."""
        rows, cols = self.shape
        nnz = self._matrix.nnz
        matrix_bytes = self._p.matrix_bytes
        machine = _hsparse._machine(self.device)
        traffic = matrix_bytes + self._dtype.itemsize * (rows + cols)
        seconds = traffic / machine["read_bytes_per_s"]
        return {"device": self.device, "executor": self._p.executor, "format": self.format, "kernel": self.kernel,
                "origin": self.origin, "calls": self.calls, "tuning": self.tuning, "shape": self.shape, "dtype": str(self.dtype),
                "nnz": nnz, "matrix_bytes": matrix_bytes, "bytes_per_nonzero": matrix_bytes / nnz if nnz else 0.0,
                "model": {"read_bytes_per_s": machine["read_bytes_per_s"], "min_traffic_bytes": traffic, "seconds": seconds,
                          "gflops": 2 * nnz / seconds / 1e9 if seconds > 0 else 0.0, "note": machine["note"]}}

    def tune(self, calls: int = 10) -> int:
        """Runs up to ``calls`` products on a vector of ones until the tuner
        settles; returns how many ran."""
        return self._p._tune(int(calls))

    def apply(self, x: Any, out: Optional[Any] = None, alpha: Any = 1, beta: Any = 0) -> Any:
        """out = alpha A x + beta out; returns out (a new array when None).

        beta != 0 needs ``out``. Shapes and types are checked before any
        work: x has cols entries (rows of a 2-D x), of a type that casts
        safely to the plan's dtype (ValueError / TypeError otherwise).
        Device arrays (a CUDA plan) are never copied: x and out of the
        plan's dtype, contiguous (2-D: column-major; a row-major CuPy x is
        copied on the device by ``cupy.asfortranarray``). x may be any
        ``__cuda_array_interface__`` object (CuPy, PyTorch, Numba) or DLPack
        one (JAX, ...; the call then returns once the product is done: DLPack
        lends memory for the call only); out must be the former, or None
        for a new CuPy array. ``out`` may overlap ``x`` (``apply(x, out=x)``):
        the product then reads a copy of x, as scipy's would.

        A plan may be used from several threads at once; its products are
        serialized (each CPU product already uses every OpenMP thread)."""
        if self._on_gpu:
            if getattr(x, "ndim", 1) == 2 and type(x).__module__.startswith("cupy") and not x.flags.f_contiguous:
                x = _cupy().asfortranarray(x)  # a device copy: SpMM reads column-major blocks
            # Device arrays in one C++ call (their interface read and checked there): None when x is not one.
            y = self._p._apply_device(x, out, alpha, beta)
            if y is not None:
                return y
        elif type(x) is not np.ndarray and is_device_array(x):
            raise ValueError("x: device arrays need a plan on device='cuda'")
        x = np.asarray(x)
        if not np.can_cast(x.dtype, self._dtype, casting="safe"):
            raise TypeError(f"x: {x.dtype} does not cast safely to the plan's {self._dtype}; cast it first")
        rows, cols = self.shape
        if x.ndim not in (1, 2) or x.shape[0] != cols:
            raise ValueError(f"x: expected shape ({cols},) or ({cols}, k), got {x.shape}")
        if beta != 0 and out is None:
            raise ValueError("beta != 0 needs out (the y that beta scales)")
        out_shape = (rows,) + x.shape[1:]
        if out is None:
            out = np.empty(out_shape, dtype=self._dtype)
        elif not isinstance(out, np.ndarray) or out.dtype != self._dtype or out.shape != out_shape:
            raise ValueError(f"out: expected a NumPy array of shape {out_shape} and dtype {self._dtype}")
        if x.ndim == 1:
            xc = np.ascontiguousarray(x, dtype=self._dtype)
            if out.flags.c_contiguous:
                self._p._apply_host(xc, out, alpha, beta)
            else:
                y = np.ascontiguousarray(out)
                self._p._apply_host(xc, y, alpha, beta)
                out[...] = y
            return out
        # A 2-D x: one block product (SpMM where the format has a kernel for it), column-major.
        xf = np.asfortranarray(x, dtype=self._dtype)
        if out.flags.f_contiguous:
            self._p._apply_host_block(xf, out, alpha, beta)
        else:
            y = np.asfortranarray(out)
            self._p._apply_host_block(xf, y, alpha, beta)
            out[...] = y
        return out

    # ``plan @ x``: apply itself (no extra Python frame on the fast path).
    __matmul__ = apply


def is_device_array(v: Any) -> bool:
    """Whether v lives on a GPU: a ``__cuda_array_interface__`` object, or a
    DLPack one on a CUDA device (NumPy's arrays have ``__dlpack__`` too)."""
    if hasattr(v, "__cuda_array_interface__"):
        return True
    device = getattr(v, "__dlpack_device__", None)
    return device is not None and not isinstance(v, np.ndarray) and device()[0] in (2, 13)  # kDLCUDA, kDLCUDAManaged


def _cupy():
    import cupy
    return cupy


def as_linear_operator(plan: SpmvPlan):
    """A ``scipy.sparse.linalg.LinearOperator`` whose matvec is the plan's product
    (host arrays; for scipy's iterative solvers)."""
    from scipy.sparse.linalg import LinearOperator
    if not isinstance(plan, SpmvPlan):
        raise TypeError(f"as_linear_operator: expected an hsparse.SpmvPlan, got {type(plan).__name__}")
    return LinearOperator(plan.shape, matvec=lambda v: plan.apply(np.ravel(v)), dtype=plan.dtype)
