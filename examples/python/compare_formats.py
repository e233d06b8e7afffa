"""Compare hsparse's storage formats on one matrix, plot GFLOP/s, then solve.

    python3 compare_formats.py [MATRIX | generator spec] [--device auto|cpu|cuda] [--plot formats.png]

MATRIX: a .mtx / .mtx.gz / .tar.gz / .hsp file or a spec such as
"stencil3d:n=60" (the default). Each format's product is checked against
scipy.sparse before it is timed; formats that refuse the matrix (fill
limits) are listed with the reason. The plot needs matplotlib (Debian:
python3-matplotlib).
"""
import argparse
import statistics
import time

import numpy as np

import hsparse


def time_products(plan, x, out, wait, min_seconds=0.2):
    """Median seconds of one product, repeated to fill min_seconds (after
    warm-up and tuning); `wait` waits for the product (device arrays: a
    product is queued on their stream, as CuPy's operations are)."""
    plan.tune(calls=50)
    for _ in range(3):
        plan.apply(x, out=out)
    wait()
    times = []
    start = time.perf_counter()
    while time.perf_counter() - start < min_seconds or len(times) < 5:
        t = time.perf_counter()
        plan.apply(x, out=out)
        wait()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def device_arrays(device):
    """CuPy when the plans run on a GPU and CuPy is there: products then stay
    on the device (with NumPy arrays every product copies x in and y out,
    and the copies are what gets timed)."""
    if device == "cpu" or (device == "auto" and not hsparse.cuda_available()):
        return None
    try:
        import cupy
        return cupy
    except ImportError:
        print("note: no CuPy, so GPU products copy NumPy arrays in and out (and the copies dominate the times)")
        return None


def compare(A, device):
    """[(format, kernel, GFLOP/s or None, note)] for "auto" and every format."""
    S = A.to_scipy()
    x = np.random.default_rng(1).uniform(-1, 1, A.shape[1]).astype(A.dtype)
    expect = S @ x
    out = np.empty(A.shape[0], dtype=A.dtype)
    xp = device_arrays(device)
    if xp is not None:
        x, out = xp.asarray(x), xp.empty(A.shape[0], dtype=A.dtype)
    to_host = (lambda v: v) if xp is None else xp.asnumpy
    wait = (lambda: None) if xp is None else (lambda: xp.cuda.get_current_stream().synchronize())
    rows = []
    for fmt in ["auto"] + hsparse.formats():
        try:
            plan = hsparse.SpmvPlan(A, device=device, format=fmt, spmv_count=1000)
        except hsparse.Error as e:
            rows.append((fmt, "-", None, str(e).split(":")[0]))
            continue
        plan.apply(x, out=out)
        error = np.max(np.abs(to_host(out) - expect)) / max(1e-300, np.max(np.abs(expect)))
        seconds = time_products(plan, x, out, wait)
        rows.append((fmt if fmt != "auto" else f"auto ({plan.format})", plan.kernel, 2 * A.nnz / seconds / 1e9, f"error {error:.1e}"))
    return rows


def plot(rows, title, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    done = [r for r in rows if r[2] is not None]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    ax.bar([r[0] for r in done], [r[2] for r in done], color=["#c44e52" if r[0].startswith("auto") else "#4c72b0" for r in done])
    ax.set_ylabel("GFLOP/s (2 nnz / time of one product)")
    ax.set_title(title)
    ax.tick_params(axis="x", rotation=30)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"plot: {path}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("matrix", nargs="?", default="stencil3d:n=60")
    ap.add_argument("--device", default="auto", choices=["auto", "cpu", "cuda"])
    ap.add_argument("--plot", default="formats.png", help="the bar chart's file ('' for none)")
    args = ap.parse_args(argv)

    A = hsparse.generate(args.matrix) if ":" in args.matrix and not args.matrix.endswith((".mtx", ".gz", ".hsp")) else hsparse.read(args.matrix)
    info = hsparse.info(A)
    print(f"{args.matrix}: {A.shape[0]} x {A.shape[1]}, {A.nnz} entries, {info['symmetry']}, rows of {info['row_lengths']['min']}"
          f"..{info['row_lengths']['max']} entries")
    rows = compare(A, args.device)
    for fmt, kernel, gflops, note in rows:
        print(f"  {fmt:>20}  {kernel:<40} {'' if gflops is None else f'{gflops:8.2f} GFLOP/s'}  {note}")
    if args.plot:
        try:
            where = hsparse.SpmvPlan(A, device=args.device, format="csr").stats["executor"]
            arrays = "CuPy arrays" if device_arrays(args.device) is not None else "NumPy arrays"
            plot(rows, f"{args.matrix} on {where}, {arrays}", args.plot)
        except ImportError:
            print("plot: skipped (matplotlib not installed: apt-get install python3-matplotlib)")

    if info["symmetry"] == "symmetric" and A.shape[0] == A.shape[1]:
        b = np.ones(A.shape[0])
        x, result = hsparse.solve(A, b, method="cg", precond="jacobi", tol=1e-8, device=args.device)
        residual = np.linalg.norm(A.to_scipy() @ x - b) / np.linalg.norm(b)
        print(f"CG + Jacobi: {result.status} after {result.iterations} iterations ({result.seconds:.3f} s), ||b - Ax|| / ||b|| = {residual:.1e}")
    return rows


if __name__ == "__main__":
    main()
