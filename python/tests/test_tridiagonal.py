"""hsparse.tridiagonal.solve against a dense solve per system (scipy's banded solver)."""
import numpy as np
import pytest
import scipy.linalg as sla

import hsparse


def batch(size, count, dtype, seed=1):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (count, size)).astype(dtype)
    c = rng.uniform(-1, 1, (count, size)).astype(dtype)
    b = (np.abs(a) + np.abs(c) + 1 + rng.uniform(0, 1, (count, size))).astype(dtype)  # diagonally dominant
    d = rng.uniform(-1, 1, (count, size)).astype(dtype)
    return a, b, c, d


def reference(a, b, c, d):
    x = np.empty_like(d, dtype=np.float64)
    for k in range(d.shape[0]):
        ab = np.zeros((3, d.shape[1]))
        ab[0, 1:] = c[k, :-1]
        ab[1, :] = b[k]
        ab[2, :-1] = a[k, 1:]
        x[k] = sla.solve_banded((1, 1), ab, d[k].astype(np.float64))
    return x


@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-12), (np.float32, 1e-4)])
@pytest.mark.parametrize("size,count", [(1, 5), (2, 3), (257, 40), (1000, 2)])
def test_contiguous_and_interleaved_match_a_banded_solve(dtype, tol, size, count):
    a, b, c, d = batch(size, count, dtype)
    expect = reference(a, b, c, d)
    x = hsparse.tridiagonal.solve(a, b, c, d, layout="contiguous", device="cpu")
    assert np.max(np.abs(x - expect)) <= tol * max(1.0, np.max(np.abs(expect)))
    xi = hsparse.tridiagonal.solve(a.T, b.T, c.T, d.T, layout="interleaved", device="cpu")
    assert np.max(np.abs(xi.T - expect)) <= tol * max(1.0, np.max(np.abs(expect)))


def test_zero_pivot_names_the_system_and_row():
    a, b, c, d = batch(8, 3, np.float64)
    a[:] = 0
    c[:] = 0
    b[2, 5] = 0
    with pytest.raises(hsparse.Error, match="system 2, row 5"):
        hsparse.tridiagonal.solve(a, b, c, d, device="cpu")


def test_checks():
    a, b, c, d = batch(8, 3, np.float64)
    with pytest.raises(ValueError):
        hsparse.tridiagonal.solve(a, b, c, d[:, :4])
    with pytest.raises(ValueError):
        hsparse.tridiagonal.solve(a, b, c, d, layout="rows")
    with pytest.raises(TypeError):
        hsparse.tridiagonal.solve(a.astype(int), b.astype(int), c.astype(int), d.astype(int))
    with pytest.raises(hsparse.InvalidArgumentError):
        hsparse.tridiagonal.solve(a, b, c, d, algorithm="pcr", device="cpu")  # a GPU algorithm


@pytest.mark.skipif(not hsparse.cuda_available(), reason="skipped: no CUDA device")
@pytest.mark.parametrize("algorithm", ["auto", "thomas", "cr", "pcr", "hybrid", "partition"])
def test_gpu_algorithms(algorithm):
    a, b, c, d = batch(256, 64, np.float64)
    x = hsparse.tridiagonal.solve(a, b, c, d, algorithm=algorithm, device="cuda")
    assert np.max(np.abs(x - reference(a, b, c, d))) <= 1e-11
