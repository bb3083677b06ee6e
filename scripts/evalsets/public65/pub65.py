"""Builds public evaluation set 65 ("p65-" families, split "public65", kept unseen) from local
copies of two public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public65/pub65.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public65

Sources (fetched with the session's `fetch` tool first), all CUDA with host code:
- wenqingqian/aduc: its fp32 SGEMM ladder (`src/sgemm/old/v1_gemmNaive.cu`, `old/v2_gemmTile.cu`,
  `v3_gemmShareMem.cu`, `v4_gemmColMajorSMA.cu`, `v5_gemmHideSmemLatency.cu`,
  `v6_gemmHideGmemLatency.cu`, `v6_r1_HideGmemLatency.cu`), one file a step, each ending in a
  host launcher declared through its `def_gemm(name)` macro (templated layouts
  `aduc::layout<128, 128, 16>` etc.), and its warp-per-row SGEMV kernels (`src/sgemv/sgemv.cuh`:
  one warp a 32-wide row, a templated lane-group a row, float4 lanes), with their host launchers.
- XiaoSong9905/cuda-v100-kernels: its square-matrix transpose program (`transpose/main.cu`, a main
  that allocates, times with cudaEvent and checks: naive, unrolled, shared-memory, padded and
  unrolled-padded kernels, one kernel a version) and its int reduction program (`reduce/main.cu`:
  shared-memory cascade with warp shuffles, and a pure-warp variant).

A version is the source file verbatim (a local header it includes inlined where included,
marked KFORECAST) plus an `extern "C" kf_run` marked KFORECAST running the file's own launch lines
(its host launcher, or the launch line of its main()) on the adapter's device buffers; built with
nvcc -O3 by progbuild. In the cuda-v100-kernels files, main() and common.h's print_dev_prop() are
cut, marked KFORECAST: print_dev_prop() reads cudaDeviceProp::memoryClockRate (gone in CUDA 13)
and transpose's main() destroys an undeclared `t_end`, so neither file compiles as committed. Versions are chosen by what the files say of them, never by speed.
Adapters (`adapters/bench_p65_*.py`) are ours. The builder replaces the whole set folder but
`measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public65", "scripts/evalsets/public65/pub65.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public65"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

AD = "wenqingqian/aduc"
XS = "XiaoSong9905/cuda-v100-kernels"


def kf(sig, body, ret="void"):
    return f'extern "C" {ret} kf_run({sig}) {{\n{body}}}\n'


def cut_host(src, what, why, path):
    """Cuts host-only code from `what` (the start of a function) to the end of the text, which
    must be that function's end; returns the text with a KFORECAST note in its place."""
    a = src.find(what)
    if a < 0 or not src.rstrip().endswith("}") or src.find("__global__", a) >= 0:
        raise SystemExit(f"pub65.py: {path}: `{what}` is not the last, host-only function")
    return src[:a] + "// KFORECAST: " + why + "\n"


PROP_WHY = ("the header's print_dev_prop() is cut here (only main() calls it; it reads\n"
            "// cudaDeviceProp::memoryClockRate, which CUDA 13 removed).")
MAIN_WHY = ("the file's main() is cut here (host code; it calls print_dev_prop(), and transpose's\n"
            "// also destroys an undeclared `t_end`); kf_run below runs its launch lines.")


def cuda_version(out, fam, repo, path, stem, what, launch, how, inline=None, cut_main=False):
    """The source file at the mirror's HEAD, a local header inlined where included (inline:
    (include line, header path)), plus the KFORECAST kf_run `launch`. cut_main: main() and the
    header's print_dev_prop() are cut (they do not compile with CUDA 13)."""
    src = repo.show(path)
    paths = [path]
    if cut_main:
        src = cut_host(src, "int main(", MAIN_WHY, path)
    if inline:
        line, hpath = inline
        lines = src.split("\n")
        at = [i for i, l in enumerate(lines) if l.strip() == line]
        if len(at) != 1:
            raise SystemExit(f"pub65.py: {path}: expected one `{line}`")
        hdr = repo.show(hpath)
        if cut_main:
            hdr = cut_host(hdr, "void print_dev_prop(", PROP_WHY, hpath)
        lines[at[0]] = (f"// KFORECAST: the source's {line} ({hpath} at the same commit), inlined "
                        "verbatim:\n" + hdr.rstrip() + f"\n// KFORECAST: end of {hpath}")
        src = "\n".join(lines)
        paths.append(hpath)
    rel = f"{fam}/{stem}.cu"
    text = (TEXT.header(repo, paths, what) + "\n" + src.rstrip() + "\n\n"
            + "// KFORECAST entry point (ours): " + how + "\n" + launch)
    setkit.write(os.path.join(out, rel), text)
    return rel


