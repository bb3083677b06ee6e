"""Builds evaluation set public20 ("p20-" families, kept unseen) from local copies of
public repositories no other set uses, outside the repository:

    python3 scripts/evalsets/public20/pub20.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public20

Sources (fetch them first with the session's `fetch` tool):
- SilenceWanna/nl2cuda-kernel-agent: torch-extension `.cu` files (kernels + their pybind
  module, built by `torch.utils.cpp_extension.load`) that LLM agents (the author's own
  skill, codex, gptme, aider) wrote and rewrote for one op; the repository keeps every
  rewrite in its git history (all branches). A version is the op's forward `.cu` file at
  one commit, verbatim; where that commit's `op.py` builds the forward and backward files
  into one module, the backward file of the same commit is vendored under
  `_vendor/nl2cuda/` and named in the family's `companions.json` (the adapter builds the
  two together, as `op.py` does).
- yoenoo/eh_kernelbench: KernelBench-style `ModelNew` modules with CUDA in `load_inline`
  strings, the samples an LLM wrote for two level-1 problems (GELU, hinge loss) in the
  repository's pass@16 run, verbatim (the first four samples by index; the hinge-loss
  family is left out: its reference sample does not compile).
- vesuppi/cuda-tutorial: a row-sum written as CuPy `RawKernel` programs (shared-memory tree,
  warp shuffle) and as a Triton program. A CuPy version is the step's `cuda_kernel.py`
  with the one line that reads `kernel.cu` from its folder replaced by that file's text
  (marked KFORECAST); a Triton version is `triton_kernel.py` verbatim.

Versions are chosen by what the repository says of them (commit messages, file history),
never by speed; see each family's notes. Adapters (adapters/, ours) are copied in as
`<family>/bench.py`, with `_p20common.py` at the set's root. The builder replaces the whole
folder but `measurements/`. Split "public20": report-only, never tuned on, never run
through kforecast by its builder.
"""

import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "public"))

from setkit import Repo, SetText, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SET = SetText("Evaluation set public20", "scripts/evalsets/public20/pub20.py", os.path.join(HERE, "adapters"))
SPLIT = "public20"

NL2 = "SilenceWanna/nl2cuda-kernel-agent"
TUT = "vesuppi/cuda-tutorial"
EHK = "yoenoo/eh_kernelbench"
EHK_COMMIT = "3d3526ea85fc2d8f21fd48b812fe8151e018ff1c"  # "pass@16 eval": results/ (removed from the tree later)

# (family, KernelBench level-1 problem, adapter, notes): versions are the problem's samples 0-3
# (the first four by index, whatever they hold), sample 0 the reference.
EHK_FAMILIES = [
    ("p20-kb-gelu", 88, "bench_p20_kb_gelu.py",
     "KernelBench level 1 problem 88 (MinGPT new GELU, tanh form) as LLM samples wrote it: "
     "ModelNew modules with CUDA in load_inline strings, samples 0-3 of the repository's pass@16 "
     "run (the first four by index), sample 0 the reference; x 8192x8192 (the samples' own size)."),
    ("p20-kb-hinge", 100, "bench_p20_kb_hinge.py",
     "KernelBench level 1 problem 100 (hinge loss, mean(clamp(1 - p*t, 0))) as LLM samples wrote "
     "it: ModelNew modules with CUDA in load_inline strings, samples 0-3 (the first four by index), "
     "sample 0 the reference; predictions and +-1 targets as 1-D tensors of 2^25 elements (the "
     "problem's own 128 rows are far too small for an H100; 1-D keeps the op elementwise, as every "
     "sample computes it)."),
]

