"""hsparse.bench: `hsparse bench` from Python, its results as records."""
from __future__ import annotations

import json
import os
import tempfile
from typing import Any, List, Optional, Sequence

from . import _hsparse


def bench(matrices: Optional[Sequence[str]] = None, matrices_dir: Optional[str] = None, device: str = "auto", quick: bool = False,
          min_time: float = 0.0, spmv_count: int = 1000, out: Optional[str] = None, as_dataframe: Optional[bool] = None) -> Any:
    """Runs the SpMV benchmark (what ``hsparse bench`` runs): every hsparse
    kernel of every format beside cuSPARSE (GPU) or Eigen and librsb (CPU),
    each checked against the serial reference before it is timed.

    ``matrices``: files or generator specs (None: the built-in default
    suite, sized to this machine); ``matrices_dir``: add every real matrix
    of a folder; ``quick``: small matrices and short timings; ``out``: also
    keep the report (report.md, results.json, results.csv, plots) there.
    Returns one record per kernel and matrix (GFLOP/s, GB/s, % of the
    bandwidth, the model's figures, status): a pandas DataFrame when pandas
    is installed (or ``as_dataframe=True``), else a list of dicts. Progress
    is printed as it runs; the GIL is released."""
    if device not in ("auto", "cpu", "cuda"):
        raise ValueError(f"device: expected one of auto, cpu, cuda, got {device!r}")
    if matrices is not None and (isinstance(matrices, str) or not all(isinstance(m, str) for m in matrices)):
        raise TypeError("matrices: expected a sequence of file names or generator specs")
    with tempfile.TemporaryDirectory(prefix="hsparse-bench-") as scratch:
        folder = os.fspath(out) if out is not None else scratch
        _hsparse._bench(list(matrices or []), matrices_dir or "", device, bool(quick), float(min_time), int(spmv_count), folder)
        with open(os.path.join(folder, "results.json")) as f:
            records: List[dict] = json.load(f)["results"]
    if as_dataframe is False:
        return records
    try:
        import pandas
    except ImportError:
        if as_dataframe:
            raise
        return records
    return pandas.DataFrame.from_records(records)