# ---------------------------------------------------------------- aduc SGEMM ladder
SG = "src/sgemm/"
GSIG = ("const float* A, const float* B, float* C, float alpha, float beta, unsigned M, "
        "unsigned N, unsigned K")


def glaunch(name):
    return kf(GSIG, f"    {name}(A, B, C, alpha, beta, M, N, K);  // KFORECAST: the file's host launcher\n"
              "    cudaGetLastError();\n")


UTIL = ('#include "util.cuh"', SG + "util.cuh")
SGEMM_STEPS = [
    ("old/v1_gemmNaive.cu", "v1_naive", "gemmNaiveKernel: one thread an output (threadIdx.x "
     "walks rows of C), the dot product from global memory, 16 x 16 blocks", glaunch("gemmNaive")),
    ("old/v2_gemmTile.cu", "v2_tile", "gemmTileKernel<layoutBlock 16x16, layoutThread 4x4>: each "
     "thread a 4 x 4 tile of C from global memory", glaunch("gemmTile")),
    ("v3_gemmShareMem.cu", "v3_shared", "gemmShareMemKernel: 128 x 128 block tiles, A and B "
     "slices of K = 16 staged in shared memory, 4 x 4 (as 4 x 16-strided) results a thread",
     glaunch("gemmShareMem")),
    ("v4_gemmColMajorSMA.cu", "v4_colmajor_smem_a", "gemmColMajorSMAKernel: v3 with the A tile "
     "stored column-major (transposed) in shared memory, float4 reads of both tiles",
     glaunch("gemmColMajorSMA")),
    ("v5_gemmHideSmemLatency.cu", "v5_hide_smem_latency", "gemmHideSmemLatencyKernel: v4 with "
     "register double buffering of the shared-memory fragments", glaunch("gemmHideSmemLatency")),
    ("v6_gemmHideGmemLatency.cu", "v6_hide_gmem_latency", "gemmHideGmemLatencyKernel: v5 with "
     "double-buffered shared tiles, the next global tile prefetched into registers",
     glaunch("gemmHideGmemLatency")),
    ("v6_r1_HideGmemLatency.cu", "v6_r1_rewrite", "the v6 rewrite (r1, anonymous-namespace "
     "gemmKernel, a 1-D block of 256 threads, ratio-split tiles)", glaunch("r1_HideGmemLatency")),
]

# ---------------------------------------------------------------- aduc SGEMV
SV = "src/sgemv/sgemv.cuh"
VSIG = "float* A, float* x, float* y, int M, int N"
SGEMV_STEPS = [
    (SV, "eq32_warp_row", "sgemv_eq32: one warp a 32-wide row, a lane an element, "
     "__shfl_xor_sync sum, 4 rows a 128-thread block",
     kf(VSIG, "    sgemv_eq32(A, x, y, M, N);  // KFORECAST: test.cu's N == 32 launcher\n")),
    (SV, "lt32_tpr32", "sgemv_lt32<32>: the templated lane-group kernel at thread_per_row 32 "
     "(test.cu's path for N < 32, instantiated at N = 32)",
     kf(VSIG, "    sgemv_lt32<32>(A, x, y, M, N);  // KFORECAST: the N < 32 launcher at N = 32\n")),
    (SV, "gt32_float4", "sgemv_gt32<32>: 8 threads a row, one float4 of A and x each, 4 rows a "
     "warp (test.cu's path for N > 32, instantiated at N = 32)",
     kf(VSIG, "    sgemv_gt32<32>(A, x, y, M, N);  // KFORECAST: the N > 32 launcher at N = 32\n")),
]

