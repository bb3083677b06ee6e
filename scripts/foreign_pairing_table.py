#!/usr/bin/env python3
"""How kforecast pairs and forecasts the foreign-style test files.

Runs `kforecast forecast --json BASE CANDIDATE` on each pair of versions in
test-workspaces/foreign/ and tests/data/foreign/ (the pairs listed below, reference first)
and prints one line per pair and the totals: paired by name, by role (the sole kernel,
launch order, likeness) or not at all (kernels that do not pair one to one, forecast as
whole programs); forecast, deferred (sent to the GPU) or refused with a message.

    scripts/foreign_pairing_table.py [--bin target/debug/kforecast]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAIRS = [
    ("test-workspaces/foreign/cupy_saxpy", "previous.py", "current.py"),
    ("test-workspaces/foreign/gpumode_rmsnorm", "v1_two_pass.py", "v2_fused.py"),
    ("test-workspaces/foreign/kernelbench_matmul", "previous.py", "current.py"),
    ("test-workspaces/foreign/kernelbench_relu", "previous.py", "current.py"),
    ("test-workspaces/foreign/ladder_sgemm", "v1_naive.cu", "v2_coalesced.cu"),
    ("test-workspaces/foreign/ladder_sgemm", "v2_coalesced.cu", "v3_smem_tiled.cu"),
    ("test-workspaces/foreign/ladder_sgemm", "v1_naive.cu", "v3_smem_tiled.cu"),
    ("test-workspaces/foreign/launch_elsewhere", "previous/kernels.cu", "kernels.cu"),
    ("tests/data/foreign", "matvec.cu", "matvec_warp.cu"),
    ("tests/data/foreign/sgemm", "sgemm_2d.cu", "sgemm_2d_tuned.cu"),
    ("tests/data/foreign/halfscale", "scale.cu", "scale_vec.cu"),
]


def classify(v):
    reasons = "\n".join(v.get("reasons") or [])
    if "forecast as whole programs" in reasons:
        pairing = "none (whole program)"
    elif "paired by role" in reasons or "paired by likeness" in reasons:
        pairing = "role"
    else:
        pairing = "name"
    outcome = "deferred" if v.get("defer") else "forecast"
    return pairing, outcome


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/debug/kforecast"))
    args = ap.parse_args()
    counts = {}
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, KFORECAST_CACHE_DIR=cache)
        for folder, base, cand in PAIRS:
            p = subprocess.run(
                [args.bin, "forecast", "--json", os.path.join(folder, base), os.path.join(folder, cand)],
                cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
            name = "%s: %s -> %s" % (folder.split("foreign")[-1].strip("/") or ".", base, cand)
            if p.returncode != 0:
                msg = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
                pairing, outcome, detail = "-", "refused", msg[:90]
            else:
                v = json.loads(p.stdout)
                pairing, outcome = classify(v)
                detail = "%s %.2fx, confidence %.2f" % (v.get("claim"), v.get("speedup") or 0, v.get("confidence") or 0)
            counts[("pairing", pairing)] = counts.get(("pairing", pairing), 0) + 1
            counts[("outcome", outcome)] = counts.get(("outcome", outcome), 0) + 1
            rows.append((name, pairing, outcome, detail))
    print("| pair | paired | outcome | forecast |")
    print("|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %s | %s |" % r)
    print()
    print("pairs: %d" % len(rows))
    for kind in ("pairing", "outcome"):
        print("%s: %s" % (kind, ", ".join("%s %d" % (k[1], n) for k, n in sorted(counts.items()) if k[0] == kind)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
