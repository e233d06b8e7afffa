"""Issue 62 item 16: ``import hsparse`` makes OpenMP's threads wait
passively unless the user chose a policy (libgomp reads OMP_WAIT_POLICY
once, when it is loaded: a spinning default made GMRES 21x slower per
iteration on a busy 2-core machine)."""
import os
import subprocess
import sys

import pytest


def wait_policy_after_import(value):
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if value is not None:
        env["OMP_WAIT_POLICY"] = value
    code = "import os, hsparse; print(os.environ.get('OMP_WAIT_POLICY', '<unset>'))"
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_import_sets_a_passive_wait_policy_when_none_is_set():
    assert wait_policy_after_import(None) == "passive"


@pytest.mark.parametrize("value", ["ACTIVE", "active", "PASSIVE"])
def test_a_users_wait_policy_is_kept(value):
    assert wait_policy_after_import(value) == value
