#!/usr/bin/env python3
"""Checks the format advisor against a measured hsparse bench run (issue 6's
goal: format=auto within 95% of the best measured kernel, counting the
conversion at N products, and never more than 3% slower than cuSPARSE CSR).

Usage: scripts/experiments/advisor-check.py RESULTS_JSON ADVICE_DIR
ADVICE_DIR holds one `hsparse advise MATRIX --backend cuda --bandwidth B
--cache C` output per matrix of the run, named like the matrix with ':', ','
and '=' turned into '_'. The advisor's ranking gives its choice for every N;
the run's measured times and setups give what that choice costs."""
import sys
import json, re, glob, math
res = json.load(open(sys.argv[1]))
rows = [r for r in res['results'] if r['status'] == 'ok']
def key(m): return m.replace(':','_').replace(',','_').replace('=','_')
out = []
Ns = [1, 100, 1000, 10000, 100000]
summary = {N: [] for N in Ns}
for mat in [m['name'] for m in res['matrices']]:
    txt = open(f"{sys.argv[2]}/{key(mat)}.txt").read()
    preds = []
    for line in txt.splitlines():
        mm = re.match(r"\s+(\w+)/(\S+?)(?:-b(\d+))?\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)$", line)
        if mm:
            preds.append((mm.group(1), mm.group(2), float(mm.group(6)), float(mm.group(7))))
    mr = [r for r in rows if r['matrix'] == mat]
    csr = [r for r in mr if r['format'] == 'csr']
    ref = min(csr, key=lambda r: r['median_s'])
    def total(r, N): return N * r['median_s'] + max(0.0, r['setup_s'] - ref['setup_s'])
    cus_csr = [r for r in mr if r['library'] == 'cusparse' and r['format'] == 'csr']
    for N in Ns:
        fmt, kern, spmv, conv = min(preds, key=lambda p: N * p[2] + p[3])
        cands = [r for r in mr if r['library'] == 'hsparse' and r['format'] == fmt and r['kernel'].startswith(f"{fmt}/{kern}")]
        if not cands:
            print("no measured kernel for", mat, fmt, kern); continue
        auto = min(cands, key=lambda r: total(r, N))
        best = min(mr, key=lambda r: total(r, N))
        cbest = min(cus_csr, key=lambda r: total(r, N))
        ratio = total(best, N) / total(auto, N)
        vs_cus = total(auto, N) / total(cbest, N)
        summary[N].append((mat, f"{fmt}/{kern}", ratio, vs_cus, best['library'] + ' ' + best['kernel']))
for N in Ns:
    print(f"N={N}")
    for mat, choice, ratio, vs, best in summary[N]:
        print(f"  {mat[:34]:34s} auto={choice:18s} {100*ratio:6.1f}% of best ({best[:34]}); auto/cuSPARSE-CSR time {vs:.3f}")
    print(f"  met on {sum(1 for s in summary[N] if s[2] >= 0.95)}/{len(summary[N])}; not slower than cuSPARSE CSR by >3%: {sum(1 for s in summary[N] if s[3] <= 1.03)}/{len(summary[N])}")