# (family, forward file, backward file, adapter, notes, [(commit, built with the backward file?)])
# The reference (first) is the case's first version in the repository's history.
NL2_FAMILIES = [
    ("p20-rbf-fwd", "cases/rbf/kernels/rbf_forward.cu", "cases/rbf/kernels/rbf_backward.cu",
     "bench_p20_rbf.py",
     "RBF (Gaussian) kernel matrix K = exp(-gamma*|x_i - y_j|^2), X, Y 4096x64 (the case's large "
     "shape, RBF_SIZE=4096): the author's forward optimisation rounds on main, in order: naive "
     "(153b9b0), shared-memory tiling (6825853), tiling + thread coarsening (0d74758), float4 "
     "(90f3167), minimal no-shared 'L2' variant (4eac0d9). Later commits (an __expf switch "
     "experiment, its cleanup, and the agents' rewrites that bind the backward too) are not taken, "
     "to keep five versions. Each file is its own extension module, as op.py built it.",
     [("153b9b0", False), ("6825853", False), ("0d74758", False), ("90f3167", False), ("4eac0d9", False)]),
    ("p20-layernorm-fwd", "cases/layernorm/kernels/layernorm_forward.cu",
     "cases/layernorm/kernels/layernorm_backward.cu", "bench_p20_layernorm.py",
     "LayerNorm forward, x 16384x1024 (the case's D=1024, rows raised from 4096 with its LN_B knob): "
     "the case's first version (3161fca, built alone), then the rewrites that op.py builds with the "
     "backward file: kt (7b6cf0c), codex (8bdccf7), codex optimised (78ee20a), the last one on the "
     "gptme line (b972afc, after its float4 commit). Not taken: c4edefa (its own commit says it has "
     "a block_reduce bug), c681977/a3575cf (intermediate steps of the gptme line), dbafdf9 (same "
     "forward text as b972afc).",
     [("3161fca", False), ("7b6cf0c", True), ("8bdccf7", True), ("78ee20a", True), ("b972afc", True)]),
    ("p20-softmax-ce-fwd", "cases/softmax_ce/kernels/softmax_ce_forward.cu",
     "cases/softmax_ce/kernels/softmax_ce_backward.cu", "bench_p20_softmax_ce.py",
     "Softmax cross-entropy forward (mean loss), logits 16384x1024 (the case's C=1024, rows "
     "raised from 8192 with its SMCE_B knob), int64 labels: every version in the history except "
     "0691ecf (the next commit, d1681e6, says it did not compile and fixes it): first version "
     "(686c8f1), c629d09, codex (61f8725), gptme fixed (d1681e6), codex rewrite (684aeff, built "
     "with the backward; called through softmax_ce_forward_only, the no-grad path its op.py "
     "takes), gptme clean-room rewrite (fca795f, built with the backward).",
     [("686c8f1", False), ("c629d09", False), ("61f8725", False), ("d1681e6", False),
      ("684aeff", True), ("fca795f", True)]),
    ("p20-rmsnorm-fwd", "cases/rmsnorm/kernels/rmsnorm_forward.cu",
     "cases/rmsnorm/kernels/rmsnorm_backward.cu", "bench_p20_rmsnorm.py",
     "RMSNorm forward, x 16384x1024 (the case's D=1024, rows raised from 4096 with its RMS_B "
     "knob): the five rewrites of the case (it was deleted and regenerated several times), each "
     "built with the backward file of its commit as op.py does: e9133fe, e367ddd, 3a794ec, "
     "9c17062, eb25fff. Not taken: dac6665 (the next commit, 3a794ec, says it failed to link: "
     "duplicate module entry).",
     [("e9133fe", True), ("e367ddd", True), ("3a794ec", True), ("9c17062", True), ("eb25fff", True)]),
]

TUT_ROWSUM = [
    # (version file, what, kind, source paths with commits)
    ("v1_rowsum_smem_tree_cupy.py", "02-row-reduction: CuPy RawKernel, shared-memory tree",
     "cupy", ("64eac50", "02-row-reduction/cuda_kernel.py"), ("HEAD", "02-row-reduction/kernel.cu")),
    ("v2_rowsum_warp_shuffle_cupy.py", "03-row-reduction-warp-shuffle: CuPy RawKernel, warp shuffles",
     "cupy", ("HEAD", "03-row-reduction-warp-shuffle/cuda_kernel.py"),
     ("HEAD", "03-row-reduction-warp-shuffle/kernel.cu")),
    ("v3_rowsum_triton.py", "02-row-reduction: Triton, one program per row (03's is the same text)",
     "triton", ("HEAD", "02-row-reduction/triton_kernel.py"), None),
]

# Versions that did not build on the H100 run of 2026-11-27 (torch 2.11, nvcc 13): left out of
# the set, each with the build's own error (measurements/h100-2026-11-27-pub20.log). A family
# whose reference is left out is left out whole.
DROPPED = {
    "p20-rmsnorm-fwd/v5_eb25fffc.cu": "its backward file uses C10_CUDA_KERNEL_LAUNCH_CHECK without the header "
    "(the repository's next commit, 2bb7f45, adds it): does not compile",
    "p20-kb-gelu/v2_sample1.py": "NameError: name 'gelu_source' is not defined (the sample never defines it)",
    "p20-kb-gelu/v4_sample3.py": "its CUDA string does not compile (error: expected a \";\")",
    "p20-kb-hinge/v1_sample0.py": "its CUDA string does not compile (namespace at::cuda has no member "
    "getCurrentCUDAStream: no CUDAContext.h include); the reference, so the family is left out",
}


