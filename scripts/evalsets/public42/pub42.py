"""Builds public evaluation set 42 ("p42-" families, split "public42", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public42/pub42.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public42

Sources (fetched with the session's `fetch` tool first):
- Bhavikupadhyay/triton-kernels (Triton, one author's kernels rewritten commit by commit, each
  commit message saying what the step changes): kernels/convolution/conv1d.py at the six commits
  that touch it (direct kernel, 2-D outer-product tile, constexpr K, tl.dot GEMM step, implicit
  GEMM rewrite, two-level loop), kernels/convolution/conv2d.py at its five commits (implicit GEMM,
  2-D spatial tiling, weight transpose + runtime K, constexpr K again, the revert to runtime K),
  the causal attention ladder kernels/attention/sdpa.py, flash_attention_v1.py and
  flash_attention_v2.py (as first committed), and kernels/matmul/naive_matmul.py and
  tiled_matmul.py (HEAD);
- ai-compiler-study/triton-kernels (Triton): the RMSNorm forward of the Flux kernels at the
  commits that change it: ec10009 (first kernel, a loop over column blocks), e27cf1b (one row a
  program in one tile, unsloth's calculate_settings), 90f83b0 ("calculate multiple rows": 8 rows
  a program);
- guangong789/CUDA_Learn (CUDA with host code): src/sgemm/sgemm_v0..v6.cu with
  include/sgemm_global.cuh (a float32 SGEMM ladder, one file a step: global memory, shared
  memory, blocking, float4, register tiling, outer product with transposed A tile, double
  buffer), sizes as compile-time constants in the header.

A Triton version is the source file at one commit, verbatim, plus a `kf_run` entry point marked
KFORECAST that calls the source's own wrapper as its benchmark does (the wrapper launches the
kernel with its grid); the ai-compiler-study module's import of its package's
`calculate_settings` is replaced by that commit's utils.py, inlined (marked KFORECAST). A CUDA
version is the source file with its header inlined where it first #includes it (a second
#include of it commented out), less main(), plus an `extern "C" kf_run` (KFORECAST) holding
main()'s launch configuration lines and its launch, on the adapter's device buffers. Steps are
the authors' own (commit messages, file names), never chosen by speed. Adapters
(`adapters/bench_p42_*.py`) are ours. The builder replaces the whole set folder but
`measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402
from cpp_cut import cut_function  # noqa: E402

TEXT = setkit.SetText("Evaluation set public42", "scripts/evalsets/public42/pub42.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public42"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {
    "p42-bu-conv1d/conv1d_5896359.py":
        "does not compile: `tl.arange(0, BLOCK_K)` with BLOCK_K = K * C_PER_TILE computed in the kernel "
        "body (CompilationError: arange's arguments must be of type tl.constexpr); the author's next "
        "commit, c206af9, says so and splits the loop in two",
    "p42-bu-attention/flash_attention_v2.py":
        "wrong, 612529 of 4194304 elements off the float64 causal reference (rel L2 0.22): its unmasked "
        "loop A steps by BLOCK_N from 0 to q_start, so with an autotuned config where BLOCK_N > BLOCK_M "
        "(32 x 64) its last tile reaches keys past q_start without the causal mask; the author's T4 "
        "tests passed with another config",
}
MEASURED_DAY = "2026-11-27"


def py_version(out, rel, repo, commit, path, what, src, entry):
    """A Triton program: provenance, the source verbatim, the KFORECAST entry point."""
    text = (TEXT.py_line_header(repo.name, commit, path, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            "# KFORECAST entry point (ours): " + entry[0] + "\n" + entry[1])
    setkit.write(os.path.join(out, rel), text)
    return rel


def family(out, fam, files, repo, adapter, style, notes):
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style=style, notes=notes)
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


def commit_steps(repo, path, steps, fn):
    """(full hash, source) of `path` at each short commit of `steps`, checking the wrapper."""
    res = []
    for short, _what in steps:
        full = repo.git("rev-parse", short).strip()
        src = repo.show(path, full)
        if f"def {fn}(" not in src:
            raise SystemExit(f"pub42.py: no {fn}() in {path} at {short}")
        res.append((full, src))
    return res


# ---------------------------------------------------------------- Bhavikupadhyay conv1d
BU_CONV1D = [
    ("77f588d", "feat: direct conv1d kernel, tiled output, autotuned BLOCK_N_OUT"),
    ("73db7fe", "fix: 2D (BLOCK_C_OUT x BLOCK_N_OUT) outer-product tile to cut redundant x reads"),
    ("326972f", "fix: make K tl.constexpr so the k-loop unrolls"),
    ("0aa3bd6", "fix: replace the outer-product loop with a tl.dot GEMM step (K_PAD padding)"),
    ("5896359", "feat: implicit GEMM rewrite (tl.dot over CK = C_in x K, no C_out fan-out)"),
    ("c206af9", "fix: two-level loop (outer C_in tiles, inner tl.static_range(K))"),
]


def bu_commit_family(mirror, out, fam, path, steps, fn, adapter, notes):
    """One Bhavikupadhyay kernel file at each commit of `steps`, called as its benchmark does."""
    repo = setkit.Repo(mirror, "Bhavikupadhyay/triton-kernels")
    files = []
    for (short, what), (full, src) in zip(steps, commit_steps(repo, path, steps, fn)):
        entry = (f"the file's benchmark call `{fn}(x, w)`.", f"def kf_run(x, w):\n    return {fn}(x, w)\n")
        files.append(py_version(out, f"{fam}/{fn}_{short}.py", repo, full, path,
                                f"{fn} at commit {short}: {what}.", src, entry))
    return family(out, fam, files, repo, adapter, "triton",
                  notes + "; ".join(f"{s} {w}" for s, w in steps) + ".")


def bu_conv1d(mirror, out):
    return bu_commit_family(
        mirror, out, "p42-bu-conv1d", "kernels/convolution/conv1d.py", BU_CONV1D, "conv1d",
        "bench_p42_bu_conv1d.py",
        "valid 1-D convolution, no bias, float32 x (1, 128, 131072) and weight (128, 128, 7) "
        "(the file's benchmark: B = 1, C_in = C_out = 128, K = 7, its largest N = 2^17). One "
        "author's kernel at every commit that touches the file, in commit order: ")


# ---------------------------------------------------------------- Bhavikupadhyay conv2d
BU_CONV2D = [
    ("575d4e5", "feat: implicit GEMM 2D convolution, two-level loop (C_in tiles x tl.static_range(K^2))"),
    ("daaaa38", "fix: 2D spatial tiling for coalesced x loads (one row per pid_h, BLOCK_W columns "
                "per pid_w)"),
    ("1260e31", "perf: weight transpose + runtime K + C_PER_TILE=64 configs for coalesced loads"),
    ("165ea2f", "perf: restore K constexpr + tl.static_range for software pipelining"),
    ("5d70b0c", "revert: runtime K (not constexpr); static_range + large tiles caused register "
                "explosion"),
]


def bu_conv2d(mirror, out):
    return bu_commit_family(
        mirror, out, "p42-bu-conv2d", "kernels/convolution/conv2d.py", BU_CONV2D, "conv2d",
        "bench_p42_bu_conv2d.py",
        "valid 2-D convolution, square 3 x 3 kernel, no bias, float32 x (1, 64, 512, 512) and "
        "weight (64, 64, 3, 3) (the file's benchmark: B = 1, C_in = C_out = 64, K = 3, its "
        "largest H = W = 2^9). One author's kernel at every commit that touches the file: ")


# ---------------------------------------------------------------- Bhavikupadhyay attention
BU_ATTN = [
    ("f0a5740", "kernels/attention/sdpa.py", "sdpa",
     "feat: SDPA kernel, causal masking with K/V tile skipping (32-row tiles, one K/V tile loop "
     "masked throughout)"),
    ("e18c053", "kernels/attention/flash_attention_v1.py", "flash_attention_v1",
     "feat: Flash Attention v1, online softmax, O(N*d) HBM, causal"),
    ("a925d85", "kernels/attention/flash_attention_v2.py", "flash_attention_v2",
     "feat: Flash Attention v2, autotuned tiles, split masked/unmasked K/V loop"),
]


def bu_attention(mirror, out):
    repo = setkit.Repo(mirror, "Bhavikupadhyay/triton-kernels")
    fam = "p42-bu-attention"
    files = []
    for short, path, fn, what in BU_ATTN:
        full = repo.git("rev-parse", short).strip()
        src = repo.show(path, full)
        if f"def {fn}(" not in src:
            raise SystemExit(f"pub42.py: no {fn}() in {path} at {short}")
        entry = (f"the file's benchmark call `{fn}(q, k, v)`.",
                 f"def kf_run(q, k, v):\n    return {fn}(q, k, v)\n")
        files.append(py_version(out, f"{fam}/{fn}.py", repo, full, path,
                                f"{fn} as first committed ({short}): {what}.", src, entry))
    return family(out, fam, files, repo, "bench_p42_bu_attention.py", "triton",
                  "causal scaled dot-product attention, float32 q, k, v of (4, 8, 2048, 64) (the files' "
                  "benchmarks: B = 4, H = 8, d = 64, N up to 1024 for sdpa and 4096 for the flash "
                  "versions), out float32. The author's causal attention steps in commit order (the "
                  "non-causal naive_attention and the packed-layout multi_head_attention compute other "
                  "functions and are left out): " + "; ".join(f"{f} ({s}) {w}" for s, _p, f, w in BU_ATTN)
                  + ".")


# ---------------------------------------------------------------- Bhavikupadhyay matmul
def bu_matmul(mirror, out):
    repo = setkit.Repo(mirror, "Bhavikupadhyay/triton-kernels")
    fam = "p42-bu-matmul"
    steps = [("kernels/matmul/naive_matmul.py", "naive_matmul",
              "fixed 32 x 32 x 32 tiles, row-major program order, tl.dot, no autotuning"),
             ("kernels/matmul/tiled_matmul.py", "tiled_matmul",
              "grouped (GROUP_SIZE 8) program order for L2 reuse, 8 autotuned tile/stage configs")]
    files = []
    for path, fn, what in steps:
        src = repo.show(path)
        if f"def {fn}(" not in src:
            raise SystemExit(f"pub42.py: no {fn}() in {path}")
        entry = (f"the file's benchmark call `{fn}(A, B)`.", f"def kf_run(a, b):\n    return {fn}(a, b)\n")
        files.append(py_version(out, f"{fam}/{fn}.py", repo, repo.commit, path, f"{fn}: {what}.", src, entry))
    return family(out, fam, files, repo, "bench_p42_bu_matmul.py", "triton",
                  "float32 C = A @ B, 4096 x 4096 (the files' largest benchmark size), tl.dot in its "
                  "default (TF32) precision. The README's Phase 4 steps: "
                  + "; ".join(f"{f} {w}" for _p, f, w in steps) + " (batched_matmul computes another "
                  "function).")


# ---------------------------------------------------------------- ai-compiler-study RMSNorm
AC_STEPS = [
    ("ec10009", "normalization.py", "add rms norm kernel: one row a program, loops over column "
                                     "blocks twice (sum of squares, then scale), mean and rstd stored"),
    ("e27cf1b", "triton_kernels/kernels/normalization.py",
     "the simplified kernel (since 0ab082b): one row a program in one tile, block and warps from "
     "calculate_settings, rstd stored"),
    ("90f83b0", "triton_kernels/kernels/normalization.py",
     "modify rmsnorm - calculate multiple rows: 8 rows a program, a 2-D tile, weight loaded "
     "evict_last"),
]
AC_IMPORT = "from triton_kernels.kernels.utils import calculate_settings\n"


def ac_rmsnorm(mirror, out):
    repo = setkit.Repo(mirror, "ai-compiler-study/triton-kernels")
    fam = "p42-ac-rmsnorm"
    files = []
    for short, path, what in AC_STEPS:
        full = repo.git("rev-parse", short).strip()
        src = repo.show(path, full)
        if "rms_norm = _rms_norm.apply" not in src:
            raise SystemExit(f"pub42.py: no rms_norm in {path} at {short}")
        if AC_IMPORT in src:
            utils = repo.show("triton_kernels/kernels/utils.py", full)
            src = src.replace(AC_IMPORT, "# KFORECAST: " + AC_IMPORT
                              + "# KFORECAST: triton_kernels/kernels/utils.py at this commit, inlined:\n"
                              + utils.rstrip() + "\n# KFORECAST: end of utils.py\n")
        entry = ("the functional `rms_norm(x, scale)` as the author's benchmarks/rms_norm.py calls it "
                 "(forward).", "def kf_run(x, scale):\n    return rms_norm(x, scale)\n")
        files.append(py_version(out, f"{fam}/rms_norm_{short}.py", repo, full, path,
                                f"RMSNorm forward at commit {short}: {what}.", src, entry))
    return family(out, fam, files, repo, "bench_p42_ac_rmsnorm.py", "triton",
                  "RMSNorm forward y = x * rsqrt(mean(x^2) + 1e-6) * scale over the last dimension, "
                  "float32 x of (4, 24, 4096, 128) (benchmarks/rms_norm.py: batch 4, 24 heads, head_dim "
                  "128, its largest seq_len 4096; Flux's query/key norm) and scale (128,). The commits "
                  "that change the forward kernel (0ab082b simplifies it to e27cf1b's form; ae6fb66 and "
                  "e27cf1b move it and add the backward): "
                  + "; ".join(f"{s} {w}" for s, _p, w in AC_STEPS) + ".")


# ---------------------------------------------------------------- guangong789 SGEMM (CUDA)
GG_STEPS = [("v0", "global memory, one thread an element, 32 x 32 blocks"),
            ("v1", "shared memory, 32 x 32 x 32 tiles"),
            ("v2", "blocking, 16 x 16 threads computing 2 x 2 elements each"),
            ("v3", "float4 loads, 32 x 32 x 32 tiles, 8 x 32 threads computing 1 x 4"),
            ("v4", "register tiling, 4 x 4 elements a thread, 8 x 8 threads"),
            ("v5", "outer product with the A tile transposed in shared memory"),
            ("v6", "register tiling with double-buffered shared memory")]
GG_HEADER = "include/sgemm_global.cuh"
GG_SIZES = ("constexpr int M{1025};", "constexpr int K{1026};", "constexpr int N{1027};")


def gg_sgemm(mirror, out):
    repo = setkit.Repo(mirror, "guangong789/CUDA_Learn")
    header = repo.show(GG_HEADER)
    for s in GG_SIZES:
        if s not in header:
            raise SystemExit(f"pub42.py: {GG_HEADER} no longer says `{s}` (the adapter's sizes)")
    fam = "p42-gg-sgemm"
    files = []
    inc = "#include <sgemm_global.cuh>"
    for v, what in GG_STEPS:
        path = f"src/sgemm/sgemm_{v}.cu"
        src = repo.show(path)
        if inc not in src:
            raise SystemExit(f"pub42.py: {path} does not include sgemm_global.cuh")
        i = src.index(inc)
        rest = src[i + len(inc):].replace(inc, "// KFORECAST: " + inc + " (already inlined above)")
        src = (src[:i] + f"// KFORECAST: {inc} -- the source's {GG_HEADER}, inlined below\n"
               + header.rstrip() + f"\n// KFORECAST: end of {GG_HEADER}" + rest)
        main_fn = cut_function(src, "main", with_comment=False)
        body = main_fn[main_fn.index("{") + 1:main_fn.rstrip().rindex("}")]
        lines = body.split("\n")
        start = next(k for k, ln in enumerate(lines) if re.match(r"\s*constexpr unsigned int ", ln))
        end = next(k for k, ln in enumerate(lines) if "<<<" in ln)
        if "(mA_device, mB_device, mC_device)" not in lines[end]:
            raise SystemExit(f"pub42.py: {path}: main()'s launch is not on mA/mB/mC_device")
        launch = "\n".join(ln.rstrip() for ln in lines[start:end + 1])
        j = src.index(main_fn.strip("\n"))
        text = (src[:j] + "// KFORECAST: the source's main() (allocation, CPU reference, check) left out here\n"
                + src[j + len(main_fn.strip("\n")):].rstrip() + "\n\n"
                "// KFORECAST entry point (ours): main()'s launch configuration and launch, on the adapter's\n"
                "// device buffers (A: M x K_PAD, B: K x N_PAD, C: M x N_PAD float32, the header's padded layout).\n"
                "extern \"C\" void kf_run(float *mA_device, float *mB_device, float *mC_device) {\n"
                + launch + "\n}\n")
        rel = f"{fam}/sgemm_{v}.cu"
        setkit.write(os.path.join(out, rel),
                     TEXT.header(repo, [path, GG_HEADER], f"sgemm_{v}: {what}.") + text.rstrip() + "\n")
        files.append(rel)
    return family(out, fam, files, repo, "bench_p42_gg_sgemm.py", "host-code",
                  "float32 C = A @ B with M = 1025, K = 1026, N = 1027 (the compile-time sizes the header "
                  "holds at HEAD: the last case bm_sgemm.sh writes there, 'pathological'), rows padded to "
                  "multiples of 4 (K_PAD = N_PAD = 1028) as the header lays them out; A and B uniform in "
                  "[-1, 1) (random_m), pad columns zero. The author's files v0-v6: "
                  + "; ".join(f"{v} {w}" for v, w in GG_STEPS) + ".")


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public42")
    setkit.clear_set(args.out)
    fams = [bu_conv1d(args.mirror, args.out), bu_conv2d(args.mirror, args.out),
            bu_attention(args.mirror, args.out), bu_matmul(args.mirror, args.out),
            ac_rmsnorm(args.mirror, args.out), gg_sgemm(args.mirror, args.out)]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
