"""What the C++ side reads from a device array's __cuda_array_interface__
(python/src/device_array.cpp), on objects that only describe memory: runs
without a GPU. The products on real device arrays are in test_cuda.py."""
import numpy as np
import pytest

import hsparse
from hsparse import _hsparse


class Described:
    """An object with a __cuda_array_interface__ and nothing behind it."""

    def __init__(self, **fields):
        iface = {"version": 3, "shape": (4,), "typestr": "<f8", "data": (4096, False), "strides": None, "stream": 1}
        iface.update(fields)
        self.__cuda_array_interface__ = {k: v for k, v in iface.items() if v is not ...}


def info(obj, dtype="float64", writable=False):
    return _hsparse._device_array_info(obj, dtype, writable)


def test_a_host_array_is_not_a_device_array():
    assert info(np.ones(4)) is None
    assert info([1.0, 2.0]) is None


def test_one_dimension():
    d = info(Described())
    assert d["data"] == 4096 and d["stream"] == 1 and d["ndim"] == 1 and d["shape"] == (4, 1)
    assert d["column_major"] and d["c_contiguous"] and d["ld"] == 4 and not d["readonly"] and not d["cupy"]
    assert info(Described(strides=(8,)))["column_major"]
    assert not info(Described(strides=(16,)))["column_major"]  # every other element


def test_streams():
    assert info(Described(stream=None))["stream"] == 0  # none given: the product waits on the host
    assert info(Described(stream=...))["stream"] == 0  # version 2: no stream field
    assert info(Described(stream=2))["stream"] == 2
    assert info(Described(stream=0x7f00dead0000))["stream"] == 0x7f00dead0000


def test_two_dimensions_and_their_order():
    c_order = info(Described(shape=(3, 2)))  # strides None: C order
    assert c_order["c_contiguous"] and not c_order["column_major"] and c_order["strides"] == (2, 1)
    f_order = info(Described(shape=(3, 2), strides=(8, 24)))
    assert f_order["column_major"] and f_order["ld"] == 3 and not f_order["c_contiguous"]
    padded = info(Described(shape=(3, 2), strides=(8, 40)))  # a column-major block of a taller array
    assert padded["column_major"] and padded["ld"] == 5
    empty = info(Described(shape=(0, 3), strides=(8, 0)))  # no rows: column-major whatever its strides
    assert empty["column_major"] and empty["ld"] == 1
    no_columns = info(Described(shape=(25, 0), strides=(0, 0)))  # as NumPy and CuPy give an empty Fortran-order block
    assert no_columns["column_major"] and no_columns["c_contiguous"] and no_columns["ld"] == 25
    one_column = info(Described(shape=(3, 1)))
    assert one_column["column_major"] and one_column["c_contiguous"] and one_column["ld"] == 3


def test_every_value_type_by_its_typestr():
    for dtype, typestr in (("float32", "<f4"), ("float64", "<f8"), ("complex64", "<c8"), ("complex128", "<c16")):
        assert info(Described(typestr=typestr), dtype)["ndim"] == 1
    with pytest.raises(TypeError, match=r"float64.*'<f4'"):
        info(Described(typestr="<f4"))
    with pytest.raises(ValueError, match="dtype"):
        info(Described(), "int32")


def test_what_is_refused():
    with pytest.raises(ValueError, match="3 dimensions"):
        info(Described(shape=(2, 2, 2)))
    with pytest.raises(ValueError, match="masked"):
        info(Described(mask=Described()))
    with pytest.raises(ValueError, match="read-only"):
        info(Described(data=(4096, True)), writable=True)
    assert info(Described(data=(4096, True)))["readonly"]  # read-only is fine for an input
    with pytest.raises(ValueError, match="whole elements"):
        info(Described(strides=(4,)))
    with pytest.raises(ValueError, match="length"):
        info(Described(shape=(3, 2), strides=(8,)))
    with pytest.raises(TypeError, match="not a dict"):
        class NotADict:
            __cuda_array_interface__ = [1, 2]
        info(NotADict())


def test_a_cpu_plan_and_a_cpu_solve_refuse_device_arrays():
    A = hsparse.generate("stencil2d:n=2")
    plan = hsparse.SpmvPlan(A, device="cpu", format="csr", use_cache=False)
    with pytest.raises(ValueError, match="device='cuda'"):
        plan @ Described()
    a = Described(shape=(2, 3))
    with pytest.raises(ValueError, match="GPU"):
        hsparse.tridiagonal.solve(a, a, a, a, device="cpu")


class Lent:
    """A DLPack producer that says its memory is on a CUDA device: NumPy's
    capsule behind it, so the C++ reading runs without a GPU (nothing is
    computed on it here)."""

    def __init__(self, array, device=(2, 0)):
        self.array, self.device, self.streams = array, device, []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return self.array.__dlpack__()


needs_dlpack = pytest.mark.skipif(not _hsparse._has_dlpack, reason="skipped: built without DLPack (libdlpack-dev)")


@needs_dlpack
def test_dlpack_arrays_on_a_cuda_device():
    a = np.arange(6, dtype=np.float64)
    d = info(Lent(a))
    assert d["lent"] and d["readonly"] and d["data"] == a.ctypes.data and d["shape"] == (6, 1) and d["column_major"]
    m = np.arange(6, dtype=np.complex64).reshape(2, 3)
    d = info(Lent(m), "complex64")
    assert d["shape"] == (2, 3) and d["c_contiguous"] and d["data"] == m.ctypes.data
    f = np.asfortranarray(m)
    assert info(Lent(f), "complex64")["column_major"] and info(Lent(f), "complex64")["ld"] == 2
    assert info(Lent(a[1:]))["data"] == a[1:].ctypes.data  # an offset into the producer's memory


@needs_dlpack
def test_the_value_type_of_a_device_array():
    dtype_of = _hsparse._device_array_dtype
    assert dtype_of(Described(typestr="<f4")) == "float32" and dtype_of(Described(typestr="<c16")) == "complex128"
    assert dtype_of(Lent(np.ones(3, dtype=np.complex64))) == "complex64"
    assert dtype_of(Described(typestr="<i4")) == "" and dtype_of(np.ones(3)) == ""


@needs_dlpack
def test_dlpack_refusals():
    a = np.arange(6, dtype=np.float64)
    assert info(Lent(a, device=(1, 0))) is None  # host memory: not a device array
    assert info(a) is None  # NumPy's own __dlpack__: host memory
    with pytest.raises(TypeError, match="float32"):
        info(Lent(a), "float32")
    with pytest.raises(TypeError, match="DLPack lends arrays to read"):
        info(Lent(a), writable=True)
    with pytest.raises(ValueError, match="device 1"):
        info(Lent(a, device=(2, 1)))
    with pytest.raises(ValueError, match="3 dimensions"):
        info(Lent(np.ones((2, 2, 2))))


def test_a_cpu_plan_refuses_dlpack_device_arrays():
    plan = hsparse.SpmvPlan(hsparse.generate("stencil2d:n=2"), device="cpu", format="csr", use_cache=False)
    with pytest.raises(ValueError, match="device='cuda'"):
        plan @ Lent(np.ones(4))
    assert np.allclose(plan @ np.ones(4), hsparse.generate("stencil2d:n=2").to_scipy() @ np.ones(4))
