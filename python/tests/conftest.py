"""Shared fixtures: the shared SuiteSparse matrices (skipped with a message
when HSPARSE_MATRICES names no folder) and the test data folder."""
import os
import pathlib

import numpy as np
import pytest

import hsparse


def shared_matrix_dir():
    d = os.environ.get("HSPARSE_MATRICES", "")
    return pathlib.Path(d) if d and pathlib.Path(d).is_dir() else None


def shared_matrices(limit_nnz=2_000_000):
    """(name, path) of the real shared matrices up to limit_nnz entries, read from MANIFEST.md's order."""
    d = shared_matrix_dir()
    if d is None:
        return []
    return sorted((p.name[:-len(".mtx.gz")], str(p)) for p in d.glob("*.mtx.gz"))


@pytest.fixture(scope="session")
def data_dir():
    d = os.environ.get("HSPARSE_TEST_DATA")
    if not d:
        d = str(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data")
    return pathlib.Path(d)


def random_vector(n, dtype, seed):
    rng = np.random.default_rng(seed)
    v = rng.uniform(-1, 1, n)
    if np.dtype(dtype).kind == "c":
        v = v + 1j * rng.uniform(-1, 1, n)
    return v.astype(dtype)


def assert_product_close(A_scipy, y, x, dtype, rounding=0.0):
    """|y - A x| within the forward error bound of each row (n eps sum |a||x|), as the C++ tests check."""
    import scipy.sparse as sp
    exact = A_scipy.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64) @ x.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
    absA = abs(A_scipy).astype(np.float64)
    magnitude = absA @ np.abs(x).astype(np.float64)
    lengths = np.diff(sp.csr_matrix(A_scipy).indptr)
    eps = np.finfo(np.dtype(dtype)).eps
    bound = (4 * eps * (lengths + 2) + 2 * rounding) * magnitude + np.finfo(np.float64).tiny
    err = np.abs(y - exact)
    worst = int(np.argmax(err - bound)) if len(err) else 0
    assert np.all(err <= bound), f"row {worst}: error {err[worst]:.3e} above its bound {bound[worst]:.3e}"


def scipy_cg(A, b, rtol, **kwargs):
    """scipy.sparse.linalg.cg with a relative tolerance: `rtol` from scipy
    1.12 on (where `tol` is gone), `tol` before (Debian 12's 1.10)."""
    import inspect
    import scipy.sparse.linalg as spla
    key = "rtol" if "rtol" in inspect.signature(spla.cg).parameters else "tol"
    return spla.cg(A, b, atol=0, **{key: rtol}, **kwargs)