# ---------------------------------------------------------------- XiaoSong transpose
TR = "transpose/main.cu"
COMMON = ('#include "../common/common.h"', "common/common.h")
TSIG = "float* d_mtx, float* d_trans_mtx, int nx, int ny"
TDIMS = ("    dim3 block( BDIMX, BDIMY );\n"
         "    dim3 grid( nx / BDIMX, ny / BDIMY );\n"
         "    dim3 grid_unroll2( nx / BDIMX / 2, ny / BDIMY ); // setting data block size different from thread block size through grid\n"
         "    dim3 grid_unroll4( nx / BDIMX / 4, ny / BDIMY );\n")


def tlaunch(line):
    return kf(TSIG, TDIMS + "    " + line + "\n    CUDA_CHECK( cudaGetLastError() );\n")


TRANSPOSE_STEPS = [
    (TR, "naive", "kernel_naivetranspose: read rows, write columns, 32 x 32 blocks",
     tlaunch("kernel_naivetranspose<<<grid, block>>>( d_mtx, d_trans_mtx, nx, ny );")),
    (TR, "naive_unroll4", "kernel_naivetranspose_unroll4: four 32-wide data blocks a thread "
     "block (a quarter of the grid)",
     tlaunch("kernel_naivetranspose_unroll4<<<grid_unroll4, block>>>( d_mtx, d_trans_mtx, nx, ny );")),
    (TR, "sharedmem", "kernel_transpose_sharedmem: a 32 x 32 shared tile, coalesced read and "
     "write, bank conflicts on the column read",
     tlaunch("kernel_transpose_sharedmem<<<grid, block>>>( d_mtx, d_trans_mtx, nx, ny );")),
    (TR, "sharedmem_unroll2", "kernel_transpose_sharedmem_unroll2: a 32 x 64 shared tile, two "
     "data blocks a thread block",
     tlaunch("kernel_transpose_sharedmem_unroll2<<<grid_unroll2, block>>>( d_mtx, d_trans_mtx, nx, ny );")),
    (TR, "sharedmem_pad", "kernel_transpose_sharedmem_pad: the shared tile padded by one column "
     "(no bank conflicts)",
     tlaunch("kernel_transpose_sharedmem_pad<<<grid, block>>>( d_mtx, d_trans_mtx, nx, ny );")),
    (TR, "sharedmem_pad_unroll2", "kernel_transpose_sharedmem_pad_unroll<2>: padded and two data "
     "blocks a thread block",
     tlaunch("kernel_transpose_sharedmem_pad_unroll<2><<<grid_unroll2, block>>>( d_mtx, d_trans_mtx, nx, ny );")),
    (TR, "sharedmem_pad_unroll4", "kernel_transpose_sharedmem_pad_unroll<4>: padded and four data "
     "blocks a thread block",
     tlaunch("kernel_transpose_sharedmem_pad_unroll<4><<<grid_unroll4, block>>>( d_mtx, d_trans_mtx, nx, ny );")),
]

# ---------------------------------------------------------------- XiaoSong reduce
RD = "reduce/main.cu"
RSIG = "int* d_input, int* d_output, int num_elem"
RDIMS = ("    dim3 block( BDIM );\n"
         "    dim3 grid( ( num_elem + BDIM - 1 ) / BDIM );\n"
         "    dim3 grid_unroll4( grid.x / 4 );\n")


def rlaunch(line):
    return kf(RSIG, RDIMS + "    " + line + "\n    CUDA_CHECK( cudaGetLastError() );\n"
              "    return grid_unroll4.x;  // KFORECAST: how many block sums main() adds on the host\n",
              "int")