def dropped_note(family, files):
    gone = [f"{f.split('/', 1)[1]} ({why})" for f, why in DROPPED.items() if f.startswith(family + "/")]
    return (" Left out after the H100 run of 2026-11-27, as they did not build: " + "; ".join(gone) + "."
            if gone else "")


def keep(fam):
    """families.json entry less its dropped versions, or None when its reference is dropped."""
    if fam["files"][0] in DROPPED:
        return None
    fam["files"] = [f for f in fam["files"] if f not in DROPPED]
    fam["notes"] += dropped_note(fam["family"], fam["files"])
    return fam


READ_KERNEL = "open(os.path.dirname(__file__)+'/kernel.cu').read()"


def nl2_families(repo, out):
    fams, sources = [], {}
    for family, fwd, bwd, adapter, notes, versions in NL2_FAMILIES:
        files, companions, srcs = [], {}, []
        for i, (short, together) in enumerate(versions, 1):
            commit = repo.git("rev-parse", short).strip()
            subject = repo.git("log", "-1", "--format=%s", commit).strip()
            name = f"v{i}_{commit[:8]}.cu"
            what = f"Version {i} of {family}: the forward file at commit {commit[:12]} ({subject})."
            note = ("Code below is the source's, verbatim. Built with torch.utils.cpp_extension.load"
                    + (" together with the backward file of the same commit (vendored), as its op.py does."
                       if together else " alone, as its op.py does."))
            text = SET.header(repo, [f"{fwd} @ {commit}"], what, note=note) + repo.show(fwd, commit)
            write(os.path.join(out, family, name), text)
            rel = f"{family}/{name}"
            files.append(rel)
            entry = {"file": rel, "commit": commit, "path": fwd, "subject": subject}
            if together:
                comp = f"_vendor/nl2cuda/{family}/v{i}_{commit[:8]}.backward.cu"
                ctext = SET.header(repo, [f"{bwd} @ {commit}"],
                                   f"The backward file that {family}/{name} is built with (not a version).") \
                    + repo.show(bwd, commit)
                write(os.path.join(out, comp), ctext)
                companions[name] = comp
                entry["companion"] = {"file": comp, "path": bwd}
            else:
                companions[name] = None
            srcs.append(entry)
        write(os.path.join(out, family, "companions.json"), json.dumps(companions, indent=1) + "\n")
        write(os.path.join(out, family, "bench.py"), SET.adapter(adapter))
        fams.append({"family": family, "files": files, "split": SPLIT,
                     "source": f"{repo.at()} {fwd} (versions from the git history, all branches)",
                     "style": "torch-extension-load", "notes": notes})
        sources[family] = {"repo": repo.name, "head": repo.commit, "versions": srcs}
    return fams, sources


