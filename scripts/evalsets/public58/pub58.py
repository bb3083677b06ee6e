"""Builds public evaluation set 58 ("p58-" families, split "public58", kept unseen) from local
copies of two public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public58/pub58.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public58

Sources (fetched with the session's `fetch` tool first), all Triton:
- vanshnawander/learning-path: one author's GPU learning path, whose `12-triton-programming/`
  modules each build an op up in steps inside one file and time the steps against each other
  and against PyTorch: softmax (one-block fused kernel, an autotuned one, the online two-loop
  one), matmul (a 2-D-grid tiled kernel with fixed tiles, the grouped autotuned one), simplified
  flash attention (against the file's standard attention and torch SDPA) and vector add (fixed
  block against autotuned).
- lweitkamp/triton_exercises: the `code/` snippets of a Triton exercise book, a row-sum ladder
  (one row a program, two rows a program, a loop over 8-column blocks), with block pointers.

A version is the source file, verbatim, plus a `kf_run` entry point marked KFORECAST that calls
one of the file's own functions (or the torch line its benchmark or test times against) the way
the file's experiments call it. Several versions of a family can therefore be the same file with
a different entry point: the kernel run differs, as in the author's own comparison tables.
Versions are chosen by what the files say of them, never by speed. Adapters
(`adapters/bench_p58_*.py`) are ours. The builder replaces the whole set folder but
`measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public58", "scripts/evalsets/public58/pub58.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public58"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {
    "p58-vn-attention/triton_flash_attention.py": (
        "wrong in the source's kernel: it rescales its accumulator by l_prev * alpha each K/V "
        "block, where the online softmax needs alpha alone, so the accumulator grows by the row "
        "sums every block and its output is -inf/inf at N = 2048 (32 blocks); the file's own "
        "correctness shapes stop at N = 512"),
}
MEASURED_DAY = "2026-11-27"

VN = "vanshnawander/learning-path"
LW = "lweitkamp/triton_exercises"


def version(out, fam, repo, path, stem, what, body, how):
    src = repo.show(path)
    rel = f"{fam}/{stem}.py"
    text = (TEXT.py_line_header(repo.name, repo.commit, path, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            + "# KFORECAST entry point (ours): " + how + "\n" + body)
    setkit.write(os.path.join(out, rel), text)
    return rel


def family(mirror, out, fam, repo_name, steps, adapter, notes, how):
    repo = setkit.Repo(mirror, repo_name)
    files = [version(out, fam, repo, p, s, w, b, how) for p, s, w, b in steps]
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton",
                 notes=notes + " Versions, in the order used: " + "; ".join(
                     f"{s} ({os.path.basename(p)}) {w}" for p, s, w, _b in steps) + ".")
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


def call(args, expr):
    return f"def kf_run({args}):\n    return {expr}\n"


# ---------------------------------------------------------------- learning-path softmax
SMF = "12-triton-programming/patterns/01_softmax_kernel.py"
SOFTMAX_STEPS = [
    (SMF, "torch_softmax", "the PyTorch line the file's experiment_softmax_performance times "
     "against (F.softmax(x, dim=-1))", call("x", "F.softmax(x, dim=-1)")),
    (SMF, "triton_softmax", "'Fused: 1-2 memory passes': one program a row, the whole row in one "
     "block (next power of 2, at most 8192), max, exp, sum, divide", call("x", "triton_softmax(x)")),
    (SMF, "triton_softmax_autotuned", "'SOFTMAX WITH AUTO-TUNING': the same row kernel with "
     "BLOCK_SIZE and num_warps autotuned over 4 configs (1024/4 .. 8192/16) keyed on n_cols",
     call("x", "triton_softmax_autotuned(x)")),
    (SMF, "triton_online_softmax", "'ONLINE SOFTMAX (FOR LARGE SEQUENCES)': a first loop over "
     "1024-column blocks keeping a running max and rescaled sum, a second loop writing the output",
     call("x", "triton_online_softmax(x)")),
]

# ---------------------------------------------------------------- learning-path matmul
MMF = "12-triton-programming/patterns/02_matmul_kernel.py"
MATMUL_STEPS = [
    (MMF, "torch_matmul", "the PyTorch line the file's experiment_matmul_performance times "
     "against (a @ b, fp32)", call("a, b", "a @ b")),
    (MMF, "triton_matmul_naive", "'NAIVE MATMUL KERNEL': 'naive tiled', a 2-D grid of 64 x 64 "
     "output tiles, 32-wide K steps with masks recomputed each step, tl.dot",
     call("a, b", "triton_matmul_naive(a, b)")),
    (MMF, "triton_matmul_optimized", "'OPTIMIZED MATMUL WITH AUTO-TUNING': a 1-D grid with "
     "GROUP_M = 8 tile grouping for L2, pointer advancing, 8 autotuned tile / stage / warp configs",
     call("a, b", "triton_matmul_optimized(a, b)")),
]

# ---------------------------------------------------------------- learning-path attention
FAF = "12-triton-programming/advanced/01_flash_attention.py"
ATTN_STEPS = [
    (FAF, "standard_attention", "the file's 'STANDARD ATTENTION (FOR COMPARISON)': Q K^T * "
     "scale by torch.matmul, F.softmax, then P V (the N x N scores in memory)",
     call("Q, K, V", "standard_attention(Q, K, V)")),
    (FAF, "torch_sdpa", "the torch line the file's experiment_flash_attention_performance times "
     "against (F.scaled_dot_product_attention(Q, K, V))",
     call("Q, K, V", "F.scaled_dot_product_attention(Q, K, V)")),
    (FAF, "triton_flash_attention", "'FLASH ATTENTION KERNEL (SIMPLIFIED)': a (B, H, N / 64) "
     "grid, each program one 64-query block looping over 64-key K/V blocks with an online "
     "softmax, no autotuning or pipelining hints", call("Q, K, V", "triton_flash_attention(Q, K, V)")),
]

# ---------------------------------------------------------------- learning-path vector add
ADF = "12-triton-programming/basics/01_triton_fundamentals.py"
ADD_STEPS = [
    (ADF, "triton_add", "'YOUR FIRST TRITON KERNEL': vector add, BLOCK_SIZE = 1024",
     call("x, y", "triton_add(x, y)")),
    (ADF, "autotuned_add", "'AUTO-TUNING': the same add with BLOCK_SIZE autotuned over 64 .. 1024 "
     "keyed on n_elements", call("x, y", "autotuned_add(x, y)")),
]

# ---------------------------------------------------------------- triton_exercises row sum
RS = "code/"
ROWSUM_STEPS = [
    (RS + "sum_row.py", "torch_sum", "the torch line the file's test checks against "
     "(inputs.sum(dim=1))", call("A", "A.sum(dim=1)")),
    (RS + "sum_row.py", "sum_row", "one program a row, the whole row as a (1, N) block pointer "
     "load, tl.sum", call("A", "sum_row(A)")),
    (RS + "sum_row_blocked.py", "sum_row_blocked", "BLOCK_M = 2 rows a program, a (2, N) block "
     "pointer, tl.sum over axis 1", call("A", "sum_row_blocked(A)")),
    (RS + "sum_row_blocked_iterative.py", "sum_row_blocked_iterative", "one program a row, a loop "
     "over BLOCK_N = 8 column blocks advancing the block pointer, fp32 accumulator",
     call("A", "sum_row_blocked_iterative(A)")),
]


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public58")
    setkit.clear_set(args.out)
    fams = [
        family(args.mirror, args.out, "p58-vn-softmax", VN, SOFTMAX_STEPS, "bench_p58_vn_softmax.py",
               "learning-path's softmax module (12-triton-programming/patterns), softmax over the "
               "last dimension, fp32 (65536, 1024): the file's 1024-column shapes ((1024, 1024), "
               "(4096, 1024)) with more rows, so the GPU, not the launch, is timed. With more "
               "than 1024 columns the autotuned version's 1024-block config would cover only "
               "part of each row (its kernel has no column loop); at 1024 every config is whole.",
               "the file's own function (or its benchmark's torch line) on x"),
        family(args.mirror, args.out, "p58-vn-matmul", VN, MATMUL_STEPS, "bench_p58_vn_matmul.py",
               "learning-path's matmul module, fp32 (4096, 4096) @ (4096, 4096), the largest size "
               "of the file's experiment_matmul_performance; the Triton kernels' tl.dot on fp32 "
               "runs as tf32, torch's a @ b in full fp32 (torch's default).",
               "the file's own function (or its benchmark's torch line) on (a, b)"),
        family(args.mirror, args.out, "p58-vn-attention", VN, ATTN_STEPS, "bench_p58_vn_attention.py",
               "learning-path's simplified flash attention module, non-causal, fp16 Q, K, V "
               "(4, 16, 2048, 64) (the file's benchmark: B, H, D = 2, 8, 64, N up to 2048, fp16; "
               "batch and heads doubled).",
               "the file's own function (or its benchmark's torch line) on (Q, K, V)"),
        family(args.mirror, args.out, "p58-vn-add", VN, ADD_STEPS, "bench_p58_vn_add.py",
               "learning-path's Triton fundamentals, vector add of fp32 vectors of 2^25 elements "
               "(the file's largest autotuning size is 2^24).",
               "the file's own function on (x, y)"),
        family(args.mirror, args.out, "p58-lw-rowsum", LW, ROWSUM_STEPS, "bench_p58_lw_rowsum.py",
               "triton_exercises' row-sum snippets (code/, commit 'add sum code snippets'), fp32 "
               "(65536, 1024) (the tests use (16, 16) and (32, 16)); M and N are tl.constexpr, "
               "so each shape compiles its own kernel.",
               "the file's own function (or its test's torch line) on A"),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
