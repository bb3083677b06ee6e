"""Builds public evaluation set 63 ("p63-" families, split "public63", kept unseen) from local
copies of three public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public63/pub63.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public63

Sources (fetched with the session's `fetch` tool first), all Triton:
- HarleysZhang/pytriton_llama (lite_llama): an LLM inference library whose Triton kernels were
  rewritten over its history: softmax (a one-row-a-program kernel with 8 warps, the same with
  the warp count raised to 16 for wide rows, an online two-pass kernel over 4096-column tiles,
  a split softmax of three kernels over tiles; its torch lines), RMSNorm (the tutorial's
  two-loop kernel at 512-column blocks, then at whole-row blocks, then with warps from the
  row width; a second module's two-loop kernel at a fixed 16384 block and 8 warps, rewritten
  as Liger-Kernel's one-block-a-row kernel; the test's torch line).
- divusree/learn-triton: one learner's Triton kernels over commits: matmul (a 16 x 16 tile
  kernel, then a super-grouped autotuned kernel), batched matmul (autotuned), a
  32-rows-a-program softmax; the torch lines their checks compare with.
- gashon/rms-norm-triton-kernel: a CS336 RMSNorm Triton forward kernel and the torch
  autograd function beside it.

A version is the source file at one commit, verbatim, plus a `kf_run` entry point marked
KFORECAST that calls the file's own function the way its test or benchmark does (or the torch
line that test compares with); relative imports of the package's own modules (and gashon's
package import of triton_util) are replaced by those modules' text, marked KFORECAST. Versions
are chosen by what the commits and files say of them, never by speed. Adapters
(`adapters/bench_p63_*.py`) are ours. The builder replaces the whole set folder but
`measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public63", "scripts/evalsets/public63/pub63.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public63"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {
    "p63-dv-bmm/batched_autotune.py": (
        "the source's own launch passes GROUP_SIZE_M=8 to a kernel whose autotune configs also set "
        "GROUP_SIZE_M; Triton 3.6 refuses it (ValueError: Conflicting meta-parameters: "
        "GROUP_SIZE_M), so the family has no pair"),
}
MEASURED_DAY = "2026-11-28"

LL = "HarleysZhang/pytriton_llama"
DV = "divusree/learn-triton"
GS = "gashon/rms-norm-triton-kernel"
KD = "lite_llama/kernels/"

# Left out before measuring (read, not run): learn-triton's layer_norm.py (288d6cf divides the row
# sum by the number of rows; 9528035 steps its column loop by 1 instead of a block), gelu.py
# (6796090 multiplies by sqrt(2) where it means 1/sqrt(2)), flash_attn2.py (each program starts
# its key loop at its own row block, so earlier keys are never read, and masked keys enter the
# softmax as zeros; 378a5e2 also names an undefined P_ptr), softmax.py at 418e87e (its comment:
# right only for the first row); 54yyyu/hpml_of3's fused SwiGLU forward (not a matmul any
# reference computes).

# Source lines the builder replaces (glue, never kernel code): (repo, path) -> [(line, by, why)].
GS_IMPORT = "from cs336_systems.kernel.triton_util import rmsnorm_fwd_kernel, rmsnorm_bwd_kernel\n"
GS_BLOCKING = 'os.environ["CUDA_LAUNCH_BLOCKING"] = "1"\n'


def inline_relative(repo, commit, d, src):
    """The package's own relative imports (`from .mod import ...`, one line or parenthesised)
    replaced by those modules' text at `commit`."""
    def repl(m):
        mod = m.group(1)
        text = repo.show(d + mod + ".py", commit).rstrip()
        if re.search(r"^from \.", text, re.M):
            raise SystemExit(f"pub63.py: {mod}.py at {commit} has relative imports itself")
        stmt = " ".join(m.group(0).split())
        return (f"# KFORECAST: `{stmt}` replaced by {d}{mod}.py at the same commit\n"
                + text + f"\n# KFORECAST: end of {mod}.py\n")
    return re.sub(r"^from \.(\w+) import (\([^)]*\)|[^\n]+)\n", repl, src, flags=re.M)


def gs_inline(repo, commit, src):
    """gashon's main.py imports its kernels from the package path cs336_systems.kernel; the
    file beside it (triton_util.py, same commit) is inlined there instead."""
    util = repo.show("triton_util.py", commit)
    if GS_BLOCKING not in util or GS_IMPORT not in src:
        raise SystemExit("pub63.py: gashon lines to replace not found")
    util = util.replace(GS_BLOCKING, "# KFORECAST: dropped `" + GS_BLOCKING.strip() + "` (a debugging "
                        "setting that would make every launch of every version in the timing "
                        "process synchronous)\n", 1)
    return src.replace(GS_IMPORT, "# KFORECAST: `" + GS_IMPORT.strip() + "` replaced by triton_util.py "
                       "at the same commit:\n" + util.rstrip() + "\n# KFORECAST: end of triton_util.py\n", 1)


