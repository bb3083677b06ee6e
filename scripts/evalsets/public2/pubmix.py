#!/usr/bin/env python3
"""Builds the "pubmix" families ("pm-") of evaluation set public2 (issue 20, 1(b), unseen).

    pubmix.py --mirror /work/.mirror --out /work/main/target/evalsets/public2

Sources (local copies, never part of kforecast's repository):
- xlite-dev/LeetCUDA, a bare clone made with the session's `fetch` tool at
  MIRROR/xlite-dev+LeetCUDA/repo. Its `kernels/<op>/<op>.cu` files are torch extensions
  holding every variant of one op (f32, f32x4, f16, f16x2, f16x8, f16x8 pack, ...), each
  variant a kernel plus a binding function (or binding-macro instantiation) and an `m.def`.
  A version is the file cut to one variant (pm_cut.cut_leetcuda): the source's prelude,
  that kernel and its binding verbatim. The adapter builds it with
  torch.utils.cpp_extension.load and the flags of the source's own `<op>.py`.
- triton-lang/triton's python/tutorials. The repository is past the fetch tool's size
  limit, so the three tutorials were saved from the code-search tool's stored copies to
  MIRROR/triton-lang+triton/files/<commit>/python/tutorials/<file> (the text up to and
  including the tutorial's first test cell). A version is the tutorial's module up to its
  test cell (the kernel and its launcher); the torch programs the tutorials compare with
  are written here, marked as ours, quoting the tutorial's torch code.
Every family's reference (first file) is the source's baseline. Split "public2".
Only `pm-` entries of families.json / SOURCES.json are replaced (read-modify-write): the
folder is shared with the other builders of the set.
"""

import ast
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from pm_cut import TEXT, cut_leetcuda, cut_tutorial, leetcuda_header, ours_py, py_header  # noqa: E402

sys.path.insert(0, os.path.join(HERE, "..", "public"))
from setkit import Repo, builder_args, clear_prefix, merge_index, pair_counts, write  # noqa: E402

PREFIX = "pm-"
SPLIT = "public2"
LEETCUDA = "xlite-dev/LeetCUDA"
TRITON = "triton-lang/triton"
TUTORIALS = {  # file -> commit of the stored copy it was saved from
    "01-vector-add.py": "545699290b851e70231ee3017481851170f1583d",
    "02-fused-softmax.py": "fd237c7cf9a7262f32fedbaa5027ab2736ead134",
    "05-layer-norm.py": "545699290b851e70231ee3017481851170f1583d",
}


def tutorial(mirror, name):
    path = os.path.join(mirror, TRITON.replace("/", "+"), "files", TUTORIALS[name], "python", "tutorials", name)
    if not os.path.exists(path):
        raise SystemExit(f"pubmix: no local copy of {TRITON}:python/tutorials/{name} at {path}")
    with open(path, encoding="utf-8") as f:
        return f.read()


adapter = TEXT.adapter


# LeetCUDA families: (family, source file, adapter, notes, versions); a version is
# (kernel, op, binding-macro instantiation or None). The versions are the source's
# variants in its own order, the first its scalar f32 baseline.
def _macro(op, macro, tags):
    return [(f"{op}_{t}_kernel", f"{op}_{t}", (macro, f"{t},")) for t in tags]


def _fn(op, tags, kernel_suffix="_kernel"):
    return [(f"{op}_{t}{kernel_suffix}", f"{op}_{t}", None) for t in tags]


