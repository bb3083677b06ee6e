#!/usr/bin/env python3
"""Builds evaluation set (b7), "p7-" families: one author's CUDA kernels as they evolved
(issue 20, 1(b); report-only, never tuned on).

    cuda100.py --mirror /work/.mirror --out /work/main/target/evalsets/public7

Source: juansensio/CUDA100 (a "100 days of CUDA" log). Every problem folder holds a
standalone CUDA program `main.cu` (kernels, launch helpers, a host `benchmark()` and
`main()`), a torch extension `torch_ext.cu` that `#include "main.cu"` and launches its
kernel on tensors, its binding `torch_ext.cpp`, and `benchmark.py`, which times the
extension against a plain torch function. The author rewrote the kernels commit after
commit; a family is one problem, its versions:
- the reference: benchmark.py's torch function (cut verbatim, the source's baseline);
- one program per commit that changed main.cu / torch_ext.cu / torch_ext.cpp while all
  three existed, oldest first: torch_ext.cu of that commit with its `#include "main.cu"`
  replaced by main.cu of the same commit (the only change, marked), and beside it
  `<version>.bind.cpp`, torch_ext.cpp of that commit verbatim (the binding).
Problems with fewer than two such commits, matrix multiply (002, and 017 which
multiplies matrices) are left out. Nothing of the public code lives in kforecast's
repository: only this builder and the adapters (adapters/, ours) do.
"""

import ast
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))
from setkit import Repo, SetText, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

TEXT = SetText("Evaluation set (b7)", "scripts/evalsets/public7/cuda100.py", os.path.join(HERE, "adapters"))
REPO = "juansensio/CUDA100"
SPLIT = "public7"

# problem folder -> (family, op, torch function in benchmark.py, adapter, notes)
PROBLEMS = [
    ("003_matrix_transpose", "p7-transpose", "torch_matrix_transpose", "bench_transpose.py",
     "Out-of-place float32 transpose, 8192 x 8192 (benchmark.py's largest size): A.T.contiguous() against "
     "the author's successive kernels (16x16 shared tile, then 32x32 tile with 16 block rows, ...)."),
    ("004_color_inversion", "p7-color-inversion", "torch_invert_image", "bench_color_inversion.py",
     "In-place RGBA uint8 colour inversion of a 4096 x 4096 image (benchmark.py's largest): torch slicing "
     "against the author's kernels (one thread per byte, per pixel, 2D blocks). Every version's call includes "
     "one clone of the image (the op works in place; ours, in the adapter)."),
    ("005_matrix_addition", "p7-matrix-add", "torch_matrix_add", "bench_matrix_add.py",
     "float32 N x N matrix addition, N = 8192 (2^26 elements): A + B against the author's kernels."),
    ("006_conv1d", "p7-conv1d", "torch_conv1d", "bench_conv1d.py",
     "1D valid convolution (cross-correlation), float32 signal of 1,500,000, kernel 2048 (benchmark.py's "
     "largest): F.conv1d against the author's kernels."),
    ("007_reverse_array", "p7-reverse-array", "torch_reverse_array", "bench_reverse_array.py",
     "In-place reversal of 100,000,000 floats (benchmark.py's largest): flip against the author's kernels. "
     "Every version's call includes one clone of the input (the op works in place; ours, in the adapter)."),
    ("012_count_array2d_elements", "p7-count-equal-2d", "torch_count_2d_equal_kernel", "bench_count_equal_2d.py",
     "Count of elements equal to k in a 10000 x 10000 int32 matrix (benchmark.py's largest), k = 50: "
     "torch.sum(x == k) against the author's atomicAdd kernels."),
    ("015_reduction", "p7-reduction", "torch_reduction", "bench_reduction.py",
     "float32 sum of 100,000,000 values (benchmark.py's largest): input.sum() against the author's templated "
     "shared-memory reduction kernels (recursive launches until one value)."),
    ("016_softmax", "p7-softmax-1d", "torch_softmax", "bench_softmax_1d.py",
     "Softmax over one float32 vector of 2^24 values (benchmark.py stops at 500,000): F.softmax(dim=0) "
     "against the author's Thrust + kernel version and its multi-kernel rewrite."),
]


def cut_function(src, name):
    tree = ast.parse(src)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return ast.get_source_segment(src, node)
    raise SystemExit(f"cuda100.py: no function {name} in benchmark.py; update the builder")


