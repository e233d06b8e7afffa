"""On a GPU: plans on CuPy arrays (no copies: the output's pointer is the one
given), NumPy arrays on a GPU plan (copied), and solves. Skipped, saying why,
without a CUDA device or CuPy."""
import numpy as np
import pytest

import hsparse
from conftest import assert_product_close, random_vector, shared_matrices

if not hsparse.cuda_available():
    pytest.skip("skipped: no CUDA device", allow_module_level=True)
cupy = pytest.importorskip("cupy", reason="skipped: CuPy not installed")

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", ["auto"] + hsparse.formats())
def test_cupy_arrays_in_place(fmt, dtype):
    from test_plan import as_type
    A = as_type(hsparse.generate("powerlaw:rows=5000").to_scipy(), dtype)
    try:
        plan = hsparse.SpmvPlan(A, device="cuda", format=fmt, use_cache=False)
    except hsparse.InvalidArgumentError as e:
        assert fmt in ("ell", "dia") and "fill" in str(e)
        return
    rounding = hsparse._hsparse._value_rounding(plan.format)
    x = random_vector(A.shape[1], dtype, 4)
    xg = cupy.asarray(x)
    yg = cupy.full(A.shape[0], np.nan, dtype=dtype)
    pointer = yg.data.ptr
    out = plan.apply(xg, out=yg)
    assert out is yg and yg.data.ptr == pointer  # written in place, no host round trip
    assert_product_close(A, cupy.asnumpy(yg), x, dtype, rounding)
    y2 = plan @ xg  # a new CuPy array
    assert isinstance(y2, cupy.ndarray)
    assert_product_close(A, cupy.asnumpy(y2), x, dtype, rounding)


def test_numpy_on_a_gpu_plan_and_beta():
    A = hsparse.generate("stencil3d:n=20,points=27")
    plan = hsparse.SpmvPlan(A, device="cuda", format="csr")
    x = random_vector(A.shape[1], np.float64, 5)
    y0 = random_vector(A.shape[0], np.float64, 6)
    y = y0.copy()
    plan.apply(x, out=y, alpha=2.0, beta=-1.0)
    assert np.allclose(y, 2 * (A.to_scipy() @ x) - y0, rtol=1e-12, atol=1e-12)
    yg = cupy.asarray(y0)
    plan.apply(cupy.asarray(x), out=yg, alpha=2.0, beta=-1.0)
    assert np.allclose(cupy.asnumpy(yg), 2 * (A.to_scipy() @ x) - y0, rtol=1e-12, atol=1e-12)


def test_device_array_checks():
    A = hsparse.generate("stencil2d:n=10")
    plan = hsparse.SpmvPlan(A, device="cuda", format="csr")
    with pytest.raises(ValueError):
        plan.apply(cupy.ones(99))
    with pytest.raises(TypeError):
        plan.apply(cupy.ones(100, dtype=cupy.float32))
    with pytest.raises(ValueError):
        plan.apply(cupy.ones(200)[::2])  # not contiguous
    with pytest.raises(TypeError):
        plan.apply(cupy.ones(100), out=np.empty(100))  # a host out for a device x
    cpu_plan = hsparse.SpmvPlan(A, device="cpu", format="csr")
    with pytest.raises(ValueError):
        cpu_plan.apply(cupy.ones(100))


@pytest.mark.parametrize("method", ["cg", "pipecg", "gmres"])
def test_solve_on_the_gpu(method):
    A = hsparse.generate("stencil3d:n=16,points=7")
    b = np.ones(A.shape[0])
    x, info = hsparse.solve(A, b, method=method, precond="jacobi", tol=1e-10, device="cuda")
    assert info.converged, info.message
    assert np.linalg.norm(A.to_scipy() @ x - b) <= 1e-8 * np.linalg.norm(b)


def test_products_are_ordered_on_the_arrays_stream():
    """No host waits: the product waits for x's stream on the device, and
    out's stream waits for the product (a non-blocking stream included,
    which CUDA does not order with the plan's stream by itself)."""
    A = hsparse.generate("stencil3d:n=40,points=27")
    plan = hsparse.SpmvPlan(A, device="cuda", format="csr", tune=False, use_cache=False)
    expect = A.to_scipy() @ np.ones(A.shape[1])
    for stream in (cupy.cuda.Stream(non_blocking=True), cupy.cuda.Stream(), cupy.cuda.Stream.null):
        with stream:
            for _ in range(3):
                x = cupy.ones(A.shape[1])
                y = cupy.full(A.shape[0], cupy.nan)
                plan.apply(x, out=y)
                z = y * 2  # queued on `stream` after the product
                assert np.allclose(cupy.asnumpy(z), 2 * expect)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fmt", ["csr", "coo", "sell", "bcsr", "csr16"])
