"""Builds public evaluation set 37 ("p37-" families, split "public37", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public37/pub37.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public37 [--dry-run]

Sources (fetched with the session's `fetch` tool first):
- chengzeyi/stable-fast: the Stable Diffusion inference accelerator's Triton ops
  (`src/sfast/triton/ops/group_norm.py`, `layer_norm.py`, `copy.py`) at the commits of
  Nov-Dec 2023 that rewrote or retuned their kernels (commit messages: 'optimize performance
  of group_norm_4d_channels_last_forward_apply_kernel', 'make triton group_norm faster',
  'optimize triton group_norm', 'keep optimizing triton kernels', ...). A version is the op's
  module at one commit, verbatim, except its package imports (`from . import activation`,
  `from .utils import ...`, `from sfast.utils... import ...`), which point (KFORECAST) at the
  same commit's helper modules vendored as the package `_vendor/sfast_<commit>/` (activation.py,
  ops/utils.py, utils/copy_func.py, utils/memory_format.py verbatim; empty `__init__.py`s).
  The adapters call the module's own host functions (`group_norm_forward`, `LayerNorm.apply`,
  `copy`).
- BlinkDL/RWKV-CUDA: the RWKV author's CUDA ladders, one file per step in one folder, each with
  the source's host launchers `cuda_forward`/`cuda_backward` (bound to torch by the folder's
  `*_op.cpp` in the source): `depthwise_conv1d/cuda/timex_cuda_v0..v3.cu` (the README's
  'simple', 'shared memory', 'float4', 'B-group' steps) and `wkv/cuda/wkv_cuda_v0..v2.cu`
  (the RWKV-3 kernel, icecuber's optimised kernel, v2). A version is the .cu file verbatim plus
  an `extern "C"` entry point (KFORECAST) calling those two launchers, built by nvcc as a
  shared library with the flags of the source's run.py (the adapter names them).

Versions are chosen by the commit messages and diffs (or the ladder's own numbering), never
by speed; each family's notes say which commits were left out and why. Adapters
(`adapters/bench_p37_*.py`) are ours. The builder replaces the whole set folder but
`measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public37", "scripts/evalsets/public37/pub37.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public37"
SF = "chengzeyi/stable-fast"
RW = "BlinkDL/RWKV-CUDA"
OPS = "src/sfast/triton/ops"

# The vendored helper modules of a stable-fast commit (path in the package -> source path).
SF_HELPERS = {
    "triton/ops/activation.py": f"{OPS}/activation.py",
    "triton/ops/utils.py": f"{OPS}/utils.py",
    "utils/copy_func.py": "src/sfast/utils/copy_func.py",
    "utils/memory_format.py": "src/sfast/utils/memory_format.py",
}

PRELUDE = ("# KFORECAST: the package imports below point at this commit's helper modules, vendored\n"
           "# as the package _vendor/{pkg}/ of the set (ours: this line and the next two).\n"
           "import os as _kf_os, sys as _kf_sys\n"
           "_kf_sys.path.insert(0, _kf_os.path.join(_kf_os.path.dirname(_kf_os.path.abspath(__file__)), '..', '_vendor'))\n")


def vendor_sf(repo, commit, out, dry):
    """Writes _vendor/sfast_<commit>/ (the helper modules the ops import, verbatim)."""
    pkg = f"sfast_{commit}"
    root = os.path.join(out, "_vendor", pkg)
    if dry or os.path.isdir(root):
        return pkg
    for d in ("", "utils", "triton", "triton/ops"):
        setkit.write(os.path.join(root, d, "__init__.py"),
                     f"# KFORECAST: an empty package file of the vendored {SF}@{commit} helpers (ours).\n")
    for rel, src in SF_HELPERS.items():
        if repo.has(commit, src):
            setkit.write(os.path.join(root, rel),
                         TEXT.py_line_header(SF, commit, src, "A helper module the op imports, verbatim.")
                         + repo.show(src, commit))
    return pkg


def sf_version(repo, commit, op, out, dry):
    """The op's module at `commit` with its package imports pointed at the vendored helpers."""
    pkg = vendor_sf(repo, commit, out, dry)
    src = repo.show(f"{OPS}/{op}.py", commit)
    subs = [
        (r"^(\s*)from sfast\.utils\.(\w+) import (.+)$", rf"\1from {pkg}.utils.\2 import \3  # KFORECAST: was sfast.utils.\2"),
        (r"^from \. import (\w+)$", rf"from {pkg}.triton.ops import \1  # KFORECAST: was 'from . import \1'"),
        (r"^from \.(\w+) import (.+)$", rf"from {pkg}.triton.ops.\1 import \2  # KFORECAST: was 'from .\1 import ...'"),
    ]
    text = src
    for pat, rep in subs:
        text = re.sub(pat, rep, text, flags=re.M)
    if re.search(r"^\s*from (\.|sfast\.)", text, flags=re.M) or re.search(r"^\s*import sfast\b", text, flags=re.M):
        raise SystemExit(f"pub37.py: a package import left in {op}.py at {commit}")
    header = TEXT.py_line_header(SF, commit, f"{OPS}/{op}.py",
                                 "The op's module verbatim, except the lines marked KFORECAST.")
    return header + PRELUDE.format(pkg=pkg) + text