LEET_FAMILIES = [
    ("pm-leetcuda-elementwise-add", "kernels/elementwise/elementwise.cu", "pm_bench_leet_add.py",
     "Elementwise c = a + b, 4096 x 4096 (the source's largest S x K), all six variants of the source: "
     "f32, f32x4 (float4), f16, f16x2 (half2), f16x8 (four half2), f16x8_pack (128-bit loads). The f16 "
     "versions read the same values stored as half (the inputs are drawn as half and widened for f32).",
     _macro("elementwise_add", "TORCH_BINDING_ELEM_ADD", ["f32", "f32x4", "f16", "f16x2", "f16x8", "f16x8_pack"])),
    ("pm-leetcuda-sigmoid", "kernels/sigmoid/sigmoid.cu", "pm_bench_leet_sigmoid.py",
     "Sigmoid with the source's clamping, 4096 x 4096, all six variants (f32, f32x4, f16, f16x2, f16x8, "
     "f16x8_pack); half inputs hold the same values as the f32 ones.",
     _macro("sigmoid", "TORCH_BINDING_SIGMOID", ["f32", "f32x4", "f16", "f16x2", "f16x8", "f16x8_pack"])),
    ("pm-leetcuda-softmax", "kernels/softmax/softmax.cu", "pm_bench_leet_softmax.py",
     "Row softmax, one token per block, 16384 x 1024 f32 (1024 is the widest row every f32 variant "
     "supports): the f32 per-token variants in the source's order: plain, x4, safe (max-subtracted), "
     "safe x4, online (one-pass max/denominator). Dropped: online_safe_softmax_f32x4_pack_per_token, "
     "which crashes (illegal memory access on the H100: its block reduce reads shared[local_tid] for 32 "
     "lanes from an array of NUM_THREADS/32 = 8 entries). The f16 variants are left out (another input "
     "type; the f32 ladder is the source's own sequence).",
     _fn("softmax", ["f32_per_token", "f32x4_per_token"])
     + _fn("safe_softmax", ["f32_per_token", "f32x4_per_token"])
     + _fn("online_safe_softmax", ["f32_per_token"])),
    ("pm-leetcuda-layer-norm", "kernels/layer-norm/layer_norm.cu", "pm_bench_leet_layer_norm.py",
     "LayerNorm over rows with scalar g and b (the source's op), 16384 x 1024 (K <= 1024 for the scalar "
     "variants): the first six variants of the source's binding order: f32, f32x4, f16_f16 (half "
     "arithmetic), f16_f32 (float accumulation), f16x2_f16, f16x8_f16.",
     _fn("layer_norm", ["f32", "f32x4", "f16_f16", "f16_f32", "f16x2_f16", "f16x8_f16"])),
    ("pm-leetcuda-rms-norm", "kernels/rms-norm/rms_norm.cu", "pm_bench_leet_rms_norm.py",
     "RMSNorm over rows with scalar g, 16384 x 1024: the first six variants of the source's binding "
     "order: f32, f32x4, f16_f16, f16x2_f16, f16x8_f16, f16x8_pack_f16.",
     _fn("rms_norm", ["f32", "f32x4", "f16_f16", "f16x2_f16", "f16x8_f16", "f16x8_pack_f16"])),
    ("pm-leetcuda-reduce-sum", "kernels/reduce/block_all_reduce.cu", "pm_bench_leet_reduce.py",
     "Sum of all elements of a 4096 x 4096 tensor (block reduce + one atomicAdd per block) with float "
     "accumulation: f32, f32x4, f16, f16x2, f16x8 pack, bf16x8 pack (the variants accumulating in f16/"
     "bf16 are left out: their sum of 2^24 elements is not the same result). The inputs hold the same "
     "values in every type (drawn as bf16 in [0, 1)).",
     [(f"block_all_reduce_sum_{p}_{a}_kernel", f"block_all_reduce_sum_{p}_{a}",
       ("TORCH_BINDING_REDUCE", f"{p}, {a},"))
      for p, a in [("f32", "f32"), ("f32x4", "f32"), ("f16", "f32"), ("f16x2", "f32"), ("f16x8_pack", "f32"),
                   ("bf16x8_pack", "f32")]]),
    ("pm-leetcuda-transpose", "kernels/mat-transpose/mat_transpose.cu", "pm_bench_leet_transpose.py",
     "Matrix transpose, 8192 x 8192 f32 (the source's largest), the source's 1-D-index variants: col2row "
     "(read rows, write columns; the baseline), row2col, and their float4 forms. Dropped: the 2-D-index "
     "variants (diagonal, shared-memory tile, bank-conflict-free tile, merged writes), which do not build: "
     "their binding macro TORCH_BINDING_MAT_TRANSPOSE2D writes the launch as `kernel < < < grid, block >>>` "
     "(split by a formatter) and nvcc rejects it (`expected an expression`). The CuTe variants (another "
     "file, CUTLASS) are left out.",
     _macro("mat_transpose", "TORCH_BINDING_MAT_TRANSPOSE", ["f32_col2row", "f32_row2col", "f32x4_col2row",
                                                            "f32x4_row2col"])),
]

TORCH_ADD = '''import torch


def add(x, y):
    # 01-vector-add.py's torch reference: `output_torch = x + y`
    return x + y
'''

TORCH_SOFTMAX = '''import torch


def softmax(x):
    # 02-fused-softmax.py's benchmark, provider 'torch': `torch.softmax(x, axis=-1)`
    return torch.softmax(x, axis=-1)
'''

TORCH_LAYER_NORM = '''import torch


def layer_norm(x, w_shape, weight, bias, eps):
    # 05-layer-norm.py's benchmark, provider 'torch':
    # `torch.nn.functional.layer_norm(x, w_shape, weight, bias, eps)`
    return torch.nn.functional.layer_norm(x, w_shape, weight, bias, eps)
'''


def naive_softmax_program(src, commit, path):
    """The tutorial's naive_softmax, cut verbatim, with the module's `import torch`."""
    tree = ast.parse(src)
    fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "naive_softmax"), None)
    if fn is None:
        raise SystemExit("pubmix: 02-fused-softmax.py has no naive_softmax; update the builder")
    return (py_header(TRITON, commit, path, "naive_softmax cut verbatim (the tutorial's eager-torch baseline), "
                      "with the module's `import torch`.")
            + "\nimport torch\n\n\n" + ast.get_source_segment(src, fn) + "\n")


