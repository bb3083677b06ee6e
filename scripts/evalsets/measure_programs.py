#!/usr/bin/env python3
"""Measures every version of every family of an evaluation set on this machine's GPU.

    measure_programs.py SET [--family REGEX] [--jobs N] --out FILE.jsonl

SET is a folder with `families.json` and one `<family>/bench.py` adapter per family
(the contract is in README.md beside this file). Three phases:

1. build + check, in parallel worker processes (--jobs), each with a time limit
   (--timeout), all versions at once (references queued first). A worker builds the
   family's reference and one version, runs both on fresh random inputs (--checks
   draws), the output memory poisoned before every run, and compares the version with
   the reference version's output (and with the adapter's float64 `reference(...)`
   when it has one). NaN never passes. A version that fails to build, crashes, hangs
   or is wrong is recorded as failing; nothing else stops.
2. timing, one process per family, the GPU to itself: every version that passed is
   warmed up, then all are timed round-robin (shuffled order in each round) with CUDA
   events, an L2 flush (a --flush-mb buffer write) before every run, >= --rounds rounds.
3. one JSON line per ordered pair of passing versions (speedup = t_base / t_candidate
   of the medians, 95% bootstrap CI over rounds) and one per failing version; a table.
"""

import argparse
import json
import math
import os
import random
import re
import secrets
import signal
import subprocess
import sys
import time
import traceback
import zlib
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
RESULT = "@@RESULT "
DEFAULT_TOL = {"rtol": 1e-3, "atol": 1e-3}


# ----------------------------------------------------------------------------- set

def load_families(set_dir, pattern):
    with open(os.path.join(set_dir, "families.json")) as f:
        families = json.load(f)
    rx = re.compile(pattern) if pattern else None
    out = []
    for fam in families:
        if rx and not rx.search(fam["family"]):
            continue
        out.append(fam)
    return out


def family_problems(set_dir, fam):
    """What is missing for this family to be measured at all (empty when nothing)."""
    problems = []
    if not os.path.isfile(os.path.join(set_dir, fam["family"], "bench.py")):
        problems.append(f"no {fam['family']}/bench.py")
    if len(fam.get("files", [])) < 1:
        problems.append("no files")
    for p in fam.get("files", []):
        if not os.path.isfile(os.path.join(set_dir, p)):
            problems.append(f"missing file {p}")
    return problems


# ----------------------------------------------------------------------------- worker side

