#!/usr/bin/env python3
"""Bin ECE of sets of K families drawn (with replacement) from out-of-family forecasts.

usage: kforecast train corpus --cv-only --dump cv.jsonl
       python3 ece_family_floor.py cv.jsonl 45

The forecasts come from a spread fitted on all of them, so the pool as a whole is calibrated;
the spread of ECE over draws is what family-to-family variation alone gives a held-out split
of K families."""
import collections, json, math, sys
import numpy as np

EDGES = [0.25, 0.5, math.sqrt(0.5), 1.0, math.sqrt(2.0), 2.0, 4.0]


def ece(rows):
    conf = np.array([c for c, _ in rows])
    ok = np.array([o for _, o in rows], float)
    bucket = np.minimum((conf * 10).astype(int), 9)
    return sum((bucket == b).mean() * abs(conf[bucket == b].mean() - ok[bucket == b].mean())
               for b in range(10) if (bucket == b).any())


families = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r = json.loads(line)
    bins = r["forecast"]["bins"]
    top = int(np.argmax(bins))
    families[r["family"]].append((bins[top], top == int(np.searchsorted(EDGES, r["speedup"], side="left"))))
names, k = list(families), int(sys.argv[2])
rng = np.random.default_rng(0)
draws = np.array([ece([x for i in rng.choice(len(names), k) for x in families[names[i]]]) for _ in range(2000)])
print(f"pool of {len(names)} families: ECE {ece([x for f in names for x in families[f]]):.3f}")
print(f"{k} families drawn: ECE mean {draws.mean():.3f}, median {np.median(draws):.3f}, "
      f"10-90% {np.quantile(draws, 0.1):.3f}-{np.quantile(draws, 0.9):.3f}, above 0.05 in {(draws > 0.05).mean():.0%}")