def sf_family(mirror, out, dry, fam, op, commits, adapter, notes):
    repo = setkit.Repo(mirror, SF)
    files = []
    for c in commits:
        full = repo.git("rev-parse", c).strip()
        rel = f"{fam}/{op}_{c}.py"
        text = sf_version(repo, c, op, out, dry)
        if not dry:
            setkit.write(os.path.join(out, rel), text)
        files.append(rel)
        assert full.startswith(c)
    if not dry:
        setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton",
                notes=notes)


# group_norm.py: the commits whose diff changed a kernel or its launch heuristics.
GN_CL = ["1fcd372", "60ed72c", "985a933", "bebafc6", "ce6c0dd", "b4e1b26", "89f1105"]
GN_NCHW = ["1fcd372", "bebafc6", "ce6c0dd", "b4e1b26", "8a3f797", "89f1105"]
LN = ["270c2ec", "541c20f", "7dc65dd"]
CP = ["1fcd372", "ce6c0dd", "c24b3e6"]


def sf_groupnorm_cl(mirror, out, dry):
    return sf_family(
        mirror, out, dry, "p37-sf-groupnorm-cl", "group_norm", GN_CL, "bench_p37_sf_groupnorm.py",
        "stable-fast's Triton GroupNorm forward (group_norm_forward: welford statistics kernel, then "
        "the apply kernel) on a channels-last (4, 320, 128, 128) float16 input, 32 groups, float16 "
        "weight and bias (an SD UNet block at 1024 px, batch 4). Versions: 1fcd372 (first in src/), "
        "60ed72c 'optimize performance of group_norm_4d_channels_last_forward_apply_kernel', 985a933 "
        "'make triton group_norm faster', bebafc6 'optimize triton group_norm' (block-size "
        "heuristics, two-stage statistics written), ce6c0dd 'keep optimizing triton kernels' "
        "(num_warps heuristics), b4e1b26 'optimize triton group norm' (num_warps per 128 elements), "
        "89f1105 (C_G and GROUP_SIZE as heuristics-computed constants). Left out: 270c2ec and "
        "7dc65dd (welford_combine moved to utils / renamed), 8a3f797 (NCHW kernel only), 2536cc5 "
        "(the NCHW path without weight only).")


