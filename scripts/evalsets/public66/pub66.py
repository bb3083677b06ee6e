"""Builds public evaluation set 66 ("p66-" families, split "public66", kept unseen) from local
copies of four public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public66/pub66.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public66

Sources (fetched with the session's `fetch` tool first), all Triton:
- SamuelStentz/triton-kernels: one author's outer-product-mean (AlphaFold's mean over s of
  a_si b_sj) over its history: a torch einsum module, the same module as a matmul, a Triton
  kernel of one program an output element reading columns with a stride, the same kernel
  reading rows of transposed copies, and the unified module's einsum, bmm and chunked bmm
  paths.
- caseyhird/triton_practice: a fused bias + tanh-GELU + dropout + residual add: the eager torch
  function, a first Triton kernel (64 x 128 tiles, tanh), the autotuned kernel with GELU
  through a sigmoid, and its dropout branch moved to a run-time test.
- shizhengLi/cuda-triton-learning: attention, the naive torch bmm / softmax / bmm, a first
  Triton "flash attention" (a loop over head columns assigning into a tensor), its rewrite
  (tl.dot, but a 3-D grid whose column-block programs each redo the whole row block), and
  a "flash attention v2" with a 2-D grid; and its triton_basics softmax and LayerNorm (naive
  torch ops, one-row-a-program Triton kernels, the torch lines its benchmarks time).
- ring00/triton_kernels: packed merge of video and text segments: the torch reference
  (torch.cat of slices), the Triton kernel (one program a row scanning the segments), two
  "H100 optimised" commits that exit the scan with `break`, and the commit that removed it.

A version is the source file at one commit, verbatim, plus a `kf_run` entry point marked
KFORECAST that calls the file's own function the way its test or benchmark does; a package's
relative import of its own module is replaced by that module's text at the same commit, and an
import of matplotlib that only plotting uses is dropped (both marked KFORECAST). Versions are
chosen by what the commits and files say of them, never by speed. Adapters
(`adapters/bench_p66_*.py`) are ours. The builder replaces the whole set folder but
`measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public66", "scripts/evalsets/public66/pub66.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public66"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {
    "p66-ss-opm/triton_cols.py": (
        "wrong output (261656 of 262144 elements off, rel L2 1.73): the forward passes (S, "
        "a.stride(0), b.stride(0), output.stride(0)) to a kernel whose parameters are (a_stride, "
        "b_stride, o_stride, S), so S = 512 and the strides are 1024, 512, 512; a8a594d reorders "
        "them"),
    "p66-ss-opm/einsum_smn.py": (
        "wrong output: einsum '...sm,...sn->...smn' then .mean(axis=-2) averages over m, not s, "
        "giving (1, 1024, 512) where (1, 512, 512) is meant"),
    "p66-ch-bgda/triton_first.py": (
        "NameError: the kernel's @triton.autotune(configs=CONFIGS, ...) names a CONFIGS the file "
        "never defines at 82067dc (128da02 adds it)"),
    "p66-sz-attn/flash_v1_first.py": (
        "Triton CompilationError: tl.arange(0, head_dim) of a run-time head_dim (arange needs "
        "constexpr bounds); the loop assigning acc_o[:, h] would not compile either"),
    "p66-rg-packed/triton_break.py": (
        "triton UnsupportedLanguageConstruct: `break` in the segment loop (1b22fdf's message: "
        "'removing unsupported break statements')"),
    "p66-rg-packed/triton_break_stages.py": (
        "triton UnsupportedLanguageConstruct: the same `break` in the segment loop"),
}
MEASURED_DAY = "2026-11-28"

SS = "SamuelStentz/triton-kernels"
CH = "caseyhird/triton_practice"
SZ = "shizhengLi/cuda-triton-learning"
RG = "ring00/triton_kernels"

MPL = "import matplotlib.pyplot as plt\n"

# Left out before measuring (read, not run): SamuelStentz's first Triton kernels (af1a851 ..
# 0036ab3: a tile of S loaded as 1-D and stored to the wrong pointer, its own TODO), the
# batched-loop kernel of 6fdbba2 .. 2461f58 (the kernel of a8a594d launched once a batch item,
# the same launch at batch 1); shizhengLi's flash_attention_v2.py (its forward stores l and m at
# batch_id * seq_len * head_dim + row, past the end of the (batch, seq_len) buffers, and masks
# only column blocks after the row block, so it is neither causal nor full attention) and
# flash_attention_v1_fixed.py (the same text as flash_attention_v1.py at 3a3dad1); caseyhird's
# torch.compile path (max-autotune compiles for minutes); ring00's 5002280 (the same file as
# 1b22fdf).


def inline_relative(repo, commit, d, src):
    """The package's own relative imports (`from .mod import ...`) replaced by those modules'
    text at `commit`."""
    def repl(m):
        mod = m.group(1)
        text = repo.show(d + mod + ".py", commit).rstrip()
        stmt = " ".join(m.group(0).split())
        return (f"# KFORECAST: `{stmt}` replaced by {d}{mod}.py at the same commit\n"
                + text + f"\n# KFORECAST: end of {mod}.py\n")
    return re.sub(r"^from \.(\w+) import ([^\n]+)\n", repl, src, flags=re.M)


def version(out, fam, repo, commit, path, stem, what, body, how):
    full = repo.git("rev-parse", commit).strip()
    src = repo.show(path, full)
    if repo.name == SS:
        src = inline_relative(repo, full, os.path.dirname(path) + "/", src)
    if MPL in src:
        src = src.replace(MPL, "# KFORECAST: dropped `" + MPL.strip() + "` (used only by the "
                          "file's plotting, not installed on the GPU machine)\n", 1)
    rel = f"{fam}/{stem}.py"
    text = (TEXT.py_line_header(repo.name, full, path, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            + "# KFORECAST entry point (ours): " + how + "\n" + body)
    setkit.write(os.path.join(out, rel), text)
    return rel


def family(mirror, out, fam, repo_name, steps, adapter, notes, how):
    repo = setkit.Repo(mirror, repo_name)
    files, said = [], []
    for c, p, s, w, b in steps:
        files.append(version(out, fam, repo, c, p, s, w, b, how))
        said.append(f"{s} ({os.path.basename(p)} at {c}) {w}")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton",
                 notes=notes + " Versions, in the order used: " + "; ".join(said) + ".")
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


def call(args, expr):
    return f"def kf_run({args}):\n    return {expr}\n"


# ---------------------------------------------------------------- SamuelStentz outer product mean
OPT = "outer_product_mean_pytorch/outer_product_mean.py"
OTR = "outer_product_mean_triton/outer_product_mean.py"
OPM = "outer_product_mean/outer_product_mean.py"
SS_STEPS = [
    ("bea8e36", OPT, "torch_einsum_ijs", "the torch module: einsum '...is,...js->...ijs' of the "
     "transposed inputs (an (i, j, s) tensor), then mean over s",
     call("a, b", "OuterProductMean()(a, b)")),
    ("e0c821f", OPT, "torch_matmul", "'matmul directly': (a^T @ b) / s",
     call("a, b", "OuterProductMean()(a, b)")),
    ("bea8e36", OTR, "triton_cols", "the first working Triton kernel: an (M, N) grid, one program "
     "an output element, loading column i of a and column j of b (stride M, N) whole "
     "(tl.arange(0, S)), sum of products / S", call("a, b", "Fast_OuterProductMean()(a, b)")),
    ("a8a594d", OTR, "triton_rows", "'refactor to fix cache hits': the inputs transposed to "
     "contiguous copies first, each program loading rows i and j (unit stride)",
     call("a, b", "Fast_OuterProductMean()(a, b)")),
    ("21d175d", OPM, "einsum_smn", "the unified module's naive path: einsum "
     "'...sm,...sn->...smn' (an (s, m, n) tensor), mean over s",
     call("a, b", "OuterProductMean()(a[None], b[None])[0]")),
    ("21d175d", OPM, "bmm", "its batched-matmul path: torch.bmm(a^T, b) / s",
     call("a, b", "OuterProductMean()(a[None], b[None], use_batched_matmul=True)[0]")),
    ("21d175d", OPM, "bmm_chunked", "its _doubly_batched_matmul ('no better than "
     "_batched_matmul'): s split in chunks of 64, one bmm over the chunks, sum",
     call("a, b", "OuterProductMean()._doubly_batched_matmul(a[None], b[None])[0]")),
]

# ---------------------------------------------------------------- caseyhird bias-GELU-dropout-add
BG = "triton_practice/ops/bias_gelu_dropout_add/"
CH_STEPS = [
    ("128da02", BG + "eager.py", "eager", "the eager function: x + bias, F.gelu(tanh), "
     "(no dropout at p = 0), + residual", call("x, bias, res", "forward(x, bias, res, 0.0, True)")),
    ("82067dc", BG + "triton_kernel.py", "triton_first", "the first kernel: a 2-D grid of 64 x "
     "128 tiles, 4 warps, 2 stages, GELU with tl.tanh, inputs cast to fp32",
     call("x, bias, res", "forward(x, bias, res, 0.0, True, seed=1234)")),
    ("128da02", BG + "triton_kernel.py", "triton_autotune", "'working & tested': autotuned over "
     "six tile configurations, GELU as z * sigmoid(2c), inputs reshaped to 2-D and made "
     "contiguous", call("x, bias, res", "triton_forward(x, bias, res, 0.0, True, seed=1234)")),
    ("1a9b25a", BG + "triton_kernel.py", "triton_runtime_p", "the sweep commit: `training` passed "
     "as the constexpr and `p > 0` tested inside the kernel at run time",
     call("x, bias, res", "triton_forward(x, bias, res, 0.0, True, seed=1234)")),
]

# ---------------------------------------------------------------- shizhengLi attention
FA = "flash_attention/"
SZ_STEPS = [
    ("7a3c532", FA + "naive/naive_attention.py", "naive", "torch: bmm(q, k^T) * scale, softmax, "
     "bmm with v", call("q, k, v", "naive_attention(q, k, v)")),
    ("7a3c532", FA + "flash_v1/triton/flash_attention_v1.py", "flash_v1_first", "the first "
     "Triton kernel: 128 x 128 blocks, tl.arange(0, head_dim) of a run-time head_dim and a loop "
     "over head columns assigning acc_o[:, h]", call("q, k, v", "flash_attention(q, k, v)")),
    ("3a3dad1", FA + "flash_v1/triton/flash_attention_v1.py", "flash_v1", "the rewrite: HEAD_DIM "
     "constexpr, P @ V by tl.dot, 64 x 64 blocks, still a (row blocks, column blocks, batch) grid "
     "whose column-block programs each run the whole key loop and store the same rows",
     call("q, k, v", "flash_attention(q, k, v)")),
    ("3a3dad1", FA + "flash_v2/triton/flash_attention_v2_simple.py", "flash_v2_simple",
     "'flash attention v2': a (row blocks, batch) grid, one program a 64-row block over all "
     "64-column key blocks", call("q, k, v", "flash_attention_v2(q, k, v)")),
]

NORM = "triton_basics/02_dl_kernels/normalization/"
SZ_SOFTMAX_STEPS = [
    ("2f3126b", NORM + "softmax.py", "torch_softmax", "the torch line its benchmark times "
     "(torch.softmax(x, dim=-1))", call("x", "torch.softmax(x, dim=-1)")),
    ("2f3126b", NORM + "softmax.py", "naive_softmax", "naive_softmax: torch ops (max, subtract, "
     "exp, sum, a where on the sum, divide)", call("x", "naive_softmax(x)")),
    ("2f3126b", NORM + "softmax.py", "triton_row", "the Triton softmax: one program a row, the row "
     "in one next-power-of-2 block (at most 16384), default warps", call("x", "softmax(x)")),
]
SZ_LN_STEPS = [
    ("2f3126b", NORM + "layernorm.py", "torch_layer_norm", "the torch line its benchmark times "
     "(torch.nn.functional.layer_norm with weight and bias)", call(
         "x, w, b", "torch.nn.functional.layer_norm(x, (x.shape[-1],), w, b, 1e-5)")),
    ("2f3126b", NORM + "layernorm.py", "naive_layernorm", "naive_layernorm: torch ops (mean, "
     "var, subtract, sqrt, divide, scale, shift)", call("x, w, b", "naive_layernorm(x, w, b)")),
    ("2f3126b", NORM + "layernorm.py", "triton_row", "the Triton LayerNorm: one program a row, "
     "the row in one next-power-of-2 block, two-pass mean and variance in registers",
     call("x, w, b", "layernorm(x, w, b)")),
]

# ---------------------------------------------------------------- ring00 packed merge
PO = "src/triton_kernels/packed_ops.py"
PM = call("vid, txt, vid_lengths, txt_lengths", "packed_merge_triton(vid, txt, vid_lengths, txt_lengths)")
RG_STEPS = [
    ("e94b5a2", PO, "torch_cat", "packed_merge_torch: slices of vid and txt in segment order, "
     "torch.cat", call("vid, txt, vid_lengths, txt_lengths",
                       "packed_merge_torch(vid, txt, vid_lengths, txt_lengths)")),
    ("e94b5a2", PO, "triton_scan", "the Triton merge: one program an output row, a loop over all "
     "segments (with a `found` flag) to find its source row, one block of the whole row", PM),
    ("2a98e1c", PO, "triton_break", "'Optimize packed_ops.py kernels for H100': `break` out of "
     "the segment loop once found, loads with evict_last, block clamped to 128 .. 2048", PM),
    ("95e0a24", PO, "triton_break_stages", "the same with num_stages=4, num_warps=4 at launch", PM),
    ("1b22fdf", PO, "triton_nobreak", "'Fix Triton compiler error by removing unsupported break "
     "statements': the `found` flag back, evict_last, clamped block, num_stages=4, num_warps=4", PM),
]


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public66")
    setkit.clear_set(args.out)
    fams = [
        family(args.mirror, args.out, "p66-ss-opm", SS, SS_STEPS, "bench_p66_ss_opm.py",
               "SamuelStentz's outer product mean, fp32 a (1024, 512), b (1024, 512) -> (512, 512) "
               "(the bench: seq_len up to 1024 and more, m = n = 768, batch 32; one batch item "
               "here, as the 2-D Triton versions take). The unified module's `from .kernel import "
               "...` is replaced by kernel.py at the same commit (marked KFORECAST); its 3-D paths "
               "get a[None], b[None] and return item 0.",
               "the file's own module or function on (a, b)"),
        family(args.mirror, args.out, "p66-ch-bgda", CH, CH_STEPS, "bench_p66_ch_bgda.py",
               "caseyhird's fused bias + GELU(tanh) + dropout + residual, fp32 x (8192, 4096), bias "
               "(4096,), residual (8192, 4096) (the sweep: fp32, B x S x H up to this size), p = "
               "0.0 (inference: no dropout, so the output is deterministic), training True, seed "
               "1234.", "the file's own function on (x, bias, residual)"),
        family(args.mirror, args.out, "p66-sz-attn", SZ, SZ_STEPS, "bench_p66_sz_attn.py",
               "shizhengLi's attention ladder, fp32 q, k, v (8, 2048, 64) (its benchmark: batch 8, "
               "head_dim 64, seq_len 512 .. 8192), no mask, scale 1/sqrt(64). naive_attention.py's "
               "`import matplotlib.pyplot as plt` is dropped (marked KFORECAST).",
               "the file's own attention function on (q, k, v)"),
        family(args.mirror, args.out, "p66-sz-softmax", SZ, SZ_SOFTMAX_STEPS,
               "bench_p66_sz_softmax.py", "shizhengLi's softmax (triton_basics), fp32 x (8192, "
               "8192) (its benchmark: 4096 x 4096 by default).",
               "the file's own function (or its benchmark's torch line) on x"),
        family(args.mirror, args.out, "p66-sz-layernorm", SZ, SZ_LN_STEPS,
               "bench_p66_sz_layernorm.py", "shizhengLi's LayerNorm (triton_basics), fp32 x (8192, "
               "8192), weight and bias (8192,), eps 1e-5 (its benchmark: 4096 x 4096 by default).",
               "the file's own function (or its benchmark's torch line) on (x, w, b)"),
        family(args.mirror, args.out, "p66-rg-packed", RG, RG_STEPS, "bench_p66_rg_packed.py",
               "ring00's packed merge (forward), fp16 vid and txt of hidden 1024 with 64 segments "
               "each, lengths as its benchmark's largest configuration draws them (batch 64, "
               "video 512 +- 128, text 256 +- 64).",
               "the file's own packed_merge function on (vid, txt, vid_lengths, txt_lengths)"),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