def main():
    args = builder_args(__doc__, "target/evalsets/public2", shared=True)
    out = args.out
    clear_prefix(out, PREFIX, "pubmix")  # only our own folders are rebuilt
    write(os.path.join(out, "_vendor", "pubmix", "pm_common.py"), adapter("pm_common.py"))

    lc = Repo(args.mirror, LEETCUDA)
    families, sources = [], {}

    def family(name, files, source, style, notes, bench, src_list):
        for rel, text in files:
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), adapter(bench))
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": SPLIT,
                         "source": source, "style": style, "notes": notes})
        sources[name] = src_list

    for name, path, bench, notes, versions in LEET_FAMILIES:
        src = lc.show(path)
        files = []
        for kernel, op, inv in versions:
            text = cut_leetcuda(src, [kernel], op, inv)
            files.append((f"{op}.cu", leetcuda_header(lc, path, f"Version: kernel {kernel}, torch op {op}.") + text))
        family(name, files, f"{lc.name}@{lc.commit[:12]}:{path}", "torch-extension-load", notes, bench,
               [{"repository": lc.name, "commit": lc.commit, "path": path}])

    tut = {n: tutorial(args.mirror, n) for n in TUTORIALS}

    def tpath(n):
        return f"python/tutorials/{n}"

    def tsrc(n):
        return [{"repository": TRITON, "commit": TUTORIALS[n], "path": tpath(n)}]

    va = "01-vector-add.py"
    family("pm-triton-vector-add",
           [("torch_add.py", ours_py("The tutorial's torch reference, x + y.", TORCH_ADD)),
            ("triton_add.py", py_header(TRITON, TUTORIALS[va], tpath(va),
                                        "The module up to its test cell (kernel and launcher), verbatim.")
             + "\n" + cut_tutorial(tut[va], "# %%\n# We can now use the above function"))],
           f"{TRITON}@{TUTORIALS[va][:12]}:{tpath(va)}", "triton-tutorial",
           "Vector add, float32, 2^26 elements (the tutorial benchmarks 2^12..2^27): torch x + y against the "
           "tutorial's Triton kernel (BLOCK_SIZE 1024). Two versions only: the tutorial compares these two.",
           "pm_bench_tt_add.py", tsrc(va))
    sm = "02-fused-softmax.py"
    family("pm-triton-softmax",
           [("naive_softmax.py", naive_softmax_program(tut[sm], TUTORIALS[sm], tpath(sm))),
            ("torch_softmax.py", ours_py("The tutorial's torch comparison, torch.softmax(x, axis=-1).",
                                         TORCH_SOFTMAX)),
            ("triton_softmax.py", py_header(TRITON, TUTORIALS[sm], tpath(sm),
                                            "The module up to its test cell (kernel and launcher), verbatim.")
             + "\n" + cut_tutorial(tut[sm], "# %%\n# Unit Test"))],
           f"{TRITON}@{TUTORIALS[sm][:12]}:{tpath(sm)}", "triton-tutorial",
           "Row softmax, float32 4096 x 8192 (the tutorial's M = 4096; N within its 256..12672 sweep): the "
           "tutorial's naive_softmax (eager torch, five kernels), torch.softmax, and its persistent fused "
           "Triton kernel (the launcher re-derives occupancy with kernel.warmup on every call, as written).",
           "pm_bench_tt_softmax.py", tsrc(sm))
    ln = "05-layer-norm.py"
    family("pm-triton-layer-norm",
           [("torch_layer_norm.py", ours_py("The tutorial's torch comparison, F.layer_norm.", TORCH_LAYER_NORM)),
            ("triton_layer_norm.py", py_header(TRITON, TUTORIALS[ln], tpath(ln),
                                               "The module up to its test function (forward and backward "
                                               "kernels, the autograd Function), verbatim.")
             + "\n" + cut_tutorial(tut[ln], "def test_layer_norm"))],
           f"{TRITON}@{TUTORIALS[ln][:12]}:{tpath(ln)}", "triton-tutorial",
           "LayerNorm forward, float16 4096 x 8192 (the tutorial's M = 4096 and dtype; N within its sweep), "
           "x = -2.3 + 0.5 randn, weight and bias rand as in the tutorial, eps 1e-5: F.layer_norm against the "
           "tutorial's fused Triton forward. Two versions only (apex is not installed).",
           "pm_bench_tt_layer_norm.py", tsrc(ln))

    merge_index(out, PREFIX, families, sources)
    n_files, n_pairs = pair_counts(families)
    print(f"pubmix: {len(families)} families, {n_files} program files, {n_pairs} ordered pairs -> {out}")
    print(f"  {lc.name} @ {lc.commit}")
    for n, c in TUTORIALS.items():
        print(f"  {TRITON} @ {c}: python/tutorials/{n}")


if __name__ == "__main__":
    sys.exit(main())
