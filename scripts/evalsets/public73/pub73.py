"""Builds public evaluation set 73 ("p73-" families, split "public73", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public73/pub73.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public73

Source (fetched with the session's `fetch` tool first), CUDA C++ in load_inline strings:
- Rhys-Wang-wannaLearnMath/KernelBench: a KernelBench fork whose preliminary_dataset/cuda_l1/
  <gpu>/<level>/<task>/ holds, for each KernelBench problem and each of five GPUs the CUDA-L1
  model was run for (3090, a100, h100, h20, l40): the problem's torch `Model` (ref.py), the
  LLM's (CUDA-L1's) `ModelNew` candidate for that GPU (optimized.py, CUDA kernels in
  load_inline strings) and two torch baselines of the same problem (baseline_cuda_graph.py:
  the Model's ops captured once in a CUDA graph and replayed; baseline_cudnn.py: the Model under
  torch.backends.cudnn.flags). A family is one problem: ref.py (identical in all five GPU
  folders), the two baselines (identical in all five), then every distinct optimized.py in GPU
  order 3090, a100, h100, h20, l40 (a file equal to an earlier GPU's is kept once; the family
  notes say which GPUs share it). Chosen by content (problems whose candidates are CUDA
  kernels in load_inline strings without a PYBIND11_MODULE of their own), never by speed.

A version is the file verbatim plus a `kf_run(model, *inputs)` entry point marked KFORECAST; the
adapter (`adapters/bench_p73_*.py`, `_p73cl.py`, ours) builds the module's class once (ModelNew,
or Model for the reference and the baselines) with the problem's init arguments, the reference's
weights copied in by shape. The candidates fall back to torch silently when their extension
fails to build or launch; the adapter therefore checks, on one profiled call at build time, that
a kernel named in the file's `__global__` functions ran, and fails the version otherwise.
Adapters are ours. The builder replaces the whole set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public73", "scripts/evalsets/public73/pub73.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public73"

# Versions that failed on the H200 (measurement of MEASURED_DAY): path -> why.
_FB = ("does not build: its load_inline binds the __global__ kernel itself (cpp_sources=\"\", "
       "functions= naming the kernel; 'was not declared in this scope'), hidden by the file's "
       "silent torch fallback; on the profiled check call none of its own kernels ran")
FAILING = {
    "p73-cl-swish/v3_optimized_3090.py": _FB,
    "p73-cl-swish/v4_optimized_h100.py": _FB,
    "p73-cl-relu/v3_optimized_3090.py": _FB,
    "p73-cl-relu/v4_optimized_a100.py": _FB,
    "p73-cl-rmsnorm/v3_optimized_3090.py": _FB,
    "p73-cl-rmsnorm/v4_optimized_a100.py": _FB,
    "p73-cl-convhswish/v3_optimized_3090.py": _FB,
    "p73-cl-convhswish/v4_optimized_a100.py": _FB,
    "p73-cl-convdivlrelu/v3_optimized_3090.py": _FB,
    "p73-cl-convdivlrelu/v4_optimized_h100.py": _FB,
    "p73-cl-convhswish/v1_cuda_graph.py": "wrong output: 61,321,718 of 132,128,768 elements off the "
                                          "float64 reference (rel L2 1.0; zeros where 3.46 is due)",
}
MEASURED_DAY = "2026-11-28"

RW = "Rhys-Wang-wannaLearnMath/KernelBench"
ROOT = "preliminary_dataset/cuda_l1"
GPUS = ["3090", "a100", "h100", "h20", "l40"]

RUN = ("def kf_run(model, *inputs):\n"
       "    # the module built once by the adapter as {cls}(*get_init_inputs()) on the GPU (eval mode),\n"
       "    # the reference Model's weights copied in by shape, called on the family's inputs\n"
       "    with torch.no_grad():\n"
       "        return model(*inputs)\n")

# family, level/task, adapter, notes
FAMILIES = [
    ("p73-cl-swish", "level1/L1_T025_Swish", "bench_p73_cl_swish.py",
     "KernelBench level 1 problem 25, Swish x * sigmoid(x), fp32 x (4096, 16384) normal (the "
     "problem: batch 16, raised to 4096 to fill the GPU)."),
    ("p73-cl-relu", "level1/L1_T019_ReLU", "bench_p73_cl_relu.py",
     "KernelBench level 1 problem 19, ReLU, fp32 x (4096, 16384) normal (the problem: batch 16, "
     "raised to 4096 to fill the GPU)."),
    ("p73-cl-rmsnorm", "level1/L1_T036_RMSNorm", "bench_p73_cl_rmsnorm.py",
     "KernelBench level 1 problem 36, RMSNorm over dim 1 (features 64, eps 1e-5), fp32 x (16, 64, "
     "256, 256) normal (the problem's size)."),
    ("p73-cl-convhswish", "level2/L2_T057_Conv2d_ReLU_HardSwish", "bench_p73_cl_convhswish.py",
     "KernelBench level 2 problem 57, Conv2d(3, 16, 3) -> ReLU -> x * clamp((x + 3) / 6, 0, 1), "
     "fp32 x (128, 3, 256, 256) normal (the problem: 32 x 32 images, raised to 256 x 256)."),
    ("p73-cl-convdivlrelu", "level2/L2_T071_Conv2d_Divide_LeakyReLU", "bench_p73_cl_convdivlrelu.py",
     "KernelBench level 2 problem 71, Conv2d(3, 16, 3) -> / 2 -> LeakyReLU(0.01), fp32 x (128, 3, "
     "256, 256) normal (the problem: 32 x 32 images, raised to 256 x 256)."),
]


def version(out, fam, repo, path, stem, what, cls):
    src = repo.show(path)
    rel = f"{fam}/{stem}.py"
    text = (TEXT.py_line_header(repo.name, repo.commit, path, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            + "# KFORECAST entry point (ours): the module built once by the adapter, then called\n"
            + RUN.format(cls=cls))
    setkit.write(os.path.join(out, rel), text)
    return rel


def family(repo, out, fam, task, adapter, notes):
    def p(gpu, name):
        return f"{ROOT}/{gpu}/{task}/{name}.py"

    for name in ("ref", "baseline_cuda_graph", "baseline_cudnn"):
        texts = {repo.show(p(g, name)) for g in GPUS}
        if len(texts) != 1:
            raise SystemExit(f"pub73.py: {task}/{name}.py differs between GPU folders")
    files, said = [], []
    files.append(version(out, fam, repo, p("h100", "ref"), "v0_reference",
                         "the KernelBench problem as CUDA-L1 ran it: the torch Model (reference)",
                         "Model"))
    said.append("v0_reference (ref.py: the torch Model)")
    files.append(version(out, fam, repo, p("3090", "baseline_cuda_graph"), "v1_cuda_graph",
                         "CUDA-L1's CUDA-graph baseline of the problem (torch Model, graph replay)",
                         "Model"))
    said.append("v1_cuda_graph (baseline_cuda_graph.py, the same in all five GPU folders)")
    files.append(version(out, fam, repo, p("3090", "baseline_cudnn"), "v2_cudnn",
                         "CUDA-L1's cuDNN-flags baseline of the problem (torch Model)", "Model"))
    said.append("v2_cudnn (baseline_cudnn.py, the same in all five GPU folders)")
    seen = {}
    for g in GPUS:
        src = repo.show(p(g, "optimized"))
        if src in seen:
            seen[src].append(g)
            continue
        seen[src] = [g]
    i = 3
    for src, gs in seen.items():
        stem = f"v{i}_optimized_{gs[0]}"
        files.append(version(out, fam, repo, p(gs[0], "optimized"), stem,
                             f"CUDA-L1's ModelNew candidate for the {gs[0]} (CUDA in load_inline strings)",
                             "ModelNew"))
        said.append(f"{stem} (optimized.py of {', '.join(gs)})")
        i += 1
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="torch-extension",
                 notes=notes + " Versions, in the order used: " + "; ".join(said) + ".")
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in entry["files"]]
    entry["notes"] += (f" NVIDIA H200 measurement of {MEASURED_DAY}, failing: " + "; ".join(bad)
                       + "; every other version passed." if bad else
                       f" NVIDIA H200 measurement of {MEASURED_DAY}: every version passed.")
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public73",
                               more=lambda ap: ap.add_argument("--dry-run", action="store_true",
                                                               help="build, then compile every "
                                                               "version and adapter (no GPU)"))
    setkit.clear_set(args.out)
    repo = setkit.Repo(args.mirror, RW)
    fams = [family(repo, args.out, f, t, a, n) for f, t, a, n in FAMILIES]
    setkit.write(os.path.join(args.out, "_p73cl.py"), TEXT.adapter("_p73cl.py"))
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))
    if args.dry_run:
        paths = [os.path.join(args.out, r) for f in fams for r in f["files"]]
        paths += [os.path.join(args.out, f["family"], "bench.py") for f in fams]
        for q in paths + [os.path.join(args.out, "_p73cl.py")]:
            with open(q, encoding="utf-8") as fh:
                compile(fh.read(), q, "exec")
        print("dry run: every version and adapter compiles")


if __name__ == "__main__":
    main()
