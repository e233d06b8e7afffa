"""examples/python/ and the Python blocks of python/README.md run (small
inputs, no plot): the examples do not rot."""
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


README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def readme_python_blocks():
    """Each ```python block of python/README.md, as (first line number, code)."""
    blocks, code, start = [], None, 0
    for number, line in enumerate(README.read_text().splitlines(), 1):
        fence = line.strip()
        if code is None and fence == "```python":
            code, start = [], number + 1
        elif code is not None and fence == "```":
            blocks.append((start, "\n".join(code)))
            code = None
        elif code is not None:
            code.append(line)
    return blocks


def test_readme_has_python_blocks():
    assert readme_python_blocks(), f"no ```python block found in {README}"


@pytest.mark.parametrize("start,code", readme_python_blocks(), ids=[f"README.md:{start}" for start, _ in readme_python_blocks()])
def test_readme_python_block_runs(start, code, capsys):
    # Compiled with the README's name and line numbers: a failure points at the snippet.
    exec(compile("\n" * (start - 1) + code, str(README), "exec"), {"__name__": "__readme__"})
