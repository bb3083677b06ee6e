"""Builds public evaluation set 60 ("p60-" families, split "public60", kept unseen) from local
copies of two public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public60/pub60.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public60

Sources (fetched with the session's `fetch` tool first), all Triton:
- alfin3/triton-kernel-opt: one author's "evolving collection of matrix multiplication kernels"
  (kernels/matmul.py), grown commit by commit: a naive 1-D-grid kernel (bc36676), the L2-cache
  grouped program-id kernel (80b03a7), then group_m with SplitK by fp16 atomics (a523513) and
  SplitK through per-tile locks that also takes fp8 (c15da61, HEAD); benchmark_matmul.py times
  them against cuBLAS at the configurations it lists.
- jgschmitz/TritonPlayground: small Triton programs, some rewritten over the history (argmax:
  a tree reduction, a tl.max + index-max rewrite, a 2048-block rewrite; fused LayerNorm + GELU:
  one block a row, then a tiled two-pass kernel; matmul autotuned over 3 configs, then 18), with
  the torch lines their tests compare with.

A version is the source file at one commit, verbatim, plus a `kf_run` entry point marked
KFORECAST that calls the file's own function the way its benchmark or test does (or the torch
line that benchmark or test compares with). Versions are chosen by what the commits and files say
of them, never by speed. Adapters (`adapters/bench_p60_*.py`) are ours. The builder replaces the
whole set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public60", "scripts/evalsets/public60/pub60.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public60"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {
    "p60-jg-argmax/tree_swizzle.py": (
        "the source's kernel does not compile with Triton 3.6: it loops over a Python list literal "
        "inside @triton.jit ('List' object has no attribute 'func') and calls tl.swizzle2d, which "
        "maps 2-D program ids, on value tensors"),
    "p60-jg-ln-gelu/one_block_row.py": (
        "the source's kernel does not compile with Triton 3.6: triton.language has no tanh "
        "(AttributeError at tl.tanh)"),
    "p60-jg-matmul/autotune3.py": (
        "the source's autotune configs carry a NUM_WARPS meta-parameter the kernel does not "
        "declare; Triton 3.6 refuses it (KeyError: 'Keyword argument NUM_WARPS was specified but "
        "unrecognised')"),
    "p60-jg-matmul/autotune18.py": (
        "the same NUM_WARPS meta-parameter in its 18 configs (KeyError, as the first version)"),
}
MEASURED_DAY = "2026-11-28"

# Source lines the builder drops (glue, never kernel code): path -> (line, why).
DROPPED_LINES = {
    "gemm/quantization/triton/w4a16/gptq_v1.py": (
        "from triton.ops.matmul_perf_model import early_config_prune, estimate_matmul_time\n",
        "triton.ops is gone from Triton 3; the two names serve only the prune_configs_by line the "
        "file has commented out"),
}

AF = "alfin3/triton-kernel-opt"
JG = "jgschmitz/TritonPlayground"
BJ = "bjmsong/hands-on-kernels"


def version(out, fam, repo, commit, path, stem, what, body, how):
    full = repo.git("rev-parse", commit).strip()
    src = repo.show(path, full)
    if path in DROPPED_LINES:
        line, why = DROPPED_LINES[path]
        if line not in src:
            raise SystemExit(f"pub60.py: {path}: line to drop not found")
        src = src.replace(line, f"# KFORECAST: dropped `{line.strip()}` ({why})\n", 1)
    rel = f"{fam}/{stem}.py"
    text = (TEXT.py_line_header(repo.name, full, path, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            + "# KFORECAST entry point (ours): " + how + "\n" + body)
    setkit.write(os.path.join(out, rel), text)
    return rel


def family(mirror, out, fam, repo_name, steps, adapter, notes, how, writer=None, style="triton"):
    repo = setkit.Repo(mirror, repo_name)
    files = [(writer or version)(out, fam, repo, c, p, s, w, b, how) for c, p, s, w, b in steps]
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style=style,
                 notes=notes + " Versions, in the order used: " + "; ".join(
                     f"{s} ({os.path.basename(p)} at {c}) {w}" for c, p, s, w, _b in steps) + ".")
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


def call(args, expr):
    return f"def kf_run({args}):\n    return {expr}\n"


# ---------------------------------------------------------------- alfin3 matmul, fp16
MM = "kernels/matmul.py"
# The benchmark's configuration m128_n128_k64_group8_warps8 (benchmark_matmul.py's grid of
# block sizes 128/256 x 128/256 x 32/64, group 8, warps 4/8), num_stages the wrapper's default 3.
CFG = "block_size_m=128, block_size_n=128, block_size_k=64, num_warps=8"
AF16_STEPS = [
    ("c15da61", MM, "torch_matmul", "the cuBLAS line benchmark_matmul.py times against "
     "(torch.matmul(a, b), fp16)", call("a, b", "torch.matmul(a, b)")),
    ("bc36676", MM, "naive", "first commit: mode 'naive', a 1-D grid mapped row-major to "
     "(pid_m, pid_n) tiles, K loop of masked vectorised loads and tl.dot, fp32 accumulator",
     call("a, b", f"matmul(mode=\"naive\")(a, b, {CFG})")),
    ("80b03a7", MM, "l2_cache", "'added to matmul optimized l2 cache kernel': mode 'l2_cache', "
     "the grouped program-id mapping (GROUP_SIZE_M rows of tiles per group) for L2 reuse",
     call("a, b", f"matmul(mode=\"l2_cache\")(a, b, {CFG})")),
]

# Left out after the measurement (our glue's fault, not the source's): HEAD's modes group_m (at
# group_size_m 1 and 8, and at the 128 x 256 x 64 tile), group_m_split_k and group_m_split_k_ref,
# fp16 and fp8. Their entry points passed group_size_m to matmul.__call__ at c15da61, whose
# wrapper takes no such argument (benchmark_matmul.py's commit 3085729 added it), so every one
# failed with a TypeError before any kernel ran; the device budget left no second call to measure
# them at 3085729, and a version whose failure is the builder's says nothing about the kernel.
# A later set can take them from 3085729 with the same calls.

# ---------------------------------------------------------------- TritonPlayground argmax
AR = "argmax_reduction.py"
ARGMAX_STEPS = [
    ("663dc09", AR, "torch_argmax", "the test's torch lines (x.argmax(dim=1), "
     "x.max(dim=1).values)", call("x", "x.argmax(dim=1), x.max(dim=1).values")),
    ("8275142", AR, "tree_swizzle", "first version: one program a row, a tree reduction by "
     "tl.swizzle2d over strides 512 .. 1, int32 indices", call("x", "rowwise_argmax(x)")),
    ("7247d37", AR, "max_then_index", "'int64 indices': tl.max of the row, then tl.max of the "
     "indices where x == max (largest index on ties), BLOCK capped at 1024",
     call("x", "rowwise_argmax(x)")),
    ("663dc09", AR, "block2048", "'Enhance argmax kernel with 2048 BLOCK size': the same "
     "reduction with n_cols a tl.constexpr, tl.full sentinel, BLOCK capped at 2048",
     call("x", "rowwise_argmax(x)")),
]

# ---------------------------------------------------------------- TritonPlayground LN + GELU
LG = "layernorm_gelu_fused.py"
LNGELU_STEPS = [
    ("793888c", LG, "torch_ln_gelu", "the benchmark's PyTorch line "
     "(F.gelu(F.layer_norm(x, (n,), gamma, beta, 1e-5)))",
     call("x, gamma, beta", "torch.nn.functional.gelu(torch.nn.functional.layer_norm("
          "x, (x.shape[1],), gamma, beta, 1e-5))")),
    ("35f4c32", LG, "one_block_row", "first version: one program a row, the whole row in one "
     "block, two-pass mean / variance in registers, tanh-approximate GELU",
     call("x, gamma, beta", "fused_ln_gelu(x, gamma, beta)")),
    ("793888c", LG, "tiled_two_pass", "rewrite: 1024-column tiles, a first while-loop summing x "
     "and x^2, a second normalising, erf GELU, 8 warps, num_stages=2",
     call("x, gamma, beta", "fused_ln_gelu(x, gamma, beta)")),
]

# ---------------------------------------------------------------- TritonPlayground matmul
MA = "matmul_autotune.py"
JGMM_STEPS = [
    ("1bee56f", MA, "torch_matmul", "the benchmark's PyTorch line ((a @ b).to(dtype), fp16)",
     call("a, b", "(a @ b).to(torch.float16)")),
    ("949d90c", MA, "autotune3", "first version: 2-D grid fixed at 64 x 64 tiles' count, "
     "kernel autotuned over 3 configs (128x128x32, 64x256x32, 128x64x64)",
     call("a, b", "triton_matmul(a, b)")),
    ("1bee56f", MA, "autotune18", "'Enhance matmul autotuning': 18 configs (32 .. 256 tiles), "
     "M, N, K and strides as tl.constexpr, dtype key, grid from calculate_optimal_grid",
     call("a, b", "triton_matmul(a, b)")),
]

# ---------------------------------------------------------------- TritonPlayground softmax, add
SOFTMAX_STEPS = [
    ("132ce5b", "softmax_triton.py", "torch_softmax", "the test's torch line "
     "(torch.softmax(x, dim=-1))", call("x", "torch.softmax(x, dim=-1)")),
    ("132ce5b", "softmax_triton.py", "triton_softmax", "one program a row, the row in one "
     "next-power-of-2 block, max / exp / sum / divide", call("x", "triton_softmax(x)")),
]
ADD_STEPS = [
    ("3236825", "vec_add.py", "torch_add", "the test's torch line (x + y)", call("x, y", "x + y")),
    ("3236825", "vec_add.py", "vec_add", "1-D grid of 1024-element blocks",
     call("x, y", "vec_add(x, y)")),
]


# ---------------------------------------------------------------- hands-on-kernels w4a16 (Triton)
W4 = "gemm/quantization/triton/w4a16/"
W4_CALL = call("x, qweight, scales, qzeros, g_idx", "quant_matmul_248(x, qweight, scales, qzeros, g_idx, 4, 15)")
W4_STEPS = [
    ("c219e87", W4 + "gptq_v2.py", "dequant_first", "compare.py's v2 (AutoGPTQ's dequant path): a "
     "Triton kernel unpacks the int4 weights to fp16 W (autotuned over block sizes), then input @ W",
     W4_CALL),
    ("c219e87", W4 + "gptq_v1.py", "fused_gptq", "compare.py's v1 (AutoGPTQ's quant_matmul_248): one "
     "fused kernel unpacking int4 weights, zeros and scales per K block inside the tl.dot loop, "
     "autotuned over 6 tiles", W4_CALL),
    ("c219e87", W4 + "splitk.py", "splitk", "compare.py's v3 (the SplitK w4a16 kernel): fixed "
     "128 x 64 x 32 tiles, swizzled tiles, SPLIT_K = 4 programs per tile, dequantise in the loop, "
     "fp16 tl.atomic_add into a zeroed output", call("x, qweight, scales, qzeros, g_idx",
                                                    "matmul_split_k(x, qweight, scales, qzeros)")),
]

# ---------------------------------------------------------------- hands-on-kernels GEMM (CUDA)
GG = "gemm/forward/gpu/"
HELPER_INCLUDE = '#include "../helper.h" '


def cuda_version(out, fam, repo, commit, path, stem, what, launch, how):
    """A CUDA program: the source file at `commit` with its `../helper.h` inlined where it is
    included, plus an `extern "C" kf_run` running the source's own launch lines (main() kept)."""
    full = repo.git("rev-parse", commit).strip()
    src = repo.show(path, full)
    helper = repo.show(GG + "helper.h", full)
    lines = src.split("\n")
    at = [i for i, l in enumerate(lines) if l.rstrip() == HELPER_INCLUDE.rstrip()]
    if len(at) != 1:
        raise SystemExit(f"pub60.py: {path}: expected one helper include")
    lines[at[0]] = ("// KFORECAST: the source's #include \"../helper.h\" (" + GG + "helper.h at the same "
                    "commit), inlined verbatim:\n" + helper.rstrip() + "\n// KFORECAST: end of ../helper.h")
    rel = f"{fam}/{stem}.cu"
    text = (TEXT.header(repo, [path, GG + "helper.h"], what).replace(repo.commit, full)
            + "\n".join(lines).rstrip() + "\n\n"
            + "// KFORECAST entry point (ours): " + how + "\n" + launch)
    setkit.write(os.path.join(out, rel), text)
    return rel


