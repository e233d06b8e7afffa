"""hsparse across MPI ranks from Python, with mpi4py: each rank builds its
own rows of a 2D Poisson matrix, multiplies, and solves by CG; rank 0
prints. Run:

    mpirun -np 4 python3 examples/python/distributed_cg.py [--n 400] [--device cpu|cuda|auto] [--check]

--check gathers the pieces on rank 0 and compares them with scipy's product
and solution (exit 1 if they differ beyond the rounding and tolerance
bounds). Without mpirun it runs on one rank.
"""
import argparse
import sys

import numpy as np
import scipy.sparse as sp
from mpi4py import MPI

import hsparse.distributed as hd


def poisson_rows(n, first, end):
    """Rows [first, end) of the 5-point Laplacian on an n x n grid, global columns."""
    rows, cols, vals = [], [], []
    for i in range(first, end):
        x, y = i % n, i // n
        for dx, dy, v in ((0, 0, 4.0), (-1, 0, -1.0), (1, 0, -1.0), (0, -1, -1.0), (0, 1, -1.0)):
            if 0 <= x + dx < n and 0 <= y + dy < n:
                rows.append(i - first)
                cols.append((y + dy) * n + x + dx)
                vals.append(v)
    return sp.csr_matrix((vals, (rows, cols)), shape=(end - first, n * n))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=200, help="grid side (n^2 unknowns)")
    p.add_argument("--device", default="auto", choices=["auto", "cpu", "cuda"])
    p.add_argument("--method", default="cg", choices=["cg", "pipecg", "pipecg-gv", "gmres"])
    p.add_argument("--check", action="store_true", help="compare with scipy on rank 0")
    args = p.parse_args(argv)
    comm = MPI.COMM_WORLD
    N = args.n * args.n
    first, end = hd.row_range(N, comm)
    A = hd.DistributedMatrix(poisson_rows(args.n, first, end), comm=comm, device=args.device)
    x_star = 1.0 + (np.arange(first, end) * 7919 % 1000) / 1000.0  # this rank's entries of x*
    b = A.matvec(x_star)                                           # b = A x*, distributed
    x, info = A.solve(b, method=args.method, precond="jacobi", tol=1e-10)
    err = comm.allreduce(float(np.sum((x - x_star) ** 2))) ** 0.5 / comm.allreduce(float(np.sum(x_star ** 2))) ** 0.5
    if comm.rank == 0:
        print(f"{N} unknowns on {comm.size} ranks ({A.transport} halo): {info.status} after {info.iterations} iterations, "
              f"||x - x*|| / ||x*|| = {err:.2e}")
        print("rank 0:", A.description)
    status = 0
    if args.check:
        pieces_b, pieces_x = comm.gather(b, root=0), comm.gather(x, root=0)
        if comm.rank == 0:
            whole = poisson_rows(args.n, 0, N)
            xs = 1.0 + (np.arange(N) * 7919 % 1000) / 1000.0
            ref = whole @ xs
            got = np.concatenate(pieces_b)
            # 5 terms per row: the product's rounding is within 5 u sum |a_ij x_j|, here 8 * 2 * 5 u.
            product_ok = np.all(np.abs(got - ref) <= 10 * np.finfo(float).eps * (abs(whole) @ np.abs(xs)))
            # Both within kappa * tol of x*; kappa < (2 n / pi)^2 for this grid.
            kappa = (2 * args.n / np.pi) ** 2
            solve_ok = info.converged and np.linalg.norm(np.concatenate(pieces_x) - xs) <= 2 * kappa * 1e-10 * np.linalg.norm(xs)
            print(f"check: product {'PASSED' if product_ok else 'FAILED'}, solution {'PASSED' if solve_ok else 'FAILED'}")
            status = 0 if product_ok and solve_ok else 1
    return comm.bcast(status, root=0)


if __name__ == "__main__":
    sys.exit(main())
