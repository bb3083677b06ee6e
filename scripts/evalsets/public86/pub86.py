"""Builds public evaluation set 86 ("p86-" families, split "public86", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public86/pub86.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public86

Source (fetched with the session's `fetch` tool first), CUDA C++ built with load_inline:
- SSnTi1111/KernelBench_main: a KernelBench fork holding an LLM agent loop ("mini_version":
  planner, coder and ncu-driven rounds) that writes a CUDA kernel plus an ATen host wrapper
  `kb_<problem>_wrapper` for each KernelBench level 1 problem and improves it round by round.
  Its run of 8-9 November (test_mini_version/useful/<run>/kb_level1_optimization_results/
  <problem>/<problem>_optimization_history.json) keeps every round: its goal, status, the time the
  agent measured, and the round's whole CUDA source (`code`). The agent compiled each source with
  load_inline (cpp_sources = the wrapper's prototype, functions = [the wrapper], -O3) and checked
  it against the torch Model before timing it. A family is one problem: the problem's torch
  `Model` (KernelBench/level1/had_down/<problem>.py, or KernelBench/level1/<problem>.py) and the
  agent's kept ladder: round 0 (baseline) and every round whose status is "Success (New Best)"
  (the round the agent kept as its new best), in round order (chosen by status, never by our
  measurement). Problems: level 1 #24 LogSoftmax (six rounds) and #90 cumprod (six rounds).

A candidate version is a Python program: the round's CUDA source verbatim in a string, plus a
KFORECAST part that builds it as the agent's framework did (load_inline with the wrapper's
prototype as cpp_sources, extra_cflags/extra_cuda_cflags -O3) and a `kf_run(*inputs)` entry point
calling the wrapper with the problem's forward and init arguments. The reference version is the
problem file verbatim plus a KFORECAST `kf_run` calling its Model. Adapters
(`adapters/bench_p86_*.py`, `_p86kb.py`, ours) draw the inputs as get_inputs draws them (torch.rand)
at the family's size, check a candidate's own `__global__` kernels ran (progbuild's
check_own_kernels_run) and compare with the Model in float64. The builder replaces the whole set
folder but `measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public86", "scripts/evalsets/public86/pub86.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public86"

# Versions that failed on the H200 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

SRC = "SSnTi1111/KernelBench_main"
RUN = ("test_mini_version/useful/11\u67088-11\u67089-\u4e0d\u52a0\u4f18\u5316\u539f\u8bed/"
       "kb_level1_optimization_results")

# family, problem, problem file, adapter, forward arguments after x (the problem's init
# inputs, as the agent's wrapper takes them), notes
FAMILIES = [
    ("p86-kb-logsoftmax", "24_LogSoftmax", "KernelBench/level1/had_down/24_LogSoftmax.py",
     "bench_p86_kb_logsoftmax.py", "",
     "KernelBench level 1 problem 24 as this fork sizes it, LogSoftmax over dim 1, fp32 x (256, "
     "393216) uniform [0, 1) (the fork: batch 4096, cut to 256; rows of 393216 kept)."),
    ("p86-kb-cumprod", "90_cumprod", "KernelBench/level1/90_cumprod.py",
     "bench_p86_kb_cumprod.py", ", 1",
     "KernelBench level 1 problem 90 as this fork sizes it, cumprod over dim 1, fp32 x (4096, "
     "32768) uniform [0, 1) (the fork: batch 32768, cut to 4096; rows of 32768 kept)."),
]

REF_RUN = ('\n\n# KFORECAST entry point (ours): the problem\'s Model, built once with get_init_inputs()\n'
           '# on the GPU, in eval mode, called on the family\'s inputs\n'
           '_kf_model = None\n\n\n'
           'def kf_run(*inputs):\n'
           '    global _kf_model\n'
           '    if _kf_model is None:\n'
           '        _kf_model = Model(*get_init_inputs()).cuda().eval()\n'
           '    with torch.no_grad():\n'
           '        return _kf_model(*inputs)\n')

CAND = '''# The round's CUDA source (kernels + ATen host wrapper), verbatim:
source = r\'\'\'{code}\'\'\'


# KFORECAST build (ours): as the agent's framework built a round (mini_version/cuda_utils.py:
# load_inline with the wrapper's prototype as cpp_sources, functions = [the wrapper], -O3)
import torch  # noqa: E402
from torch.utils.cpp_extension import load_inline  # noqa: E402

cpp_source = "{proto};"
_kf_ext = load_inline(
    name="{name}",
    cpp_sources=cpp_source,
    cuda_sources=source,
    functions=["{wrapper}"],
    extra_cflags=["-O3"],
    extra_cuda_cflags=["-O3"],
)


# KFORECAST entry point (ours): the wrapper called as the agent's harness called it
# (the forward input, then the problem's init inputs)
def kf_run(x):
    return _kf_ext.{wrapper}(x{more})
'''


def history(repo, problem):
    return json.loads(repo.show(f"{RUN}/{problem}/{problem}_optimization_history.json"))


def family(repo, out, fam, problem, pfile, adapter, more, notes):
    files, said = [], []
    rel = f"{fam}/v0_reference.py"
    setkit.write(os.path.join(out, rel),
                 TEXT.py_line_header(repo.name, repo.commit, pfile,
                                     "the KernelBench problem's torch Model (reference)")
                 + "# " + setkit.VERBATIM + "\n\n" + repo.show(pfile).rstrip() + "\n" + REF_RUN)
    files.append(rel)
    said.append(f"v0_reference ({pfile})")
    hpath = f"{RUN}/{problem}/{problem}_optimization_history.json"
    kept = [e for e in history(repo, problem)
            if e["round"] == 0 or e.get("status") == "Success (New Best)"]
    for i, e in enumerate(kept, start=1):
        code = e["code"]
        if "'''" in code or code.rstrip().endswith("\\"):
            raise SystemExit(f"pub86.py: {problem} round {e['round']} cannot sit in r'''...'''")
        m = re.search(r"^\s*(torch::Tensor\s+(kb_\w+_wrapper)\s*\([^)]*\))", code, re.M)
        if not m:
            raise SystemExit(f"pub86.py: {problem} round {e['round']}: no kb_*_wrapper")
        proto = " ".join(m.group(1).split())
        stem = f"v{i}_round{e['round']}"
        what = (f"the agent's round {e['round']} CUDA source for {problem} (status "
                f"{e['status']!r}, goal: {' '.join(str(e.get('goal') or '').split())[:90]})")
        text = (TEXT.py_line_header(repo.name, repo.commit, hpath + f" [round {e['round']}].code", what)
                + "# " + setkit.VERBATIM + "\n\n"
                + CAND.format(code=code, proto=proto, wrapper=m.group(2), more=more,
                              name=f"p86_{problem.lower()}_r{e['round']}"))
        rel = f"{fam}/{stem}.py"
        setkit.write(os.path.join(out, rel), text)
        files.append(rel)
        said.append(f"{stem} (round {e['round']}, {e['status']}; agent's time "
                    f"{e['time_ms']:.2f} ms at the fork's size)")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="torch-extension",
                 notes=notes + " Versions, in the order used: " + "; ".join(said) + ".")
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in entry["files"]]
    entry["notes"] += (f" NVIDIA H200 measurement of {MEASURED_DAY}, failing: " + "; ".join(bad)
                       + "; every other version passed." if bad else
                       f" NVIDIA H200 measurement of {MEASURED_DAY}: every version passed.")
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public86",
                               more=lambda ap: ap.add_argument("--dry-run", action="store_true",
                                                               help="build, then compile every "
                                                               "version and adapter (no GPU)"))
    setkit.clear_set(args.out)
    repo = setkit.Repo(args.mirror, SRC)
    fams = [family(repo, args.out, *f) for f in FAMILIES]
    setkit.write(os.path.join(args.out, "_p86kb.py"), TEXT.adapter("_p86kb.py"))
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))
    if args.dry_run:
        paths = [os.path.join(args.out, r) for f in fams for r in f["files"]]
        paths += [os.path.join(args.out, f["family"], "bench.py") for f in fams]
        for q in paths + [os.path.join(args.out, "_p86kb.py")]:
            with open(q, encoding="utf-8") as fh:
                compile(fh.read(), q, "exec")
        print("dry run: every version and adapter compiles")


if __name__ == "__main__":
    main()
