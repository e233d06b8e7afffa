"""SpmvPlan against scipy.sparse: every format and value type on generated
and edge-case matrices, the shared real matrices, the arguments' checks."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

import hsparse
from conftest import scipy_cg, assert_product_close, random_vector, shared_matrices

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


def edge_cases():
    """Matrices that break kernels: empty rows, 1x1, rectangular, one long row, explicit zeros, empty."""
    rng = np.random.default_rng(5)
    long_row = sp.lil_matrix((300, 5000))
    long_row[7, :] = rng.uniform(-1, 1, 5000)
    long_row[100, 3] = 2.0
    empty_rows = sp.random(200, 200, density=0.02, format="csr", random_state=2)
    zeros = sp.csr_matrix((np.zeros(3), ([0, 1, 2], [2, 0, 1])), shape=(3, 3))
    return {
        "stencil": hsparse.generate("stencil2d:n=30").to_scipy(),
        "powerlaw": hsparse.generate("powerlaw:rows=3000").to_scipy(),
        "rectangular": sp.random(50, 170, density=0.05, format="csr", random_state=4),
        "one_by_one": sp.csr_matrix(np.array([[3.0]])),
        "one_long_row": long_row.tocsr(),
        "empty_rows": empty_rows,
        "explicit_zeros": zeros,
        "empty": sp.csr_matrix((0, 0)),
    }


def as_type(A, dtype):
    A = A.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)
    if np.dtype(dtype).kind == "c":
        A = A + 0.5j * A
    return sp.csr_matrix(A.astype(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", hsparse.formats())
def test_every_format_matches_scipy(fmt, dtype):
    rounding = hsparse._hsparse._value_rounding(fmt)
    for name, A in edge_cases().items():
        A = as_type(A, dtype)
        try:
            plan = hsparse.SpmvPlan(A, device="cpu", format=fmt, tune=False, use_cache=False)
        except hsparse.InvalidArgumentError as e:
            # ELL's and DIA's fill limits refuse the power-law and long-row matrices, saying so
            assert fmt in ("ell", "dia") and "fill" in str(e), f"{name}: {e}"
            continue
        x = random_vector(A.shape[1], dtype, 1)
        y = np.full(A.shape[0], np.nan, dtype=dtype)  # poisoned: beta = 0 must not read it
        plan.apply(x, out=y)
        assert_product_close(A, y, x, dtype, rounding)
        assert plan.format == fmt


@pytest.mark.parametrize("dtype", DTYPES)
def test_alpha_beta_and_out(dtype):
    A = as_type(hsparse.generate("stencil2d:n=20").to_scipy(), dtype)
    plan = hsparse.SpmvPlan(A, device="cpu", format="csr")
    x = random_vector(A.shape[1], dtype, 2)
    y0 = random_vector(A.shape[0], dtype, 3)
    y = y0.copy()
    out = plan.apply(x, out=y, alpha=2, beta=-0.5)
    assert out is y
    expect = 2 * (A @ x) - 0.5 * y0
    assert np.allclose(y, expect, rtol=1e-5 if np.dtype(dtype).itemsize <= 8 else 1e-12)


def test_auto_format_and_tuning():
    A = hsparse.generate("stencil3d:n=16,points=27")
    plan = hsparse.SpmvPlan(A, device="cpu", format="auto", spmv_count=1000, use_cache=False)
    assert plan.format in hsparse.formats() and plan.origin in ("advisor", "tuning", "tuned", "fixed rule")
    ran = plan.tune(calls=50)
    assert 0 <= ran <= 50 and plan.calls >= ran
    x = np.ones(A.shape[1])
    assert_product_close(A.to_scipy(), plan @ x, x, np.float64)
    stats = plan.stats
    assert stats["device"] == "cpu" and stats["nnz"] == A.nnz
    assert stats["matrix_bytes"] >= A.nnz * 8 and stats["bytes_per_nonzero"] >= 8
    model = stats["model"]
    assert model["read_bytes_per_s"] > 0 and model["min_traffic_bytes"] > stats["matrix_bytes"]
    assert abs(model["seconds"] * model["read_bytes_per_s"] - model["min_traffic_bytes"]) <= 1e-6 * model["min_traffic_bytes"]


def test_two_dimensional_x_multiplies_every_column():
    A = hsparse.generate("powerlaw:rows=2000")
    plan = hsparse.SpmvPlan(A, device="cpu", format="csr")
    X = np.random.default_rng(1).uniform(-1, 1, (A.shape[1], 5))
    Y = plan @ X
    assert Y.shape == (A.shape[0], 5)
    for j in range(5):
        assert_product_close(A.to_scipy(), Y[:, j], X[:, j], np.float64)


def test_linear_operator_in_scipy_cg():
    A = hsparse.generate("stencil2d:n=30")
    op = hsparse.as_linear_operator(hsparse.SpmvPlan(A, device="cpu", format="csr"))
    b = np.ones(A.shape[0])
    x, status = scipy_cg(op, b, 1e-10)
    assert status == 0
    assert np.linalg.norm(A.to_scipy() @ x - b) <= 1e-8 * np.linalg.norm(b)


@pytest.mark.parametrize("name,path", shared_matrices())
def test_shared_matrices_in_the_advisors_format(name, path):
    A = hsparse.read(path)
    plan = hsparse.SpmvPlan(A, device="cpu", format="auto", use_cache=False)
    x = random_vector(A.shape[1], A.dtype, 7)
    assert_product_close(A.to_scipy(), plan @ x, x, A.dtype)


def test_shared_matrices_present_or_said():
    if not shared_matrices():
        pytest.skip("skipped: shared matrices folder not found (set HSPARSE_MATRICES)")


def test_arguments_are_checked_before_any_work():
    A = hsparse.generate("stencil2d:n=10")
    plan = hsparse.SpmvPlan(A, device="cpu", format="csr")
    with pytest.raises(ValueError):
        plan @ np.ones(99)
    with pytest.raises(TypeError):
        plan @ np.ones(100, dtype=np.complex128)  # would drop the imaginary part
    with pytest.raises(ValueError):
        plan.apply(np.ones(100), beta=1.0)  # beta needs out
    with pytest.raises(ValueError):
        plan.apply(np.ones(100), out=np.empty(100, dtype=np.float32))
    with pytest.raises(TypeError):
        plan.apply(np.ones(100), alpha=1j)
    with pytest.raises(ValueError):
        hsparse.SpmvPlan(A, device="gpu")
    with pytest.raises(ValueError):
        hsparse.SpmvPlan(A, spmv_count=0)
    with pytest.raises(hsparse.InvalidArgumentError):
        hsparse.SpmvPlan(A, device="cpu", format="nope")
    with pytest.raises(hsparse.InvalidArgumentError):
        hsparse.SpmvPlan(A, device="cpu", format="csr", kernel="nope")


@pytest.mark.skipif(hsparse.cuda_available(), reason="a CUDA device is present")
def test_cuda_without_a_device_says_why():
    with pytest.raises(hsparse.UnsupportedError):
        hsparse.SpmvPlan(hsparse.generate("stencil2d:n=10"), device="cuda")


def test_advise_ranks_every_format_and_the_plan_follows_it():
    A = hsparse.generate("stencil3d:n=20,points=27")
    ranked = hsparse.advise(A, spmv_count=1000, device="cpu")
    assert {r["format"] for r in ranked} == set(hsparse.formats())
    possible = [r for r in ranked if r["possible"]]
    # The choice first; the rest by total. The choice is the least total, or
    # CSR when no conversion is predicted to gain more than 5% (advisor.cpp).
    rest = possible[1:]
    assert possible and all(a["total_seconds"] <= b["total_seconds"] for a, b in zip(rest, rest[1:]))
    best = min(r["total_seconds"] for r in possible)
    assert possible[0]["total_seconds"] == best or (possible[0]["format"] == "csr" and possible[0]["total_seconds"] <= best * 1.05)
    assert all(not r["possible"] and r["why"] for r in ranked[len(possible):])
    assert any(r["format"] == "csr16-single" and not r["possible"] for r in ranked)  # lossy: not without a tolerance
    assert any(r["format"] == "csr16-single" and r["possible"] for r in hsparse.advise(A, device="cpu", value_tolerance=1e-6))
    plan = hsparse.SpmvPlan(A, device="cpu", format="auto", spmv_count=1000, use_cache=False)
    assert plan.format == possible[0]["format"]
    with pytest.raises(ValueError):
        hsparse.advise(A, spmv_count=0, device="cpu")


def test_bench_returns_checked_records(tmp_path):
    records = hsparse.bench(["stencil2d:n=40", "powerlaw:rows=2000"], device="cpu", quick=True, out=str(tmp_path), as_dataframe=False)
    assert (tmp_path / "report.md").exists() and (tmp_path / "results.json").exists()
    matrices = {r["matrix"] for r in records}
    assert matrices == {"stencil2d:n=40", "powerlaw:rows=2000"}
    timed = [r for r in records if r["status"] == "ok"]
    assert timed and all(r["gflops"] > 0 for r in timed)
    assert not [r for r in records if r["status"] in ("wrong", "failed")]
    assert {r["format"] for r in timed} >= {"csr", "sell"}
    with pytest.raises(ValueError):
        hsparse.bench(device="gpu")
    with pytest.raises(TypeError):
        hsparse.bench("stencil2d:n=10")


def test_empty_blocks_and_empty_matrices():
    """Blocks without columns and matrices without rows or columns: NumPy
    gives empty arrays any strides, which must not read as a wrong order."""
    for A in (hsparse.generate("stencil2d:n=5"), hsparse.from_scipy(sp.csr_matrix((0, 4))), hsparse.from_scipy(sp.csr_matrix((3, 4))),
              hsparse.from_scipy(sp.csr_matrix((3, 0)))):
        plan = hsparse.SpmvPlan(A, device="cpu", format="csr", use_cache=False)
        assert (plan @ np.ones((A.shape[1], 0))).shape == (A.shape[0], 0)
        Y = plan @ np.ones((A.shape[1], 3))
        assert Y.shape == (A.shape[0], 3) and np.allclose(Y, A.to_scipy() @ np.ones((A.shape[1], 3)))
        assert np.allclose(plan @ np.ones(A.shape[1]), A.to_scipy() @ np.ones(A.shape[1]))
