"""Builds public evaluation set 45 ("p45-" families, split "public45", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public45/pub45.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public45

Sources (fetched with the session's `fetch` tool first), all Triton:
- nothiny/triton-learn: one author's Triton learning project, phase by phase (README's road map:
  phase2_compute "01_matmul_naive ... 11_matmul_persistent", "12_flash_attention_v1",
  "13_flash_attention_v2", phase3_production "block ptr kernels"): its GEMM steps (fixed-tile
  naive, autotuned tiles, split-K, stream-K, persistent, block pointers), its attention steps
  (FlashAttention v1, v2, the GQA kernel, the production v3) and its fused GEMM + bias +
  activation at the two commits that change it (3b04c52 first version; da92424 "expand autotune
  configs from 4 to 20+, add unfused_triton_* baseline"), with the file's own unfused baselines;
- akshay919191/cuda-triton-kernels-lab: one author's batched fp16 Triton matmul rewritten commit
  by commit (kernels/triton/matmul/kernel.py "matmul baseline", kernel_baseline.py "baseline added",
  kernel_optimized.py "grouping added", "optmizzations added", "auto tune added").

A version is the source file at one commit, verbatim, plus a `kf_run` entry point marked
KFORECAST that calls the file's own wrapper (which launches the kernel with its grid) as the
file's main() or benchmark does. The da92424 fused file loads its sibling 02_matmul_tiled.py by
path at import; that sibling (same commit) is written beside it, verbatim, as a companion, not a
version. Steps are the authors' own (file numbers, README road map, commit messages), never
chosen by speed. Adapters (`adapters/bench_p45_*.py`) are ours. The builder replaces the whole
set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public45", "scripts/evalsets/public45/pub45.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public45"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-27"

NT = "nothiny/triton-learn"
AK = "akshay919191/cuda-triton-kernels-lab"


def py_version(out, rel, repo, commit, path, what, src, entry):
    """A Triton program: provenance, the source verbatim, the KFORECAST entry point."""
    text = (TEXT.py_line_header(repo.name, commit, path, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            "# KFORECAST entry point (ours): " + entry[0] + "\n" + entry[1])
    setkit.write(os.path.join(out, rel), text)
    return rel


def family(out, fam, files, repo, adapter, notes):
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton", notes=notes)
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


def source(repo, path, commit, fn):
    """(full hash, text) of `path` at `commit` (None: HEAD), checking the wrapper `fn` is there."""
    full = repo.git("rev-parse", commit).strip() if commit else repo.commit
    src = repo.show(path, full)
    if f"def {fn}(" not in src:
        raise SystemExit(f"pub45.py: no {fn}() in {path} at {full[:7]}")
    return full, src


# ---------------------------------------------------------------- nothiny GEMM ladder
NT_MATMUL = [
    ("phase2_compute/01_matmul_naive.py", "matmul_naive", "matmul_naive(a, b)",
     "01 fixed 64 x 128 x 32 tiles, num_warps 4, num_stages 3, no autotune"),
    ("phase2_compute/02_matmul_tiled.py", "matmul_tiled", "matmul_tiled(a, b)",
     "02 @triton.autotune over 24 tile / warp / stage configs"),
    ("phase2_compute/04_matmul_split_k.py", "matmul_split_k", "matmul_split_k(a, b)",
     "04 split-K (split_k = 4 by default), 128 x 128 x 32 tiles, fp32 atomic_add buffer cast back"),
    ("phase2_compute/10_matmul_stream_k.py", "matmul_stream_k", "matmul_stream_k(a, b)",
     "10 stream-K: 132 CTAs share the K iterations through an atomic work counter"),
    ("phase2_compute/11_matmul_persistent.py", "matmul_persistent", "matmul_persistent(a, b)",
     "11 persistent kernel: 132 CTAs loop over output tiles taken from an atomic counter"),
    ("phase3_production/01_matmul_block_ptr.py", "matmul_block_ptr", "matmul_block_ptr(a, b)",
     "phase 3 01 block pointers (tl.make_block_ptr / tl.advance), 8 autotuned configs"),
]


def nt_head_files(mirror, out, fam, steps, args, how):
    """The nothiny files of `steps` at HEAD, each with a kf_run(`args`) calling its wrapper
    (`how`: the entry comment, with {call} for the call)."""
    repo = setkit.Repo(mirror, NT)
    files = []
    for path, fn, call, what in steps:
        full, src = source(repo, path, None, fn)
        entry = (how.format(call=call), f"def kf_run({args}):\n    return {call}\n")
        name = ("p3_" if path.startswith("phase3") else "") + os.path.basename(path)
        files.append(py_version(out, f"{fam}/{name}", repo, full, path, f"{fn}: {what}.", src, entry))
    return repo, files


def nt_matmul(mirror, out):
    fam = "p45-nt-matmul"
    repo, files = nt_head_files(mirror, out, fam, NT_MATMUL, "a, b",
                                "the file's wrapper called as its main() calls it, `{call}` (defaults kept).")
    return family(out, fam, files, repo, "bench_p45_nt_matmul.py",
                  "fp16 C = A @ B, M = N = K = 4096 (benchmarks/bench_matmul.py's quick and full size, "
                  "'LLM FFN intermediate size'), fp32 accumulation, fp16 out. The author's GEMM files in "
                  "road-map order: " + "; ".join(w for _p, _f, _c, w in NT_MATMUL) + ". Left out: "
                  "03_matmul_autotuned.py (its autotune space is about 200 configs, several minutes of "
                  "compiling per process at this size, more than this set's one device call allows), "
                  "05-09 (other functions: fused epilogue, transposes, batched, grouped, weight gradient).")


# ---------------------------------------------------------------- nothiny attention steps
NT_ATTN = [
    ("phase2_compute/12_flash_attention_v1.py", "flash_attention_v1", "flash_attention_v1(q, k, v)",
     "FlashAttention v1: online softmax, 32 x 32 Q / KV tiles"),
    ("phase2_compute/13_flash_attention_v2.py", "flash_attention_v2",
     "flash_attention_v2(q, k, v, causal=False)",
     "FlashAttention v2: 64 x 64 tiles, deferred normalisation, optional causal mask (off)"),
    ("phase2_compute/15_grouped_query_attention.py", "grouped_query_attention",
     "grouped_query_attention(q, k, v, causal=False)",
     "GQA flash kernel, one program a KV head and Q tile looping over the head group (here one "
     "Q head a KV head), 64 x 64 tiles"),
    ("phase3_production/03_flash_attention_v3.py", "flash_attention_v3",
     "flash_attention_v3(q, k, v, causal=False)",
     "phase 3 production FlashAttention with block pointers, GQA-aware, autotuned BQ / BV / warps / "
     "stages (16 configs), KV_BLOCK 32"),
]


def nt_attention(mirror, out):
    fam = "p45-nt-attention"
    repo, files = nt_head_files(mirror, out, fam, NT_ATTN, "q, k, v",
                                "the file's wrapper, `{call}` (non-causal, as the v1 step computes).")
    return family(out, fam, files, repo, "bench_p45_nt_attention.py",
                  "non-causal attention softmax(q k^T / sqrt(d)) v, fp16 q, k, v of (2, 32, 2048, 64) "
                  "(benchmarks/bench_attention.py: batch 2, 32 heads, head_dim 64, seq_len 2048 of its "
                  "sweep), fp16 out; causal off because v1 has no mask. The author's attention steps in "
                  "road-map order: " + "; ".join(f"{os.path.basename(p)} {w}" for p, _f, _c, w in NT_ATTN)
                  + ". Left out: 14 (backward), 16/17/21 (sliding window, bias, causal softmax: other "
                  "functions).")


# ---------------------------------------------------------------- nothiny fused GEMM epilogue
NT_FUSED_PATH = "phase2_compute/05_matmul_fused_bias_act.py"
NT_FUSED = [
    ("3b04c52", "fused_matmul", "fused_matmul(a, b, bias, activation=\"gelu\")", "fused",
     "first version (3b04c52, 'reorganize phase2 into matmul (01-06) + attention'): GEMM + bias + "
     "activation in one kernel, 4 autotuned tile configs"),
    ("da92424", "fused_matmul", "fused_matmul(a, b, bias, activation=\"gelu\")", "fused",
     "da92424 'expand autotune configs from 4 to 20+': the same kernel with 02_matmul_tiled's "
     "search space"),
    ("da92424", "unfused_triton_matmul_bias_act",
     "unfused_triton_matmul_bias_act(a, b, bias, activation=\"gelu\")", "unfused_triton",
     "da92424's 'FAIR baseline': 02_matmul_tiled's autotuned GEMM, then bias and GELU as torch ops"),
    ("da92424", "unfused_cublas_matmul_bias_act",
     "unfused_cublas_matmul_bias_act(a, b, bias, activation=\"gelu\")", "unfused_cublas",
     "da92424's cuBLAS baseline: a @ b, then bias and GELU as torch ops"),
]


def nt_fused(mirror, out):
    repo = setkit.Repo(mirror, NT)
    fam = "p45-nt-fused-bias-act"
    files = []
    for short, fn, call, tag, what in NT_FUSED:
        full, src = source(repo, NT_FUSED_PATH, short, fn)
        entry = (f"the file's `{call}`, the GELU case of its main().",
                 f"def kf_run(a, b, bias):\n    return {call}\n")
        files.append(py_version(out, f"{fam}/fused_bias_act_{short}_{tag}.py", repo, full, NT_FUSED_PATH,
                                f"{fn} at commit {short}: {what}.", src, entry))
        if "02_matmul_tiled.py" in src:
            sib = "phase2_compute/02_matmul_tiled.py"
            sib_src = repo.show(sib, full)
            text = (TEXT.py_line_header(repo.name, full, sib,
                                        "Companion, not a version: the sibling that the da92424 fused file "
                                        "loads by path at import (02_matmul_tiled.py beside it).")
                    + "# " + setkit.VERBATIM + "\n\n" + sib_src.rstrip() + "\n")
            setkit.write(os.path.join(out, fam, "02_matmul_tiled.py"), text)
    return family(out, fam, files, repo, "bench_p45_nt_fused.py",
                  "fp16 C = GELU_tanh(A @ B + bias), M = N = K = 4096 (da92424's timing sweep: 'Llama 8B: "
                  "seq=4096, Q/K/V', gelu), bias (4096,) fp16. The file at the two commits that change its "
                  "kernel (edde20b between them only changes main()'s timing), and the two unfused baselines the second commit adds for comparison: "
                  + "; ".join(f"{s} {t}: {w}" for s, _f, _c, t, w in NT_FUSED) + ". The da92424 versions "
                  "load 02_matmul_tiled.py (same commit) from their own folder; it is written there as "
                  "a companion.")


# ---------------------------------------------------------------- nothiny cumsum rewrite
NT_CUMSUM = [
    ("66e7cae", "phase1_fundamentals/14_cumsum.py", "cumsum_full",
     "first version ('expand to 23 kernels'): a sequential loop of BLOCK_SIZE loads and stores per "
     "program, then the carry propagated by host-side Python loops over the blocks (cumsum_full, "
     "the wrapper its main() benchmarks; its `cumsum` scans within blocks only)"),
    ("da92424", "phase1_fundamentals/19_cumsum.py", "cumsum",
     "'rewrite cumsum with associative_scan': tl.associative_scan within a block, block sums "
     "scanned by torch in float64, an add_carry_kernel"),
]
PROFILER = "utils/profiler.py"


def nt_cumsum(mirror, out):
    repo = setkit.Repo(mirror, NT)
    fam = "p45-nt-cumsum"
    files = []
    prof = None
    for short, path, fn, what in NT_CUMSUM:
        full, src = source(repo, path, short, fn)
        p = repo.show(PROFILER, full)
        if prof is not None and p != prof:
            raise SystemExit("pub45.py: utils/profiler.py differs between the cumsum commits")
        prof = p
        entry = (f"the wrapper its main() benchmarks, `{fn}(x)`.", f"def kf_run(x):\n    return {fn}(x)\n")
        files.append(py_version(out, f"{fam}/cumsum_{short}.py", repo, full, path,
                                f"{fn} at commit {short}: {what}.", src, entry))
    # Both files put the folder above theirs on sys.path and import utils.profiler at load
    # (bench_compare for main()); the set's root gets that file, verbatim, as a companion.
    text = (TEXT.py_line_header(repo.name, full, PROFILER,
                                "Companion, not a version: the module the p45-nt-cumsum files import "
                                "from the folder above theirs (identical at 66e7cae and da92424).")
            + "# " + setkit.VERBATIM + "\n\n" + prof.rstrip() + "\n")
    setkit.write(os.path.join(out, PROFILER), text)
    setkit.write(os.path.join(out, "utils", "__init__.py"), "# KFORECAST: package marker for the companion utils/profiler.py\n")
    return family(out, fam, files, repo, "bench_p45_nt_cumsum.py",
                  "inclusive prefix sum of a float32 vector of 65536 uniform [0, 1) values (the files' "
                  "main(): torch.rand(65536), 'Performance'). The file at the two commits that change its "
                  "kernels (2baaf3f between them only renames it): "
                  + "; ".join(f"{s} {w}" for s, _p, _f, w in NT_CUMSUM) + ". Both import utils.profiler "
                  "from the folder above theirs; that file (same at both commits) is written at the set's "
                  "root as a companion.")


# ---------------------------------------------------------------- akshay batched matmul
AK_STEPS = [
    ("1ad36b7", "kernels/triton/matmul/kernel.py", "matmul baseline: 32 x 32 x 32 tiles, a 3-D grid "
     "(M tiles, N tiles, B*H), Triton's default warps / stages"),
    ("b8c5628", "kernels/triton/matmul/kernel_baseline.py", "baseline added: kernel.py replaced, 128 x 128 x 32 "
     "tiles, 4 warps, 3 stages, tl.max_contiguous hints"),
    ("18e73dd", "kernels/triton/matmul/kernel_optimized.py", "grouping added: GROUP = 2 swizzled program "
     "order over a (B*H, tiles) grid, K-masked loads, fp16 store"),
    ("3d515d1", "kernels/triton/matmul/kernel_optimized.py", "optmizzations added: tl.max_contiguous / "
     "tl.multiple_of hints on the M, N, K offsets"),
    ("07c7060", "kernels/triton/matmul/kernel_optimized.py", "auto tune added: 8 autotuned configs (128 x "
     "128 tiles, KBLOCK 32 / 64, 4 / 8 warps, 2 / 3 stages), HINT_MODE constexpr (default 0)"),
]


def ak_matmul(mirror, out):
    repo = setkit.Repo(mirror, AK)
    fam = "p45-ak-matmul"
    files = []
    for short, path, what in AK_STEPS:
        full, src = source(repo, path, short, "triton_matmul")
        entry = ("the file's wrapper `triton_matmul(x, y)` as its main() calls it (defaults kept).",
                 "def kf_run(x, y):\n    return triton_matmul(x, y)\n")
        files.append(py_version(out, f"{fam}/matmul_{short}.py", repo, full, path,
                                f"triton_matmul at commit {short}: {what}.", src, entry))
    return family(out, fam, files, repo, "bench_p45_ak_matmul.py",
                  "batched fp16 out = x @ y with x (3, 1, 4096, 4096) and y (3, 1, 4096, 4096) (B, H, M, K "
                  "/ K, N: the largest of 07c7060's TEST_SHAPES, (3, 1, 4096, 4096, 4096)), fp32 "
                  "accumulation. One author's kernel at every commit that changes it, in commit order: "
                  + "; ".join(f"{s} {w}" for s, _p, w in AK_STEPS) + ". Left out: int8_quant.py "
                  "(28c15dd 'quant experiment': int8 operands, another function).")


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public45")
    setkit.clear_set(args.out)
    fams = [nt_matmul(args.mirror, args.out), nt_attention(args.mirror, args.out),
            nt_fused(args.mirror, args.out), nt_cumsum(args.mirror, args.out),
            ak_matmul(args.mirror, args.out)]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
