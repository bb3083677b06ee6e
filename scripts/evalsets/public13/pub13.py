#!/usr/bin/env python3
"""Builds public set 13 ("p13-" families, split "public13"): Python programs by other
authors (KernelBench-style `ModelNew` Triton modules written outside KernelBench, an
OpenEvolve run's evolved programs, LLM-written Triton translations of TSVC loops), written
outside the repository from local copies made with the session's `fetch` tool:

    python3 scripts/evalsets/public13/pub13.py --mirror /work/.mirror \\
        --out /work/main/target/evalsets/public13

Sources: adityakotha03/tritonLLM, DeepLink-org/DLBlas (two commits of its
add-kernelbench-triton branch: the OpenEvolve output was later removed) and
qinx18/triton_performance_analysis (a commit before its benchmark folder was moved).
A version is the source's Python module verbatim under a provenance header (an OpenEvolve
program is the `code` field of its program JSON, verbatim). The adapters
(adapters/bench_*.py, p13common.py) are kforecast's own code. The folder is this
builder's alone: it is cleared (measurements/ kept) and families.json / SOURCES.json are
written whole.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

from setkit import Repo, SetText, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

TEXT = SetText("Evaluation set public13", "scripts/evalsets/public13/pub13.py", os.path.join(HERE, "adapters"))
SPLIT = "public13"

DLBLAS_BEST = "02404f6173833c4fe6d1632eb712440e24678644"  # add-kernelbench-triton: best programs
DLBLAS_EVOLVE = "332dc88d19c81ac3f7147a52ed06402320d647c0"  # the same branch: KLDivLoss run's programs
QINX = "8a3d465717d667bdd51263ad742d16e9f59e0217"  # llm_tritonization_benchmark/ with test9..test29
EVOLVE_DIR = "dlblas/kernels/openEvolveOutput/level1_98_KLDivLoss/triton_kernel_evolution/programs"
TSVC_TESTS = range(9, 30)
TSVC_VERSIONS = 4  # attempts besides the baseline, from the first test runs in number order


def verbatim(repo, path, commit=None, what="The source's Python module, verbatim."):
    commit = commit or repo.commit
    text = repo.show(path, commit)
    if not text.strip():
        raise SystemExit(f"pub13.py: {repo.name}@{commit}:{path} is empty")
    return TEXT.py_line_header(repo.name, commit, path, what) + "\n" + text


def kb_family(fam, tl, dl, files, dl_best, op, notes):
    """A KernelBench-style family: tritonLLM's model outputs (reference first) and DLBlas's
    OpenEvolve best program for the same problem."""
    versions = [(name, verbatim(tl, path)) for name, path in files]
    versions.append(("openevolve_best.py", verbatim(dl, dl_best, DLBLAS_BEST)))
    srcs = [tl.ref(p) for _, p in files] + [f"{dl.name}@{DLBLAS_BEST[:12]}:{dl_best}"]
    return dict(family=fam, versions=versions, style="kernelbench-triton", op=op,
                source=f"{tl.name}@{tl.commit[:12]} (output/) and {dl.name}@{DLBLAS_BEST[:12]} (openEvolveOutput)",
                notes=notes, sources=srcs)


def evolve_family(dl):
    """DLBlas's OpenEvolve run on KernelBench level1 98 (KLDivLoss): the initial program
    (torch, generation 0) first, then the evolved programs the run's own evaluation marks
    correct, in the order the run found them (iteration, generation, id), the first five."""
    paths = [p for p in dl.git("ls-tree", "-r", "--name-only", DLBLAS_EVOLVE, EVOLVE_DIR).split() if p.endswith(".json")]
    progs = []
    for p in paths:
        d = json.loads(dl.show(p, DLBLAS_EVOLVE))
        progs.append((d.get("iteration_found", 0), d.get("generation", 0), d["id"], p, d))
    progs.sort(key=lambda t: (t[0], t[1], t[2]))
    ref = [t for t in progs if t[1] == 0]
    evolved = [t for t in progs if t[1] > 0 and t[4].get("metrics", {}).get("correctness") is True][:5]
    if len(ref) != 1 or len(evolved) < 3:
        raise SystemExit("pub13.py: the KLDivLoss OpenEvolve programs changed upstream; update the builder")
    versions, srcs = [], []
    for i, (it, gen, pid, p, d) in enumerate(ref + evolved):
        what = (f"The `code` field of this OpenEvolve program JSON (id {pid}, generation {gen}, "
                f"iteration {it}), verbatim.")
        name = "initial_torch.py" if gen == 0 else f"evolved_it{it:02d}_{pid[:8]}.py"
        versions.append((name, TEXT.py_line_header(dl.name, DLBLAS_EVOLVE, p, what) + "\n" + d["code"]))
        srcs.append(f"{dl.name}@{DLBLAS_EVOLVE[:12]}:{p}")
    return dict(family="p13-evolve-kldiv", versions=versions, style="openevolve-kernelbench-triton", op="kl_div",
                source=f"{dl.name}@{DLBLAS_EVOLVE[:12]} ({EVOLVE_DIR})",
                notes=("KernelBench level1 98 (KLDivLoss, batchmean) as an OpenEvolve run evolved it: the initial "
                       "torch program, then the evolved Triton programs the run's own evaluation marked correct, "
                       "first five in the order found. Inputs 4096x8192 softmax rows (the source's 128x4096 "
                       "scaled up). Output a scalar."), sources=srcs)


def tsvc_family(q, kernel, op, notes):
    """qinx18's LLM tritonization of one TSVC loop: the repository's torch baseline first,
    then the final attempt of each test run (test9, test10, ...), identical texts skipped."""
    files = q.git("ls-tree", "-r", "--name-only", QINX, "llm_tritonization_benchmark").split()
    base = f"llm_tritonization_benchmark/baselines/{kernel}_baseline.py"
    versions = [("baseline_torch.py", verbatim(q, base, QINX))]
    srcs = [f"{q.name}@{QINX[:12]}:{base}"]
    seen = set()
    for t in TSVC_TESTS:
        pat = re.compile(rf"llm_tritonization_benchmark/test{t}/llm_triton/{kernel}/attempt(\d+)\.py$")
        att = sorted((int(m[1]), f) for f in files for m in [pat.match(f)] if m)
        if not att:
            continue
        n, path = att[-1]
        text = q.show(path, QINX)
        key = re.sub(r"\s+", "", text)
        if key in seen:
            continue
        seen.add(key)
        versions.append((f"test{t}_attempt{n}.py", verbatim(q, path, QINX)))
        srcs.append(f"{q.name}@{QINX[:12]}:{path}")
        if len(versions) > TSVC_VERSIONS:
            break
    return dict(family=f"p13-tsvc-{kernel}", versions=versions, style="tsvc-llm-triton", op=op,
                source=f"{q.name}@{QINX[:12]} (llm_tritonization_benchmark)", notes=notes, sources=srcs)


def main():
    args = builder_args(__doc__, "/work/main/target/evalsets/public13")
    tl = Repo(args.mirror, "adityakotha03/tritonLLM")
    dl = Repo(args.mirror, "DeepLink-org/DLBlas")
    q = Repo(args.mirror, "qinx18/triton_performance_analysis")
    oe = "dlblas/kernels/openEvolveOutput"
    fams = [
        kb_family("p13-kb-softmax", tl, dl, [
            ("gpt5_zeroshot.py", "output/zeroshot/gpt-5/23_Softmax.py"),
            ("gemini25pro_zeroshot.py", "output/zeroshot/gemini-2.5-pro/23_Softmax.py"),
        ], f"{oe}/level1_23_Softmax/best/best_program.py", "softmax",
            "KernelBench level1 23 (row softmax) as ModelNew Triton modules: tritonLLM's gpt-5 zero-shot "
            "output first, gemini-2.5-pro's, then DLBlas's OpenEvolve best program. Input 4096x16384 fp32. "
            "Left out: qwen3_30b's file (empty) and qwen3_4b_finetuned's (inductor code hard-wired to "
            "4096x393216, a 6.4 GB input)."),
        kb_family("p13-kb-layernorm", tl, dl, [
            ("gpt5_zeroshot.py", "output/zeroshot/gpt-5/40_LayerNorm.py"),
            ("gemini25pro_zeroshot.py", "output/zeroshot/gemini-2.5-pro/40_LayerNorm.py"),
            ("qwen3_30b_zeroshot.py", "output/zeroshot/qwen3_30b/level1/40_LayerNorm.py"),
            ("qwen3_4b_ft_zeroshot.py", "output/zeroshot/qwen3_4b_finetuned/level1/40_LayerNorm.py"),
            ("gpt5_search.py", "output/search/openai-gpt-5/40_LayerNorm.py"),
        ], f"{oe}/level1_40_LayerNorm/best/best_program.py", "layer_norm",
            "KernelBench level1 40 (LayerNorm over (64,256,256), batch 16: the problem's own size, 2^26 "
            "elements) as ModelNew Triton modules: tritonLLM's gpt-5 zero-shot output first, gemini-2.5-pro, "
            "qwen3-30b, qwen3-4b-finetuned, gpt-5 with search, then DLBlas's OpenEvolve best program."),
        kb_family("p13-kb-newgelu", tl, dl, [
            ("qwen3_30b_zeroshot.py", "output/zeroshot/qwen3_30b/level1/88_MinGPTNewGelu.py"),
            ("qwen3_4b_ft_zeroshot.py", "output/zeroshot/qwen3_4b_finetuned/level1/88_MinGPTNewGelu.py"),
        ], f"{oe}/level1_88_MinGPTNewGelu/best/best_program.py", "gelu_tanh",
            "KernelBench level1 88 (minGPT's tanh GELU) as ModelNew Triton modules: tritonLLM's qwen3-30b "
            "zero-shot output first, qwen3-4b-finetuned's, then DLBlas's OpenEvolve best program. Input "
            "8192x8192 fp32 (the size qwen3-4b's inductor code is wired to)."),
        evolve_family(dl),
        tsvc_family(q, "s000", "add_scalar",
                    "TSVC s000 (a[i] = b[i] + 1) in Triton as an LLM pipeline wrote it in successive test runs "
                    "(final attempt of each run), the repository's torch baseline first. 1-D arrays of 2^24 "
                    "floats; the output is a (written in place)."),
        tsvc_family(q, "s1115", "transpose_fma",
                    "TSVC s1115 (aa[i][j] = aa[i][j]*cc[j][i] + bb[i][j]: a transposed read) in Triton as an LLM "
                    "pipeline wrote it in successive test runs (final attempt of each run), the repository's "
                    "torch baseline first. 4096x4096 floats; the output is aa (updated in place)."),
        tsvc_family(q, "s4112", "gather",
                    "TSVC s4112 (a[i] += b[ip[i]]*s: indirect addressing) in Triton as an LLM pipeline wrote it "
                    "in successive test runs (final attempt of each run), the repository's torch baseline "
                    "first. 1-D arrays of 2^24 floats, random int64 indices; the output is a (updated in place)."),
    ]
    clear_set(args.out)
    write(os.path.join(args.out, "p13common.py"), TEXT.adapter("p13common.py"))
    families, sources = [], {}
    for f in fams:
        fam = f["family"]
        files = []
        for name, text in f["versions"]:
            write(os.path.join(args.out, fam, name), text)
            files.append(f"{fam}/{name}")
        adapter = "bench_" + fam.replace("-", "_") + ".py"
        write(os.path.join(args.out, fam, "bench.py"), TEXT.adapter(adapter))
        families.append(dict(family=fam, files=files, split=SPLIT, source=f["source"], style=f["style"],
                             notes=f["notes"] + f" Op: {f['op']}."))
        sources[fam] = dict(op=f["op"], files=dict(zip(files, f["sources"])))
    write_index(args.out, families, sources)
    progs, pairs = pair_counts(families)
    print(f"pub13.py: {len(families)} families, {progs} programs, {pairs} ordered pairs -> {args.out}")


if __name__ == "__main__":
    main()
