"""The Python layers' cost over the C++ product (issue 20: at most 5 us).

For a CPU plan, the median time of `plan.apply(x, out=y)` and of `plan @ x`
against the median of the same product called in a C++ loop (no Python in
between), on a 1-row matrix (the product costs nothing: the difference is
the overhead alone) and on a 1M-row matrix. On a GPU (with CuPy), the
medians of `plan.apply(x_gpu, out=y_gpu)` and `plan @ x_gpu`, each with a
wait for the stream, against the C++ product launched and waited for in a
C++ loop, when a device and CuPy are present.

    PYTHONPATH=build/python python3 python/benchmarks/overhead.py [--rows 1000000]
"""
import argparse
import json
import statistics
import time

import numpy as np

import hsparse


def median_seconds(fn, repetitions):
    times = []
    for _ in range(repetitions):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def measure(spec, repetitions):
    A = hsparse.generate(spec)
    plan = hsparse.SpmvPlan(A, device="cpu", format="csr", tune=False, use_cache=False)
    x = np.ones(A.shape[1])
    y = np.empty(A.shape[0])
    for _ in range(10):
        plan.apply(x, out=y)  # warm-up
    cpp = plan._p._time_host(x, y, repetitions)
    apply_out = median_seconds(lambda: plan.apply(x, out=y), repetitions)
    matmul = median_seconds(lambda: plan @ x, repetitions)
    binding = median_seconds(lambda: plan._p._apply_host(x, y, 1.0, 0.0), repetitions)
    return {"matrix": spec, "rows": A.shape[0], "nnz": A.nnz, "kernel": plan.kernel, "cpp_us": cpp * 1e6,
            "binding_us": binding * 1e6, "apply_out_us": apply_out * 1e6, "matmul_us": matmul * 1e6,
            "overhead_apply_out_us": (apply_out - cpp) * 1e6, "overhead_matmul_us": (matmul - cpp) * 1e6}


def measure_cuda(spec, repetitions):
    """GPU plan on CuPy arrays, each call followed by a wait for the stream:
    `plan.apply(x, out=y)` and `plan @ x` (a new CuPy array each time)
    against the same product launched and waited for in a C++ loop."""
    import cupy
    A = hsparse.generate(spec)
    plan = hsparse.SpmvPlan(A, device="cuda", format="csr", tune=False, use_cache=False)
    x = cupy.ones(A.shape[1])
    y = cupy.empty(A.shape[0])
    for _ in range(10):
        plan.apply(x, out=y)
    pointer_before = y.data.ptr
    stream = cupy.cuda.get_current_stream()
    stream.synchronize()

    def wrapped():
        plan.apply(x, out=y)
        stream.synchronize()

    def matmul():
        plan @ x
        stream.synchronize()

    def binding():
        plan._p._apply_device(x, y, 1.0, 0.0)
        stream.synchronize()

    # What the interfaces themselves cost: CuPy's __cuda_array_interface__
    # (read by hsparse for other libraries' arrays only) and a wait with
    # nothing queued (in every measurement below but the C++ loop's own).
    interface = median_seconds(lambda: x.__cuda_array_interface__, repetitions)
    idle_wait = median_seconds(stream.synchronize, repetitions)
    cpp = plan._p._time_device(x.data.ptr, y.data.ptr, repetitions)
    apply_out = median_seconds(wrapped, repetitions)
    matmul_t = median_seconds(matmul, repetitions)
    binding_t = median_seconds(binding, repetitions)
    assert y.data.ptr == pointer_before
    return {"matrix": spec, "rows": A.shape[0], "nnz": A.nnz, "kernel": plan.kernel, "device": "cuda", "cpp_us": cpp * 1e6,
            "binding_us": binding_t * 1e6, "apply_out_us": apply_out * 1e6, "matmul_us": matmul_t * 1e6,
            "overhead_apply_out_us": (apply_out - cpp) * 1e6, "overhead_matmul_us": (matmul_t - cpp) * 1e6,
            "cupy_interface_us": interface * 1e6, "cupy_idle_synchronize_us": idle_wait * 1e6}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=float, default=1e6)
    ap.add_argument("--repetitions", type=int, default=2000)
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args()
    n = int(round(args.rows ** (1 / 3)))
    results = [measure("stencil2d:n=1,points=5", args.repetitions * 10), measure(f"stencil3d:n={n},points=7", max(50, args.repetitions // 20))]
    for r in results:
        print(f"{r['matrix']:>28} ({r['rows']} rows, {r['kernel']}): C++ {r['cpp_us']:.2f} us, binding {r['binding_us']:.2f}, "
              f"apply(x, out=y) {r['apply_out_us']:.2f} (+{r['overhead_apply_out_us']:.2f}), plan @ x {r['matmul_us']:.2f} "
              f"(+{r['overhead_matmul_us']:.2f})")
    if hsparse.cuda_available():
        try:
            import cupy  # noqa: F401
        except ImportError:
            print("GPU: skipped (no CuPy)")
        else:
            for spec in ("stencil2d:n=1,points=5", f"stencil3d:n={n},points=7"):
                r = measure_cuda(spec, args.repetitions)
                results.append(r)
                print(f"{r['matrix']:>28} ({r['rows']} rows, cuda {r['kernel']}): C++ {r['cpp_us']:.2f} us, binding {r['binding_us']:.2f}, "
                      f"apply(x_gpu, out=y_gpu) {r['apply_out_us']:.2f} (+{r['overhead_apply_out_us']:.2f}), "
                      f"plan @ x_gpu {r['matmul_us']:.2f} (+{r['overhead_matmul_us']:.2f}); CuPy's own: "
                      f"__cuda_array_interface__ {r['cupy_interface_us']:.2f}, idle synchronize {r['cupy_idle_synchronize_us']:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"hsparse": hsparse.__version__, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
