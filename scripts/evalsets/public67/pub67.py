"""Builds public evaluation set 67 ("p67-" families, split "public67", kept unseen) from local
copies of two public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public67/pub67.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public67

Sources (fetched with the session's `fetch` tool first), all CUDA with host code:
- justpi/cuda_kernel: its reduction ladder (`reduce/src/reduce_kernel.cu`: eight kernels, from the
  interleaved-modulo shared tree through divergence, bank-conflict and idle-thread fixes, an
  unrolled last warp, to templated warp-shuffle block reductions, scalar and float4) and its
  Welford LayerNorm ladder (`layernorm/src/layernorm_kernel.cu`: base, unrolled fp32, padded
  shared memory, float4), each file ending in a host launcher (`*_kernel_launcher`) that
  allocates, copies and launches the kernels one after another.
- BoldWinds/CUDA_kernels: its transpose program (`src/transpose/transpose.cu`, a main() that
  allocates, times each kernel and verifies it on the GPU; naive row/column, float4, shared tiles
  16/32/64, a float4 shared tile and a cooperative-groups memcpy_async tile) and its sum-reduction
  program (`src/reduce/reduce_sum.cu`: two-pass block-partial reductions, a shared tree, a
  grid-stride shared tree, warp shuffles and cooperative-groups cg::reduce).

A version is the source file verbatim (local headers inlined where included, marked KFORECAST)
plus an `extern "C" kf_run` marked KFORECAST running the file's own launch lines (the grid set-up
of its launcher or main() and the launch line of one kernel) on the adapter's device buffers;
built with nvcc by progbuild. In the BoldWinds files main() is cut, marked KFORECAST (host code:
it calls cuBLAS and times; kf_run runs its launch lines). One file gives several versions, one
kernel each: versions are chosen by what the files say of them, never by speed.
Adapters (`adapters/bench_p67_*.py`) are ours. The builder replaces the whole set folder but
`measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public67", "scripts/evalsets/public67/pub67.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public67"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

JP = "justpi/cuda_kernel"
BW = "BoldWinds/CUDA_kernels"


def kf(sig, body, ret="void"):
    return f'extern "C" {ret} kf_run({sig}) {{\n{body}}}\n'


def cut_main(src, path):
    """Cuts main() (the file's last function, host-only) and returns the text with a KFORECAST
    note in its place."""
    a = src.find("int main(")
    if a < 0 or not src.rstrip().endswith("}") or src.find("__global__", a) >= 0:
        raise SystemExit(f"pub67.py: {path}: `int main(` is not the last, host-only function")
    return src[:a] + ("// KFORECAST: the file's main() is cut here (host code: it allocates, fills "
                      "with curand, calls cuBLAS,\n// times and verifies); kf_run below runs its "
                      "launch lines.\n")


def inline(repo, src, path, headers, done=None):
    """Replaces each `#include "x"` line naming a key of `headers` (include text -> header path)
    with that header's text at the same commit, recursively, each header once (all of them are
    include-guarded or `#pragma once`)."""
    done = set() if done is None else done
    out = []
    for line in src.split("\n"):
        s = line.strip()
        if s.startswith("#include \"") and s in headers:
            hpath = headers[s]
            if hpath in done:
                out.append(f"// KFORECAST: the source's {s} ({hpath}) was inlined above.")
                continue
            done.add(hpath)
            hdr = inline(repo, repo.show(hpath), hpath, headers, done)
            out.append(f"// KFORECAST: the source's {s} ({hpath} at the same commit), inlined "
                       "verbatim:\n" + hdr.rstrip() + f"\n// KFORECAST: end of {hpath}")
        else:
            out.append(line)
    return "\n".join(out)


def cuda_version(out, fam, repo, path, stem, what, launch, how, headers, cut=False):
    src = repo.show(path)
    if cut:
        src = cut_main(src, path)
    src = inline(repo, src, path, headers)
    paths = [path] + sorted(set(headers.values()))
    rel = f"{fam}/{stem}.cu"
    text = (TEXT.header(repo, paths, what) + "\n" + src.rstrip() + "\n\n"
            + "// KFORECAST entry point (ours): " + how + "\n" + launch)
    setkit.write(os.path.join(out, rel), text)
    return rel


# ---------------------------------------------------------------- justpi reduce
RK = "reduce/src/reduce_kernel.cu"
RK_H = {'#include "reduce_kernel.h"': "reduce/include/reduce_kernel.h",
        '#include "utils.hpp"': "reduce/common/utils.hpp"}
RSIG = "float* d_in, float* d_out, int N"
RDIMS = ("    int M = (N + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;\n"
         "    dim3 blocks(THREADS_PER_BLOCK);\n"
         "    dim3 grids(M);\n"
         "    dim3 blocks_idle(THREADS_PER_BLOCK / 2);\n"
         "    dim3 grids_idle(M);\n"
         "    dim3 blocks_vec4(THREADS_PER_BLOCK / 4);\n"
         "    dim3 grids_vec4(M);\n")


def rlaunch(line):
    return kf(RSIG, RDIMS + "    " + line + "  // KFORECAST: the launcher's launch line\n"
              "    CUDA_CHECK(cudaGetLastError());\n")


REDUCE_STEPS = [
    (RK, "r0_baseline", "reduce_kernel_baseline: 1024 threads a block, one element a thread into "
     "shared memory, interleaved tree with `tid % (2*s)` (divergent warps)",
     rlaunch("reduce_kernel_baseline<<<grids, blocks>>>(d_in, d_out);")),
    (RK, "r1_div", "reduce_kernel_div: the interleaved tree with a strided index (`2*s*tid`), "
     "no divergence in the first steps, bank conflicts",
     rlaunch("reduce_kernel_div<<<grids, blocks>>>(d_in, d_out);")),
    (RK, "r2_bankconflict", "reduce_kernel_bankconflic: sequential addressing (`tid < s`, "
     "halving s), no bank conflicts",
     rlaunch("reduce_kernel_bankconflic<<<grids, blocks>>>(d_in, d_out);")),
    (RK, "r3_idle", "reduce_kernel_idle: half the threads, each adds two elements on load "
     "(first add during load)",
     rlaunch("reduce_kernel_idle<<<grids_idle, blocks_idle>>>(d_in, d_out);")),
    (RK, "r4_unroll_last32", "reduce_kernel_unrollLast32: r3 with the last six steps in "
     "warpReduce32 (unrolled, a __syncthreads after each)",
     rlaunch("reduce_kernel_unrollLast32<<<grids_idle, blocks_idle>>>(d_in, d_out);")),
    (RK, "r5_unroll", "reduce_kernel_unroll: r4 with `#pragma unroll` on the shared loop",
     rlaunch("reduce_kernel_unroll<<<grids_idle, blocks_idle>>>(d_in, d_out);")),
    (RK, "r6_shuffle", "block_all_reduce<1024>: one element a thread, __shfl_xor_sync warp "
     "sums, one shared slot a warp, a last warp shuffle",
     rlaunch("block_all_reduce<THREADS_PER_BLOCK><<<grids, blocks>>>(d_in, d_out, N);")),
    (RK, "r7_shuffle_vec4", "block_all_reduce_vec4<256>: a float4 load a thread (256 threads "
     "a 1024-element block), then the warp-shuffle block sum",
     rlaunch("block_all_reduce_vec4<THREADS_PER_BLOCK/4><<<grids_vec4, blocks_vec4>>>(d_in, d_out, N);")),
]

# ---------------------------------------------------------------- justpi layernorm
LK = "layernorm/src/layernorm_kernel.cu"
LK_H = {'#include "layernorm_kernel.h"': "layernorm/include/layernorm_kernel.h",
        '#include "utils.hpp"': "layernorm/common/utils.hpp"}
LSIG = "float *d_a, float *d_o, float gamma, float beta, int length, int stride"


def llaunch(kernel, div=""):
    return kf(LSIG,
              "    // KFORECAST: the launcher's branch for stride >= BLOCK_SIZE (the adapter's rows\n"
              "    // are 4096 long)\n"
              f"    dim3 block_base(BLOCK_SIZE{div});    // 每个block处理stride个元素\n"
              "    dim3 grid_base(length / stride);\n"
              f"    {kernel}<<<grid_base, block_base>>>(d_a, d_o, gamma, beta, length, stride);\n"
              "    CUDA_CHECK(cudaGetLastError());\n")


LAYERNORM_STEPS = [
    (LK, "l0_base", "layernorm_kernel_base: a block a row (1024 threads), per-thread Welford "
     "with double constants, a shared-memory Welford merge tree (the launcher's commented-out "
     "first launch)", llaunch("layernorm_kernel_base")),
    (LK, "l1_unroll", "layernorm_kernel_unroll: base with `#pragma unroll` and fp32 constants "
     "(the launcher's commented-out second launch)", llaunch("layernorm_kernel_unroll")),
    (LK, "l2_pad", "layernorm_kernel_bankconflict: unroll with the shared arrays padded by one "
     "(the launcher's commented-out third launch)", llaunch("layernorm_kernel_bankconflict")),
    (LK, "l3_vec4", "layernorm_kernel_vec4: float4 loads and 256 threads a row, four values "
     "a thread an iteration (the launcher's live launch)", llaunch("layernorm_kernel_vec4", "/4")),
]

# ---------------------------------------------------------------- BoldWinds transpose
BW_H = {'#include "timer.h"': "include/timer.h",
        '#include "cuda_utils.cuh"': "include/cuda_utils.cuh"}
TR = "src/transpose/transpose.cu"
TSIG = "float* a, float* b, unsigned row, unsigned col"


def tlaunch(dims, line):
    return kf(TSIG, "".join("    " + d + "\n" for d in dims) + "    " + line
              + "  // KFORECAST: main()'s launch line\n    CUDA_CHECK(cudaGetLastError());\n")


TRANSPOSE_STEPS = [
    (TR, "t0_naive", "transpose_naive: 16 x 16 threads, x along rows (coalesced writes)",
     tlaunch(["dim3 threadsPerBlock(16, 16);",
              "dim3 blocksPerGrid((col + 15)/16, (row+15)/16);"],
             "transpose_naive<<<blocksPerGrid, threadsPerBlock>>>(a, b, row, col);")),
    (TR, "t1_naive_v2", "transpose_naive_v2: 16 x 16 threads, x along columns (coalesced reads)",
     tlaunch(["dim3 threadsPerBlock(16, 16);",
              "dim3 blocksPerGrid((row + 15)/16, (col+15)/16);"],
             "transpose_naive_v2<<<blocksPerGrid, threadsPerBlock>>>(a, b, row, col);")),
    (TR, "t2_x4", "transpose_x4: a float4 read of four columns a thread, four scattered writes",
     tlaunch(["dim3 threadsPerBlock(16, 16);",
              "dim3 blocksPerGrid((row + 15)/16, (col/4 + 15)/16);"],
             "transpose_x4<<<blocksPerGrid, threadsPerBlock>>>(a, b, row, col);")),
    (TR, "t3_shared16", "transpose_shared: a padded 17 x 17 shared tile, 16 x 16 threads",
     tlaunch(["dim3 threadsPerBlock(TILE_SIZE, TILE_SIZE);",
              "dim3 blocksPerGrid((col + TILE_SIZE - 1)/TILE_SIZE, (row + TILE_SIZE - 1)/TILE_SIZE);"],
             "transpose_shared<<<blocksPerGrid, threadsPerBlock>>>(a, b, row, col);")),
    (TR, "t4_shared32", "transpose_shared_32: a padded 32 x 33 tile, 32 x 8 threads, four "
     "rows a thread",
     tlaunch(["dim3 threadsPerBlock(32, 8);",
              "dim3 blocksPerGrid((col + 32 - 1)/32, (row + 32 - 1)/32);"],
             "transpose_shared_32<<<blocksPerGrid, threadsPerBlock>>>(a, b, row, col);")),
    (TR, "t5_shared32_x4", "transpose_shared_32_x4: the 32 x 33 tile filled by float4 reads "
     "(8 x 32 threads), remapped writes",
     tlaunch(["dim3 threadsPerBlock(8, 32);",
              "dim3 blocksPerGrid((col + 32 - 1)/32, (row + 32 - 1)/32);"],
             "transpose_shared_32_x4<<<blocksPerGrid, threadsPerBlock>>>(a, b, row, col);")),
    (TR, "t6_shared32_async", "transpose_shared_32_async: the 32 x 33 tile filled by "
     "cooperative-groups memcpy_async, one warp a row, cg::wait",
     tlaunch(["dim3 threadsPerBlock(32, 8);",
              "dim3 blocksPerGrid((col + 32 - 1)/32, (row + 32 - 1)/32);"],
             "transpose_shared_32_async<<<blocksPerGrid, threadsPerBlock>>>(a, b, row, col);")),
    (TR, "t7_shared64", "transpose_shared_64: a padded 64 x 65 tile, 32 x 8 threads, 16 "
     "elements a thread",
     tlaunch(["dim3 threadsPerBlock(32, 8);",
              "dim3 blocksPerGrid((col + 64 - 1)/64, (row + 64 - 1)/64);"],
             "transpose_shared_64<<<blocksPerGrid, threadsPerBlock>>>(a, b, row, col);")),
]

# ---------------------------------------------------------------- BoldWinds reduce_sum
RS = "src/reduce/reduce_sum.cu"
SSIG = "float* data, unsigned n, float* d_temp, float* d_sum"


def slaunch(kernel, temp, note="main()'s"):
    return kf(SSIG,
              f"    const unsigned temp_size = {temp};  // KFORECAST: {note} block of this kernel\n"
              f"    {kernel}<<<temp_size, 256>>>(data, n, d_temp);\n"
              f"    {kernel}<<<1, 256>>>(d_temp, temp_size, d_sum);\n"
              "    CUDA_CHECK(cudaGetLastError());\n")


RSUM_STEPS = [
    (RS, "s0_naive", "reduce_sum_naive: 1024 blocks of 256, each a contiguous chunk, a shared "
     "tree; a second one-block pass over the 1024 partials", slaunch("reduce_sum_naive", "1024")),
    (RS, "s1_opt", "reduce_sum_opt: 984 blocks, grid-stride (coalesced) loads, a shared tree; "
     "a second one-block pass", slaunch("reduce_sum_opt", "492 * 2")),
    (RS, "s2_shuffle", "reduce_sum_shuffle: 984 blocks, grid-stride loads, __shfl_down_sync "
     "warp sums, 8 shared slots, a last shuffle; a second one-block pass",
     slaunch("reduce_sum_shuffle", "492 * 2")),
    (RS, "s3_shuffle_cg", "reduce_sum_shuffle_cg: s2 with cooperative groups (cg::reduce over a "
     "tiled_partition<32> and over coalesced_threads()); main() does not launch it, so kf_run "
     "uses the launch lines of main()'s shuffle block",
     slaunch("reduce_sum_shuffle_cg", "492 * 2", "main()'s shuffle")),
]


def cuda_family(mirror, out, fam, repo_name, steps, adapter, notes, how, headers, cut=False):
    repo = setkit.Repo(mirror, repo_name)
    files, desc = [], []
    for path, stem, what, launch in steps:
        files.append(cuda_version(out, fam, repo, path, stem, what, launch, how, headers, cut))
        desc.append(f"{stem} ({os.path.basename(path)}) {what}")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="cuda",
                 notes=notes + " Versions, in the order used: " + "; ".join(desc) + ".")
    if MEASURED_DAY:
        entry = setkit.measured_note(entry, FAILING, MEASURED_DAY)
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public67")
    setkit.clear_set(args.out)
    fams = [
        cuda_family(args.mirror, args.out, "p67-jp-reduce", JP, REDUCE_STEPS, "bench_p67_jp_reduce.py",
                    "justpi/cuda_kernel's fp32 reduction ladder (reduce_kernel.cu; THREADS_PER_BLOCK "
                    "1024 from reduce_kernel.h), one partial sum a 1024-element block (the launcher "
                    "copies those back), N = 1 << 25 as reduce.cpp's main(); every kernel of the file "
                    "a version, with the launcher's grid set-up; reduce_kernel.h and utils.hpp inlined.",
                    "the launcher's grid set-up and its launch line for this kernel on the adapter's "
                    "buffers", RK_H),
        cuda_family(args.mirror, args.out, "p67-jp-layernorm", JP, LAYERNORM_STEPS, "bench_p67_jp_layernorm.py",
                    "justpi/cuda_kernel's fp32 LayerNorm ladder (layernorm_kernel.cu; a row a block, "
                    "scalar gamma = beta = 0.5 as layernorm.cpp's main(), rows of width = 4096 and "
                    "4096 rows, main()'s size = width * width); the launcher launches only vec4, the "
                    "three earlier launches are commented out in it and are used as written; "
                    "layernorm_kernel.h and utils.hpp inlined.",
                    "the launcher's block/grid set-up and launch line for this kernel on the "
                    "adapter's buffers", LK_H),
        cuda_family(args.mirror, args.out, "p67-bw-transpose", BW, TRANSPOSE_STEPS, "bench_p67_bw_transpose.py",
                    "BoldWinds/CUDA_kernels' fp32 transpose program (main() transposes 1 << 15 "
                    "squared floats, filled by curand, each kernel timed and verified on the GPU; "
                    "here 8192 x 8192), one kernel of the one file a version; timer.h and "
                    "cuda_utils.cuh inlined; main() cut (it calls cuBLAS and curand), built with "
                    "-lcurand for the header's generateRandomData. The 1-D naive kernels and "
                    "naive_64 are left out (eight steps).",
                    "main()'s grid set-up and launch line for this kernel on the adapter's buffers",
                    BW_H, cut=True),
        cuda_family(args.mirror, args.out, "p67-bw-reducesum", BW, RSUM_STEPS, "bench_p67_bw_reducesum.py",
                    "BoldWinds/CUDA_kernels' fp32 sum program (reduce_sum.cu; main() sums 1 << 30 "
                    "curand values made positive, here 1 << 26 values in [0, 1)), two launches a "
                    "version (block partials, then one block over them) as main() runs them; "
                    "timer.h and cuda_utils.cuh inlined; main() cut (it calls cuBLAS and curand), "
                    "built with -lcurand.",
                    "main()'s two launch lines for this kernel on the adapter's buffers",
                    BW_H, cut=True),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