def tutorial_family(repo, out):
    family = "p20-rowsum"
    files, srcs = [], []
    for name, what, kind, prog, kernel in TUT_ROWSUM:
        pc = repo.commit if prog[0] == "HEAD" else repo.git("rev-parse", prog[0]).strip()
        text = repo.show(prog[1], pc)
        paths = [f"{prog[1]} @ {pc}"]
        if kind == "cupy":
            kc = repo.commit if kernel[0] == "HEAD" else repo.git("rev-parse", kernel[0]).strip()
            if text.count(READ_KERNEL) != 1:
                raise SystemExit(f"pub20.py: {prog[1]} no longer reads kernel.cu as expected; update the builder")
            ktext = repo.show(kernel[1], kc)
            if "'''" in ktext:
                raise SystemExit(f"pub20.py: {kernel[1]} holds ''' ; update the builder")
            text = text.replace(READ_KERNEL, "r'''" + ktext + "'''")
            paths.append(f"{kernel[1]} @ {kc}")
            note = (f"KFORECAST: the one change is `{READ_KERNEL}` -> the text of kernel.cu of the same\n"
                    "# folder, inlined as a raw string.")
            if name.startswith("v1_"):
                note += ("\n# KFORECAST: 02-row-reduction/cuda_kernel.py was removed from the tree later; this is\n"
                         "# the copy of its commit (the launcher the step's main.py imports).")
        else:
            note = "Code below is the source's, verbatim."
        hdr = SET.built_by("#") + f"\n# {repo.name} at commit {repo.commit}:\n" \
            + "".join(f"#   {p}\n" for p in paths) + f"# {what}\n# {note}\n"
        write(os.path.join(out, family, name), hdr + text)
        files.append(f"{family}/{name}")
        srcs.append({"file": f"{family}/{name}", "paths": paths, "kind": kind})
    write(os.path.join(out, family, "bench.py"), SET.adapter("bench_p20_rowsum.py"))
    fam = {"family": family, "files": files, "split": SPLIT,
           "source": f"{repo.at()} 02-row-reduction, 03-row-reduction-warp-shuffle",
           "style": "cupy+triton",
           "notes": "Row sums of a 102400x2047 float32 matrix (the tutorial's own first size): CuPy "
                    "RawKernel shared-memory tree (the reference), CuPy RawKernel warp shuffles, Triton "
                    "one-program-per-row. The warp-shuffle kernel.cu had an earlier commit (39a5989) "
                    "that differs only in comments: not taken."}
    return [fam], {family: {"repo": repo.name, "head": repo.commit, "versions": srcs}}


def ehk_families(repo, out):
    fams, sources = [], {}
    for family, problem, adapter, notes in EHK_FAMILIES:
        files, srcs = [], []
        for sample in range(4):
            path = f"results/level_1_problem_{problem}_sample_{sample}_kernel.py"
            name = f"v{sample + 1}_sample{sample}.py"
            what = f"Sample {sample} of KernelBench level-1 problem {problem} (an LLM's ModelNew module)."
            hdr = SET.built_by("#") + f"\n# {repo.name} at commit {EHK_COMMIT}:\n#   {path}\n# {what}\n" \
                + "# Code below is the source's, verbatim.\n"
            write(os.path.join(out, family, name), hdr + repo.show(path, EHK_COMMIT))
            files.append(f"{family}/{name}")
            srcs.append({"file": f"{family}/{name}", "commit": EHK_COMMIT, "path": path})
        write(os.path.join(out, family, "bench.py"), SET.adapter(adapter))
        fams.append({"family": family, "files": files, "split": SPLIT,
                     "source": f"{repo.name}@{EHK_COMMIT[:12]} results/level_1_problem_{problem}_sample_*",
                     "style": "kernelbench-load_inline", "notes": notes})
        sources[family] = {"repo": repo.name, "head": repo.commit, "versions": srcs}
    return fams, sources


def main():
    args = builder_args(__doc__, "/work/main/target/evalsets/public20")
    nl2 = Repo(args.mirror, NL2)
    tut = Repo(args.mirror, TUT)
    ehk = Repo(args.mirror, EHK)
    clear_set(args.out)
    families, sources = [], {}
    for fams, srcs in (nl2_families(nl2, args.out), tutorial_family(tut, args.out), ehk_families(ehk, args.out)):
        for fam in fams:
            kept = keep(fam)
            name = fam["family"]
            for v in srcs[name]["versions"]:
                if v["file"] in DROPPED:
                    v["dropped"] = DROPPED[v["file"]]
                    os.remove(os.path.join(args.out, v["file"]))
                    if "companion" in v:
                        os.remove(os.path.join(args.out, v["companion"]["file"]))
                        cj = os.path.join(args.out, name, "companions.json")
                        with open(cj, encoding="utf-8") as f:
                            comps = json.load(f)
                        comps.pop(os.path.basename(v["file"]), None)
                        write(cj, json.dumps(comps, indent=1) + "\n")
            if kept is None:
                shutil.rmtree(os.path.join(args.out, name))
                shutil.rmtree(os.path.join(args.out, "_vendor", "nl2cuda", name), ignore_errors=True)
                print(f"pub20.py: {name} left out: {DROPPED[fam['files'][0]]}")
                continue
            families.append(kept)
            sources[name] = srcs[name]
    write(os.path.join(args.out, "_p20common.py"), SET.adapter("_p20common.py"))
    write_index(args.out, families, sources)
    n_files, n_pairs = pair_counts(families)
    print(f"pub20.py: {len(families)} families, {n_files} programs, {n_pairs} ordered pairs -> {args.out}")


if __name__ == "__main__":
    main()
