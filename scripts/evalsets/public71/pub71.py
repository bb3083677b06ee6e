"""Builds public evaluation set 71 ("p71-" families, split "public71", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public71/pub71.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public71

Source (fetched with the session's `fetch` tool first), CUDA with host code: ryan-story/pmpp, a
chapter-by-chapter worked solution of the PMPP book:
- chapter-08/code/stencil.cu: a 3-D seven-point stencil, four GPU kernels (basic, shared-memory
  tile, thread coarsening along z, register tiling), each with a host function that allocates,
  copies, sets the grid up from N and launches;
- chapter-13/code/gpu_radix_sort.cu and gpu_merge_sort.cu: radix sorts (three kernels a bit with a
  thrust scan, memory-coalesced local scans, multi-bit radix, multi-bit with thread coarsening) and
  a co-rank merge sort, host functions on a device array as chapter-13/code/main.cu calls them;
- chapter-07/code/conv2d_kernels.cu: 2-D convolution (radius 9 filter): naive with the filter in
  global memory, constant-memory filter, shared input tile, shared tile plus L2 halo reads; launch
  lines from conv2d_functions_torch.cu (grid from width and height);
- chapter-18/code/cenergy.cu: direct Coulomb summation on a grid plane, four GPU versions (gather,
  scatter with atomics, thread coarsening, coalescing), host functions with host pointers that
  stream 1024-atom chunks through constant memory, called with benchmark.cu's sizes.

A version is the source file verbatim (local headers inlined where included, marked KFORECAST)
plus an `extern "C" kf_run` marked KFORECAST: for the stencil and the convolution, the host
function's grid set-up and launch line on the adapter's device buffers (the host functions copy
through host memory); for the sorts and the Coulomb summation, a call of the file's own host
function. Built with nvcc -O3 by
progbuild. Versions are chosen by what the files say of them, never by speed. Adapters
(`adapters/bench_p71_*.py`) are ours. The builder replaces the whole set folder but
`measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public71", "scripts/evalsets/public71/pub71.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public71"

# Versions that failed on the H200 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

RS = "ryan-story/pmpp"


def kf(sig, body, ret="void"):
    return f'extern "C" {ret} kf_run({sig}) {{\n{body}}}\n'


def inline(repo, src, headers, done):
    """Replaces each `#include "x"` line naming a key of `headers` (include text -> header path)
    with that header's text at the same commit, recursively, each header once (all of them are
    include-guarded or `#pragma once`)."""
    out = []
    for line in src.split("\n"):
        s = line.split("//")[0].strip()  # an include line may end in a comment
        if s.startswith("#include \"") and s in headers:
            hpath = headers[s]
            if hpath in done:
                out.append(f"// KFORECAST: the source's {s} ({hpath}) was inlined above.")
                continue
            done.add(hpath)
            hdr = inline(repo, repo.show(hpath), headers, done)
            out.append(f"// KFORECAST: the source's {s} ({hpath} at the same commit), inlined "
                       "verbatim:\n" + hdr.rstrip() + f"\n// KFORECAST: end of {hpath}")
        else:
            out.append(line)
    return "\n".join(out)


def cuda_version(out, fam, repo, path, stem, what, launch, how, headers, extra=()):
    """The file at the mirror's HEAD with its local headers inlined, then `extra` include lines
    (ours, marked: headers the launch lines need, inlined the same way), then kf_run."""
    done = set()
    src = inline(repo, repo.show(path), headers, done)
    for line in extra:
        src += ("\n// KFORECAST: the launch lines below need this header of the same folder "
                "(our include):\n" + inline(repo, line, headers, done))
    paths = [path] + sorted(done)
    rel = f"{fam}/{stem}.cu"
    text = (TEXT.header(repo, paths, what) + "\n" + src.rstrip() + "\n\n"
            + "// KFORECAST entry point (ours): " + how + "\n" + launch)
    setkit.write(os.path.join(out, rel), text)
    return rel


# ---------------------------------------------------------------- chapter 8 stencil
ST = "chapter-08/code/stencil.cu"
ST_H = {'#include "stencil.h"': "chapter-08/code/stencil.h"}
SSIG = "float* d_in, float* d_out, unsigned int N"


def slaunch(block, grid, kernel):
    return kf(SSIG, f"    dim3 dimBlock({block});\n    dim3 dimGrid({grid});\n\n"
              f"    {kernel}<<<dimGrid, dimBlock>>>(d_in, d_out, N, c0, c1, c2, c3, c4, c5, c6);"
              "  // KFORECAST: the host function's launch line\n"
              "    CUDA_CHECK(cudaGetLastError());\n")


SMALL_GRID = "cdiv(N, OUT_TILE_DIM_SMALL), cdiv(N, OUT_TILE_DIM_SMALL), cdiv(N, OUT_TILE_DIM_SMALL)"
STENCIL_STEPS = [
    (ST, "s0_basic", "stencil_kernel (stencil_3d_parallel_basic): a thread an output point, "
     "8 x 8 x 8 blocks, seven global loads a point",
     slaunch("OUT_TILE_DIM_SMALL, OUT_TILE_DIM_SMALL, OUT_TILE_DIM_SMALL",
             "cdiv(N, dimBlock.x), cdiv(N, dimBlock.y), cdiv(N, dimBlock.z)", "stencil_kernel")),
    (ST, "s1_shared", "stencil_kernel_shared_memory (stencil_3d_parallel_shared_memory): a 10^3 "
     "input tile in shared memory, 10 x 10 x 10 threads, 8^3 outputs a block",
     slaunch("IN_TILE_DIM_SMALL, IN_TILE_DIM_SMALL, IN_TILE_DIM_SMALL", SMALL_GRID,
             "stencil_kernel_shared_memory")),
    (ST, "s2_coarsening", "stencil_kernel_thread_coarsening (stencil_3d_parallel_thread_coarsening):"
     " 32 x 32 threads march 30 z planes with prev/curr/next planes in shared memory",
     slaunch("IN_TILE_DIM_BIG, IN_TILE_DIM_BIG, 1",
             "cdiv(N, OUT_TILE_DIM_BIG), cdiv(N, OUT_TILE_DIM_BIG), cdiv(N, OUT_TILE_DIM_BIG)",
             "stencil_kernel_thread_coarsening")),
    (ST, "s3_register_tiling", "stencil_kernel_register_tiling (stencil_3d_parallel_register_"
     "tiling): 10 x 10 threads march 8 z planes, prev/next in registers, the current plane in "
     "shared memory", slaunch("IN_TILE_DIM_SMALL, IN_TILE_DIM_SMALL, 1", SMALL_GRID,
                              "stencil_kernel_register_tiling")),
]

# ---------------------------------------------------------------- chapter 13 sorts
RX = "chapter-13/code/gpu_radix_sort.cu"
RX_H = {'#include "gpu_radix_sort.h"': "chapter-13/code/gpu_radix_sort.h"}
MS = "chapter-13/code/gpu_merge_sort.cu"
MS_H = {'#include "gpu_merge_sort.h"': "chapter-13/code/gpu_merge_sort.h"}


def xlaunch(call, note):
    return kf("unsigned int* d_input, int N", f"    {call};  // KFORECAST: {note}\n"
              "    CUDA_CHECK(cudaGetLastError());\n")


SORT_STEPS = [
    (RX, "r0_three_kernels", "gpuRadixSortThreeKernels: one bit a pass (32 passes): extract-bits "
     "kernel, thrust::exclusive_scan, scatter kernel, two 4-byte copies back a pass",
     xlaunch("gpuRadixSortThreeKernels(d_input, N)", "main()'s gpuRadixSortThreeKernelsWrapper"),
     RX_H),
    (RX, "r1_coalesced", "gpuRadixSortWithMemoryCoalescing: one bit a pass, a block-local "
     "Brent-Kung scan in shared memory, block one-counts scanned with thrust, coalesced scatter",
     xlaunch("gpuRadixSortWithMemoryCoalescing(d_input, N)", "main() benchmarks it directly"),
     RX_H),
    (RX, "r2_multibit", "gpuRadixSortCoalescedMultibitRadix(r = RADIX = 4): four bits a pass "
     "(8 passes), local bucket offsets, a block histogram scanned with thrust, coalesced scatter",
     xlaunch("gpuRadixSortCoalescedMultibitRadix(d_input, N, RADIX)",
             "main()'s gpuRadixSortCoalescedRadixWrapper"), RX_H),
    (RX, "r3_multibit_coarsening", "gpuRadixSortCoalescedMultibitRadixThreadCoarsening(r = 4): "
     "the multi-bit sort with COARSE_FACTOR = 4 keys a thread",
     xlaunch("gpuRadixSortCoalescedMultibitRadixThreadCoarsening(d_input, N, RADIX)",
             "main()'s gpuRadixSortCoalescedRadixCoarseningWrapper"), RX_H),
    (MS, "m4_merge_sort", "gpuMergeSort: bottom-up merge passes (width 1, 2, 4, ...), a block of "
     "1024 threads a pair of runs, co-rank split and a sequential merge a thread",
     xlaunch("gpuMergeSort(d_input, N)", "main() benchmarks it directly"), MS_H),
]

# ---------------------------------------------------------------- chapter 18 cenergy
CE = "chapter-18/code/cenergy.cu"
CE_H = {'#include "cenergy.h"': "chapter-18/code/cenergy.h"}


def elaunch(func):
    return kf("float* host_energygrid, const float* host_atoms, int numatoms",
              "    // KFORECAST: benchmark.cu's main() set-up (grid 100 x 100 x 50, spacing 0.5, the z = 10\n"
              "    // plane) and a call of the file's host function, as its benchmark_energy_func does\n"
              "    dim3 grid(100, 100, 50);\n    float gridspacing = 0.5;\n    float z = 10.0;\n"
              f"    {func}(host_energygrid, grid, gridspacing, z, host_atoms, numatoms);\n")


CENERGY_STEPS = [
    (CE, "e0_gather", "cenergyParallelGather: a thread a grid point of the plane (16 x 16 blocks), "
     "atoms in __constant__ chunks of 1024, a launch a chunk", elaunch("cenergyParallelGather")),
    (CE, "e1_scatter", "cenergyParallelScatter: a thread an atom (one 1024-thread block a chunk), "
     "atomicAdd into every grid point of the plane", elaunch("cenergyParallelScatter")),
    (CE, "e2_coarsen", "cenergyParallelCoarsen: COARSEN_FACTOR (1) adjacent points a thread, "
     "dy^2 + dz^2 hoisted out of the point loop", elaunch("cenergyParallelCoarsen")),
    (CE, "e3_coalescing", "cenergyParallelCoalescing: COARSEN_FACTOR (1) points a thread strided "
     "by blockDim.x (coalesced writes), dx from a per-atom base", elaunch("cenergyParallelCoalescing")),
]

# ---------------------------------------------------------------- chapter 7 conv2d
CV = "chapter-07/code/conv2d_kernels.cu"
CV_H = {'#include "conv2d_kernels.cuh"': "chapter-07/code/conv2d_kernels.cuh",
        '#include "conv2d_functions.cuh"': "chapter-07/code/conv2d_functions.cuh"}
CSIG = "float* M, float* F_host, float* F, float* P, int r, int height, int width"
CEXTRA = ('#include "conv2d_functions.cuh"',)


def claunch(block, grid, launch, const=True):
    init = ("    CUDA_CHECK_KF(initConstFilter(F_host, r));  // KFORECAST: as the host functions "
            "do first\n") if const else ""
    return ("#define CUDA_CHECK_KF(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) "
            "printf(\"kf_run: %s\\n\", cudaGetErrorString(e_)); } while (0)  // KFORECAST\n"
            + kf(CSIG, init + f"    const dim3 dimBlock({block});\n    dim3 dimGrid({grid});\n\n"
                 f"    {launch}  // KFORECAST: conv2d_functions_torch.cu's launch line, default "
                 "stream\n    CUDA_CHECK_KF(cudaGetLastError());\n"))


CONV_STEPS = [
    (CV, "c0_naive", "conv2d_kernel: a thread an output pixel, 32 x 32 blocks, the filter read "
     "from global memory (conv2d_torch's launch)",
     claunch("BLOCK_SIZE, BLOCK_SIZE", "cdiv(width, dimBlock.x), cdiv(height, dimBlock.y)",
             "conv2d_kernel<<<dimGrid, dimBlock>>>(M, F, P, r, height, width);", const=False)),
    (CV, "c1_constant", "conv2d_kernel_with_constant_memory: the filter in __constant__ memory, "
     "32 x 32 blocks", claunch("BLOCK_SIZE, BLOCK_SIZE",
                               "cdiv(width, dimBlock.x), cdiv(height, dimBlock.y)",
                               "conv2d_kernel_with_constant_memory<<<dimGrid, dimBlock>>>(M, P, r, height, width);")),
    (CV, "c2_tiled", "tiled_convolution_kernel: a 32 x 32 input tile with halo in shared memory, "
     "14 x 14 outputs a block", claunch(
         "IN_TILE_SIZE, IN_TILE_SIZE",
         "cdiv(width + 2 * FILTER_RADIUS, OUT_TILE_SIZE), cdiv(height + 2 * FILTER_RADIUS, OUT_TILE_SIZE)",
         "tiled_convolution_kernel<<<dimGrid, dimBlock>>>(M, P, r, height, width);")),
    (CV, "c3_tiled_l2", "tiled_convolution_kernel_with_l2_caching: a 32 x 32 shared tile of the "
     "block's own outputs, halo values read from global memory (L2)", claunch(
         "TILE_SIZE, TILE_SIZE", "cdiv(width, TILE_SIZE), cdiv(height, TILE_SIZE)",
         "tiled_convolution_kernel_with_l2_caching<<<dimGrid, dimBlock>>>(M, P, r, height, width);")),
]


def measured_note(entry):
    """The family's notes with how its versions fared on the H200 (setkit's note names an H100)."""
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in entry["files"]]
    if bad:
        entry["notes"] += (f" H200 measurement of {MEASURED_DAY}, failing: " + "; ".join(bad)
                           + "; every other version passed.")
    else:
        entry["notes"] += f" H200 measurement of {MEASURED_DAY}: every version passed."
    return entry


def cuda_family(mirror, out, fam, steps, adapter, notes, how, headers=None, extra=()):
    repo = setkit.Repo(mirror, RS)
    files, desc = [], []
    for step in steps:
        path, stem, what, launch = step[:4]
        hdrs = step[4] if len(step) > 4 else headers
        files.append(cuda_version(out, fam, repo, path, stem, what, launch, how, hdrs, extra))
        desc.append(f"{stem} ({os.path.basename(path)}) {what}")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="cuda",
                 notes=notes + " Versions, in the order used: " + "; ".join(desc) + ".")
    if MEASURED_DAY:
        entry = measured_note(entry)
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public71")
    setkit.clear_set(args.out)
    fams = [
        cuda_family(args.mirror, args.out, "p71-rs-stencil3d", STENCIL_STEPS, "bench_p71_rs_stencil3d.py",
                    "ryan-story/pmpp's 3-D seven-point stencil (chapter-08/code/stencil.cu, the PMPP "
                    "book's chapter 8 kernels; int coefficients c0 = 0, c1..c6 = 1 as the file's "
                    "globals), N = 512 (a 512^3 fp32 grid; the benchmark runs 128^3), interior points "
                    "compared (the kernels leave the boundary unwritten); stencil.h inlined.",
                    "the host function's grid set-up and launch line on the adapter's device "
                    "buffers (the host function itself copies through host memory)", ST_H),
        cuda_family(args.mirror, args.out, "p71-rs-sort", SORT_STEPS, "bench_p71_rs_sort.py",
                    "ryan-story/pmpp's GPU sorts (chapter-13/code/gpu_radix_sort.cu and "
                    "gpu_merge_sort.cu, the book's chapter 13), sorting N = 10000000 unsigned keys "
                    "in place as chapter-13/code/main.cu does (its N, rand() keys; here uniform "
                    "31-bit keys); each version calls the file's host function (it allocates its "
                    "temporaries, loops over passes, synchronises and copies counts back). "
                    "gpuRadixSortSingleKernel is left out (main() does not run it; it asserts "
                    "N <= 100000 against a grid-sync deadlock). Headers inlined.",
                    "a call of the file's own host sort function, as main() calls it"),
        cuda_family(args.mirror, args.out, "p71-rs-conv2d", CONV_STEPS, "bench_p71_rs_conv2d.py",
                    "ryan-story/pmpp's 2-D convolution (chapter-07/code/conv2d_kernels.cu, the "
                    "book's chapter 7; FILTER_RADIUS 9, a 19 x 19 filter), a 4096 x 4096 fp32 image "
                    "with zero padding; the launch lines of conv2d_functions_torch.cu (which launches "
                    "all four kernels; conv2d_functions.cu launches three the same way, through host "
                    "copies); conv2d_kernels.cuh and conv2d_functions.cuh (for cdiv) inlined.",
                    "conv2d_functions_torch.cu's grid set-up and launch line on the adapter's "
                    "device buffers (the filter copied to constant memory by the file's "
                    "initConstFilter first, as the host functions do)", CV_H, CEXTRA),
        cuda_family(args.mirror, args.out, "p71-rs-cenergy", CENERGY_STEPS, "bench_p71_rs_cenergy.py",
                    "ryan-story/pmpp's direct Coulomb summation (chapter-18/code/cenergy.cu, the "
                    "book's chapter 18): the electrostatic potential of 10000 atoms (positions in "
                    "the grid's box, charges in [-2, 2] as benchmark.cu's generate_atoms) on the "
                    "z = 10 plane of a 100 x 100 x 50 grid, spacing 0.5, benchmark.cu's main() "
                    "sizes; each version calls the file's host function with host pointers (it "
                    "allocates and zeroes the device grid, copies each 1024-atom chunk to constant "
                    "memory, launches and synchronises a chunk, copies the whole grid back); "
                    "cenergy.h inlined (BLOCK_SIZE 1024, CHUNK_SIZE 1024, COARSEN_FACTOR 1).",
                    "benchmark.cu's sizes and a call of the file's host function", CE_H),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