def sf_groupnorm(mirror, out, dry):
    return sf_family(
        mirror, out, dry, "p37-sf-groupnorm", "group_norm", GN_NCHW, "bench_p37_sf_groupnorm.py",
        "stable-fast's Triton GroupNorm forward (group_norm_forward, the contiguous NCHW path: one "
        "program per (group, sample) computing welford statistics and applying them) on a "
        "contiguous (4, 320, 128, 128) float16 input, 32 groups, float16 weight and bias. Versions: "
        "the commits whose diff changed this kernel or its heuristics: 1fcd372 (BLOCK_SIZE 4096), "
        "bebafc6 (block size from the group size), ce6c0dd (num_warps heuristic), b4e1b26 (num_warps "
        "per 128 elements), 8a3f797 'fix num_warps in create_group_norm_4d_forward_kernel', 89f1105 "
        "(C_G and GROUP_SIZE constants). Left out: 60ed72c and 985a933 (channels-last kernels "
        "only), 270c2ec and 7dc65dd (helper moved / renamed), 2536cc5 (the path without weight).")


def sf_layernorm(mirror, out, dry):
    return sf_family(
        mirror, out, dry, "p37-sf-layernorm", "layer_norm", LN, "bench_p37_sf_layernorm.py",
        "stable-fast's Triton LayerNorm forward (the Triton tutorial's fused kernel with welford "
        "statistics) through LayerNorm.apply on inputs that need no gradient (stable-fast's "
        "inference path), x (8192, 2048) float16, weight and bias (2048,) float16. Versions: "
        "270c2ec 'add triton layer_norm', 541c20f 'optimize triton layer norm' (row stride and N "
        "made compile-time constants), 7dc65dd (the last rewrite of the series: host-side "
        "reshapes, welford_combine renamed). Left out: b4e1b26, 56718ab, ab08bd1 (host-only steps "
        "between them). Forward only: before 56718ab 'fix autograd' the backward cannot run (mean "
        "and rstd are allocated only when torch.is_grad_enabled(), off inside an autograd "
        "Function's forward); a first measurement with forward and backward failed on that.")


def sf_copy(mirror, out, dry):
    return sf_family(
        mirror, out, dry, "p37-sf-copy4d", "copy", CP, "bench_p37_sf_copy4d.py",
        "stable-fast's Triton strided copy (copy(dst, src), the 4-D kernel with stride-is-1 "
        "specialisations) copying the transpose of the last two axes of a (128, 16, 64, 512) "
        "float16 tensor (the source's own test size) into a contiguous tensor. Versions: every "
        "commit of copy.py: 1fcd372 (default num_warps), ce6c0dd 'keep optimizing triton kernels' "
        "(num_warps heuristics), c24b3e6 (do_not_specialize dropped: the sizes argument "
        "specialised again).")


RW_ENTRY = {
    "timex": ("\n// KFORECAST entry points (ours): the source's host launchers cuda_forward and\n"
              "// cuda_backward (bound to torch by timex_op.cpp in the source) as C functions.\n"
              "extern \"C\" void kf_forward(const float *w, const float *k, float *x, float eps, int B, int C, int T) {\n"
              "  cuda_forward(w, k, x, eps, B, C, T);\n}\n"
              "extern \"C\" void kf_backward(const float *w, const float *k, const float *gwk, float *gw, float *gk, int B, int C, int T) {\n"
              "  cuda_backward(w, k, gwk, gw, gk, B, C, T);\n}\n"),
    "wkv": ("\n// KFORECAST entry points (ours): the source's host launchers cuda_forward and\n"
            "// cuda_backward (bound to torch by wkv_op.cpp in the source) as C functions.\n"
            "extern \"C\" void kf_forward(int B, int T, int C, float *w, float *u, float *k, float *v, float *y) {\n"
            "  cuda_forward(B, T, C, w, u, k, v, y);\n}\n"
            "extern \"C\" void kf_backward(int B, int T, int C, float *w, float *u, float *k, float *v, float *gy, float *gw, float *gu, float *gk, float *gv) {\n"
            "  cuda_backward(B, T, C, w, u, k, v, gy, gw, gu, gk, gv);\n}\n"),
}


