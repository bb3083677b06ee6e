"""Builds public evaluation set 82 ("p82-" families, split "public82", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public82/pub82.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public82

Source (fetched with the session's `fetch` tool first), CUDA C++ in load_inline strings:
- flashinfer-ai/flashinfer-bench, commit a3fbcdc (2025-06-16, "initial benchmarking script with
  KernelBench L1 testcases"): a kernel agent (codegen model o1; tool-call and loop-control
  model gpt-4o) that writes a KernelBench `ModelNew` with CUDA in load_inline strings, has it
  evaluated (compiled, correctness, runtime on an RTX 4090) and profiled, and asks for a faster
  one, for up to three iterations per level-1 problem. The agent's log of each problem,
  benchmark/kernel_agent_solutions/logs/<problem>_logs.jsonl, keeps the problem's torch code
  ("original_code") and, for every iteration, the program the codegen model wrote
  ("model_output") with its evaluation ("tool_output"); the last iteration's program is also
  kept as benchmark/kernel_agent_solutions/<problem>_solution.py. The logs were removed from
  the repository later (HEAD has none), so the builder reads them at that commit.

A family is one KernelBench level-1 problem: the problem's torch `Model`
(benchmark/level1/<problem>.py at a3fbcdc, the same text as the log's original_code), then the
programs of iterations 1, 2 and 3 in the agent's order, each the log's model_output string
verbatim. Chosen by content, never by speed: the problems whose three iterations all compiled
and passed the agent's own correctness check (22 of 100), distinct programs, a single input
size that can be raised to fill the GPU, and one of each kind of work (a GEMM, an elementwise
map, a row normalisation, a strided reduction, a broadcast scale); at most fifteen builds so
that one short device call compiles them all.

A version is the program verbatim plus a `kf_run(model, *inputs)` entry point marked KFORECAST;
the adapter (`adapters/bench_p82_*.py`, `_p82fi.py`, ours) builds the module's class once
(ModelNew, or Model for the reference) with the problem's init arguments, draws torch.randn
inputs at the family's size, and checks, on one profiled call at build time, that a kernel named
in the file's `__global__` functions ran (fails the version otherwise). The builder replaces the
whole set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public82", "scripts/evalsets/public82/pub82.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public82"

# Versions that failed on the H200 (device call of MEASURED_DAY): path -> why. None did: all
# twenty built and passed their checks (own kernels ran). The builder's one call (150 s of
# command, cold machine, --jobs 15, so MAX_JOBS=1 a build) spent 103 s building and checking and
# was cut by its time limit while timing the fourth family, before the harness wrote its pairs.
# The lead's second call (260 s limit) measured all 60 pairs.
FAILING = {}
MEASURED_DAY = "2026-11-28"
UNMEASURED = False

FI = "flashinfer-ai/flashinfer-bench"
COMMIT = "a3fbcdc36de8cd5e94a233a77d112b46c0fea6db"  # 2025-06-16, the only commit with the logs
LOGS = "benchmark/kernel_agent_solutions/logs/"

RUN = ("def kf_run(model, *inputs):\n"
       "    # the module built once by the adapter as {cls}(*get_init_inputs()) on the GPU (eval mode),\n"
       "    # called on the family's inputs\n"
       "    with torch.no_grad():\n"
       "        return model(*inputs)\n")

# family, problem (file stem), adapter, notes
FAMILIES = [
    ("p82-fi-matmul", "1_Square_matrix_multiplication_", "bench_p82_fi_matmul.py",
     "KernelBench level 1 problem 1, square matmul C = A @ B, fp32 A, B (4096, 4096) normal (the "
     "problem: N = 2048, raised to 4096)."),
    ("p82-fi-gelu", "88_MinGPTNewGelu", "bench_p82_fi_gelu.py",
     "KernelBench level 1 problem 88, minGPT's tanh GELU, fp32 x (8192, 8192) normal (the problem: "
     "(2000, 2000), raised)."),
    ("p82-fi-l1norm", "38_L1Norm_", "bench_p82_fi_l1norm.py",
     "KernelBench level 1 problem 38, x / sum(|x|, dim 1), fp32 x (2048, 16384) normal (the "
     "problem: batch 16, raised to 2048)."),
    ("p82-fi-maxred", "49_Max_reduction_over_a_dimension", "bench_p82_fi_maxred.py",
     "KernelBench level 1 problem 49, max over dim 1, fp32 x (64, 1024, 1024) normal, compared "
     "exactly (the problem: (16, 256, 256), raised)."),
    ("p82-fi-diagmm", "12_Matmul_with_diagonal_matrices_", "bench_p82_fi_diagmm.py",
     "KernelBench level 1 problem 12, diag(A) @ B, fp32 A (4096,), B (4096, 4096) normal (the "
     "problem's size)."),
]


def iterations(repo, problem):
    """The log's original_code and its iterations' (index, model_output, evaluation line)."""
    orig, its = None, []
    for line in repo.show(LOGS + problem + "_logs.jsonl", COMMIT).splitlines():
        d = json.loads(line)
        if d["type"] == "original_code":
            orig = d["data"]
        elif d["type"] == "iteration":
            it = d["data"]
            ev = str(it.get("tool_output", ""))
            ev = ev[ev.find("{"):ev.find("}") + 1] if "{" in ev else "?"
            its.append((it["index"], it["model_output"], ev))
    return orig, its


def version(out, fam, src, rel_src, stem, what, cls):
    rel = f"{fam}/{stem}.py"
    text = (TEXT.py_line_header(FI, COMMIT, rel_src, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            + "# KFORECAST entry point (ours): the module built once by the adapter, then called\n"
            + RUN.format(cls=cls))
    setkit.write(os.path.join(out, rel), text)
    return rel


def family(repo, out, fam, problem, adapter, notes):
    ref_path = f"benchmark/level1/{problem}.py"
    ref_src = repo.show(ref_path, COMMIT)
    orig, its = iterations(repo, problem)
    if orig.strip() != ref_src.strip():
        raise SystemExit(f"pub82.py: {fam}: the log's original_code is not {ref_path}")
    if [i for i, _, _ in its] != [1, 2, 3] or len({s for _, s, _ in its}) != 3:
        raise SystemExit(f"pub82.py: {fam}: expected three distinct iterations")
    sol = repo.show(f"benchmark/kernel_agent_solutions/{problem}_solution.py", COMMIT)
    files = [version(out, fam, ref_src, ref_path, "v0_reference",
                     "the KernelBench problem the repository keeps: the torch Model (reference)", "Model")]
    said = [f"v0_reference ({ref_path})"]
    for i, src, ev in its:
        if '"correctness": true' not in ev:
            raise SystemExit(f"pub82.py: {fam}: iteration {i} did not pass the agent's check")
        stem = f"v{i}_iter{i}" + ("_solution" if src.strip() == sol.strip() else "")
        what = (f"the kernel agent's iteration {i} (codegen model o1): the model_output string of "
                f"iteration {i} in this log, CUDA in load_inline strings"
                + ("; the same text as the kept solution file" if stem.endswith("_solution") else ""))
        files.append(version(out, fam, src, LOGS + problem + "_logs.jsonl", stem, what, "ModelNew"))
        said.append(f"{stem} (iteration {i}, passed the agent's own check)")
    if not files[-1].endswith("_solution.py"):
        raise SystemExit(f"pub82.py: {fam}: the last iteration is not the kept solution")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=f"{FI}@{COMMIT[:12]}",
                 style="torch-extension",
                 notes=notes + " Versions, in the order used: " + "; ".join(said) + ".")
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in entry["files"]]
    if UNMEASURED:
        entry["notes"] += (f" NVIDIA H200 call of {MEASURED_DAY}: every version built and passed its "
                           "check (its own kernels ran); the call's time ran out while the families "
                           "were timed (not yet measured).")
    elif MEASURED_DAY:
        entry["notes"] += (f" NVIDIA H200 measurement of {MEASURED_DAY}, failing: " + "; ".join(bad)
                           + "; every other version passed." if bad else
                           f" NVIDIA H200 measurement of {MEASURED_DAY}: every version passed.")
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public82",
                               more=lambda ap: ap.add_argument("--dry-run", action="store_true",
                                                               help="build, then compile every "
                                                               "version and adapter (no GPU)"))
    setkit.clear_set(args.out)
    repo = setkit.Repo(args.mirror, FI)
    if not repo.has(COMMIT, LOGS):
        raise SystemExit(f"pub82.py: the local copy of {FI} lacks commit {COMMIT[:12]}")
    fams = [family(repo, args.out, *f) for f in FAMILIES]
    setkit.write(os.path.join(args.out, "_p82fi.py"), TEXT.adapter("_p82fi.py"))
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))
    if args.dry_run:
        paths = [os.path.join(args.out, r) for f in fams for r in f["files"]]
        paths += [os.path.join(args.out, f["family"], "bench.py") for f in fams]
        for q in paths + [os.path.join(args.out, "_p82fi.py")]:
            with open(q, encoding="utf-8") as fh:
                compile(fh.read(), q, "exec")
        print("dry run: every version and adapter compiles")


if __name__ == "__main__":
    main()
