#!/usr/bin/env python3
"""Builds public set 11 ("p11-" families): Python programs by other authors, kept unseen.

    pub11.py --mirror /work/.mirror --out /work/main/target/evalsets/public11

Reads local bare copies (made with the session's `fetch` tool: MIRROR/<owner>+<name>/repo)
of repositories no other set uses and writes, OUTSIDE kforecast's repository, a set in the
layout of the evaluation-set contract (scripts/evalsets/README.md): families.json,
SOURCES.json (a dict keyed by family), one folder per family with one program per version
(reference first) and its bench.py adapter (ours), `_p11common.py` (ours), `_task/task.py`
(a stand-in of ours for GPU MODE's task module) and `_vendor/` (a source's own helper module).

Styles and sources:
- KernelBench-style `ModelNew` modules with CUDA in `load_inline`, outside KernelBench:
  j1mk1m/Kernel-Coder's QwQ-32B level-1 samples (the evolrule run, at the head of its
  `code-gen` branch, which holds runs/), the samples its own eval_results.json marks correct (compiled + correct; its
  runtimes are not read), verbatim; the reference is an eager torch `Model` written here
  (ours) with the problem's arithmetic. Sizes: the problem's own where it is 2^26 elements,
  else cut to 2^26 (the notes say so).
- GPU MODE-style `custom_kernel(data)` programs: AjAnubolu/gpumode's pmpp_v2 submissions,
  one version per upstream commit of submission.py (oldest first; texts equal to a kept one
  dropped), verbatim; `from task import` resolves to our stand-in task.py.
- Triton module history: mcpirate17/HYDRA's hydra/kernels/fused_ops.py, one version per
  commit that changed the family's kernel, launcher or wrapper (compared as AST text, so
  comment/formatting-only commits are one program), verbatim.
- A torch extension in load_inline (Lossfunk/Flash-Kernels-v2's softmax) joins the
  KernelBench softmax family; its `from utils.utils import` resolves to that repository's
  utils/utils.py vendored verbatim under _vendor/lossfunk/.
Split "public11": report-only, never tuned on, never run through kforecast by its builder.
"""

import ast
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "public"))
from setkit import Repo, SetText, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

SPLIT = "public11"
SET = SetText("Evaluation set public11", "scripts/evalsets/public11/pub11.py",
              os.path.join(os.path.dirname(os.path.abspath(__file__)), "adapters"))

REPOS = {
    "kc": "j1mk1m/Kernel-Coder",
    "aj": "AjAnubolu/gpumode",
    "hydra": "mcpirate17/HYDRA",
    "lossfunk": "Lossfunk/Flash-Kernels-v2",
}

# --- Kernel-Coder ------------------------------------------------------------------------
KC_RUN = "runs/evolrule_parallel_8_batch_level1"
KC_BRANCH = "code-gen"

KC_REF = {
    23: ("torch_softmax.py", "torch.softmax over dim 1 (KernelBench level-1 problem 23's arithmetic).", '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=1)
'''),
    40: ("torch_layernorm.py", "nn.LayerNorm over the trailing (features, dim1, dim2) (problem 40's arithmetic).",
         '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, normalized_shape):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x):
        return self.ln(x)
'''),
    44: ("torch_avgpool1d.py", "nn.AvgPool1d (problem 44's arithmetic).", '''import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size, stride=1, padding=0):
        super().__init__()
        self.avg_pool = nn.AvgPool1d(kernel_size=kernel_size, stride=stride, padding=padding)

    def forward(self, x):
        return self.avg_pool(x)
'''),
    88: ("torch_gelu_tanh.py", "MinGPT's tanh GELU formula in eager torch (problem 88's arithmetic).", '''import math

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
'''),
}


def kc_correct(kc, problem):
    """Sample ids of one problem that the run's own eval_results.json marks compiled and
    correct (its runtime fields are never read), in sample order."""
    rows = json.loads(kc.show(f"{KC_RUN}/eval_results.json"))
    ids = [r["solution_id"] for r in rows
           if r["task_id"] == f"level_1_problem_{problem}" and r.get("compiled") and r.get("correctness")]
    return sorted(ids, key=lambda s: int(s.rsplit("_", 1)[1]))