def test_cupy_blocks_are_one_product(fmt, dtype):
    """A 2-D CuPy x: one block product on the device (no host copy), in
    column-major order as given, or row-major copied on the device."""
    from test_plan import as_type
    A = as_type(hsparse.generate("powerlaw:rows=3000").to_scipy(), dtype)
    plan = hsparse.SpmvPlan(A, device="cuda", format=fmt, use_cache=False)
    rounding = hsparse._hsparse._value_rounding(plan.format)
    k = 5
    X = np.stack([random_vector(A.shape[1], dtype, 10 + j) for j in range(k)], axis=1)
    Xf = cupy.asfortranarray(cupy.asarray(X))
    Y = cupy.asfortranarray(cupy.full((A.shape[0], k), np.nan, dtype=dtype))
    pointer = Y.data.ptr
    assert plan.apply(Xf, out=Y) is Y and Y.data.ptr == pointer
    Yc = plan @ cupy.ascontiguousarray(cupy.asarray(X))  # row-major x: copied to column-major on the device
    assert isinstance(Yc, cupy.ndarray) and Yc.shape == (A.shape[0], k)
    for j in range(k):
        assert_product_close(A, cupy.asnumpy(Y[:, j]), X[:, j], dtype, rounding)
        assert_product_close(A, cupy.asnumpy(Yc[:, j]), X[:, j], dtype, rounding)
    with pytest.raises(ValueError, match="column-major"):
        plan.apply(Xf, out=cupy.empty((A.shape[0], k), dtype=dtype))  # a row-major out
    with pytest.raises(ValueError, match="shape"):
        plan.apply(Xf, out=cupy.empty((A.shape[0], k + 1), dtype=dtype, order="F"))


def test_empty_blocks_and_matrices_on_the_device():
    import scipy.sparse as sp
    for A in (hsparse.generate("stencil2d:n=5"), hsparse.from_scipy(sp.csr_matrix((0, 4))), hsparse.from_scipy(sp.csr_matrix((3, 4)))):
        plan = hsparse.SpmvPlan(A, device="cuda", format="csr", use_cache=False)
        assert (plan @ cupy.ones((A.shape[1], 0), order="F")).shape == (A.shape[0], 0)  # no columns
        Y = plan @ cupy.ones((A.shape[1], 3), order="F")
        assert Y.shape == (A.shape[0], 3)
        assert np.allclose(cupy.asnumpy(Y), (A.to_scipy() @ np.ones((A.shape[1], 3))))
        y = plan @ cupy.ones(A.shape[1])
        assert np.allclose(cupy.asnumpy(y), A.to_scipy() @ np.ones(A.shape[1]))


class Borrowed:
    """Another library's device array: a version 2 interface (no stream)
    over CuPy's memory, and nothing else."""

    def __init__(self, array):
        self.array = array
        iface = dict(array.__cuda_array_interface__)
        iface.pop("stream", None)
        iface["version"] = 2
        self.__cuda_array_interface__ = iface


def test_any_cuda_array_interface_object():
    A = hsparse.generate("stencil3d:n=12,points=7")
    plan = hsparse.SpmvPlan(A, device="cuda", format="csr", use_cache=False)
    x = random_vector(A.shape[1], np.float64, 3)
    y = cupy.full(A.shape[0], cupy.nan)
    plan.apply(Borrowed(cupy.asarray(x)), out=Borrowed(y))  # no stream named: the host waits for the product
    assert_product_close(A.to_scipy(), cupy.asnumpy(y), x, np.float64)


@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-12), (np.float32, 1e-4)])
@pytest.mark.parametrize("algorithm", ["auto", "thomas", "pcr"])
def test_tridiagonal_on_cupy_arrays(dtype, tol, algorithm):
    from test_tridiagonal import batch, reference
    a, b, c, d = batch(300, 20, dtype)
    expect = reference(a, b, c, d)
    ag, bg, cg, dg = (cupy.asarray(v) for v in (a, b, c, d))
    out = cupy.full(d.shape, cupy.nan, dtype=dtype)
    pointer = out.data.ptr
    x = hsparse.tridiagonal.solve(ag, bg, cg, dg, algorithm=algorithm, device="cuda", out=out)
    assert x is out and out.data.ptr == pointer
    assert np.max(np.abs(cupy.asnumpy(out) - expect)) <= tol * max(1.0, np.max(np.abs(expect)))
    xi = hsparse.tridiagonal.solve(*(cupy.ascontiguousarray(v.T) for v in (ag, bg, cg, dg)), layout="interleaved", algorithm=algorithm)
    assert isinstance(xi, cupy.ndarray)
    assert np.max(np.abs(cupy.asnumpy(xi).T - expect)) <= tol * max(1.0, np.max(np.abs(expect)))
    with pytest.raises(ValueError, match="C-contiguous"):
        hsparse.tridiagonal.solve(ag, bg, cg, cupy.asfortranarray(dg), device="cuda")
    with pytest.raises(TypeError):
        hsparse.tridiagonal.solve(ag, bg, cg, d, device="cuda")  # one host array among device ones


