"""Issue 62 item 3: a wide matrix with two nonzeros under a memory limit.
Work proportional to the columns (a marker per column or diagonal) asked
for 16 GiB per thread inside an OpenMP region, where std::bad_alloc ends
the interpreter (``terminate called ...``). Each call must either succeed
or raise MemoryError / hsparse.Error; the child must never die by a signal."""
import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent("""
    import resource
    limit = 3 << 30  # 3 GiB of address space: the columns' markers would need 16 GiB per thread
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    import scipy.sparse as sp, hsparse
    A = sp.csr_matrix(([1.0, 2.0], [0, 2**31 + 5], [0, 1, 2]), shape=(2, 2**31 + 10))
    calls = {
        "info": lambda: hsparse.info(A),
        "advise": lambda: hsparse.advise(A, device="cpu"),
        "SpmvPlan": lambda: hsparse.SpmvPlan(A, device="cpu", format="auto", use_cache=False).format,
    }
    for name, call in calls.items():
        try:
            call()
            print(name, "ok", flush=True)
        except (MemoryError, hsparse.Error) as e:
            print(name, type(e).__name__, str(e).replace("\\n", " "), flush=True)
""")


# The column-proportional scratch was in src/formats/footprint.cpp (bcsr_fill's
# marker per block column and thread, allocated inside its parallel region,
# where bad_alloc calls terminate; format_footprint's marker per diagonal).
def test_a_wide_matrix_never_aborts_the_interpreter_under_a_memory_limit():
    run = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"the child ended with {run.returncode} (a negative number: a signal): {run.stderr[-2000:]}"
    lines = dict(line.split(" ", 1) for line in run.stdout.splitlines())
    assert set(lines) == {"info", "advise", "SpmvPlan"}, run.stdout
    for name, outcome in lines.items():
        # Success, or an error saying why (MemoryError and hsparse.Error carry a message).
        assert outcome == "ok" or len(outcome.split(" ", 1)) == 2, f"{name}: {outcome}"
