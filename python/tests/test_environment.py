"""Issue 62 item 16: ``import hsparse`` makes OpenMP's threads spin only
briefly (GOMP_SPINCOUNT=10000) unless the user chose a policy (libgomp reads
these once, when it is loaded: its default spinning made GMRES iterations
up to 90 ms on a busy 2-core machine; docs/results/2026-11-28-openmp-wait-policy-cpu)."""
import os
import subprocess
import sys

import pytest


def after_import(**chosen):
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    env.update(chosen)
    code = "import os, hsparse; print(os.environ.get('OMP_WAIT_POLICY', '<unset>'), os.environ.get('GOMP_SPINCOUNT', '<unset>'))"
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return tuple(run.stdout.split())


def test_import_sets_a_short_spin_when_no_policy_is_set():
    assert after_import() == ("<unset>", "10000")


@pytest.mark.parametrize("value", ["ACTIVE", "active", "PASSIVE"])
def test_a_users_wait_policy_is_kept(value):
    assert after_import(OMP_WAIT_POLICY=value) == (value, "<unset>")


def test_a_users_spin_count_is_kept():
    assert after_import(GOMP_SPINCOUNT="500") == ("<unset>", "500")
