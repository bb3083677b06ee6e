"""Summary of farm_bench.sh: wall times, and each run's results against the one-worker
run's (status and speedup per variant; "within noise": the two 95% intervals overlap)."""

import json
import math
import statistics
import sys
from pathlib import Path

out = Path(sys.argv[1])
walls = dict(line.split() for line in (out / "walls.txt").read_text().splitlines() if line.strip())
runs = {}
for name in ("one", "two", "killed"):
    path = out / f"{name}.jsonl"
    runs[name] = {r["text_hash"]: r for r in map(json.loads, path.read_text().splitlines())} if path.exists() else {}

one = runs["one"]
t1 = float(walls.get("one", "nan"))
print(f"one worker:  {len(one)} variants, wall {t1:.1f} s")
for name, label in (("two", "two workers"), ("killed", "two, one killed")):
    r = runs[name]
    t = float(walls.get(name, "nan"))
    workers = {}
    for v in r.values():
        workers[v.get("worker", "?")] = workers.get(v.get("worker", "?"), 0) + 1
    print(f"{label}: {len(r)} variants, wall {t:.1f} s ({t / t1:.2f}x of one worker); jobs per worker {workers}")
    lost = [h for h in one if h not in r]
    statuses = sum(1 for h, v in r.items() if h in one and v["status"] == one[h]["status"])
    ratios, overlap, both = [], 0, 0
    for h, v in r.items():
        a = one.get(h)
        if not a or a["status"] != "ok" or v["status"] != "ok":
            continue
        both += 1
        ratios.append(abs(math.log2(v["speedup"] / a["speedup"])))
        if v["ci_low"] <= a["ci_high"] and a["ci_low"] <= v["ci_high"]:
            overlap += 1
    errors = sum(1 for v in r.values() if v["status"] not in ("ok", "wrong_result"))
    print(f"  lost jobs {len(lost)}; errors {errors}; same status as one worker {statuses}/{len(one)}")
    if ratios:
        ratios.sort()
        p90 = ratios[int(0.9 * (len(ratios) - 1))]
        print(f"  speedup vs one worker: median |log2 ratio| {statistics.median(ratios):.3f} "
              f"({2 ** statistics.median(ratios) - 1:.1%}), p90 {2 ** p90 - 1:.1%}, max {2 ** ratios[-1] - 1:.1%}; "
              f"95% intervals overlap for {overlap}/{both}")
