"""examples/python/ runs (small inputs, no plot): the examples do not rot."""
import pathlib
import runpy
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python"


def test_compare_formats_runs_and_checks_every_format(capsys):
    sys.path.insert(0, str(EXAMPLES))
    try:
        import compare_formats
    finally:
        sys.path.pop(0)
    rows = compare_formats.main(["stencil3d:n=12,points=7", "--device", "cpu", "--plot", ""])
    names = [r[0] for r in rows]
    assert names[0].startswith("auto") and len(rows) == 1 + len(__import__("hsparse").formats())
    for fmt, kernel, gflops, note in rows:
        assert gflops is None or (gflops > 0 and float(note.split()[-1]) < 1e-12), (fmt, note)
    assert "CG + Jacobi: converged" in capsys.readouterr().out


def test_notebook_runs_as_a_script(capsys):
    runpy.run_path(str(EXAMPLES / "notebook.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "converged" in out and "tridiagonal: (1000, 128)" in out
