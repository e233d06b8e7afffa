# %% [markdown]
# # hsparse from Python, step by step
# A notebook-style walk-through (cells marked `# %%`, as Jupyter, VS Code
# and Spyder read them): a matrix from scipy.sparse and from a generator,
# products with the advisor's format, the advisor's ranking, a solve, and a
# batch of tridiagonal systems. Runs as a plain script too.

# %%
import numpy as np
import scipy.sparse as sp

import hsparse

print("hsparse", hsparse.__version__, "| CUDA built:", hsparse.built_with_cuda(), "| GPU now:", hsparse.cuda_available())

# %% [markdown]
# ## Matrices: from scipy.sparse, back without a copy

# %%
S = sp.random(20_000, 20_000, density=5e-4, format="csr", random_state=0) + sp.identity(20_000, format="csr")
A = hsparse.from_scipy(S)          # copied once into hsparse (canonical CSR)
print(A, "| back in scipy:", type(A.to_scipy()).__name__)  # to_scipy() views hsparse's arrays

# %% [markdown]
# ## Products: the advisor picks the format for the products to come

# %%
plan = hsparse.SpmvPlan(A, device="auto", format="auto", spmv_count=1000)
x = np.ones(A.shape[1])
y = plan @ x
print(plan.format, plan.kernel, "| max |y - S x| =", np.max(np.abs(y - S @ x)))
for row in hsparse.advise(A, spmv_count=1000, device=plan.device)[:4]:
    print(f"  {row['format']:>12}: predicted {row['predicted_gflops']:7.1f} GFLOP/s, {row['total_seconds'] * 1e3:7.2f} ms for 1000 products")

# %% [markdown]
# ## A block of right-hand sides: one SpMM

# %%
X = np.random.default_rng(0).uniform(-1, 1, (A.shape[1], 8))
Y = hsparse.SpmvPlan(A, device="auto", format="csr") @ X
print("Y:", Y.shape, "| max error", np.max(np.abs(Y - S @ X)))

# %% [markdown]
# ## Solve: CG with Jacobi on a generated Poisson problem

# %%
P = hsparse.generate("stencil3d:n=40,points=7")
b = np.ones(P.shape[0])
u, info = hsparse.solve(P, b, method="pipecg", precond="jacobi", tol=1e-10, device="auto")
print(info.status, info.iterations, "iterations | true residual", np.linalg.norm(P.to_scipy() @ u - b) / np.linalg.norm(b))

# %% [markdown]
# ## A batch of tridiagonal systems

# %%
count, size = 1000, 128
a = np.full((count, size), -1.0)
c = np.full((count, size), -1.0)
d = np.ones((count, size))
xt = hsparse.tridiagonal.solve(a, np.full((count, size), 4.0), c, d, layout="contiguous", device="cpu")
print("tridiagonal:", xt.shape, "| first system's middle value", xt[0, size // 2])