def kc_files(kc, problem):
    ref_name, what, body = KC_REF[problem]
    files = [(ref_name, SET.ours_py(what, body))]
    for sid in kc_correct(kc, problem):
        path = f"{KC_RUN}/{sid}_kernel.py"
        files.append((f"kc_problem{problem}_sample{sid.rsplit('_', 1)[1]}.py",
                      SET.py_header(kc, path, "Verbatim (a QwQ-32B sample of the evolrule run).") + kc.show(path)))
    return files


# --- AjAnubolu/gpumode ---------------------------------------------------------------------
def aj_history(aj, path, extra=()):
    """(label, text) per commit of `path`, oldest first, exact duplicates of a kept text
    dropped; `extra` (label, path, commit) are put first (the source's naive version)."""
    out, seen = [], set()
    for label, p, c in extra:
        text = aj.show(p, c)
        out.append((label, p, c, text))
        seen.add(text)
    for c in aj.commits([path]):
        text = aj.show(path, c)
        if text in seen:
            continue
        seen.add(text)
        out.append((f"sub_{c[:7]}", path, c, text))
    return out


SM100 = '"-arch=sm_100"'
SM90_NOTE = ("Verbatim except: KFORECAST: the extension's -arch=sm_100 (the author's B200) is retargeted to "
             "-arch=sm_90 (the H100 it is measured on).")


def aj_files(aj, problem, naive=False, skip=(), sm90=False):
    path = f"pmpp_v2/{problem}/submission.py"
    extra = []
    if naive:
        npath = f"pmpp_v2/{problem}/submission_naive.py"
        c = aj.commits([npath])[0]
        extra.append(("naive_" + c[:7], npath, c))
    files, kept = [], []
    for label, p, c, text in aj_history(aj, path, extra):
        if c[:7] in skip:
            continue
        what = "Verbatim (a GPU MODE pmpp_v2 submission; `task` is our stand-in)."
        if sm90 and SM100 in text:
            text, what = text.replace(SM100, '"-arch=sm_90"'), SM90_NOTE
        hdr = SET.py_line_header(aj.name, c, p, what)
        files.append((f"{label}.py", hdr + text))
        kept.append(c[:12])
    return files, kept


# --- HYDRA fused_ops.py history -------------------------------------------------------------
HYDRA_PATH = "hydra/kernels/fused_ops.py"
HYDRA_FAMS = {
    "rms-norm": {"_fused_rms_norm_kernel", "_fused_rms_norm_triton", "fused_rms_norm", "FusedRMSNormFunction"},
    "swiglu": {"_fused_swiglu_kernel", "_fused_swiglu_triton", "fused_swiglu", "FusedSwiGLUFunction"},
}


def hydra_key(text, names):
    """The family's kernel, launcher and wrapper (an autograd Function's forward) as AST text."""
    segs = []
    for n in ast.walk(ast.parse(text)):
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name in names:
            if isinstance(n, ast.ClassDef):
                n = [m for m in n.body if isinstance(m, ast.FunctionDef) and m.name == "forward"][0]
            segs.append(ast.unparse(n))
    return hashlib.sha256("\n".join(sorted(segs)).encode()).hexdigest()


def hydra_files(hy, fam):
    files, kept, prev = [], [], None
    for c in hy.commits([HYDRA_PATH]):
        if not hy.has(c, HYDRA_PATH):
            continue
        text = hy.show(HYDRA_PATH, c)
        key = hydra_key(text, HYDRA_FAMS[fam])
        if key == prev:
            continue
        prev = key
        hdr = SET.py_line_header(hy.name, c, HYDRA_PATH, "Verbatim (the module at this commit).")
        files.append((f"fused_ops_{c[:7]}.py", hdr + text))
        kept.append(c[:12])
    return files, kept


