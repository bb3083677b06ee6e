"""Builds public evaluation set 24 ("p24-" families, split "public24", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public24/pub24.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public24

Sources (fetched with the session's `fetch` tool first):
- chao-yin/GEMM_KERNEL: an SGEMM ladder, one kernel per header (kernel1.cuh .. kernel7.cuh),
  each launched by its own `test_mySgemm_vN()` in common.cu;
- ZhangGe6/how-to-optimize-playground: cuda/cuda_float_gemm, an SGEMM ladder with one host
  function `MMult_*()` per step (one .cu file per optimisation, some files hold two steps);
- aryagxr/cuda: layernorm/kernels (five row-normalisation kernels, each with its own
  `run_*_ln()` launcher) and tensorcores/02-smem.cu, 03-naive-2xtiling.cu (fp16 mma.sync
  GEMMs with main());
- fla-org/flash-linear-attention: fla/modules/l2norm.py and fla/modules/fused_norm_gate.py
  (Triton), one version per commit whose message says it changed the kernels' speed (and the
  first commit), fla/utils.py of the same commit vendored.

A CUDA version is the source's text with its own folder's headers inlined, less main() where
the file has one, plus an `extern "C" kf_run` entry point, marked KFORECAST, that runs the
source's own launcher (or its launch lines) once on device buffers. A Triton version is the
module at one commit, verbatim, its `from fla.utils import` line pointed at the vendored
copy (marked KFORECAST). Three families add an eager torch program written here, marked as
ours, as their first (reference) version. Adapters (`adapters/bench_p24_*.py`) are ours.
The builder replaces the whole set folder but `measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402
from cpp_cut import cut_function  # noqa: E402

TEXT = setkit.SetText("Evaluation set public24", "scripts/evalsets/public24/pub24.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public24"


def inline_headers(src, headers, seen=None):
    """Replaces `#include "name"` lines of the source's own headers by their text, once
    each (a header's own includes of the folder's headers are inlined the same way)."""
    seen = set() if seen is None else seen

    def repl(m):
        name = m.group(1)
        if name not in headers:
            return m.group(0)
        if name in seen:
            return f"// KFORECAST: #include \"{name}\" (the source's header) was inlined above"
        seen.add(name)
        body = inline_headers(headers[name], headers, seen)
        return f"// KFORECAST: {name} (the source's header) inlined below\n{body.rstrip()}\n"
    return re.sub(r'^#include\s*"([\w./]+)"[^\n]*$', repl, src, flags=re.M)


class _AtCommit:
    """A repository seen at one commit (for the provenance header)."""

    def __init__(self, repo, commit):
        self.name, self.commit = repo.name, commit


def launch_lines(fn_text, kernel):
    """The uncommented `dim3` lines and the `kernel<<<...>>>(...);` launch of a host function."""
    keep = []
    for ln in fn_text.split("\n"):
        s = ln.strip()
        if s.startswith("//"):
            continue
        if s.startswith("dim3 ") or re.match(r"%s\s*(<[^;]*>)?\s*<<<" % kernel, s):
            keep.append("    " + s)
    if not any("<<<" in k for k in keep):
        raise SystemExit(f"pub24.py: no launch of {kernel} found")
    return keep


# ---------------------------------------------------------------- chao-yin SGEMM ladder
def cy_sgemm(mirror, out):
    repo = setkit.Repo(mirror, "chao-yin/GEMM_KERNEL")
    fam = "p24-cy-sgemm"
    common_cu = repo.show("common.cu")
    common_cuh = repo.show("common.cuh")
    ceil_div = re.search(r"^#define CEIL_DIV[^\n]*$", common_cu, re.M).group(0)
    files = []
    for v in range(1, 8):
        kern = repo.show(f"kernel{v}.cuh")
        host = cut_function(common_cu, f"test_mySgemm_v{v}", with_comment=False).strip("\n")
        text = ("// KFORECAST: common.cuh (the source's header, included first by common.cu) inlined below\n"
                + common_cuh.rstrip() + "\n"
                "#include <cassert>  // KFORECAST: common.cu got <cassert> from kernel4.cuh, included before"
                " the later kernels\n\n"
                f"// KFORECAST: kernel{v}.cuh (included by common.cu) below\n" + kern.rstrip() + "\n\n"
                "// KFORECAST: from common.cu, the launcher of this kernel and the macro it uses\n"
                + ceil_div + "\n\n" + host + "\n\n"
                "// KFORECAST entry point (ours): the source's test_kernel() call for this version\n"
                "// (sgemm.cu's main() passes alpha = beta = 1 and square m = n = k).\n"
                "extern \"C\" void kf_run(float *A, float *B, float *C, int M, int N, int K, float alpha,"
                " float beta) {\n"
                f"    test_mySgemm_v{v}(M, N, K, alpha, A, B, beta, C);\n"
                "}\n")
        rel = f"{fam}/sgemm_v{v}.cu"
        setkit.write(os.path.join(out, rel), TEXT.header(repo, ["common.cuh", f"kernel{v}.cuh", "common.cu"],
                     f"Version v{v} of the SGEMM ladder (kernel mySgemm_v{v} and its launcher).") + text)
        files.append(rel)
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter("bench_p24_cy_sgemm.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes="C = alpha*A@B + beta*C, float32, M = N = K = 4096 (one of sgemm.cu's sizes, "
                      "256..6144), alpha = beta = 1 as in main(): v1 naive (thread x along rows), "
                      "v2 naive coalesced, v3 32x32 shared-memory tiles, v4 1-D blocktiling (TM 8), "
                      "v5 2-D blocktiling 128x128 (8x8 per thread), v6 + float4 loads, v7 warptiling. "
                      "Each version is common.cuh, kernelN.cuh verbatim and common.cu's test_mySgemm_vN() "
                      "launcher; C is updated in place. Measured (H100, 2026-11-27): v3 is wrong (its B tile load reads "
                      "B[(tile+innerRow)*n+innerCol], the first 32 columns, for every block column; off the float64 "
                      "reference by 1.6e-2 rel L2)")


# ---------------------------------------------------------------- ZhangGe6 SGEMM ladder
ZG_DIR = "cuda/cuda_float_gemm/src"
# one step per bullet of the folder's readme (its "successful case", the last one named where
# it names several; for prefetching, the one main.cpp runs), chosen before measuring
ZG_STEPS = [("MMult_base.cu", "MMult_base", "naive: one C element a thread, accumulating in C"),
            ("MMult_optim1.cu", "MMult_optim1_1", "accumulate in a register"),
            ("MMult_optim2.cu", "MMult_optim2_1", "16x16 shared-memory blocks"),
            ("MMult_optim3.cu", "MMult_optim3_2", "4x4 elements a thread"),
            ("MMult_optim5.cu", "MMult_optim5_2", "float4 loads, 4x4 a thread"),
            ("MMult_optim_rect1.cu", "MMult_optim_rect1_1", "128x128x32 rectangle blocks, 8x8 a thread"),
            ("MMult_optim_rect2.cu", "MMult_optim_rect2_4", "prefetching (64x64x8 blocks)")]


def zg_sgemm(mirror, out):
    repo = setkit.Repo(mirror, "ZhangGe6/how-to-optimize-playground")
    fam = "p24-zg-sgemm"
    headers = {h: repo.show(f"{ZG_DIR}/{h}") for h in ("params.h", "utils.h", "MMult.h")}
    files, notes = [], []
    for fname, host, what in ZG_STEPS:
        src = repo.show(f"{ZG_DIR}/{fname}")
        if not re.search(r"^void %s\(" % host, src, re.M):
            raise SystemExit(f"pub24.py: {host}() not in {fname}")
        text = inline_headers(src, headers)
        entry = ("\n\n// KFORECAST entry point (ours): main.cpp's call of this step on device buffers\n"
                 "// (main.cpp zeroes C before each call; the handle is unused by this step).\n"
                 "extern \"C\" void kf_run(float *A, float *B, float *C, int M, int K, int N) {\n"
                 f"    {host}(nullptr, A, B, C, M, K, N);\n}}\n")
        rel = f"{fam}/{host}.cu"
        setkit.write(os.path.join(out, rel), TEXT.header(
            repo, [f"{ZG_DIR}/{fname}"] + [f"{ZG_DIR}/{h}" for h in headers],
            f"Step {host}() of the SGEMM ladder ({what}); the file's other steps, if any, stay.")
            + text.rstrip() + entry)
        files.append(rel)
        notes.append(f"{host}: {what}")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter("bench_p24_zg_sgemm.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes="C = A@B, float32, M = N = K = 4096 (main.cpp sweeps 1024..6144), inputs uniform "
                      "[1, 10) as utils.cpp draws them; C zeroed before each call as main.cpp does (the "
                      "naive step accumulates into C). One step per bullet of the folder's readme: "
                      + "; ".join(notes))


# ---------------------------------------------------------------- aryagxr layernorm / mma
AG_LN = [("naive", "naive_layernorm", "run_naive_ln", "one thread a row"),
         ("smem", "smem_layernorm", "run_smem_ln", "one 256-thread block a row, shared-memory tree sums"),
         ("shfl", "shfl_layernorm", "run_shfl_ln", "one block a row, warp-shuffle sums"),
         ("vectorized", "vectorized_layernorm", "run_vect_ln", "one block a row, float4 loads, warp shuffles"),
         ("coalesced", "coalesced_layernorm", "run_coalesced_ln", "one thread a column of a column-major matrix")]


def ag_layernorm(mirror, out):
    repo = setkit.Repo(mirror, "aryagxr/cuda")
    fam = "p24-ag-layernorm"
    files = []
    for stem, kernel, runner, what in AG_LN:
        path = f"layernorm/kernels/{stem}-layernorm.cu"
        src = repo.show(path)
        host = cut_function(src, runner, with_comment=False)
        entry = ("\n\n// KFORECAST entry point (ours): the grid and launch lines of the source's "
                 f"{runner}()\n// (its cudaEvent timing, synchronisation and printing left out).\n"
                 "extern \"C\" void kf_run(float *D_in, float *D_out, int m, int n) {\n"
                 + "\n".join(launch_lines(host, kernel)) + "\n}\n")
        rel = f"{fam}/{stem}_layernorm.cu"
        setkit.write(os.path.join(out, rel), TEXT.header(repo, [path, "layernorm/main.cu"],
                     f"The {stem} layer norm ({what}), launched as layernorm/main.cu runs it.")
                     + src.rstrip() + entry)
        files.append(rel)
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter("bench_p24_ag_layernorm.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes="layer norm without weights, (x - mean) / sqrt(var + 1e-6) over rows of a 4096 x 4096 "
                      "float matrix (main.cu uses 1024 x 1024; square, so the column-major 'coalesced' kernel "
                      "computes the same function). Kernels in their commit order: naive (one thread a "
                      "row), smem (block a row, shared-memory reductions), shfl (warp shuffles), vectorized "
                      "(float4), coalesced. Each file is the kernel file verbatim plus kf_run with its "
                      "launcher's grid and launch lines. Measured (H100, 2026-11-27): smem is wrong (its variance "
                      "reduction starts at stride blockDim.x and adds smem[tidx + 256], never written: NaN), vectorized "
                      "is wrong (it reduces within each warp only and never combines the block's 8 warps)")


def ag_mma(mirror, out):
    repo = setkit.Repo(mirror, "aryagxr/cuda")
    fam = "p24-ag-mma"
    files = ["p24-ag-mma/torch_addmm.py"]
    setkit.write(os.path.join(out, files[0]), TEXT.ours_py(
        "D = A @ B + C with fp16 A, B and float C, as the tensor-core programs compute it.",
        "import torch\n\n\ndef kf_entry(A, B, C):\n    return torch.mm(A, B).float() + C\n"))
    for stem, tile in (("02-smem", 32), ("03-naive-2xtiling", 64)):
        path = f"tensorcores/{stem}.cu"
        src = repo.show(path)
        main_fn = cut_function(src, "main", with_comment=False).rstrip("\n")
        lines = launch_lines(main_fn, "tc_mma")
        entry = ("// KFORECAST entry point (ours): main()'s block, grid and launch lines on device buffers\n"
                 "// (main() multiplies 128 x 128 matrices; the adapter gives the size).\n"
                 "extern \"C\" void kf_run(half *dA, half *dB, float *dC, float *dD, int M, int N, int K) {\n"
                 + "\n".join(lines) + "\n}\n")
        text = src.replace(main_fn, "// KFORECAST: the source's main() is cut here (see kf_run below).")
        rel = f"{fam}/{stem.replace('-', '_')}.cu"
        setkit.write(os.path.join(out, rel), TEXT.header(repo, [path], f"{stem}: an mma.sync m16n8k16 GEMM, "
                     f"{tile} x {tile} output tile a block.") + text.rstrip() + "\n\n" + entry)
        files.append(rel)
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter("bench_p24_ag_mma.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes="D = A @ B + C, A and B fp16, C and D float, M = N = K = 4096 (main() uses 128): an "
                      "eager torch program (ours, fp16 matmul then a float add) as reference, then the "
                      "author's inline-PTX mma.sync GEMMs: 02-smem (8 warps a 32x32 tile, shared memory) and "
                      "03-naive-2xtiling (each warp 2x2 mma tiles, 64x64 a block). Measured (H100, 2026-11-27): both "
                      "source programs are wrong (no __syncthreads() after the mma step in the k loop, so the next "
                      "tile load overwrites shared memory other warps still read: 02 off on 1.3M elements, 03 on 30 "
                      "of 16.8M in one draw); the family gives no pair")


# ---------------------------------------------------------------- fla Triton histories
FLA = "fla-org/flash-linear-attention"
FLA_UTILS_IMPORT = re.compile(r"^from fla\.utils import ([^\n]*)$", re.M)


def fla_pkg(commit):
    return f"fla_{commit[:8]}"


def fla_vendor(repo, commit, out):
    root = os.path.join(out, "_vendor", fla_pkg(commit))
    if os.path.isdir(root):
        return
    text = repo.show("fla/utils.py", commit)
    if re.search(r"^(from|import) fla\b", text, re.M):
        raise SystemExit(f"pub24.py: fla/utils.py@{commit[:8]} imports the fla package at top level")
    setkit.write(os.path.join(root, "__init__.py"),
                 f"# KFORECAST: a stand-in package holding fla/utils.py of {repo.name}@{commit} (no code of ours).\n")
    setkit.write(os.path.join(root, "utils.py"),
                 f"# KFORECAST: vendored verbatim from {repo.name}@{commit}:fla/utils.py\n" + text)


def fla_program(repo, path, commit, what, out):
    src = repo.show(path, commit)
    others = [m.group(0) for m in re.finditer(r"^(from|import) fla\b[^\n]*$", src, re.M)
              if not FLA_UTILS_IMPORT.match(m.group(0))]
    if others:
        raise SystemExit(f"pub24.py: {path}@{commit[:8]} imports more of fla: {others}")
    note = setkit.VERBATIM
    if FLA_UTILS_IMPORT.search(src):
        fla_vendor(repo, commit, out)
        src = FLA_UTILS_IMPORT.sub(
            lambda m: f"from {fla_pkg(commit)}.utils import {m.group(1)}  # KFORECAST: was `from fla.utils import`",
            src)
        note += (f"\n`from fla.utils import` -> `from {fla_pkg(commit)}.utils import` (fla/utils.py of the same "
                 "commit, vendored under _vendor/).")
    header = TEXT.header(_AtCommit(repo, commit), [path], what, comment="#", note=note)
    return header + src


def fla_family(mirror, out, fam, path, commits, ref_name, ref_body, ref_what, adapter, notes):
    repo = setkit.Repo(mirror, FLA)
    full = {c[:8]: c for c in repo.commits([path])}
    files = [f"{fam}/{ref_name}"]
    setkit.write(os.path.join(out, files[0]), TEXT.ours_py(ref_what, ref_body))
    listed = []
    for short in commits:
        commit = full[short]
        subject = repo.git("log", "-1", "--format=%s", commit).strip()
        rel = f"{fam}/{os.path.basename(path)[:-3]}_{short}.py"
        setkit.write(os.path.join(out, rel), fla_program(
            repo, path, commit, f"{path} at commit {short} ({subject}).", out))
        files.append(rel)
        listed.append(f"{short} '{subject}'")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton",
                notes=notes + " Versions (oldest first, after the torch reference of ours): " + "; ".join(listed))


# the first commit and those whose message says the forward kernels got faster (chosen by
# message, before measuring)
L2NORM_COMMITS = ["5b4c3ce5", "7e385e1e", "bcc63a46", "2d2b5b5d", "3c73803d", "f10e9b18", "64248fcc"]
NORMGATE_COMMITS = ["baf1d718", "2d2b5b5d", "07e81e6e", "c230d724", "64248fcc"]

L2NORM_REF = '''import torch


def kf_entry(x, eps=1e-6):
    xf = x.float()
    return (xf * torch.rsqrt((xf * xf).sum(-1, keepdim=True) + eps)).to(x.dtype)
'''

NORMGATE_REF = '''import torch
import torch.nn.functional as F


def kf_entry(x, g, weight, eps=1e-5):
    xf = x.float()
    y = xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * weight.float()
    return (y * F.silu(g.float())).to(x.dtype)
'''


def fla_l2norm(mirror, out):
    return fla_family(
        mirror, out, "p24-fla-l2norm", "fla/modules/l2norm.py", L2NORM_COMMITS, "torch_l2norm.py", L2NORM_REF,
        "L2 normalisation over the last dimension in eager torch (float32 math).",
        "bench_p24_fla_l2norm.py",
        "y = x / sqrt(sum(x^2) + eps) over the last dimension (eps 1e-6), the forward of fla's L2 norm for "
        "q/k heads: bf16 x of 2^19 rows x 128 (16 x 4096 tokens x 8 heads), called as the module's forward "
        "function (`_l2_norm_fwd` / `l2norm_fwd`) on the 2-D view. Commits 83845577/25493c55/9b9e47d7 "
        "(eps moved out of and back into the sqrt) and the later autotune-cache and backend-dispatch "
        "commits are left out, chosen before measuring.")


def fla_normgate(mirror, out):
    return fla_family(
        mirror, out, "p24-fla-normgate", "fla/modules/fused_norm_gate.py", NORMGATE_COMMITS,
        "torch_rmsnorm_gate.py", NORMGATE_REF,
        "RMS norm with a weight, times a swish (SiLU) gate, in eager torch (float32 math).",
        "bench_p24_fla_normgate.py",
        "y = rmsnorm(x) * weight * silu(g) (eps 1e-5, no bias), the forward of fla's fused RMSNorm with "
        "swish gate (FusedRMSNormSwishGate / FusedRMSNormGated): bf16 x and g of 2^19 rows x 128, float32 "
        "weight, called through the module's function (`rms_norm_fn` at the first commit, "
        "`rms_norm_gated` later).")


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public24")
    setkit.clear_set(args.out)
    fams = [cy_sgemm(args.mirror, args.out), zg_sgemm(args.mirror, args.out),
            ag_layernorm(args.mirror, args.out), ag_mma(args.mirror, args.out),
            fla_l2norm(args.mirror, args.out), fla_normgate(args.mirror, args.out)]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