REDUCE_STEPS = [
    (RD, "cascade4_smem_warpshuffle", "reduce_sharedmem_algocascade_warpshuffle<4>: four loads a "
     "thread into registers, a fully unrolled shared-memory tree to 32, then __shfl_xor_sync",
     rlaunch("reduce_sharedmem_algocascade_warpshuffle<4><<<grid_unroll4, block>>>( d_input, d_output, num_elem );")),
    (RD, "cascade4_purewarp", "reduce_sharedmem_algocascade_warpshuffle_purewarp<4>: four loads a "
     "thread, warp shuffles first, one shared slot a warp, a last warp shuffle",
     rlaunch("reduce_sharedmem_algocascade_warpshuffle_purewarp<4><<<grid_unroll4, block>>>( d_input, d_output, num_elem );")),
]


def cuda_family(mirror, out, fam, repo_name, steps, adapter, notes, how, prefix="", inline=None,
                cut_main=False):
    repo = setkit.Repo(mirror, repo_name)
    files, desc = [], []
    for path, stem, what, launch in steps:
        files.append(cuda_version(out, fam, repo, prefix + path, stem, what, launch, how,
                                  inline, cut_main))
        desc.append(f"{stem} ({os.path.basename(path)}) {what}")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="cuda",
                 notes=notes + " Versions, in the order used: " + "; ".join(desc) + ".")
    if MEASURED_DAY:
        entry = setkit.measured_note(entry, FAILING, MEASURED_DAY)
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public65")
    setkit.clear_set(args.out)
    fams = [
        cuda_family(args.mirror, args.out, "p65-aduc-sgemm", AD, SGEMM_STEPS, "bench_p65_aduc_sgemm.py",
                    "aduc's fp32 SGEMM ladder, C = alpha A B + beta C row-major (test.cu's alpha 1.2, "
                    "beta 1.3), M = N = K = 2048 (test.cu takes them from argv); each file's host "
                    "launcher (declared by util.cuh's def_gemm macro) is called by kf_run on the "
                    "adapter's buffers; util.cuh inlined where included. test.cu's class copies a "
                    "saved C back before each call (resetC); the adapter clones C likewise.",
                    "calls the file's host launcher on the adapter's device buffers",
                    prefix=SG, inline=UTIL),
        cuda_family(args.mirror, args.out, "p65-xs-transpose", XS, TRANSPOSE_STEPS, "bench_p65_xs_transpose.py",
                    "cuda-v100-kernels' fp32 transpose program (main(): nx = ny = 1 << 13, 32 x 32 "
                    "blocks, BDIMX/BDIMY/PAD macros), one kernel of the one file a version; "
                    "../common/common.h inlined. main() (which destroys an undeclared `t_end`, so the "
                    "file does not compile as committed) and the header's print_dev_prop() (reads "
                    "cudaDeviceProp::memoryClockRate, gone in CUDA 13) are cut, marked KFORECAST. "
                    "The copy kernels (bandwidth baselines, not "
                    "transposes) and the texture-cache variants are left out.",
                    "the launch line of main() for this kernel (with main()'s grid set-up) on the "
                    "adapter's buffers", inline=COMMON, cut_main=True),
        cuda_family(args.mirror, args.out, "p65-aduc-sgemv", AD, SGEMV_STEPS, "bench_p65_aduc_sgemv.py",
                    "aduc's fp32 SGEMV for short rows, y = A x with A (M, 32) row-major, M = 1 << 20 "
                    "(test.cu uses M = 128 and N from a template); the three launchers of sgemv.cuh "
                    "at N = 32 (each is valid there: the file's own static bounds).",
                    "calls the header's host launcher on the adapter's device buffers"),
        cuda_family(args.mirror, args.out, "p65-xs-reduce", XS, REDUCE_STEPS, "bench_p65_xs_reduce.py",
                    "cuda-v100-kernels' int32 sum reduction program (main(): BDIM 128, values i % 100, "
                    "num_elem from argv, here 1 << 25), one partial sum a block that main() adds on "
                    "the host; kf_run returns the number of block sums and the adapter adds them with "
                    "torch (int64); ../common/common.h inlined; main() and the header's "
                    "print_dev_prop() (reads cudaDeviceProp::memoryClockRate, gone in CUDA 13) are "
                    "cut, marked KFORECAST (with main() gone the file needs no OpenMP).",
                    "the launch line of main() for this kernel (with main()'s grid set-up) on the "
                    "adapter's buffers", inline=COMMON, cut_main=True),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
