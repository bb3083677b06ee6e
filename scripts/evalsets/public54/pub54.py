"""Builds public evaluation set 54 ("p54-" families, split "public54", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public54/pub54.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public54

Sources (fetched with the session's `fetch` tool first), all CUDA programs with host code
(a main() that allocates, fills, launches, times with cudaEvent or gettimeofday and checks):
- xiaohuangyu/cuda_learning: one author's 30-chapter CUDA tutorial, one program a lesson:
  float sum reductions (chapter 14: shared-memory trees, unrolled warps, grid-stride loops,
  warp shuffles, a two-pass host function; chapter 16: cooperative groups, thread_block_tile
  shuffles, a grid.sync() reduction started with cudaLaunchCooperativeKernel), an SGEMM ladder
  (chapters 17-18: naive, shared-memory tiles, padded tiles, 1-D and 2-D register blocking),
  2-D convolution (chapter 20: direct, im2col + matrix-vector product, shared-memory tile) and
  a 256-bin histogram (chapter 12: global atomics, shared-memory privatisation, grid-stride),
  whose launcher is a template over the kernel (`template <void (*Kernel)(...)>`);
- Tony-Tan/CUDA_Freshman: the Professional CUDA C book's integer reduction ladder as one
  author wrote it (neighbored, interleaved, unrolled 2/8, complete unroll with a template
  dispatched by a `switch (blocksize)`, shared memory unrolled 4, warp shuffles), each
  kernel run by main() on a fresh copy of the input with the block sums added on the host.

A version is one program (the source file at HEAD) less its main(), with its own header
freshman.h inlined, plus an `extern "C" kf_run` (ours, marked KFORECAST) holding main()'s
size, grid and launch lines for one kernel (the launch once; timing, prints, host
initialisation and the per-launch zeroing of a float sum's result, which the adapter does
for every version alike, left out). Versions are the kernels main() runs, never chosen by
speed; kernels whose main() launch the source itself gets wrong are left out and named in
the notes. Adapters (`adapters/bench_p54_*.py`) are ours. The builder replaces the whole
set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402
from cpp_cut import cut_function  # noqa: E402

TEXT = setkit.SetText("Evaluation set public54", "scripts/evalsets/public54/pub54.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public54"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-27"

XH = "xiaohuangyu/cuda_learning"
TT = "Tony-Tan/CUDA_Freshman"

# ------------------------------------------------------------------ entry points (ours)
XR_SIG = 'extern "C" void kf_run(float* d_data, float* d_result, int N) {\n'
XR_GRID_ALL = "    int blockSize = 256;\n    int gridSize = (N + blockSize - 1) / blockSize;\n"
XR_GRID_256 = "    int blockSize = 256;\n    int gridSize = 256;\n"
XR_GRID_SYNC = (
    "    int device = 0;\n"
    "    const int threads = 256;\n"
    "    // KFORECAST: main() sizes the cooperative grid once, before its timing; kept here\n"
    "    static int coop_blocks = 0;\n"
    "    if (coop_blocks == 0)\n"
    "        coop_blocks = get_num_blocks(device, (void*)reduce_grid_sync, threads);\n"
    "    int blocks = coop_blocks;\n"
    "    // benchmark_reduce()'s cooperative branch\n"
    "    float* d_partial;\n"
    "    cudaMalloc(&d_partial, blocks * sizeof(float));\n"
    "    void* args[] = { &d_data, &d_partial, &d_result, &N };\n"
    "    cudaLaunchCooperativeKernel((void*)reduce_grid_sync, blocks, threads, args, 0, 0);\n"
    "    cudaFree(d_partial);\n")
XR_ATOMIC = (
    "    const int threads = 256;\n"
    "    int blocks = 256;\n"
    "    // benchmark_reduce()'s plain branch\n"
    "    void* args[] = { &d_data, &d_result, &N };\n"
    "    cudaLaunchKernel((void*)reduce_atomic, dim3(blocks), dim3(threads), args, 0, 0);\n")

XH_REDUCE = [
    ("examples/14_reduce/02_tree_reduce.cu", "tree_reduce_basic", XR_GRID_ALL
     + "    tree_reduce_basic<<<gridSize, blockSize>>>(d_data, d_result, N);\n",
     "one element a thread, shared-memory tree, one atomicAdd a block, (N + 255) / 256 blocks"),
    ("examples/14_reduce/02_tree_reduce.cu", "tree_reduce_unrolled", XR_GRID_ALL
     + "    tree_reduce_unrolled<<<gridSize, blockSize>>>(d_data, d_result, N);\n",
     "the tree with its last six steps unrolled over a volatile warp, same grid"),
    ("examples/14_reduce/02_tree_reduce.cu", "tree_reduce_grid_stride", XR_GRID_256
     + "    tree_reduce_grid_stride<<<gridSize, blockSize>>>(d_data, d_result, N);\n",
     "grid-stride accumulation over 256 blocks, then the shared-memory tree"),
    ("examples/14_reduce/03_warp_shuffle_reduce.cu", "reduce_warp_shuffle_grid_stride", XR_GRID_256
     + "    reduce_warp_shuffle_grid_stride<<<gridSize, blockSize>>>(d_data, d_result, N);\n",
     "grid-stride accumulation, __shfl_down_sync warp sums, one atomicAdd a warp"),
    ("examples/14_reduce/03_warp_shuffle_reduce.cu", "reduce_warp_shuffle_block", XR_GRID_256
     + "    reduce_warp_shuffle_block<<<gridSize, blockSize>>>(d_data, d_result, N);\n",
     "grid-stride accumulation, warp shuffles, warp sums through shared memory, one atomicAdd a block"),
    ("examples/14_reduce/04_two_pass_reduce.cu", "two_pass_reduce",
     "    two_pass_reduce(d_data, d_result, N);\n",
     "the file's two_pass_reduce() host function: cudaMalloc of 256 partial sums, a block-sum "
     "kernel, cudaDeviceSynchronize, a one-block final kernel, cudaDeviceSynchronize, cudaFree"),
    ("examples/16_cooperative_groups/04_reduce_with_cg.cu", "reduce_atomic", XR_ATOMIC,
     "chapter 16's baseline: grid-stride accumulation and one atomicAdd a thread (65,536 on one "
     "address), started with cudaLaunchKernel as benchmark_reduce() does"),
    ("examples/16_cooperative_groups/04_reduce_with_cg.cu", "reduce_grid_sync", XR_GRID_SYNC,
     "cooperative groups: thread_block_tile<32> shuffles, block sums to a cudaMalloc'd buffer, "
     "grid.sync(), block 0 sums them; started with cudaLaunchCooperativeKernel on as many blocks "
     "as fit at once (the occupancy API), partial buffer allocated and freed per call"),
]

TT_SIG = 'extern "C" int kf_run(int *idata_dev, int *odata_dev, int size) {\n'
TT_PRE = ("    int blocksize = 1024;\n"
          "    dim3 block(blocksize, 1);\n"
          "    dim3 grid((size - 1) / block.x + 1, 1);\n"
          "    int *odata_host = (int*)malloc(grid.x * sizeof(int));\n"
          "    int gpu_sum = 0;\n")


def tt_body(launch, div):
    return (TT_PRE + launch +
            "    cudaDeviceSynchronize();\n"
            "    cudaMemcpy(odata_host, odata_dev, grid.x * sizeof(int), cudaMemcpyDeviceToHost);\n"
            "    gpu_sum = 0;\n"
            f"    for (int i = 0; i < grid.x{div}; i++)\n"
            "        gpu_sum += odata_host[i];\n"
            "    free(odata_host);\n"
            "    return gpu_sum;\n")


TT_SWITCH = ("    switch(blocksize)\n"
             "    {\n"
             "        case 1024:\n"
             "            reduceCompleteUnroll <1024><<<grid.x/8, block >>>(idata_dev, odata_dev, size);\n"
             "        break;\n"
             "        case 512:\n"
             "            reduceCompleteUnroll <512><<<grid.x/8, block >>>(idata_dev, odata_dev, size);\n"
             "        break;\n"
             "        case 256:\n"
             "            reduceCompleteUnroll <256><<<grid.x/8, block >>>(idata_dev, odata_dev, size);\n"
             "        break;\n"
             "        case 128:\n"
             "            reduceCompleteUnroll <128><<<grid.x/8, block >>>(idata_dev, odata_dev, size);\n"
             "        break;\n"
             "    }\n")

TT_REDUCE = [
    ("10_reduceInteger/reduceInteger.cu", "reduceNeighbored",
     tt_body("    reduceNeighbored <<<grid, block >>>(idata_dev, odata_dev, size);\n", ""),
     "in-place neighbored pairs in global memory (tid % (2 * stride)), 16,384 blocks"),
    ("10_reduceInteger/reduceInteger.cu", "reduceInterleaved",
     tt_body("    reduceInterleaved <<<grid, block >>>(idata_dev, odata_dev, size);\n", ""),
     "in-place interleaved pairs in global memory (stride halving)"),
    ("12_reduce_unrolling/reduceUnrolling.cu", "reduceUnroll2",
     tt_body("    reduceUnroll2 <<<grid.x/2, block >>>(idata_dev, odata_dev, size);\n", "/2"),
     "two blocks' data a block, added in global memory, then the interleaved tree; 8,192 blocks"),
    ("12_reduce_unrolling/reduceUnrolling.cu", "reduceUnroll8",
     tt_body("    reduceUnroll8 <<<grid.x/8, block >>>(idata_dev, odata_dev, size);\n", "/8"),
     "eight blocks' data a block; 2,048 blocks"),
    ("12_reduce_unrolling/reduceUnrolling.cu", "reduceCompleteUnroll",
     tt_body(TT_SWITCH, "/8"),
     "eight blocks' data a block loaded to registers, the tree fully unrolled by a template "
     "block size dispatched through main()'s switch (blocksize), a volatile last warp"),
    ("25_reduce_integer_shared_memory/reduce_integer_shared_memory.cu", "reduceUnroll4Smem",
     tt_body("    reduceUnroll4Smem <<<grid.x/4, block>>>(idata_dev, odata_dev, size);\n", "/4"),
     "four blocks' data a block summed in registers, the unrolled tree in shared memory (input "
     "left unchanged); 4,096 blocks"),
    ("29_reduce_shfl/reduce_shfl.cu", "reduceShfl",
     tt_body("    reduceShfl<<<grid, block>>>(idata_dev, odata_dev, size);\n", ""),
     "one element a thread, __shfl_xor warp sums, warp sums in shared memory, a second warp "
     "shuffle; 16,384 blocks"),
]

SHFL_XOR = ("// KFORECAST: the source's pre-CUDA 9 __shfl_xor(v, mask) exists no more for sm_70 and\n"
            "// later; every call here is made by whole warps, so it is __shfl_xor_sync with a full mask.\n"
            "#define __shfl_xor(v, mask) __shfl_xor_sync(0xffffffffu, (v), (mask))\n")

GEMM_SQ16 = ("    dim3 blockDim(BLOCK_SIZE, BLOCK_SIZE);\n"
             "    dim3 gridDim((N + BLOCK_SIZE - 1) / BLOCK_SIZE,\n"
             "                 (M + BLOCK_SIZE - 1) / BLOCK_SIZE);\n")
GEMM_TILE = ("    dim3 blockDim(TILE_SIZE, TILE_SIZE);\n"
             "    dim3 gridDim((N + TILE_SIZE - 1) / TILE_SIZE,\n"
             "                 (M + TILE_SIZE - 1) / TILE_SIZE);\n")
GEMM_BLK = ("    int blocks_m = (M + BLOCK_SIZE - 1) / BLOCK_SIZE;\n"
            "    int blocks_n = (N + BLOCK_SIZE - 1) / BLOCK_SIZE;\n")
GEMM_SIG = 'extern "C" void kf_run(float *d_A, float *d_B, float *d_C) {\n'
GEMM = [
    ("examples/17_gemm_basics/01_naive_gemm.cu", "naive_gemm", GEMM_SQ16
     + "    naive_gemm<<<gridDim, blockDim>>>(d_A, d_B, d_C, M, N, K);\n",
     "one output a thread, 16 x 16 blocks, operands from global memory"),
    ("examples/17_gemm_basics/03_tiled_gemm.cu", "tiled_gemm", GEMM_TILE
     + "    tiled_gemm<<<gridDim, blockDim>>>(d_A, d_B, d_C, M, N, K);\n",
     "32 x 32 shared-memory tiles of A and B, one output a thread"),
    ("examples/17_gemm_basics/03_tiled_gemm.cu", "tiled_gemm_padded", GEMM_TILE
     + "    tiled_gemm_padded<<<gridDim, blockDim>>>(d_A, d_B, d_C, M, N, K);\n",
     "the tiles padded to 33 columns"),
    ("examples/18_gemm_tiling/02_1d_blocktiling.cu", "gemm_1d_blocktiling", GEMM_BLK
     + "    dim3 blockDim(BLOCK_SIZE, BLOCK_SIZE / THREAD_M);\n    dim3 gridDim(blocks_n, blocks_m);\n"
     + "    gemm_1d_blocktiling<<<gridDim, blockDim>>>(d_A, d_B, d_C, M, N, K);\n",
     "32 x 32 tiles, 4 outputs a thread down a column (32 x 8 threads)"),
    ("examples/18_gemm_tiling/03_2d_blocktiling.cu", "gemm_2d_blocktiling", GEMM_BLK
     + "    dim3 blockDim(BLOCK_SIZE / THREAD_N, BLOCK_SIZE / THREAD_M);\n    dim3 gridDim(blocks_n, blocks_m);\n"
     + "    gemm_2d_blocktiling<<<gridDim, blockDim>>>(d_A, d_B, d_C, M, N, K);\n",
     "32 x 32 tiles, a 4 x 4 register block a thread (8 x 8 threads)"),
]

CONV_SIG = ('extern "C" void kf_run(float *d_input, float *d_kernel, float *d_output, float *d_col,\n'
            '                       int H, int W, int K) {\n')
CONV_OUT = "    int out_H = H - K + 1;\n    int out_W = W - K + 1;\n"
CONV = [
    ("examples/20_convolution/01_direct_conv.cu", "conv2d_direct", CONV_OUT
     + "    dim3 blockDim(16, 16);\n    dim3 gridDim((out_W + 15) / 16, (out_H + 15) / 16);\n"
     + "    conv2d_direct<<<gridDim, blockDim>>>(d_input, d_kernel, d_output, H, W, K);\n",
     "one output a thread, 16 x 16 blocks, input and filter from global memory"),
    ("examples/20_convolution/02_im2col_conv.cu", "im2col_kernel", CONV_OUT
     + "    int KK = K * K;\n    int N = out_H * out_W;\n"
     + "    im2col_kernel<<<(N + 255) / 256, 256>>>(d_input, d_col, H, W, K);\n"
     + "    matmul_kernel<<<(N + 255) / 256, 256>>>(d_kernel, d_col, d_output, KK, N);\n",
     "im2col into a K*K x N column buffer, then a matrix-vector kernel (two launches)"),
    ("examples/20_convolution/03_smem_conv.cu", "conv2d_smem", CONV_OUT
     + "    dim3 blockDim2(TILE_SIZE, TILE_SIZE);\n"
     + "    dim3 gridDim2((out_W + TILE_SIZE - 1) / TILE_SIZE,\n"
     + "                  (out_H + TILE_SIZE - 1) / TILE_SIZE);\n"
     + "    conv2d_smem<<<gridDim2, blockDim2>>>(d_input, d_kernel, d_output, H, W);\n",
     "a 16 x 16 tile plus halo in shared memory, 3 x 3 filter fixed at compile time"),
]

HIST_SIG = 'extern "C" void kf_run(unsigned char* d_data, int* d_hist, int N) {\n'
HIST_PRE = ("    // time_kernel<Kernel>()'s grid and its loop body, once\n"
            "    int threads = 256;\n"
            "    int blocks = (N + threads - 1) / threads;\n"
            "    cudaMemset(d_hist, 0, NUM_BINS * sizeof(int));\n")
HIST = [
    ("examples/12_atomic_race/07_histogram.cu", "histogram_naive", HIST_PRE
     + "    histogram_naive<<<blocks, threads>>>(d_data, d_hist, N);\n",
     "one byte a thread, atomicAdd on the global bins"),
    ("examples/12_atomic_race/07_histogram.cu", "histogram_shared", HIST_PRE
     + "    histogram_shared<<<blocks, threads>>>(d_data, d_hist, N);\n",
     "a per-block shared-memory histogram, merged with one atomicAdd a non-empty bin"),
    ("examples/12_atomic_race/07_histogram.cu", "histogram_multi_element", HIST_PRE
     + "    histogram_multi_element<<<blocks, threads>>>(d_data, d_hist, N);\n",
     "the shared histogram with a grid-stride loop (time_kernel() launches it on the same "
     "N / 256 blocks, so one byte a thread)"),
]


def program(repo, path, kernel, sig, body, what, headers=(), glue=""):
    """The source less main(), its own headers inlined, `glue`, and the entry point."""
    src = repo.show(path)
    main_fn = cut_function(src, "main", with_comment=False).rstrip("\n")
    if main_fn not in src:
        raise SystemExit(f"pub54.py: main() of {path} not found verbatim")
    text = src.replace(main_fn, "// KFORECAST: the source's main() is cut here (see kf_run below).")
    for h in headers:
        inc = f'#include "{os.path.basename(h)}"\n'
        if inc not in text:
            raise SystemExit(f"pub54.py: {path} does not include {h}")
        text = text.replace(inc, f"// KFORECAST: {h} (the source's header) inlined below\n"
                            + repo.show(h).rstrip() + "\n" + glue, 1)
    if glue and not headers:
        raise SystemExit("pub54.py: glue needs a header to follow")
    if kernel not in text:
        raise SystemExit(f"pub54.py: {kernel} not in {path}")
    entry = ("\n// KFORECAST entry point (ours): main()'s size, grid and launch lines for " + kernel + ",\n"
             "// run once on the adapter's device buffers.\n" + sig + body + "}\n")
    return (TEXT.header(repo, [path] + list(headers), what) + text.rstrip() + "\n" + entry)


def family(mirror, out, fam, repo_name, versions, sig, adapter, notes, headers=(), glue_for=None):
    repo = setkit.Repo(mirror, repo_name)
    files, steps = [], []
    for i, (path, kernel, body, what) in enumerate(versions):
        stem = os.path.splitext(os.path.basename(path))[0]
        rel = f"{fam}/v{i}_{stem}_{kernel}.cu"
        glue = glue_for(kernel) if glue_for else ""
        setkit.write(os.path.join(out, rel),
                     program(repo, path, kernel, sig, body, f"{os.path.basename(path)}, kernel {kernel}: {what}.",
                             headers, glue))
        files.append(rel)
        steps.append(f"v{i} {os.path.basename(path)} {kernel} ({what})")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes=notes + " Versions, reference first: " + "; ".join(steps) + ".")


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public54")
    setkit.clear_set(args.out)
    m, o = args.mirror, args.out
    fams = [
        family(m, o, "p54-xh-reduce", XH, XH_REDUCE, XR_SIG, "bench_p54_xh_reduce.py",
               "Float sum of 16M = 2^24 floats (chapter 14's 04-06 mains' size; random 0/1 values, "
               "so every order of summation is exact) from one author's tutorial, chapters 14 and 16. "
               "Each program keeps all its kernels; kf_run runs main()'s launch of one. The result "
               "is zeroed by the adapter before every call (main() does it with a cudaMemcpy of "
               "0.0f or cudaMemset before each launch). Left out: 06's naive_atomic_reduce (main() "
               "launches it on 256 x 256 threads, one element each: 65,536 of 2^24 summed), 05's "
               "reduce_cooperative_groups (writes block 0's sum only) and its two siblings main() "
               "never launches, 01's wrong_reduce (wrong on purpose), duplicates of kept kernels "
               "(06's tree and shuffle kernels, 04's reduce_single_kernel, 16/04's reduce_warp_cg "
               "and reduce_block_cg)."),
        family(m, o, "p54-tt-reduce", TT, TT_REDUCE, TT_SIG, "bench_p54_tt_reduce.py",
               "Integer sum of 2^24 ints in [0, 255] (main()'s initialData_int), blocks of 1024 "
               "(main()'s default), as main() runs each kernel: the input copied afresh into the "
               "device buffer (the adapter's device-to-device copy, the same for every version: "
               "several kernels reduce in place), the kernel, cudaDeviceSynchronize, the block "
               "sums copied to the host and added there (kf_run returns that sum). Four programs "
               "of the book's chapter 3 and 5 ladder.", headers=("include/freshman.h",),
               glue_for=lambda k: SHFL_XOR if k == "reduceShfl" else ""),
        family(m, o, "p54-xh-gemm", XH, GEMM, GEMM_SIG, "bench_p54_xh_gemm.py",
               "SGEMM C = A B, M = N = K = 1024 (the programs' #define sizes), fp32 row-major, "
               "from chapters 17-18 of the tutorial. Left out as the same kernel text as a kept "
               "one: 02_coalesced_gemm (naive_gemm's code under another name), 18/01 "
               "smem_caching_gemm and 18/04 gemm_warptiling (tiled_gemm's 32 x 32 tiles)."),
        family(m, o, "p54-xh-conv", XH, CONV, CONV_SIG, "bench_p54_xh_conv.py",
               "Valid 2-D cross-correlation of a 1024 x 1024 fp32 image with a 3 x 3 filter (01 and "
               "03's main() sizes; 02's main() uses 512 x 512), output 1022 x 1022, from chapter 20. "
               "The im2col version's column buffer (9 x 1022^2 floats, cudaMalloc'd once in main()) "
               "is the adapter's. Left out: 02's im2col_conv_merged and 03's conv2d_direct (01's "
               "kernel text)."),
        family(m, o, "p54-xh-histogram", XH, HIST, HIST_SIG, "bench_p54_xh_histogram.py",
               "256-bin histogram of 1M = 2^20 random bytes (main()'s size), chapter 12; the three "
               "kernels of one program, launched by the template time_kernel<Kernel>() with "
               "(N + 255) / 256 blocks of 256 after a cudaMemset of the bins."),
    ]
    fams = [setkit.measured_note(f, FAILING, MEASURED_DAY) for f in fams]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
