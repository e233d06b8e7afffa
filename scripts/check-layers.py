#!/usr/bin/env python3
"""The include order of hsparse's layers and where the CUDA backend may
show (issue 63, deliverable 3).

Layers point one way, lower to higher:
  core <- formats <- io / generators / performance
       <- kernels / backends / dense / analysis <- plans / tuning / distributed <- solvers / fem
(tools/ and python/ sit on top and may include anything). A file in
include/hsparse/LAYER/ or src/LAYER/ may include "hsparse/OTHER/..." only
where OTHER's rank is not above LAYER's.

`HSPARSE_HAVE_CUDA` may appear only in the CUDA backend (src/backends/cuda,
include/hsparse/backends/cuda), the executor factory (src/backends/executor_factory.cpp),
and `HSPARSE_HAVE_MPI` only in the MPI backend (src/backends/mpi) and the
communicator factory (src/backends/communicator_factory.cpp),
and the build files: elsewhere the executor hides the backend.

What broke these rules when this check came is listed in
scripts/layers-allowed.txt, one "path: LAYER includes OTHER" or "path:
HSPARSE_HAVE_CUDA outside the CUDA backend" a line; the refactor of issue
63 removes them. The check fails on an upward include
that is not listed, and on a listed one that is gone (so the list only
shrinks). Usage: check-layers.py [--root DIR] [--allowed FILE]
"""
import argparse
import os
import re
import sys

RANK = {
    "core": 0,
    "formats": 1,
    "io": 2, "generators": 2, "performance": 2,
    # analysis checks a product against the serial reference kernel
    # (spmv_check), so it sits with the kernels, below the plans that use it.
    "kernels": 3, "backends": 3, "dense": 3, "analysis": 3,
    # distributed: a rank's part of a matrix and its plans (above the plans
    # it builds, below the solvers that run on it).
    "plans": 4, "tuning": 4, "distributed": 4,
    "solvers": 5, "fem": 5,
}
INCLUDE = re.compile(r'\s*#\s*include\s+"hsparse/([a-z_]+)/')


def layer_of(path):
    parts = path.split("/")
    if parts[0] == "include" and len(parts) > 2 and parts[1] == "hsparse":
        return parts[2]
    if parts[0] == "src" and len(parts) > 1:
        return parts[1]
    return None


def upward_includes(root):
    found = []
    for top in ("include/hsparse", "src"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                path = os.path.relpath(os.path.join(folder, name), root)
                layer = layer_of(path)
                if layer not in RANK:
                    continue
                with open(os.path.join(root, path), errors="replace") as f:
                    for line in f:
                        m = INCLUDE.match(line)
                        if m and m.group(1) in RANK and RANK[m.group(1)] > RANK[layer]:
                            found.append(f"{path}: {layer} includes {m.group(1)}")
    return sorted(set(found))


# Each optional backend's macro, and the only places it may appear (its
# backend and its factory; the build files are not scanned).
GUARDS = {
    "HSPARSE_HAVE_CUDA": ("CUDA backend", ("src/backends/cuda/", "include/hsparse/backends/cuda/", "src/backends/executor_factory.cpp")),
    "HSPARSE_HAVE_MPI": ("MPI backend", ("src/backends/mpi/", "src/backends/communicator_factory.cpp")),
}
SOURCE = (".cpp", ".hpp", ".h", ".cu", ".cuh")


def backend_guards_outside_their_backend(root):
    found = []
    for top in ("include", "src", "tools", "python"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                path = os.path.relpath(os.path.join(folder, name), root)
                if not name.endswith(SOURCE):
                    continue
                with open(os.path.join(root, path), errors="replace") as f:
                    text = f.read()
                for macro, (backend, places) in GUARDS.items():
                    if macro in text and not path.startswith(places):
                        found.append(f"{path}: {macro} outside the {backend}")
    return sorted(found)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(here))
    parser.add_argument("--allowed", default=os.path.join(here, "layers-allowed.txt"))
    args = parser.parse_args()
    allowed = set()
    if os.path.exists(args.allowed):
        with open(args.allowed) as f:
            allowed = {line.strip() for line in f if line.strip() and not line.startswith("#")}
    found = set(upward_includes(args.root)) | set(backend_guards_outside_their_backend(args.root))
    new = sorted(found - allowed)
    gone = sorted(allowed - found)
    for v in new:
        print(f"layer order broken: {v}")
    for v in gone:
        print(f"fixed, remove it from {os.path.basename(args.allowed)}: {v}")
    print(f"{len(found)} breaks of the layer rules, {len(found) - len(new)} of them listed as known; {len(new)} new, {len(gone)} listed but gone")
    return 1 if new or gone else 0


if __name__ == "__main__":
    sys.exit(main())