def version(out, fam, repo, commit, path, stem, what, body, how):
    full = repo.git("rev-parse", commit).strip()
    src = repo.show(path, full)
    if repo.name == LL:
        src = inline_relative(repo, full, KD, src)
    if repo.name == GS:
        src = gs_inline(repo, full, src)
    rel = f"{fam}/{stem}.py"
    text = (TEXT.py_line_header(repo.name, full, path, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            + "# KFORECAST entry point (ours): " + how + "\n" + body)
    setkit.write(os.path.join(out, rel), text)
    return rel


def ours(out, fam, stem, what, body):
    rel = f"{fam}/{stem}.py"
    setkit.write(os.path.join(out, rel), TEXT.ours_py(what, "import torch\n\n\n" + body))
    return rel


def family(mirror, out, fam, repo_name, steps, adapter, notes, how):
    repo = setkit.Repo(mirror, repo_name)
    files, said = [], []
    for c, p, s, w, b in steps:
        if c is None:
            files.append(ours(out, fam, s, w, b))
            said.append(f"{s} (ours, a torch program) {w}")
        else:
            files.append(version(out, fam, repo, c, p, s, w, b, how))
            said.append(f"{s} ({os.path.basename(p)} at {c}) {w}")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton",
                 notes=notes + " Versions, in the order used: " + "; ".join(said) + ".")
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


def call(args, expr):
    return f"def kf_run({args}):\n    return {expr}\n"


# ---------------------------------------------------------------- lite_llama softmax
SOFTMAX_STEPS = [
    ("b121429", KD + "softmax_online_v2.py", "torch_softmax", "the torch line the file's "
     "benchmark compares with (torch.softmax(x, dim=-1))", call("x", "torch.softmax(x, dim=-1)")),
    ("01624cc", KD + "softmax.py", "naive_softmax", "the file's naive_softmax: torch ops "
     "(row max, subtract, exp, row sum, divide), five kernels", call("x", "naive_softmax(x)")),
    ("01624cc", KD + "softmax.py", "row_w8", "the file's Triton softmax: one program a row, the "
     "whole row in one next-power-of-2 block, 8 warps for blocks over 2047 (the 16-warp branch "
     "unreachable)", call("x", "softmax(x)")),
    ("b569b8c", KD + "softmax_native.py", "row_w16", "'softmax_native': the same kernel, warps "
     "rewritten to 16 for blocks of 8192 .. 32767 (32 above)", call("x", "softmax_native_fwd(x)")),
    ("b121429", KD + "softmax_online_v2.py", "online_v2", "'optimize softmax kernel': one program "
     "a row, online max / normaliser kept per lane over 4096-column tiles, a second pass writing "
     "exp(x - m) / z", call("x", "softmax_onlinev2(x)")),
    ("b569b8c", KD + "softmax_split.py", "split", "split softmax: a logsumexp kernel a "
     "(tile, row), a combining kernel a row, then an exp(x - logz) kernel a (tile, row)",
     call("x", "softmax_split(x)")),
]

# ---------------------------------------------------------------- lite_llama RMSNorm
RMS_CALL = call("x, w", "rmsnorm(x, w, 1e-5)")
RMSNORM_STEPS = [
    ("01624cc", KD + "rmsnorm.py", "torch_rms_norm", "the torch line the file's test compares with "
     "(torch_rms_norm in fp32, cast back)", call(
         "x, w", "torch_rms_norm(x.to(torch.float32), w.to(torch.float32), 1e-5).to(x.dtype)")),
    ("01624cc", KD + "rmsnorm.py", "rows_block512", "one program a row, two loops (sum of squares, "
     "then normalise and scale) over 512-column blocks (MAX_FUSED_SIZE = 1024 // 2), 4 warps",
     RMS_CALL),
    ("d0e7a09", KD + "rmsnorm.py", "rows_block_row", "'optimize rmsnorm kernel': the block grown "
     "to the whole row (MAX_FUSED_SIZE = 65536 // 2), one iteration of each loop", RMS_CALL),
    ("158a577", KD + "rmsnorm.py", "rows_warps", "'optimized rmsnorm kernel': whole-row block from "
     "calculate_settings, warps min(max(BLOCK // 256, 1), 8), x loaded as fp32 in the second loop",
     RMS_CALL),
    ("01624cc", KD + "rmsnorm_layer.py", "layer_block16384", "the second module's kernel: two "
     "loops over a block fixed at 16384 columns, 8 warps", call("x, w", "rmsnorm_forward(x, w, 1e-5)")),
    ("1866905", KD + "rmsnorm_layer.py", "layer_liger", "'add optimized rmsnorm kernel faster than "
     "original': Liger-Kernel's kernel, one block a row loaded once, rsqrt, llama casting, warps "
     "from calculate_settings", call("x, w", "rmsnorm_fwd(x, w, 1e-5)")),
]

