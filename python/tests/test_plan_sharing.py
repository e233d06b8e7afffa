"""Issue 62: one plan shared by Python threads (the handle serializes the
products while the tuner rebuilds the plan between them), and ``out``
overlapping ``x`` (computed from a copy of x, as scipy would)."""
import threading

import numpy as np
import pytest
import scipy.sparse as sp

import hsparse
from conftest import assert_product_close, random_vector


def test_eight_threads_share_one_tuning_plan_and_each_gets_scipys_product():
    rng = np.random.default_rng(62)
    # 20,000 x 20,000 with 200,000 entries: large enough that the threads'
    # products overlap the tuner's plan rebuilds, small enough for seconds.
    A = sp.random(20_000, 20_000, density=5e-4, format="csr", random_state=rng)
    plan = hsparse.SpmvPlan(A, device="cpu", format="sell", use_cache=False)  # SELL's C and sigma: a new plan per guess
    assert plan.tuning
    threads, products = 8, 15
    xs = [random_vector(A.shape[1], np.float64, seed) for seed in range(threads)]
    results = [[] for _ in range(threads)]
    failures = []
    start = threading.Barrier(threads)

    def work(t):
        try:
            start.wait()
            for _ in range(products):
                results[t].append(plan @ xs[t])
                plan.kernel, plan.tuning, plan.calls  # the accessors, read while others tune
        except Exception as e:  # reported by the main thread
            failures.append(f"thread {t}: {type(e).__name__}: {e}")

    workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not failures
    for t in range(threads):
        assert len(results[t]) == products
        for y in results[t]:
            assert_product_close(A, y, xs[t], np.float64)
    assert plan.calls == threads * products


@pytest.mark.parametrize("beta", [0.0, 0.5])
def test_out_overlapping_x_is_computed_from_a_copy_of_x(beta):
    A = sp.random(200, 200, density=0.05, format="csr", random_state=np.random.default_rng(6)) + sp.eye(200, format="csr")
    plan = hsparse.SpmvPlan(A, device="cpu", format="csr")
    x = random_vector(200, np.float64, 7)
    expected = 2.0 * (A @ x) + beta * x
    v = x.copy()
    y = plan.apply(v, out=v, alpha=2.0, beta=beta)
    assert y is v
    np.testing.assert_allclose(v, expected, rtol=1e-12, atol=1e-12)


def test_out_overlapping_part_of_x_is_computed_from_a_copy_of_x():
    A = sp.random(200, 200, density=0.05, format="csr", random_state=np.random.default_rng(8))
    plan = hsparse.SpmvPlan(A, device="cpu", format="csr")
    buffer = random_vector(300, np.float64, 9)
    x = buffer[:200].copy()
    plan.apply(buffer[:200], out=buffer[100:])  # out's first half is x's second half
    np.testing.assert_allclose(buffer[100:], A @ x, rtol=1e-12, atol=1e-12)
