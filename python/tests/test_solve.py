"""hsparse.solve against scipy.sparse.linalg.cg, and its checks."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import hsparse
from conftest import scipy_cg, shared_matrices


@pytest.mark.parametrize("method", ["cg", "pipecg", "pipecg-gv", "gmres"])
@pytest.mark.parametrize("precond", [None, "jacobi"])
def test_solution_matches_scipy_cg(method, precond):
    A = hsparse.generate("stencil3d:n=12,points=7")
    S = A.to_scipy()
    b = np.random.default_rng(2).uniform(-1, 1, A.shape[0])
    x, info = hsparse.solve(A, b, method=method, precond=precond, tol=1e-10, device="cpu")
    ref, status = scipy_cg(S, b, 1e-12)
    assert status == 0 and info.converged and info.status == "converged"
    assert np.linalg.norm(x - ref) <= 1e-7 * np.linalg.norm(ref)
    assert np.linalg.norm(S @ x - b) <= 1e-9 * np.linalg.norm(b)
    assert len(info.history) == info.iterations + 1 and info.history[-1] <= 1e-10


@pytest.mark.parametrize("method", ["cg", "pipecg-gv", "gmres", "bicgstab"])
@pytest.mark.parametrize("precond", ["block-jacobi", "chebyshev"])
def test_preconditioners_match_scipy(method, precond):
    A = hsparse.generate("stencil3d:n=12,points=7")
    S = A.to_scipy()
    b = np.random.default_rng(3).uniform(-1, 1, A.shape[0])
    x, info = hsparse.solve(A, b, method=method, precond=precond, tol=1e-10, device="cpu", restart=60)
    ref, status = scipy_cg(S, b, 1e-12)
    assert status == 0 and info.converged, info.message
    assert np.linalg.norm(x - ref) <= 1e-7 * np.linalg.norm(ref)
    assert info.preconditioner.startswith("block Jacobi" if precond == "block-jacobi" else "Chebyshev of degree 4")


def test_bicgstab_on_a_nonsymmetric_system_like_scipy():
    A = hsparse.generate("convdiff2d:n=40,peclet=100")
    S = A.to_scipy()
    b = np.random.default_rng(4).uniform(-1, 1, A.shape[0])
    x, info = hsparse.solve(A, b, method="bicgstab", tol=1e-10, device="cpu")
    assert info.converged, info.message
    assert np.linalg.norm(S @ x - b) <= 1e-9 * np.linalg.norm(b)
    import inspect
    key = "rtol" if "rtol" in inspect.signature(spla.bicgstab).parameters else "tol"
    ref, status = spla.bicgstab(S, b, atol=0.0, maxiter=10000, **{key: 1e-10})
    assert status == 0 and np.linalg.norm(x - ref) <= 1e-6 * np.linalg.norm(ref)


@pytest.mark.parametrize("kind", ["jacobi", "block-jacobi", "chebyshev"])
def test_preconditioner_as_a_linear_operator_for_scipy(kind):
    A = hsparse.generate("stencil2d:n=30")
    S = A.to_scipy()
    b = np.random.default_rng(5).uniform(-1, 1, A.shape[0])
    M = hsparse.preconditioner(A, kind)
    assert M.shape == S.shape and M.description
    iterations = {"plain": 0, "pre": 0}

    def count(key):
        def f(_):
            iterations[key] += 1
        return f
    x0, s0 = scipy_cg(S, b, 1e-10, callback=count("plain"))
    x1, s1 = scipy_cg(S, b, 1e-10, M=M, callback=count("pre"))
    assert s0 == 0 and s1 == 0
    assert np.linalg.norm(S @ x1 - b) <= 1e-8 * np.linalg.norm(b)
    if kind != "jacobi":  # Jacobi on a constant diagonal only rescales
        assert iterations["pre"] < iterations["plain"]
    # M^-1 applied to a vector: Jacobi is exactly the inverse diagonal.
    r = np.linspace(1, 2, A.shape[0])
    if kind == "jacobi":
        assert np.allclose(M.matvec(r), r / S.diagonal(), rtol=1e-15)


def test_bad_preconditioner_options_are_errors():
    A = hsparse.generate("stencil2d:n=10")
    b = np.ones(A.shape[0])
    with pytest.raises(ValueError, match="precond"):
        hsparse.solve(A, b, precond="ilu")
    with pytest.raises(ValueError, match="block_size"):
        hsparse.solve(A, b, precond="block-jacobi", block_size=40)
    with pytest.raises(ValueError, match="kind"):
        hsparse.preconditioner(A, "none")
    x, info = hsparse.solve(A, b, method="pipecg", precond="chebyshev", device="cpu")
    assert info.converged, info.message


def test_x0_and_callback():
    A = hsparse.generate("stencil2d:n=40")
    b = np.ones(A.shape[0])
    seen = []
    x, info = hsparse.solve(A, b, x0=np.zeros(A.shape[0]), tol=1e-8, device="cpu", callback=lambda it, r: seen.append((it, r)))
    assert info.converged and seen and seen[-1][0] == info.iterations


def test_a_failing_callback_is_raised():
    A = hsparse.generate("stencil2d:n=20")

    def boom(it, r):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        hsparse.solve(A, np.ones(A.shape[0]), device="cpu", callback=boom)


def test_iteration_limit_is_reported_not_hidden():
    A = hsparse.generate("stencil3d:n=20,points=7")
    x, info = hsparse.solve(A, np.ones(A.shape[0]), tol=1e-14, maxiter=3, device="cpu")
    assert not info.converged and info.iterations == 3 and info.status != "converged"


@pytest.mark.parametrize("name,path", [m for m in shared_matrices() if m[0] in ("bcsstk16", "nos4", "bcsstk01", "mesh1e1", "1138_bus")])
def test_shared_spd_matrices(name, path):
    A = hsparse.read(path)
    b = np.ones(A.shape[0])
    x, info = hsparse.solve(A, b, method="cg", precond="jacobi", tol=1e-8, maxiter=20000, device="cpu")
    assert info.converged, info.message
    assert np.linalg.norm(A.to_scipy() @ x - b) <= 1e-6 * np.linalg.norm(b)


def test_errors():
    A = hsparse.generate("stencil2d:n=10")
    with pytest.raises(ValueError):
        hsparse.solve(A, np.ones(5))
    with pytest.raises(ValueError):
        hsparse.solve(A, np.ones(100), method="bicg")
    with pytest.raises(ValueError):
        hsparse.solve(A, np.ones(100), precond="ilu")
    with pytest.raises(ValueError):
        hsparse.solve(A, np.ones(100), tol=0)
    with pytest.raises(ValueError):
        hsparse.solve(sp.random(5, 6, density=0.5, format="csr"), np.ones(5))
    with pytest.raises(TypeError):
        hsparse.solve(A, np.ones(100), callback=3)
    C = sp.identity(10, dtype=np.complex128, format="csr")
    with pytest.raises(hsparse.UnsupportedError, match="real so far"):
        hsparse.solve(C, np.ones(10, dtype=np.complex128), method="pipecg", device="cpu")
    singular = sp.csr_matrix(([1.0, 1.0], ([0, 1], [1, 0])), shape=(2, 2))
    with pytest.raises(hsparse.InvalidMatrixError):
        hsparse.solve(singular, np.ones(2), precond="jacobi", device="cpu")  # no diagonal entry: named, not divided by


@pytest.mark.parametrize("name", ["qc324", "dwg961a", "mhd1280a"])
def test_complex_shared_matrices_against_scipy(name):
    """GMRES with ILU(0) where it factorises, else without: converges where
    scipy's GMRES does, to the same solution."""
    paths = dict(shared_matrices())
    if name not in paths:
        pytest.skip(f"skipped: the shared matrices (with {name}) are absent")
    path = paths[name]
    A = hsparse.read(path)
    S = A.to_scipy().tocsr()
    b = S @ np.linspace(1, 2, S.shape[0]).astype(complex)
    import inspect
    key = "rtol" if "rtol" in inspect.signature(spla.gmres).parameters else "tol"
    ref, status = spla.gmres(S, b, atol=0.0, restart=50, maxiter=200, **{key: 1e-8})
    solved = None
    for precond in ("ilu0", None):
        try:
            x, info = hsparse.solve(A, b, method="gmres", precond=precond, tol=1e-8, restart=50, maxiter=10000, device="cpu")
        except hsparse.Error:
            continue  # a zero pivot: the next preconditioner
        if info.converged:
            solved = x
            break
    if status == 0:
        assert solved is not None, f"{name}: scipy's GMRES converged, hsparse's did not"
    if solved is not None:
        assert np.linalg.norm(S @ solved - b) <= 1e-7 * np.linalg.norm(b)