def cuda_family(*args, **kw):
    return family(*args, **kw, writer=cuda_version, style="cuda")


def kf(args, body):
    return 'extern "C" void kf_run(' + args + ") {\n" + body + "}\n"


F32 = "float* d_a, float* d_b, float* d_c, int M, int N, int K"
F16 = "half* d_a, half* d_b, float* d_c, int M, int N, int K"
GRID16 = """    int BLOCK_SIZE = 16;
    int GRID_SIZE_X = (K + BLOCK_SIZE - 1) / BLOCK_SIZE;
    int GRID_SIZE_Y = (M + BLOCK_SIZE - 1) / BLOCK_SIZE;

    dim3 grid(GRID_SIZE_X, GRID_SIZE_Y);
    dim3 block(BLOCK_SIZE, BLOCK_SIZE);
    matrixMultipy<<<grid, block>>>(d_a, d_b, d_c, M, N, K);
"""
SGEMM_STEPS = [
    ("c219e87", GG + "cublas_imp/naive.cu", "cublas_sgemm", "cublasSgemm (row-major C = A B as "
     "column-major B A), the cuBLAS baseline of the GEMM folder",
     kf(F32, """    // KFORECAST: one handle for the process (the source creates it once in main())
    static cublasHandle_t handle = nullptr;
    if (!handle) cublasCreate(&handle);
    float alpha = 1.0f;
	float beta = 0.0f;
        cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N,
        &alpha, d_b, K, d_a, N, &beta, d_c, K);
""")),
    ("c219e87", GG + "cuda_imp/naive.cu", "naive", "one thread an output element, 16 x 16 blocks, "
     "the dot product straight from global memory", kf(F32, GRID16)),
    ("c219e87", GG + "cuda_imp/tile.cu", "tile", "16 x 16 shared-memory tiles of A and B, "
     "one output element a thread", kf(F32, GRID16.replace("int BLOCK_SIZE = 16;",
                                                          "int BLOCK_SIZE = TILE_WIDTH;"))),
    ("c219e87", GG + "cuda_imp/thread_coarsening.cu", "thread_coarsening", "shared-memory tiles "
     "with a coarsening factor of 4: each thread 4 outputs 16 columns apart, the A tile reused",
     kf(F32, """    int BLOCK_SIZE = TILE_WIDTH;
    int GRID_SIZE = (N + BLOCK_SIZE - 1) / BLOCK_SIZE;

    dim3 grid(GRID_SIZE/CORSE_FATOR, GRID_SIZE);
    dim3 block(BLOCK_SIZE, BLOCK_SIZE);
        matrixMultipy<<<grid, block>>>(d_a, d_b, d_c, N, N, N);
""")),
]
HGEMM_STEPS = [
    ("c219e87", GG + "cublas_imp/tensorop.cu", "cublas_gemmex", "cublasGemmEx, fp16 A and B, fp32 "
     "C and compute (tensor cores), the cuBLAS baseline",
     kf(F16, """    // KFORECAST: one handle for the process (the source creates it once in main())
    static cublasHandle_t handle = nullptr;
    if (!handle) cublasCreate(&handle);
    float alpha = 1.0f;
	float beta = 0.0f;
        cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, 
        &alpha, d_b, CUDA_R_16F, K, d_a, CUDA_R_16F, N, &beta, d_c, 
        CUDA_R_32F, K, CUDA_R_32F, static_cast<cublasGemmAlgo_t>(CUBLAS_GEMM_DEFAULT));
""")),
    ("c219e87", GG + "cuda_imp/naive_fp16.cu", "naive_fp16", "one thread an output element, fp16 "
     "loads converted to float, fp32 accumulation", kf(F16, GRID16)),
    ("c219e87", GG + "cuda_imp/wmma.cu", "wmma", "WMMA 16 x 16 x 16 fragments, 4 x 4 warps a block, "
     "each warp one 16 x 16 output tile, operands straight from global memory",
     kf(F16, "    launch_wmma_mm(d_a, d_b, d_c, M, N, K);\n")),
]


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public60")
    setkit.clear_set(args.out)
    fams = [
        family(args.mirror, args.out, "p60-af-matmul-fp16", AF, AF16_STEPS, "bench_p60_af_matmul_fp16.py",
               "triton-kernel-opt's matmul kernels, fp16 A (4096, 4096) @ B (4096, 4096), fp16 out, "
               "fp32 accumulator (benchmark_matmul.py sizes 256 .. 16384, prec fp16), each at the "
               "benchmark's tile configuration m128_n128_k64_group8_warps8. HEAD's group_m / SplitK "
               "modes are left out (see the builder: our first entry points passed an argument "
               "their commit's wrapper did not take).",
               "the file's own matmul(mode=...) call as benchmark_matmul.py makes it (or its cuBLAS line)"),
        family(args.mirror, args.out, "p60-jg-argmax", JG, ARGMAX_STEPS, "bench_p60_jg_argmax.py",
               "TritonPlayground's row-wise argmax over its history, fp32 x (131072, 1000) (the "
               "test's 1024 x 1000 with more rows); output (indices, max values); indices "
               "compared as integers.",
               "the file's own rowwise_argmax (or its test's torch lines) on x"),
        family(args.mirror, args.out, "p60-jg-ln-gelu", JG, LNGELU_STEPS, "bench_p60_jg_ln_gelu.py",
               "TritonPlayground's fused LayerNorm + GELU, fp32 x (8192, 8192), gamma, beta (8192) "
               "(the benchmark's sizes are 512 x 2048 and 1024 x 4096); the first version's tanh "
               "GELU is within 1e-3 of the exact erf GELU the reference computes.",
               "the file's own fused_ln_gelu (or its benchmark's torch line) on (x, gamma, beta)"),
        family(args.mirror, args.out, "p60-jg-matmul", JG, JGMM_STEPS, "bench_p60_jg_matmul.py",
               "TritonPlayground's autotuned matmul, fp16 (4096, 4096) @ (4096, 4096), fp16 out.",
               "the file's own triton_matmul (or its benchmark's torch line) on (a, b)"),
        family(args.mirror, args.out, "p60-jg-softmax", JG, SOFTMAX_STEPS, "bench_p60_jg_softmax.py",
               "TritonPlayground's softmax, fp32 x (65536, 1536) (the test's 1024 x 1536 with "
               "more rows).", "the file's own triton_softmax (or its test's torch line) on x"),
        family(args.mirror, args.out, "p60-bj-w4a16", BJ, W4_STEPS, "bench_p60_bj_w4a16.py",
               "hands-on-kernels' w4a16 GEMMs (GPTQ int4 weights, 8 a int32 packed along K, "
               "groupsize 128, zeros packed along N, fp16 scales), the sizes of compare.py's main "
               "(x 2048 x 4096 fp16, W 4096 x 4096 int4, inputs as its make_tensor draws them); "
               "output fp16 x @ ((q - (z + 1)) * s). gptq_v1.py's first line imports "
               "triton.ops.matmul_perf_model, gone from Triton 3, for a prune_configs_by the file "
               "has commented out: the builder drops that import (marked KFORECAST).",
               "the file's own quant_matmul_248 / matmul_split_k as compare.py calls it"),
        cuda_family(args.mirror, args.out, "p60-bj-sgemm", BJ, SGEMM_STEPS, "bench_p60_bj_sgemm.py",
                    "hands-on-kernels' fp32 CUDA GEMM programs (gemm/forward/gpu, run as `prog M N "
                    "K`), here at M = N = K = 2048 (thread_coarsening's launch assumes a square "
                    "problem); row-major A (M, N) @ B (N, K) -> C (M, K), built with nvcc -O3 "
                    "-lcublas.",
                    "the launch lines of the file's main(), on the adapter's device buffers"),
        cuda_family(args.mirror, args.out, "p60-bj-hgemm", BJ, HGEMM_STEPS, "bench_p60_bj_hgemm.py",
                    "hands-on-kernels' fp16-input CUDA GEMM programs, fp32 output, M = N = K = 2048, "
                    "built with nvcc -O3 -lcublas.",
                    "the launch lines of the file's main() (wmma: its launch_wmma_mm), on the "
                    "adapter's device buffers"),
        family(args.mirror, args.out, "p60-jg-vec-add", JG, ADD_STEPS, "bench_p60_jg_vec_add.py",
               "TritonPlayground's vector add, fp32, 2^26 elements (the test's 10^6 with more).",
               "the file's own vec_add (or its test's torch line) on (x, y)"),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