def reference_program(repo, folder, fname):
    path = f"{folder}/benchmark.py"
    text = repo.show(path)
    return (f"{TEXT.built_by('#')}\n# {repo.name} at commit {repo.commit}: {path}\n"
            f"# KFORECAST: the torch baseline `{fname}` cut verbatim from the benchmark script (the script's\n"
            f"# extension build and timing loop left out); `import torch` is the script's own first import.\n"
            "import torch\n\n\n" + cut_function(text, fname) + "\n")


INCLUDE = '#include "main.cu"'


def ext_program(repo, folder, commit):
    ext = repo.show(f"{folder}/torch_ext.cu", commit)
    main = repo.show(f"{folder}/main.cu", commit)
    if ext.count(INCLUDE) != 1:
        raise SystemExit(f"cuda100.py: {folder}/torch_ext.cu@{commit[:12]} does not include main.cu once")
    inlined = (f"// KFORECAST: {folder}/main.cu of the same commit, inlined where torch_ext.cu includes it\n"
               + main + f"\n// KFORECAST: end of {folder}/main.cu\n")
    hdr = (f"{TEXT.built_by('//')}\n// {repo.name} at commit {commit}: {folder}/torch_ext.cu and {folder}/main.cu\n"
           f"// KFORECAST: the one change is `{INCLUDE}` replaced by that file; the binding is\n"
           f"// {folder}/torch_ext.cpp of the same commit, beside this file (.bind.cpp).\n")
    return hdr + ext.replace(INCLUDE, inlined, 1)


def bind_program(repo, folder, commit):
    return (f"// {repo.name} at commit {commit}: {folder}/torch_ext.cpp, verbatim.\n"
            + repo.show(f"{folder}/torch_ext.cpp", commit))


def main():
    args = builder_args(__doc__, "/work/main/target/evalsets/public7")
    out = args.out
    clear_set(out)
    write(os.path.join(out, "_p7common.py"), TEXT.adapter("_p7common.py"))

    repo = Repo(args.mirror, REPO)
    families, sources = [], {}
    for folder, family, fname, bench, notes in PROBLEMS:
        files = [("torch_reference.py", reference_program(repo, folder, fname))]
        seen, commits = set(), []
        for c in repo.commits([f"{folder}/main.cu", f"{folder}/torch_ext.cu", f"{folder}/torch_ext.cpp"]):
            if not all(repo.has(c, f"{folder}/{n}") for n in ("main.cu", "torch_ext.cu", "torch_ext.cpp")):
                continue
            prog, bind = ext_program(repo, folder, c), bind_program(repo, folder, c)
            key = (repo.show(f"{folder}/main.cu", c), repo.show(f"{folder}/torch_ext.cu", c),
                   repo.show(f"{folder}/torch_ext.cpp", c))
            if key in seen:
                continue
            seen.add(key)
            n = len(commits) + 1
            name = f"ext_v{n}_{c[:8]}"
            files.append((f"{name}.cu", prog))
            files.append((f"{name}.bind.cpp", bind))
            commits.append(c)
        if len(commits) < 2:
            raise SystemExit(f"cuda100.py: {folder} has fewer than two versions upstream now; update the builder")
        for rel, text in files:
            write(os.path.join(out, family, rel), text)
        write(os.path.join(out, family, "bench.py"), TEXT.adapter(bench))
        versions = [f"{family}/{rel}" for rel, _ in files if not rel.endswith(".bind.cpp")]
        families.append({"family": family, "files": versions, "split": SPLIT,
                         "source": f"{repo.name}@{repo.commit[:12]}:{folder}",
                         "style": "torch-extension",
                         "notes": notes + f" Versions: benchmark.py's torch function, then torch_ext.cu + main.cu at "
                                  f"{len(commits)} commits, oldest first ({', '.join(c[:8] for c in commits)})."})
        sources[family] = {"repository": repo.name, "head": repo.commit, "folder": folder,
                           "commits": commits, "reference": f"{folder}/benchmark.py:{fname}@{repo.commit}"}
    write_index(out, families, sources)
    n, pairs = pair_counts(families)
    print(f"cuda100.py: {len(families)} families, {n} program files, {pairs} ordered pairs -> {out}")
    for f in families:
        print(f"  {f['family']}: {len(f['files'])} versions")


if __name__ == "__main__":
    sys.exit(main())
