#!/usr/bin/env python3
"""Summarises search_bench.sh's JSON lines: per kernel, budget (8, 16) and mode, over the
seeds, the candidates considered per GPU run and the best measured speedup; then medians."""
import json
import math
import statistics
import sys


def at_budget(o, budget):
    """(considered, runs, best speedup) after the search's `budget`-th GPU run."""
    best, considered, runs = 1.0, 0, 0
    for s in o["steps"]:
        if s["run"] is not None and s["run"] > budget:
            break
        runs = s["run"] if s["run"] is not None else runs
        considered = s["considered"]
        if s["status"] == "ok" and s["speedup"]:
            best = max(best, s["speedup"])
    if o["runs"] <= budget:
        considered, runs = o["considered"], o["runs"]
    return considered, runs, best


def label(r):
    """The kernel and its file (the same kernel name occurs in several files)."""
    f = r.get("file", "").replace("test-workspaces/", "").replace("/src/", "/").replace("/kernels/", "/")
    return "%s (%s)" % (r["kernel"], f) if f else r["kernel"]


def main(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    failed = [r for r in rows if r.get("error")]
    rows = [r for r in rows if not r.get("error")]
    for r in rows:
        r["kernel"] = label(r)
    for r in failed:
        print("FAILED: %s seed %s %s" % (label(r), r.get("seed"), r.get("mode")))
    kernels = list(dict.fromkeys(r["kernel"] for r in rows))
    print()
    print("| kernel | budget | mode | seeds | considered / GPU run (median) | best speedup per seed | median best |")
    print("|---|---|---|---|---|---|---|")
    overall = {}
    for k in kernels:
        for budget in (8, 16):
            for mode in ("surrogate", "unfiltered"):
                rs = [r for r in rows if r["kernel"] == k and r["mode"] == mode]
                if not rs:
                    continue
                per = [at_budget(r, budget) for r in rs]
                ratios = [c / max(n, 1) for c, n, _ in per]
                bests = [b for _, _, b in per]
                overall.setdefault((budget, mode), []).append((ratios, bests))
                print("| %s | %d | %s | %d | %.1f | %s | %.3f |" % (
                    k, budget, mode, len(rs), statistics.median(ratios),
                    ", ".join("%.3f" % b for b in bests), statistics.median(bests)))
    print()
    print("| budget | mode | considered / GPU run (median over kernels x seeds) | median best speedup (kernels x seeds) | median over kernels of the per-kernel median best |")
    print("|---|---|---|---|---|")
    for budget in (8, 16):
        for mode in ("surrogate", "unfiltered"):
            groups = overall.get((budget, mode), [])
            ratios = [x for g in groups for x in g[0]]
            bests = [x for g in groups for x in g[1]]
            per_kernel = [statistics.median(g[1]) for g in groups]
            if ratios:
                print("| %d | %s | %.1f | %.3f | %.3f |" % (budget, mode, statistics.median(ratios),
                      statistics.median(bests), statistics.median(per_kernel)))
    # The same kernel and seed, with and without the forecaster screening.
    print()
    print("| budget | best with screening / best without, per kernel and seed: geometric mean | median | wins / ties (within 0.5%) / losses |")
    print("|---|---|---|---|")
    for budget in (8, 16):
        pairs = []
        for k in kernels:
            for seed in sorted({r["config"]["seed"] for r in rows if r["kernel"] == k}):
                got = {}
                for r in rows:
                    if r["kernel"] == k and r["config"]["seed"] == seed:
                        got[r["mode"]] = at_budget(r, budget)[2]
                if len(got) == 2:
                    pairs.append(got["surrogate"] / got["unfiltered"])
        if pairs:
            geo = math.exp(sum(math.log(p) for p in pairs) / len(pairs))
            wins = sum(p > 1.005 for p in pairs)
            losses = sum(p < 0.995 for p in pairs)
            print("| %d | %.3f | %.3f | %d / %d / %d |" % (budget, geo, statistics.median(pairs), wins,
                  len(pairs) - wins - losses, losses))


if __name__ == "__main__":
    main(sys.argv[1])