def test_cupy_arrays_read_as_their_interface_says():
    """CuPy's arrays are read through their attributes (faster than their
    __cuda_array_interface__): the same pointer, shape, strides and stream,
    on the null stream and on others."""
    info = hsparse._hsparse._device_array_info
    base = cupy.arange(60, dtype=cupy.float64)
    arrays = [base, base[10:30], base.reshape(6, 10), cupy.asfortranarray(base.reshape(6, 10)), base.reshape(6, 10)[:, 2:5],
              cupy.asfortranarray(base.reshape(6, 10))[1:4, :]]
    for stream in (cupy.cuda.Stream.null, cupy.cuda.Stream(non_blocking=True)):
        with stream:
            for a in arrays:
                fast, described = info(a, "float64", True), info(Borrowed(a), "float64", True)
                described["stream"] = a.__cuda_array_interface__["stream"]  # Borrowed drops it
                assert fast.pop("cupy") and not described.pop("cupy")
                assert fast == described, (a.shape, a.strides)
    with pytest.raises(TypeError, match="float64"):
        info(cupy.ones(3, dtype=cupy.float32), "float64", False)
    with pytest.raises(ValueError, match="3 dimensions"):
        info(cupy.ones((2, 2, 2)), "float64", False)


class DLPackOnly:
    """A device array known only through DLPack (as JAX's are), over CuPy's."""

    def __init__(self, array):
        self.array, self.streams = array, []

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return self.array.__dlpack__(stream=stream)


@pytest.mark.skipif(not hsparse._hsparse._has_dlpack, reason="skipped: built without DLPack (libdlpack-dev)")
def test_dlpack_inputs():
    A = hsparse.generate("stencil3d:n=12,points=27")
    plan = hsparse.SpmvPlan(A, device="cuda", format="sell", use_cache=False)
    x = random_vector(A.shape[1], np.float64, 8)
    lent = DLPackOnly(cupy.asarray(x))
    y = plan @ lent
    assert isinstance(y, cupy.ndarray)
    assert_product_close(A.to_scipy(), cupy.asnumpy(y), x, np.float64)
    assert len(lent.streams) == 1 and isinstance(lent.streams[0], int) and lent.streams[0] not in (0, None)  # our stream
    with pytest.raises(TypeError, match="DLPack lends"):
        plan.apply(cupy.asarray(x), out=DLPackOnly(cupy.empty(A.shape[0])))
    from test_tridiagonal import batch, reference
    a, b, c, d = batch(100, 7, np.float64)
    xt = hsparse.tridiagonal.solve(*(DLPackOnly(cupy.asarray(v)) for v in (a, b, c, d)))
    assert np.max(np.abs(cupy.asnumpy(xt) - reference(a, b, c, d))) <= 1e-12 * max(1.0, np.max(np.abs(reference(a, b, c, d))))


def test_pytorch_tensors():
    torch = pytest.importorskip("torch", reason="skipped: PyTorch not installed")
    A = hsparse.generate("stencil2d:n=30")
    plan = hsparse.SpmvPlan(A, device="cuda", format="csr", use_cache=False)
    x = torch.rand(A.shape[1], dtype=torch.float64, device="cuda")
    y = torch.full((A.shape[0],), float("nan"), dtype=torch.float64, device="cuda")
    pointer = y.data_ptr()
    plan.apply(x, out=y)  # through their __cuda_array_interface__, written in place
    assert y.data_ptr() == pointer
    assert_product_close(A.to_scipy(), y.cpu().numpy(), x.cpu().numpy(), np.float64)


@pytest.mark.parametrize("name,path", shared_matrices())
def test_cupy_on_the_shared_matrices(name, path):
    """The real matrices on CuPy arrays, no copies: a product in the
    advisor's format and a 3-column block (SpMM on column-major views),
    each column within its rows' forward error bound."""
    A = hsparse.read(path)
    plan = hsparse.SpmvPlan(A, device="cuda", format="auto", use_cache=False)
    rounding = hsparse._hsparse._value_rounding(plan.format)
    x = random_vector(A.shape[1], A.dtype, 7)
    assert_product_close(A.to_scipy(), cupy.asnumpy(plan @ cupy.asarray(x)), x, A.dtype, rounding)
    X = np.stack([random_vector(A.shape[1], A.dtype, 20 + j) for j in range(3)], axis=1)
    Y = plan @ cupy.asfortranarray(cupy.asarray(X))
    for j in range(3):
        assert_product_close(A.to_scipy(), cupy.asnumpy(Y[:, j]), X[:, j], A.dtype, rounding)
