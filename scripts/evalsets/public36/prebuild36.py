"""Warms the build caches of evaluation set public36 before measure_programs.py runs (kforecast's
own helper, run on the GPU machine only): every version that builds a torch extension
(`load_inline`) or holds Triton kernels is built with its family's `bench.build(path)` in a
process of its own, --jobs at once (one ninja job each); a Triton version is also run once on
draw 0, so its kernels are compiled into Triton's disk cache. The extensions land in
progbuild's cache ($EVALSET_CACHE), where the measurement's own builds then find them. Prints
one line a version (seconds, ok or the error's last line); writes nothing else.

    python3 target/evalsets/public36/prebuild36.py target/evalsets/public36 [--jobs 16] [--family REGEX] [--harness scripts/evalsets]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor


CHILD = r"""
import importlib.util, os, sys
sys.path.insert(0, {harness!r})
spec = importlib.util.spec_from_file_location("bench_prebuild", {bench!r})
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
fn = bench.build({path!r})
if {run}:
    import torch
    out = fn(*bench.make_inputs(0))
    torch.cuda.synchronize()
print("PREBUILD-OK")
"""


def one(set_dir, fam, path, run, timeout, harness):
    code = CHILD.format(harness=harness, bench=os.path.join(set_dir, fam, "bench.py"),
                        path=os.path.join(set_dir, path), run=run)
    t0 = time.time()
    try:
        res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
        ok = "PREBUILD-OK" in res.stdout
        tail = "" if ok else (res.stderr.strip().splitlines() or ["(no output)"])[-1][:300]
    except subprocess.TimeoutExpired:
        ok, tail = False, f"timeout {timeout}s"
    return f"{time.time() - t0:6.1f}s {'ok  ' if ok else 'FAIL'} {path} {tail}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set")
    ap.add_argument("--jobs", type=int, default=16)
    ap.add_argument("--family", default="")
    ap.add_argument("--timeout", type=float, default=170)
    ap.add_argument("--harness", default="scripts/evalsets", help="folder of measure_programs.py and progbuild.py")
    args = ap.parse_args()
    set_dir = os.path.abspath(args.set)
    harness = os.path.abspath(args.harness)
    os.environ.setdefault("MAX_JOBS", "1")
    with open(os.path.join(set_dir, "families.json"), encoding="utf-8") as f:
        families = [x for x in json.load(f) if re.search(args.family, x["family"])]
    todo = []
    for fam in families:
        for p in fam["files"]:
            with open(os.path.join(set_dir, p), encoding="utf-8") as f:
                text = f.read()
            ext, tri = "load_inline(" in text, "@triton" in text
            if ext or tri:
                todo.append((fam["family"], p, tri and not ext))
    # extension builds first (the long ones), Triton runs after
    todo.sort(key=lambda t: t[2])
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for line in pool.map(lambda t: one(set_dir, t[0], t[1], t[2], args.timeout, harness), todo):
            print(line, flush=True)
    print(f"prebuild36: {len(todo)} versions in {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