# ---------------------------------------------------------------- learn-triton matmul, bmm, softmax
MMF = "multiplication/multiplication.py"
MATMUL_STEPS = [
    ("8a7cfb2", MMF, "torch_matmul", "the torch line of the file's (commented) check "
     "(torch.matmul(x, y), fp16)", call("a, b", "torch.matmul(a, b)")),
    ("8d28fd7", MMF, "naive_tile16", "a 2-D grid of 16 x 16 output tiles, K loop of 16 x 16 "
     "tl.dot, fp32 output", call("a, b", "matmul(a, b)")),
    ("8a7cfb2", MMF, "grouped_autotune", "'super-grouped block matmul, with autotuning': a 1-D "
     "grid mapped to grouped tiles (GROUP_SIZE_M 8), autotuned over 16 tile configurations, fp16 "
     "output", call("a, b", "matmul(a, b, dtype=torch.float16)")),
]
BMM = "multiplication/batch_matmul.py"
BMM_STEPS = [
    ("618c315", BMM, "torch_matmul", "the torch line of the file's (commented) check "
     "(torch.matmul(x, y))", call("x, y", "torch.matmul(x, y)")),
    ("618c315", BMM, "batched_autotune", "a (batch, M tiles, N tiles) grid, K loop of tl.dot, "
     "autotuned over 16 tile configurations, fp16 output",
     call("x, y", "matmul(x, y, dtype=torch.float16)")),
]
DV_SOFTMAX_STEPS = [
    (None, None, "torch_softmax", "torch.softmax(x, dim=-1), the op the file implements",
     call("x", "torch.softmax(x, dim=-1)")),
    ("9ce7c33", "softmax/softmax.py", "rows32_block", "32 rows a program, the whole row in one "
     "next-power-of-2 block, max / exp / sum / divide", call("x", "softmax(x)")),
]

# ---------------------------------------------------------------- gashon RMSNorm
GS_STEPS = [
    ("24338e9", "main.py", "torch_autograd", "RMSNormAutogradFuncClass's forward: torch ops "
     "(x * x, sum, rsqrt, two multiplies)", call("x, g", "RMSNormAutogradFuncClass.apply(x, g)")),
    ("24338e9", "main.py", "triton_fwd", "RMSNormTritonAutogradFuncClass's forward: a (M, L) grid, "
     "one program a row, two loops over 128-column blocks", call(
         "x, g", "RMSNormTritonAutogradFuncClass.apply(x, g)")),
]


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public63")
    setkit.clear_set(args.out)
    fams = [
        family(args.mirror, args.out, "p63-ll-softmax", LL, SOFTMAX_STEPS, "bench_p63_ll_softmax.py",
               "lite_llama's softmax kernels over its history, fp32 x (2048, 16384) (the online "
               "kernel's benchmark sweeps m up to 4096 and n up to 32768). softmax.py at b121429 "
               "(softmax_fwd through calculate_settings) launches the same kernel with the same "
               "block and warps as softmax_native.py at b569b8c and is left out.",
               "the file's own function (or its benchmark's torch line) on x"),
        family(args.mirror, args.out, "p63-ll-rmsnorm", LL, RMSNORM_STEPS, "bench_p63_ll_rmsnorm.py",
               "lite_llama's RMSNorm kernels (two modules) over its history, fp16 x (16384, 4096) "
               "drawn as the test draws it (-2.3 + 0.5 * randn), fp16 weight (rand), eps 1e-5; "
               "output fp16. The files' `from .utils import ...` lines are replaced by utils.py at "
               "the same commit (marked KFORECAST).",
               "the file's own function (or its test's torch line) on (x, w)"),
        family(args.mirror, args.out, "p63-dv-matmul", DV, MATMUL_STEPS, "bench_p63_dv_matmul.py",
               "learn-triton's matmul kernels, fp16 a (4096, 4096) @ b (4096, 4096).",
               "the file's own matmul (or its check's torch line) on (a, b)"),
        family(args.mirror, args.out, "p63-dv-bmm", DV, BMM_STEPS, "bench_p63_dv_bmm.py",
               "learn-triton's batched matmul, fp16 x (32, 1024, 1024) @ y (32, 1024, 1024). "
               "The earlier commits' kernels (74e6365, 81d75eb) add the batch stride once "
               "instead of per program and do not advance along K (wrong outputs) and are left out.",
               "the file's own matmul (or its check's torch line) on (x, y)"),
        family(args.mirror, args.out, "p63-dv-softmax", DV, DV_SOFTMAX_STEPS, "bench_p63_dv_softmax.py",
               "learn-triton's softmax, fp32 x (32768, 1024). The file has no torch check: the "
               "baseline is ours.", "the file's own softmax on x"),
        family(args.mirror, args.out, "p63-gs-rmsnorm", GS, GS_STEPS, "bench_p63_gs_rmsnorm.py",
               "gashon's RMSNorm forward, fp32 x (250, 250, 1024) (benchmark.py: batch 250, last "
               "dims 1024 .. 8192), weight (1024,), eps 1e-5. main.py imports the kernels from "
               "cs336_systems.kernel.triton_util: triton_util.py (same commit) is inlined there, "
               "without its CUDA_LAUNCH_BLOCKING=1 line (marked KFORECAST).",
               "the file's own autograd function's apply on (x, g)"),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