def main():
    args = builder_args(__doc__, "target/evalsets/public11", more=lambda ap: ap.add_argument(
        "--sm90", action="store_true",
        help="retarget AjAnubolu's load_inline builds from -arch=sm_100 to sm_90 (a marked change; the "
             "set measured on 2026-11-26 was built without it)"))
    out = args.out
    clear_set(out)
    kc = Repo(args.mirror, REPOS["kc"])
    aj = Repo(args.mirror, REPOS["aj"])
    hy = Repo(args.mirror, REPOS["hydra"])
    lf = Repo(args.mirror, REPOS["lossfunk"])
    # Kernel-Coder's runs/ live on its `code-gen` branch (main dropped them): read that head.
    kc.commit = kc.git("rev-parse", KC_BRANCH).strip()

    families, sources = [], {}

    def family(name, files, repos, style, notes, bench, extra_src=None):
        name = "p11-" + name
        if len(files) < 3:
            raise SystemExit(f"pub11.py: {name} has {len(files)} versions (< 3); the sources changed")
        if len(files) > 8:
            raise SystemExit(f"pub11.py: {name} has {len(files)} versions (> 8)")
        for rel, text in files:
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), SET.adapter(bench))
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": SPLIT,
                         "source": ", ".join(r.at() for r in repos), "style": style, "notes": notes})
        sources[name] = [{"repository": r.name, "commit": r.commit} for r in repos] + (extra_src or [])

    write(os.path.join(out, "_p11common.py"), SET.adapter("_p11common.py"))
    write(os.path.join(out, "_task", "task.py"), SET.adapter("task.py"))
    write(os.path.join(out, "_vendor", "lossfunk", "utils", "__init__.py"),
          f"# KFORECAST: package init left empty; vendored from {lf.at()}\n")
    write(os.path.join(out, "_vendor", "lossfunk", "utils", "utils.py"), lf.show("utils/utils.py"))

    kc_note = ("QwQ-32B's samples from Kernel-Coder's evolrule level-1 run that the run's eval_results.json "
               "marks compiled and correct (sample order; runtimes never read), each a KernelBench-style "
               "module (ModelNew, CUDA in load_inline), verbatim; reference: an eager torch Model of ours. ")
    family("kc-gelu-tanh", kc_files(kc, 88), [kc], "kernelbench-load_inline",
           kc_note + "MinGPT tanh GELU of float32 8192 x 8192 (problem 88's own size).", "bench_kc_gelu.py")
    family("kc-layernorm", kc_files(kc, 40), [kc], "kernelbench-load_inline",
           kc_note + "LayerNorm over (64, 256, 256) of a float32 16 x 64 x 256 x 256 tensor (problem 40's own "
           "size), weight ones, bias zeros as the module initialises them.", "bench_kc_layernorm.py")
    family("kc-avgpool1d", kc_files(kc, 44), [kc], "kernelbench-load_inline",
           kc_note + "AvgPool1d kernel 8, stride 1, padding 4 (problem 44's) of float32 16 x 64 x 65536 "
           "(2^26; the problem's 64 x 128 x 65536 is cut to 2^26 elements).", "bench_kc_avgpool1d.py")
    sm_files = kc_files(kc, 23)
    lpath = "new_kernels/softmax/softmax.py"
    sm_files.append(("lossfunk_softmax.py", SET.py_header(
        lf, lpath, "Verbatim except: KFORECAST: `from utils.utils import` resolves to that repository's "
        "utils/utils.py vendored under _vendor/lossfunk/ (the adapter puts it on sys.path).") + lf.show(lpath)))
    family("kc-softmax", sm_files, [kc, lf], "kernelbench-load_inline",
           kc_note + "Row softmax of float32 4096 x 16384 (2^26; problem 23's 4096 x 393216 is cut). "
           "Last version: Lossfunk/Flash-Kernels-v2's load_inline softmax (SoftmaxFunction.apply), verbatim; "
           "its adapter refuses a build where the extension is None (the module would fall back to torch).",
           "bench_kc_softmax.py")

    aj_note = ("One author's GPU MODE pmpp_v2 submissions (custom_kernel(data)), one version per upstream "
               "commit of submission.py, oldest first, verbatim; `from task import` resolves to our stand-in. ")
    sm100 = ("" if args.sm90 else
             " On an H100 the load_inline versions fail: the source builds them with -arch=sm_100 (the "
             "author's B200), so their own kernels have no image for sm_90 (CUB wrappers return wrong "
             "results, custom kernels raise 'no kernel image'); pub11.py --sm90 retargets them (marked).")
    files, kept = aj_files(aj, "grayscale_py", sm90=args.sm90)
    family("aj-grayscale", files, [aj], "gpumode-custom_kernel",
           aj_note + f"Commits {', '.join(kept)}: Triton, then load_inline CUDA (float4, FMA/fast-math). "
           "RGB float32 (1, 3, 8192, 8192) NCHW -> (1, 8192, 8192); 0.299/0.587/0.114 weights." + sm100,
           "bench_aj_grayscale.py")
    files, kept = aj_files(aj, "histogram_py", sm90=args.sm90)
    family("aj-histogram", files, [aj], "gpumode-custom_kernel",
           aj_note + f"Commits {', '.join(kept)}: CUB DeviceHistogram wrappers and privatised shared-memory "
           "atomics (load_inline). int32 samples in [0, 256), 2^26 of them, into 256 int32 bins (exact)." + sm100,
           "bench_aj_histogram.py")
    files, kept = aj_files(aj, "vectorsum_py", sm90=args.sm90)
    family("aj-vectorsum", files, [aj], "gpumode-custom_kernel",
           aj_note + f"Commits {', '.join(kept)}: CUB DeviceReduce wrappers, then a custom atomic reduction "
           "(load_inline). Sum of 2^26 float32 in [0, 1) into a 1-element output." + sm100, "bench_aj_vectorsum.py")
    files, kept = aj_files(aj, "conv2d_py", naive=True, sm90=args.sm90)
    family("aj-conv2d", files, [aj], "gpumode-custom_kernel",
           aj_note + f"Reference: the source's naive Triton kernel (submission_naive.py); then commits "
           f"{', '.join(kept[1:])}: Triton implicit-GEMM convolutions (ieee, TF32, tf32x3), an outer-product "
           "kernel, a load_inline at::conv2d (cuDNN) wrapper, the same with cudnn.benchmark. Revisions "
           "equal to a kept one (a revert) are dropped. float32 x (4, 64, 128, 128), w (64, 64, 3, 3), "
           "valid, stride 1; TOL admits TF32 (torch's own cuDNN default). The two cuDNN wrappers pass "
           "-arch=sm_100 too but launch only cuDNN's kernels, so they run on an H100.", "bench_aj_conv2d.py")

    h_note = ("mcpirate17/HYDRA's hydra/kernels/fused_ops.py (a Triton kernel module with torch wrappers), "
              "one version per commit that changed this op's kernel, launcher or wrapper, oldest first, "
              "verbatim; the adapter sets the module's USE_FUSED_* switch on where it has one (some "
              "commits make the kernel opt-in) and calls the public function. ")
    files, kept = hydra_files(hy, "rms-norm")
    family("hydra-rms-norm", files, [hy], "library-triton-history",
           h_note + f"Commits {', '.join(kept)}. RMSNorm of bf16 16384 x 4096 with a weight, eps 1e-6.",
           "bench_hydra_rms_norm.py")
    files, kept = hydra_files(hy, "swiglu")
    family("hydra-swiglu", files, [hy], "library-triton-history",
           h_note + f"Commits {', '.join(kept)}. silu(gate) * up of bf16 4 x 4096 x 14336.",
           "bench_hydra_swiglu.py")

    write_index(out, families, sources)
    n_files, n_pairs = pair_counts(families)
    print(f"pub11.py: {len(families)} families, {n_files} program files, {n_pairs} ordered pairs -> {out}")
    for r in (kc, aj, hy, lf):
        print(f"  {r.name} @ {r.commit}")


if __name__ == "__main__":
    sys.exit(main())