def rw_family(mirror, out, dry, fam, folder, stem, versions, adapter, notes):
    repo = setkit.Repo(mirror, RW)
    files = []
    for v in versions:
        path = f"{folder}/cuda/{stem}_cuda_v{v}.cu"
        src = repo.show(path)
        if "cuda_forward(" not in src or "cuda_backward(" not in src:
            raise SystemExit(f"pub37.py: no host launchers in {path}")
        rel = f"{fam}/{stem}_cuda_v{v}.cu"
        if not dry:
            setkit.write(os.path.join(out, rel),
                         TEXT.header(repo, [path], f"Step v{v} of the author's {stem} kernel ladder.")
                         + src + RW_ENTRY[stem])
        files.append(rel)
    if not dry:
        setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes=notes)


def rw_timex(mirror, out, dry):
    return rw_family(
        mirror, out, dry, "p37-rw-timex", "depthwise_conv1d", "timex", [0, 1, 2, 3],
        "bench_p37_rw_timex.py",
        "RWKV's TimeX operator (a causal depthwise 1-D convolution with a per-channel kernel as "
        "long as the sequence: out[b,c,t] = eps + sum_u w[c,T-1-(t-u)] k[b,c,u]), forward then "
        "backward as the source's TimeX autograd function calls them (gw summed over the batch "
        "in torch), B 32, C 768, T 768, eps 0.1, float32 (run.py's CHECK_CUDA sizes); nvcc flags "
        "of run.py: --use_fast_math --extra-device-vectorization -DTmax=768 -DBF=8 -DBB=2. "
        "Versions: the ladder v0 'simple', v1 'shared memory', v2 'float4', v3 'B-group' "
        "(README timings on a GTX1070: fwd 45/17/13/3.4 ms, bwd 84/43/31/23 ms).")


def rw_wkv(mirror, out, dry):
    return rw_family(
        mirror, out, dry, "p37-rw-wkv", "wkv", "wkv", [0, 1, 2], "bench_p37_rw_wkv.py",
        "RWKV-4's WKV operator (time-decayed weighted average of v by exp(k)), forward then "
        "backward as the source's WKV autograd function calls them (w -> -exp(w) first, gradient "
        "buffers zeroed, gw and gu summed over the batch in torch), B 32, T 768, C 768, float32, "
        "inputs uniform in (-1, 1) (run.py's 'usual values'); nvcc flags of run.py: "
        "--use_fast_math --extra-device-vectorization. Versions: v0 'RWKV-3 kernel. The backward "
        "is still very slow' (one block per sample, one thread per channel), v1 'optimized CUDA "
        "kernel by icecuber', v2 (min(C, 32) threads a block). Compared: y and the gradients of "
        "u, k and v; gw is computed by every version but not compared (v0's gw lacks the factor "
        "of the w -> -exp(w) chain rule that v1 added, so v0 would otherwise fail on it).")


BUILDERS = [sf_groupnorm_cl, sf_groupnorm, sf_layernorm, sf_copy, rw_timex, rw_wkv]


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public37",
                               more=lambda ap: ap.add_argument("--dry-run", action="store_true",
                                                               help="read the sources, write nothing"))
    if not args.dry_run:
        setkit.clear_set(args.out)
    fams = [b(args.mirror, args.out, args.dry_run) for b in BUILDERS]
    # The H100 measurement (measured/h100-2026-11-27-pub37.jsonl.gz): no version failed.
    fams = [setkit.measured_note(f, {}, "2026-11-27") for f in fams]
    n, pairs = setkit.pair_counts(fams)
    if not args.dry_run:
        sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
        setkit.write_index(args.out, fams, sources)
        with open(os.path.join(HERE, "prebuild37.py"), encoding="utf-8") as f:
            setkit.write(os.path.join(args.out, "prebuild37.py"), f.read())
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs,
                      "dry_run": args.dry_run}))


if __name__ == "__main__":
    main()
