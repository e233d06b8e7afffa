"""The Python layers' cost over the C++ product (issue 20: at most 5 us).

For a CPU plan, the median time of `plan.apply(x, out=y)` and of `plan @ x`
against the median of the same product called in a C++ loop (no Python in
between), on a 1-row matrix (the product costs nothing: the difference is
the overhead alone) and on a 1M-row matrix. On a GPU, with CuPy arrays,
the host time of `plan.apply(x_gpu, out=y_gpu)` and `plan @ x_gpu` against
the C++ call, and the same with a wait for the stream (measure_cuda).

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


def host_seconds(fn, wait, repetitions):
    """Median host time of fn() alone, with wait() after each call, untimed."""
    times = []
    for _ in range(repetitions):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        wait()
    return statistics.median(times)


def measure_cuda(spec, repetitions):
    """GPU plan on CuPy arrays: `plan.apply(x, out=y)` and `plan @ x` (a new
    CuPy array each time, its allocation and release by CuPy timed) against the same product called in a C++ loop,
    (1) the host time of the call (the launch; the wait for the stream
    after it, untimed): the goal's measure, what Python adds to a call;
    (2) the call and a wait for the stream, for latency (Python waits
    through CuPy's stream.synchronize(), C++ through the executor)."""
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
    info = hsparse._hsparse._device_array_info
    parts = {  # what a call is made of (host time, medians)
        "cupy_interface_us": lambda: x.__cuda_array_interface__,  # read for other libraries' arrays only
        "cupy_current_stream_us": cupy.cuda.get_current_stream,
        "read_one_array_us": lambda: info(x, "float64", True),  # the C++ read of a CuPy array, and a dict back
        "cupy_idle_synchronize_us": stream.synchronize,
        "cupy_empty_us": lambda: cupy.empty(A.shape[0]),  # what `plan @ x` pays CuPy for its result
    }
    r = {"matrix": spec, "rows": A.shape[0], "nnz": A.nnz, "kernel": plan.kernel, "device": "cuda"}
    calls = {"binding": lambda: plan._p._apply_device(x, y, 1.0, 0.0), "apply_out": lambda: plan.apply(x, out=y), "matmul": lambda: plan @ x}

    def with_wait(fn):
        def run():
            fn()
            stream.synchronize()
        return run

    # Five interleaved rounds, each quantity the median of its rounds'
    # medians: the GPU machine's host timings drift by microseconds between
    # runs, and a quantity measured once, minutes from the others, with them.
    rounds = {}
    per_round = max(20, repetitions // 5)
    for _ in range(5):
        measured = {k: median_seconds(fn, per_round) * 1e6 for k, fn in parts.items()}
        cpp_call, cpp_wait = plan._p._time_device(x.data.ptr, y.data.ptr, per_round)
        measured["cpp_us"], measured["cpp_with_wait_us"] = cpp_call * 1e6, cpp_wait * 1e6
        for name, fn in calls.items():
            measured[f"{name}_us"] = host_seconds(fn, stream.synchronize, per_round) * 1e6
            measured[f"{name}_with_wait_us"] = median_seconds(with_wait(fn), per_round) * 1e6
        for k, v in measured.items():
            rounds.setdefault(k, []).append(v)
    r.update({k: statistics.median(v) for k, v in rounds.items()})
    for name in calls:
        r[f"overhead_{name}_us"] = r[f"{name}_us"] - r["cpp_us"]
        r[f"overhead_{name}_with_wait_us"] = r[f"{name}_with_wait_us"] - r["cpp_with_wait_us"]
    # A peer: CuPy's own sparse product (cuSPARSE through cupyx.scipy.sparse), host time of `A @ x`.
    import cupyx.scipy.sparse
    A_cupy = cupyx.scipy.sparse.csr_matrix(A.to_scipy())
    r["cupyx_matmul_us"] = host_seconds(lambda: A_cupy @ x, stream.synchronize, repetitions) * 1e6
    assert y.data.ptr == pointer_before
    return r


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
                print(f"{r['matrix']:>28} ({r['rows']} rows, cuda {r['kernel']}), host time of the call: C++ {r['cpp_us']:.2f} us, "
                      f"binding {r['binding_us']:.2f} (+{r['overhead_binding_us']:.2f}), apply(x_gpu, out=y_gpu) {r['apply_out_us']:.2f} "
                      f"(+{r['overhead_apply_out_us']:.2f}), plan @ x_gpu {r['matmul_us']:.2f} (+{r['overhead_matmul_us']:.2f})")
                print(f"{'':>28} with a wait: C++ {r['cpp_with_wait_us']:.2f} us, apply {r['apply_out_with_wait_us']:.2f} "
                      f"(+{r['overhead_apply_out_with_wait_us']:.2f}), plan @ x_gpu {r['matmul_with_wait_us']:.2f} "
                      f"(+{r['overhead_matmul_with_wait_us']:.2f}); parts: CuPy's __cuda_array_interface__ {r['cupy_interface_us']:.2f}, "
                      f"get_current_stream {r['cupy_current_stream_us']:.2f}, idle synchronize {r['cupy_idle_synchronize_us']:.2f}, "
                      f"hsparse's read of one array {r['read_one_array_us']:.2f}, cupy.empty {r['cupy_empty_us']:.2f}; "
                      f"cupyx.scipy.sparse A @ x_gpu {r['cupyx_matmul_us']:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"hsparse": hsparse.__version__, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
