#!/usr/bin/env bash
# A/B of the L2 window: bench off / on, then spmv processes (fresh each)
B=build-gpu/bin/hsparse
M="${AB_MATRICES:-powerlaw:min=2.5,rows=4000000 circuit:n=10000000 stencil3d:points=27,n=100}"
for w in off on; do timeout 150 $B bench --backend cuda $M --x-in-l2 $w --min-time 0.08 --out $OUT/b-$w > $OUT/b-$w.log 2> $OUT/b-$w.err; echo "bench $w rc=$?"; done
python3 - <<'PY'
import csv, os
out = os.environ["OUT"]
rows = {}
for w in ("off", "on"):
    for r in csv.DictReader(open(f"{out}/b-{w}/results.csv")):
        if r["status"] != "ok": continue
        k = (r["matrix"].split(",")[0], r["library"] + " " + r["kernel"].replace(" (x in L2)", ""))
        rows.setdefault(k, {})[w] = (float(r["gflops"]), float(r["gflops_back_to_back"] or 0))
print("%-22s %-45s %8s %8s %8s %8s" % ("matrix", "kernel", "fl off", "fl on", "b2b off", "b2b on"))
for (m, k), v in sorted(rows.items()):
    if "off" in v and "on" in v:
        print("%-22s %-45s %8.1f %8.1f %8.1f %8.1f" % (m, k[:45], v["off"][0], v["on"][0], v["off"][1], v["on"][1]))
PY
for w in off on off on; do $B spmv powerlaw:min=2.5,rows=4000000 --backend cuda --kernel adaptive --x-in-l2 $w --min-time 0.5 2>&1 | grep "^spmv"; done
tar czf $OUT/benches.tar.gz -C $OUT b-off b-on && rm -rf $OUT/b-off $OUT/b-on