def import_bench(set_dir, family):
    import importlib.util

    sys.path.insert(0, HERE)
    path = os.path.join(set_dir, family, "bench.py")
    mod_name = "bench_" + re.sub(r"\W", "_", family)
    spec = importlib.util.spec_from_file_location(mod_name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def as_outputs(out):
    import torch

    items = list(out) if isinstance(out, (tuple, list)) else [out]
    res = []
    for x in items:
        if not isinstance(x, torch.Tensor):
            if hasattr(x, "__cuda_array_interface__"):
                x = torch.as_tensor(x, device="cuda")
            else:
                x = torch.tensor(x)
        res.append(x)
    return res


def poison(nbytes):
    """Leaves freed, 0xFF-filled memory in the allocators' caches, so an output that a
    version allocates and does not fully write holds NaN (floats) or -1 (integers)."""
    import torch

    nbytes = int(max(nbytes, 1 << 20))
    junk = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
    junk.fill_(255)
    if "cupy" in sys.modules:
        import cupy

        cjunk = cupy.empty(nbytes, dtype=cupy.uint8)
        cjunk.fill(255)
        del cjunk
    torch.cuda.synchronize()
    del junk


def clone_inputs(inputs):
    import torch

    return tuple(x.clone() if isinstance(x, torch.Tensor) else x for x in inputs)


def run_once(fn, inputs, poison_bytes):
    import torch

    args = clone_inputs(inputs)
    poison(poison_bytes)
    out = fn(*args)
    torch.cuda.synchronize()
    return as_outputs(out)


def compare(outs, refs, tol, what):
    """None when `outs` matches `refs`, else the reason. Also returns the worst
    relative L2 error seen."""
    import torch

    if len(outs) != len(refs):
        return f"{len(outs)} outputs, {what} has {len(refs)}", math.inf
    worst = 0.0
    for i, (o, r) in enumerate(zip(outs, refs)):
        if tuple(o.shape) != tuple(r.shape):
            if o.numel() == r.numel():
                o = o.reshape(r.shape)
            else:
                return f"output {i}: shape {tuple(o.shape)}, {what} has {tuple(r.shape)}", math.inf
        o = o.detach().to(device="cuda")
        r = r.detach().to(device="cuda")
        if r.is_floating_point() or o.is_floating_point() or r.is_complex():
            o64, r64 = o.to(torch.float64), r.to(torch.float64)
            if torch.isnan(r64).any():
                return f"output {i}: {what} holds NaN", math.inf
            if torch.isnan(o64).any():
                return f"output {i}: NaN ({int(torch.isnan(o64).sum())} elements; unwritten or wrong)", math.inf
            diff = (o64 - r64).abs()
            rel = float(diff.norm() / r64.norm().clamp_min(1e-300))
            worst = max(worst, rel)
            bad = diff > (tol["atol"] + tol["rtol"] * r64.abs())
            if bad.any():
                k = int(bad.sum())
                j = int(torch.argmax((diff - tol["rtol"] * r64.abs()).flatten()))
                return (f"output {i}: {k} of {r.numel()} elements off {what} (rel L2 {rel:.2e}; e.g. "
                        f"[{j}] {float(o64.flatten()[j]):.6g} vs {float(r64.flatten()[j]):.6g})"), rel
        else:
            if not torch.equal(o.to(r.dtype), r):
                k = int((o.to(r.dtype) != r).sum())
                return f"output {i}: {k} of {r.numel()} elements differ from {what}", math.inf
    return None, worst


def worker_check(spec):
    """Builds the reference and one version, checks the version. Returns a dict."""
    import torch

    set_dir, family, ref_path, path = spec["set"], spec["family"], spec["ref"], spec["path"]
    res = {"ok": False}
    t0 = time.time()
    bench = import_bench(set_dir, family)
    tol = dict(DEFAULT_TOL)
    tol.update(getattr(bench, "TOL", {}) or {})
    fn = bench.build(os.path.join(set_dir, path))
    ref_fn = fn if path == ref_path else bench.build(os.path.join(set_dir, ref_path))
    res["build_s"] = round(time.time() - t0, 2)
    t0 = time.time()
    worst = 0.0
    seeds = [secrets.randbits(31) for _ in range(spec["checks"])]
    res["seeds"] = seeds
    for seed in seeds:
        torch.manual_seed(seed)
        inputs = bench.make_inputs(seed)
        torch.cuda.synchronize()
        in_bytes = sum(x.numel() * x.element_size() for x in inputs if isinstance(x, torch.Tensor))
        pb = max(256 << 20, 2 * in_bytes)
        refs = run_once(ref_fn, inputs, pb)
        out_bytes = sum(r.numel() * r.element_size() for r in refs)
        pb = max(pb, 2 * out_bytes)
        if hasattr(bench, "reference"):
            ref64 = as_outputs(bench.reference(*clone_inputs(inputs)))
            why, rel = compare(refs if path == ref_path else run_once(fn, inputs, pb), ref64, tol,
                               "the float64 reference")
            worst = max(worst, rel)
            if why:
                res["error"] = why + f" [seed {seed}]"
                return res
        if path != ref_path:
            outs = run_once(fn, inputs, pb)
            why, rel = compare(outs, refs, tol, "the reference version")
            worst = max(worst, rel)
            if why:
                res["error"] = why + f" [seed {seed}]"
                return res
        else:
            # the reference must also write every element: run it again on poisoned memory
            outs = run_once(fn, inputs, pb)
            why, rel = compare(outs, refs, tol, "its own first run")
            if why:
                res["error"] = "reference is not deterministic or leaves memory unwritten: " + why
                return res
        del inputs
    res["check_s"] = round(time.time() - t0, 2)
    res["rel_err"] = worst
    res["ok"] = True
    return res


def l2_flusher(flush_mb):
    import torch

    buf = torch.empty(int(flush_mb) << 20, dtype=torch.uint8, device="cuda")

    def flush():
        buf.fill_(0x5A)  # a write of the whole buffer evicts L2

    return flush


def worker_time(spec):
    """Times every version of one family, interleaved. Returns {path: [ms per round]}."""
    import torch

    set_dir, family, paths = spec["set"], spec["family"], spec["paths"]
    bench = import_bench(set_dir, family)
    fns, errors = {}, {}
    for p in paths:
        try:
            fns[p] = bench.build(os.path.join(set_dir, p))
        except Exception as e:  # noqa: BLE001 - a version that fails here is only recorded
            errors[p] = "build failed in the timing process: " + short_exc(e)
    seed = secrets.randbits(31)
    torch.manual_seed(seed)
    inputs = bench.make_inputs(seed)
    flush = l2_flusher(spec["flush_mb"])
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)

    def timed(fn):
        flush()
        start.record()
        fn(*inputs)
        end.record()
        end.synchronize()
        return start.elapsed_time(end)

    est = {}
    for p in list(fns):  # warm-up: compilation, module load, autotuning, caches
        try:
            t_end = time.time() + spec["warmup_s"]
            times = []
            while len(times) < 3 or (time.time() < t_end and len(times) < 50):
                times.append(timed(fns[p]))
            est[p] = sorted(times)[len(times) // 2]
        except Exception as e:  # noqa: BLE001
            errors[p] = "failed in warm-up: " + short_exc(e)
            del fns[p]
    per_round = sum(est.get(p, 0) + 0.2 for p in fns) / 1e3  # seconds, flush and launch included
    rounds = spec["rounds"]
    if per_round > 0:
        rounds = int(min(spec["max_rounds"], max(rounds, spec["round_budget_s"] / per_round)))
    times = {p: [] for p in fns}
    order = list(fns)
    rng = random.Random(seed)
    for _ in range(rounds):
        rng.shuffle(order)
        for p in list(order):
            try:
                times[p].append(timed(fns[p]))
            except Exception as e:  # noqa: BLE001
                errors[p] = "failed while timed: " + short_exc(e)
                order.remove(p)
                del times[p]
    return {"times": times, "errors": errors, "seed": seed, "rounds": rounds}


def short_exc(e):
    text = "".join(traceback.format_exception_only(type(e), e)).strip()
    return text[-1500:]


def worker_main(spec_json):
    spec = json.loads(spec_json)
    try:
        res = worker_check(spec) if spec["mode"] == "check" else worker_time(spec)
    except BaseException as e:  # noqa: BLE001 - reported to the parent, never raised
        tb = traceback.format_exc()
        res = {"ok": False, "error": short_exc(e), "traceback": tb[-3000:]}
    sys.stdout.write("\n" + RESULT + json.dumps(res) + "\n")
    sys.stdout.flush()
    os._exit(0)  # skip interpreter teardown (CUDA contexts of a crashed version)


# ----------------------------------------------------------------------------- parent side

def run_worker(spec, timeout, log):
    """Runs one worker process with a time limit; returns its result dict."""
    cmd = [sys.executable, os.path.abspath(__file__), "--_worker", json.dumps(spec)]
    t0 = time.time()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, _ = proc.communicate()
        log.write(f"=== {spec['family']} {spec.get('path', '')} TIMEOUT\n{out[-4000:]}\n")
        log.flush()
        return {"ok": False, "error": f"time limit: still running after {timeout:.0f} s"}
    log.write(f"=== {spec['family']} {spec.get('path', '')} ({time.time() - t0:.1f} s)\n{out[-4000:]}\n")
    log.flush()
    for line in reversed(out.splitlines()):
        if line.startswith(RESULT):
            return json.loads(line[len(RESULT):])
    tail = out.strip().splitlines()[-5:]
    return {"ok": False, "error": f"worker died (exit {proc.returncode}): " + " | ".join(tail)[-1500:]}


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def bootstrap_ci(tb, tc, n_boot=2000, seed=0):
    """95% CI of median(tb)/median(tc), resampling rounds (paired: both timed in the same round)."""
    n = min(len(tb), len(tc))
    try:
        import numpy as np

        rng = np.random.default_rng(seed)
        idx = rng.integers(0, n, size=(n_boot, n))
        ratios = np.median(np.asarray(tb[:n])[idx], axis=1) / np.median(np.asarray(tc[:n])[idx], axis=1)
        lo, hi = np.percentile(ratios, [2.5, 97.5])
        return float(lo), float(hi)
    except ImportError:
        rng = random.Random(seed)
        ratios = []
        for _ in range(n_boot):
            idx = [rng.randrange(n) for _ in range(n)]
            ratios.append(median([tb[i] for i in idx]) / median([tc[i] for i in idx]))
        ratios.sort()
        return ratios[int(0.025 * n_boot)], ratios[int(0.975 * n_boot) - 1]


def pair_lines(family, times, device, split, rounds):
    lines = []
    paths = list(times)
    for b in paths:
        for c in paths:
            if b == c:
                continue
            tb, tc = times[b], times[c]
            lo, hi = bootstrap_ci(tb, tc, seed=zlib.crc32(f"{b}|{c}".encode()))
            lines.append({"family": family, "base": b, "candidate": c,
                          "speedup": median(tb) / median(tc), "ci_low": lo, "ci_high": hi,
                          "base_ms": median(tb), "candidate_ms": median(tc), "ok": True,
                          "device": device, "split": split, "rounds": rounds})
    return lines


def self_spread(ts):
    """How far the same version's median moves between its odd and even rounds."""
    a, b = ts[0::2], ts[1::2]
    if not a or not b:
        return float("nan")
    return abs(median(a) / median(b) - 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("set", help="the set's folder (holds families.json)")
    ap.add_argument("--family", help="only families whose name matches this regex")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1),
                    help="build/check worker processes at once (default: min(8, cores))")
    ap.add_argument("--out", required=True, help="JSON lines file to write")
    ap.add_argument("--rounds", type=int, default=30, help="fewest timing rounds (default 30)")
    ap.add_argument("--max-rounds", type=int, default=200)
    ap.add_argument("--round-budget", type=float, default=4.0,
                    help="seconds of timing per family that set the rounds above --rounds")
    ap.add_argument("--warmup", type=float, default=0.3, help="warm-up seconds per version")
    ap.add_argument("--checks", type=int, default=2, help="fresh random input draws per check")
    ap.add_argument("--timeout", type=float, default=240, help="time limit of one version's build+check, s")
    ap.add_argument("--flush-mb", type=int, default=256, help="L2 flush buffer, MB (>= 64)")
    ap.add_argument("--log", help="worker output log (default: OUT with .log)")
    ap.add_argument("--dry-run", action="store_true", help="check the set's layout, run nothing")
    args = ap.parse_args()
    if args.flush_mb < 64:
        ap.error("--flush-mb must be at least 64")

    set_dir = os.path.abspath(args.set)
    families = load_families(set_dir, args.family)
    if not families:
        sys.exit(f"measure_programs: no family in {set_dir}/families.json matches {args.family!r}")
    # compiles of torch extensions: a few ninja jobs each, as many workers as --jobs
    os.environ.setdefault("MAX_JOBS", str(max(1, (os.cpu_count() or 2) // max(1, args.jobs))))
    records, todo = [], []
    for fam in families:
        problems = family_problems(set_dir, fam)
        if problems:
            for p in fam.get("files", []) or [fam["family"]]:
                records.append({"family": fam["family"], "version": p, "ok": False,
                                "error": "; ".join(problems)})
            continue
        todo.append(fam)
    if args.dry_run:
        for fam in todo:
            print(f"{fam['family']:<28} {fam.get('split', ''):<7} {len(fam['files'])} versions")
        for r in records:
            print(f"BROKEN {r['family']}: {r['error']}")
        return

    import torch

    device = torch.cuda.get_device_name()
    log = open(args.log or os.path.splitext(args.out)[0] + ".log", "w")
    t_start = time.time()

    # phase 1: build + check, all versions at once (--jobs workers)
    def spec(fam, path):
        return {"mode": "check", "set": set_dir, "family": fam["family"], "ref": fam["files"][0],
                "path": path, "checks": args.checks}

    checks = {}
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        # every worker builds the reference too; the references are queued first and the
        # builders share one cache (a second build of the same program waits for the first)
        futs = {(fam["family"], fam["files"][0]): pool.submit(run_worker, spec(fam, fam["files"][0]),
                                                               args.timeout, log) for fam in todo}
        for fam in todo:
            for p in fam["files"][1:]:
                futs[(fam["family"], p)] = pool.submit(run_worker, spec(fam, p), args.timeout, log)
        for key, fut in futs.items():
            checks[key] = fut.result()
    for fam in todo:
        ref_res = checks[(fam["family"], fam["files"][0])]
        if not ref_res["ok"]:
            for p in fam["files"][1:]:
                checks[(fam["family"], p)] = {
                    "ok": False, "error": "not checked: the reference version failed: " + ref_res.get("error", "")}
    print(f"build+check: {time.time() - t_start:.0f} s", flush=True)

    # phase 2: timing, one family at a time
    table = []
    for fam in todo:
        name, ref = fam["family"], fam["files"][0]
        passed = []
        for p in fam["files"]:
            res = checks[(name, p)]
            if res["ok"]:
                passed.append(p)
            else:
                records.append({"family": name, "version": p, "ok": False, "error": res.get("error", "?")})
                table.append((name, p, None, None, None, "FAIL " + res.get("error", "?")[:90]))
        if len(passed) < 1:
            continue
        tspec = {"mode": "time", "set": set_dir, "family": name, "paths": passed, "rounds": args.rounds,
                 "max_rounds": args.max_rounds, "round_budget_s": args.round_budget,
                 "warmup_s": args.warmup, "flush_mb": args.flush_mb}
        tres = run_worker(tspec, 120 + 30 * len(passed) + 2 * args.round_budget, log)
        if "times" not in tres:
            for p in passed:
                records.append({"family": name, "version": p, "ok": False,
                                "error": "timing process failed: " + tres.get("error", "?")})
                table.append((name, p, None, None, None, "FAIL timing: " + tres.get("error", "?")[:80]))
            continue
        for p, err in tres["errors"].items():
            records.append({"family": name, "version": p, "ok": False, "error": err})
            table.append((name, p, None, None, None, "FAIL " + err[:90]))
        times = tres["times"]
        records.extend(pair_lines(name, times, device, fam.get("split", ""), tres["rounds"]))
        if ref in times:
            base = median(times[ref])
        else:
            base = None
        for p, ts in times.items():
            table.append((name, p, median(ts), base / median(ts) if base else None, self_spread(ts),
                          f"ok rel_err {checks[(name, p)].get('rel_err', float('nan')):.1e}"))

    with open(args.out, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    log.close()

    n_pairs = sum(1 for r in records if r["ok"])
    n_fail = sum(1 for r in records if not r["ok"])
    print(f"\n{device}: {n_pairs} pairs, {n_fail} failing versions, {time.time() - t_start:.0f} s -> {args.out}")
    print(f"{'family':<24} {'version':<44} {'ms':>9} {'vs ref':>7} {'noise':>6}  status")
    for name, p, ms, sp, noise, status in table:
        ms_s = f"{ms:9.4f}" if ms is not None else " " * 9
        sp_s = f"{sp:7.2f}" if sp is not None else " " * 7
        no_s = f"{100 * noise:5.1f}%" if noise is not None and not math.isnan(noise) else " " * 6
        print(f"{name[:24]:<24} {os.path.basename(p)[:44]:<44} {ms_s} {sp_s} {no_s}  {status}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--_worker":
        worker_main(sys.argv[2])
    else:
        main()
