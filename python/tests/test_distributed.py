"""hsparse.distributed on one rank (pytest runs in one process; the
multi-rank run is the ctest python.mpi_distributed_example.np3, which runs
examples/python/distributed_cg.py under mpirun with --check)."""
import numpy as np
import pytest
import scipy.sparse as sp

import hsparse
import hsparse.distributed as hd


def poisson(n):
    return sp.diags([-1.0, -1.0, 4.0, -1.0, -1.0], [-n, -1, 0, 1, n], shape=(n * n, n * n), format="csr")


def test_one_rank_matches_scipy_and_solves():
    A = poisson(30)
    N = A.shape[0]
    assert hd.row_range(N) == (0, N)
    D = hd.DistributedMatrix(A, device="cpu")
    assert D.shape == (N, N) and list(D.row_offsets) == [0, N]
    x = np.linspace(-1.0, 2.0, N)
    y = D.matvec(x)
    assert np.all(np.abs(y - A @ x) <= 10 * np.finfo(float).eps * (abs(A) @ np.abs(x)))
    for method in ("cg", "pipecg", "pipecg-gv", "gmres"):
        xs, info = D.solve(A @ x, method=method, precond="jacobi", tol=1e-10, restart=60)
        assert info.converged, (method, info.message)
        assert np.linalg.norm(A @ xs - A @ x) <= 1.01e-10 * np.linalg.norm(A @ x), method


def test_rectangular_rows_multiply():
    A = sp.random(50, 80, density=0.1, format="csr", random_state=3)
    D = hd.DistributedMatrix(A, device="cpu", format="auto")
    x = np.linspace(0.5, 1.5, 80)
    assert np.allclose(D.matvec(x), A @ x, rtol=0, atol=1e-13)
    assert D.shape == (50, 80)


def test_bad_input_is_refused_with_a_clear_error():
    A = poisson(4)
    with pytest.raises(ValueError, match="transport"):
        hd.DistributedMatrix(A, transport="carrier-pigeon")
    with pytest.raises(ValueError, match="device"):
        hd.DistributedMatrix(A, device="tpu")
    with pytest.raises(TypeError, match="mpi4py communicator"):
        hd.DistributedMatrix(A, comm=42)
    with pytest.raises(hsparse.CommunicationError, match="float64 rows only"):  # agreed over the ranks
        hd.DistributedMatrix(A.astype(np.float32), device="cpu")
    D = hd.DistributedMatrix(A, device="cpu")
    with pytest.raises(ValueError, match="owns 16 entries"):
        D.matvec(np.ones(15))
    with pytest.raises(ValueError, match="method"):
        D.solve(np.ones(16), method="bicg")


def test_an_mpi4py_communicator_is_taken():
    MPI = pytest.importorskip("mpi4py.MPI", reason="mpi4py not installed (python3-mpi4py)")
    if not hsparse._hsparse._built_with_mpi():
        pytest.skip("this hsparse was built without MPI")
    A = poisson(10)
    D = hd.DistributedMatrix(A, comm=MPI.COMM_SELF, device="cpu")  # hsparse duplicates COMM_SELF
    x = np.linspace(-1.0, 1.0, 100)
    assert np.allclose(D.matvec(x), A @ x, rtol=0, atol=1e-14)
    assert hd.row_range(100, MPI.COMM_SELF) == (0, 100)