def test_complex_hermitian_cg():
    A = hsparse.generate("stencil2d:n=20")
    S = A.to_scipy().astype(complex).tolil()
    S.setdiag(5.0)  # diagonally dominant with the imaginary couplings: positive definite
    for i in range(S.shape[0] - 1):
        if S[i, i + 1] != 0:
            S[i, i + 1] += 0.3j
            S[i + 1, i] -= 0.3j
    S = S.tocsr()
    b = np.ones(S.shape[0]) * (1 + 2j)
    x, info = hsparse.solve(hsparse.from_scipy(S), b, method="cg", precond="jacobi", tol=1e-10, device="cpu")
    assert info.converged, info.message
    assert np.linalg.norm(S @ x - b) <= 1e-9 * np.linalg.norm(b)


def test_bicgstab_converges_where_scipy_does():
    """Every square nonsymmetric real shared matrix: where scipy's BiCGStab
    converges, hsparse's does too (docs/results/2026-11-28-bicgstab-vs-scipy
    has the iteration counts)."""
    import gzip
    import inspect
    matrices = shared_matrices()
    if not matrices:
        pytest.skip("skipped: the shared matrices are absent (HSPARSE_MATRICES)")
    key = "rtol" if "rtol" in inspect.signature(spla.bicgstab).parameters else "tol"
    checked = 0
    for name, path in matrices:
        with gzip.open(path, "rt") as f:
            header = f.readline()
        if "real" not in header or "general" not in header:
            continue
        A = hsparse.read(path)
        S = A.to_scipy().tocsr()
        if S.shape[0] != S.shape[1] or S.nnz > 500_000:
            continue
        b = S @ np.linspace(1, 2, S.shape[0])
        _, status = spla.bicgstab(S, b, atol=0.0, maxiter=2000, **{key: 1e-8})
        if status != 0:
            continue
        x, info = hsparse.solve(A, b, method="bicgstab", tol=1e-8, maxiter=2000, device="cpu")
        assert info.converged, f"{name}: scipy's BiCGStab converged, hsparse's stopped: {info.message}"
        assert np.linalg.norm(S @ x - b) <= 1e-6 * np.linalg.norm(b), name
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("triangular,single", [("auto", False), ("serial", False), ("jacobi", False), ("jacobi", True)])
def test_ilu0_triangular_options(triangular, single):
    A = hsparse.generate("convdiff2d:n=30,peclet=50")
    S = A.to_scipy()
    b = np.random.default_rng(6).uniform(-1, 1, A.shape[0])
    x, info = hsparse.solve(A, b, method="bicgstab", precond="ilu0", tol=1e-10, device="cpu", triangular=triangular, single_factors=single)
    assert info.converged, info.message
    assert np.linalg.norm(S @ x - b) <= 1e-9 * np.linalg.norm(b)
    assert ("Jacobi sweeps" in info.preconditioner) == (triangular == "jacobi")
    with pytest.raises(hsparse.InvalidArgumentError):
        hsparse.solve(A, b, method="bicgstab", precond="ilu0", device="cpu", triangular="sync-free")
