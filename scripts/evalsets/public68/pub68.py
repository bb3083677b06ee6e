"""Builds public evaluation set 68 ("p68-" families, split "public68", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public68/pub68.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public68

Source (fetched with the session's `fetch` tool first), all Triton:
- Alisehen/LLMKernel: an LLM agent loop (DeepSeek) that writes a Triton `ModelNew` for each
  KernelBench problem in stages (a seed, then "stage1_grid_and_parallel", "stage2_block_tiling",
  "stage3_memory_access", "stage4_advanced_memory", each with repair turns), keeping every
  candidate as results/<level>/<problem>/code/kernel_<time>.py and every evaluation as
  results/<level>/<problem>/evaluation/eval_NNNN.json. A family is one problem: the problem's
  torch `Model` (KernelBench/<level>/<problem>.py) and, for each of the five phases, the
  candidate that the run's own evaluation marks runnable in that phase (one a phase in every
  family used), so kernel names, kernel counts, tilings and launch code change between versions.

A version is the file verbatim plus a `kf_run` entry point marked KFORECAST that calls the
module the way the run's evaluator does (Model(*get_init_inputs()) or ModelNew(*the same), the
reference's weights copied into ModelNew by shape, then module(*inputs)); the adapter builds the
module once. Versions are chosen by what the run's evaluation files say of them (phase,
runnable), never by speed. Adapters (`adapters/bench_p68_*.py`, `_p68lk.py`) are ours. The builder
replaces the whole set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public68", "scripts/evalsets/public68/pub68.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public68"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

LK = "Alisehen/LLMKernel"
PHASES = ["seed", "stage1", "stage2", "stage3", "stage4"]

REF_RUN = ("def kf_run(model, *inputs):\n"
           "    # the run's evaluator: model = Model(*get_init_inputs()).cuda(), called on get_inputs()\n"
           "    with torch.no_grad():\n"
           "        return model(*inputs)\n")
NEW_RUN = ("def kf_run(model, *inputs):\n"
           "    # the run's evaluator: model = ModelNew(*get_init_inputs()).cuda(), the reference Model's\n"
           "    # weights copied in by shape (pair_key Model->ModelNew), called on get_inputs()\n"
           "    with torch.no_grad():\n"
           "        return model(*inputs)\n")

# family, problem (level/name), adapter, notes
FAMILIES = [
    ("p68-lk-rmsnorm", "level1/36_RMSNorm_", "bench_p68_lk_rmsnorm.py",
     "KernelBench level 1 problem 36, RMSNorm over dim 1 (features 64, eps 1e-5), fp32 x (8, 64, 512, "
     "512) uniform [0, 1) (the problem: batch 112, cut to 8)."),
    ("p68-lk-minred", "level1/53_Min_reduction_over_a_dimension", "bench_p68_lk_minred.py",
     "KernelBench level 1 problem 53, torch.min over dim 1, fp32 x (8, 4096, 4095) uniform [0, 1) "
     "(the problem: batch 128, cut to 8)."),
    ("p68-lk-gemmgn", "level2/88_Gemm_GroupNorm_Swish_Multiply_Swish", "bench_p68_lk_gemmgn.py",
     "KernelBench level 2 problem 88, Linear(8192, 8192) -> GroupNorm(256 groups) -> Swish -> "
     "* weight -> Swish, fp32 x (1024, 8192) uniform [0, 1) (the problem's size)."),
    ("p68-lk-gemmlse", "level2/22_Matmul_Scale_ResidualAdd_Clamp_LogSumExp_Mish",
     "bench_p68_lk_gemmlse.py",
     "KernelBench level 2 problem 22, Linear(8192, 8192) -> * 2 -> x + x -> clamp(-10, 10) -> "
     "logsumexp over dim 1 -> x * mish(x), fp32 x (1024, 8192) uniform [0, 1) (the problem's size)."),
    ("p68-lk-gptattn", "level3/43_MinGPTCausalAttention", "bench_p68_lk_gptattn.py",
     "KernelBench level 3 problem 43, minGPT causal self-attention (n_embd 768, 8 heads, dropout "
     "0, max_seqlen 1024): c_attn Linear, masked softmax attention, c_proj Linear, fp32 x (16, "
     "512, 768) uniform [0, 1) (the problem: batch 128, cut to 16)."),
]


def runnable_by_phase(repo, problem):
    """{phase prefix: (candidate basename, phase, eval file)} of the run's evaluations marked
    runnable whose candidate is kept in code/; one a phase (the last such evaluation)."""
    evs = [p for p in repo.ls(f"results/{problem}/evaluation") if p.endswith(".json")]
    codes = {os.path.basename(p) for p in repo.ls(f"results/{problem}/code")}
    out = {}
    for e in sorted(evs):
        j = json.loads(repo.show(e))
        c = os.path.basename(j.get("candidate_file", ""))
        if not j.get("runnable") or c not in codes:
            continue
        ph = j.get("phase", "")
        key = ph.split("_")[0]
        out[key] = (c, ph, os.path.basename(e))
    return out


def version(out, fam, repo, path, stem, what, run):
    src = repo.show(path)
    rel = f"{fam}/{stem}.py"
    text = (TEXT.py_line_header(repo.name, repo.commit, path, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            + "# KFORECAST entry point (ours): the module built once by the adapter, called as the "
            "run's evaluator calls it\n" + run)
    setkit.write(os.path.join(out, rel), text)
    return rel


def family(repo, out, fam, problem, adapter, notes):
    files, said = [], []
    ref = f"KernelBench/{problem}.py"
    files.append(version(out, fam, repo, ref, "v0_reference",
                         "the KernelBench problem: the torch Model the run's evaluator times as "
                         "the reference", REF_RUN))
    said.append(f"v0_reference ({ref}: the torch Model)")
    got = runnable_by_phase(repo, problem)
    missing = [p for p in PHASES if p not in got]
    if missing:
        raise SystemExit(f"pub68.py: {problem}: no runnable candidate in phase(s) {missing}")
    for i, p in enumerate(PHASES, 1):
        c, ph, ev = got[p]
        path = f"results/{problem}/code/{c}"
        stem = f"v{i}_{p}"
        files.append(version(out, fam, repo, path, stem,
                             f"the agent's candidate of phase {ph} ({ev}: runnable)", NEW_RUN))
        said.append(f"{stem} ({c}, phase {ph}, {ev})")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton",
                 notes=notes + " Versions, in the order used: " + "; ".join(said) + ".")
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public68",
                               more=lambda ap: ap.add_argument("--dry-run", action="store_true",
                                                               help="build, then import every "
                                                               "adapter (no GPU)"))
    setkit.clear_set(args.out)
    repo = setkit.Repo(args.mirror, LK)
    fams = [family(repo, args.out, f, p, a, n) for f, p, a, n in FAMILIES]
    setkit.write(os.path.join(args.out, "_p68lk.py"), TEXT.adapter("_p68lk.py"))
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))
    if args.dry_run:
        paths = [os.path.join(args.out, r) for f in fams for r in f["files"]]
        paths += [os.path.join(args.out, f["family"], "bench.py") for f in fams]
        for p in paths + [os.path.join(args.out, "_p68lk.py")]:
            with open(p, encoding="utf-8") as fh:
                compile(fh.read(), p, "exec")
        print("dry run: every version and adapter compiles")


if __name__ == "__main__":
    main()
