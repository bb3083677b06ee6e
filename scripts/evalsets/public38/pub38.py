"""Builds public evaluation set 38 ("p38-" families, split "public38", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public38/pub38.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public38

Sources (fetched with the session's `fetch` tool first), all CUDA programs with host code:
- leimao/CUDA-GEMM-Optimization: src/0N_*.cu (one author's GEMM ladder v00-v07, templated
  kernels with a `launch_gemm_kernel_vNN<T>()` host launcher and explicit instantiations
  each, v07 on the tensor cores through WMMA; profile_cuda_gemm_fp16.cu runs them on __half);
- Bruce-Lee-LY/cuda_hgemv: src/thread/*.cu, src/warp/*.cu (half GEMV ladder, macro-heavy
  host code: each step a kernel and a launcher `void name(half *A, half *B, half *C, N, K)`,
  the shared-memory steps sizing dynamic shared memory once in a static initialiser);
- m2papierz/pmpp: chapters/ch09 (text histogram: six kernels in kernels.cu, six host
  functions in histogram.cu that allocate, copy, launch and check) and chapters/ch08 (3-D
  seven-point stencil: naive, shared memory, thread coarsening, register tiling);
- Wong4j/spmv: spmv_gpu.cuh (CSR SpMV, scalar and vector kernels, host functions that time
  with cudaEvent through CUDA_CALL / CUDA_KERNEL_CALL macros).

A version is one CUDA program: the source's file(s) verbatim, its own headers inlined where it
#includes them, plus an `extern "C" kf_run` marked KFORECAST that runs the source's own launch
lines for that step (its launcher call, or its host function's lines less the allocations,
host-device copies and frees) on device buffers the adapter passes. Steps are the authors' own
(file names, README lists, benchmark order), never chosen by speed. Adapters
(`adapters/bench_p38_*.py`) are ours. The builder replaces the whole set folder but
`measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public35"))

import setkit  # noqa: E402
from cpp_cut import cut_function  # noqa: E402
from pub35 import inline_includes  # noqa: E402  (#include "x" of the source's own headers, inlined)

TEXT = setkit.SetText("Evaluation set public38", "scripts/evalsets/public38/pub38.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public38"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {
    "p38-wj-spmv/spmv_csr_vector.cu":
        "every y element off the float64 reference, rel L2 0.68: the author's warp-synchronous "
        "shared-memory reduction (vals[threadIdx.x] += vals[threadIdx.x + 16] ...) has no volatile "
        "and no __syncwarp, which independent thread scheduling (Volta and later) does not forgive; "
        "the source's own check prints 'correct result' whatever it finds",
}
MEASURED_DAY = "2026-11-27"


def write_version(out, fam, name, repo, paths, what, text):
    rel = f"{fam}/{name}.cu"
    setkit.write(os.path.join(out, rel), TEXT.header(repo, paths, what) + text.rstrip() + "\n")
    return rel


def family(fam, files, repo, adapter, notes, out):
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                 notes=notes)
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


def launch_lines(fn_text, drop):
    """A host function's body lines, less those matching `drop` (allocations, host-device
    copies, frees, the declarations of the device pointers they fill)."""
    body = fn_text[fn_text.index("{") + 1:fn_text.rstrip().rindex("}")]
    return [ln.rstrip() for ln in body.split("\n") if ln.strip() and not re.search(drop, ln)]


# ---------------------------------------------------------------- leimao GEMM ladder (fp16)
GEMM_STEPS = [
    ("00", "00_non_coalesced_global_memory_access", "non-coalesced global memory access"),
    ("01", "01_coalesced_global_memory_access", "coalesced global memory access"),
    ("02", "02_2d_block_tiling", "2D block tiling"),
    ("03", "03_2d_block_tiling_1d_thread_tiling", "2D block tiling and 1D thread tiling"),
    ("04", "04_2d_block_tiling_2d_thread_tiling", "2D block tiling and 2D thread tiling"),
    ("05", "05_2d_block_tiling_2d_thread_tiling_matrix_transpose",
     "2D block tiling, 2D thread tiling and matrix transpose"),
    ("06", "06_2d_block_tiling_2d_warp_tiling_2d_thread_tiling_matrix_transpose",
     "2D block, warp and thread tiling and matrix transpose"),
    ("07", "07_2d_block_tiling_2d_warp_tiling_2d_thread_tiling_matrix_transpose_wmma",
     "2D block and warp tiling, matrix transpose, WMMA tensor cores"),
]


def lm_hgemm(mirror, out):
    repo = setkit.Repo(mirror, "leimao/CUDA-GEMM-Optimization")
    headers = {h: repo.show(f"include/{h}") for h in ("cuda_gemm.hpp", "cuda_gemm_utils.hpp",
                                                       "cuda_gemm_utils.cuh")}
    utils_cu = repo.show("src/cuda_gemm_utils.cu")
    prof = repo.show("src/profile_cuda_gemm_fp16.cu")
    fam = "p38-lm-hgemm"
    files = []
    for v, stem, what in GEMM_STEPS:
        path = f"src/{stem}.cu"
        if f"launch_gemm_kernel_v{v}<__half>" not in prof:
            raise SystemExit(f"pub38.py: profile_cuda_gemm_fp16.cu does not run v{v}")
        seen = set()
        src = inline_includes(repo.show(path), headers, seen)
        utils = inline_includes(utils_cu, headers, seen)
        entry = ("\n\n// KFORECAST: the source's src/cuda_gemm_utils.cu (check_cuda, check_cuda_last) follows,\n"
                 "// then an entry point (ours) making profile_gemm<__half>'s call of this step's launcher\n"
                 "// (alpha = 1, beta = 0 as there; lda = k, ldb = ldc = n; the default stream).\n"
                 + utils.rstrip() + "\n\n"
                 "extern \"C\" void kf_run(__half const* A, __half const* B, __half* C,\n"
                 "                       size_t m, size_t n, size_t k) {\n"
                 "    __half const alpha{static_cast<__half>(1.0)};\n"
                 "    __half const beta{static_cast<__half>(0.0)};\n"
                 f"    launch_gemm_kernel_v{v}<__half>(m, n, k, &alpha, A, k, B, n, &beta, C, n, 0);\n"
                 "}\n")
        files.append(write_version(out, fam, f"gemm_v{v}", repo,
                                   [path, "include/cuda_gemm.hpp", "include/cuda_gemm_utils.hpp",
                                    "include/cuda_gemm_utils.cuh", "src/cuda_gemm_utils.cu"],
                                   f"GEMM kernel v{v} ({what}), launched as profile_cuda_gemm_fp16.cu does.",
                                   src + entry))
    return family(fam, files, repo, "bench_p38_lm_hgemm.py",
                  "C = alpha A B + beta C, row-major __half, m = n = k = 2048 (the source profiles 4096^3; "
                  "v00 would take about half a second a call there), A and B integers uniform in [0, 5] "
                  "(its random_initialize_matrix), alpha 1, beta 0. The README's FP16 table, the main "
                  "(non-vectorized) step of each of v00-v07: " + "; ".join(f"v{v} {w}" for v, _, w in GEMM_STEPS)
                  + ". Every step accumulates in __half (v00-v06 a T sum, v07 __half WMMA accumulator fragments); tolerance rtol "
                  "0.1, atol 0.05 (the source's fp16 abs_tol/rel_tol). The vectorized and double-buffered "
                  "variants of v02-v07 are left out (one step a level).", out)


# ---------------------------------------------------------------- Bruce-Lee-LY HGEMV ladder
HGEMV_STEPS = [
    ("thread/thread_naive", "threadNaive", "each thread computes 1 result of C"),
    ("thread/thread_smem", "threadSmem", "each thread computes 1 result of C, A in shared memory"),
    ("warp/warp1_naive", "warp1Naive", "each warp computes 1 result of C"),
    ("warp/warp1_smem", "warp1Smem", "each warp computes 1 result of C, A in shared memory"),
    ("warp/warp4_naive", "warp4Naive", "each warp computes 4 results of C"),
    ("warp/warp4_smem", "warp4Smem", "each warp computes 4 results of C, A in shared memory"),
    ("warp/warp16_naive", "warp16Naive", "each warp computes 16 results of C"),
    ("warp/warp16_smem", "warp16Smem", "each warp computes 16 results of C, A in shared memory"),
]


def bl_hgemv(mirror, out):
    repo = setkit.Repo(mirror, "Bruce-Lee-LY/cuda_hgemv")
    headers = {h: repo.show(f"src/common/{h}") for h in ("common.h", "logging.h", "util.h")}
    main_cu = repo.show("src/main.cu")
    fam = "p38-bl-hgemv"
    files = []
    for stem, fn, what in HGEMV_STEPS:
        path = f"src/{stem}.cu"
        if f"HGEMV_FUNC({fn});" not in main_cu:
            raise SystemExit(f"pub38.py: main.cu does not declare {fn}")
        src = inline_includes(repo.show(path), headers)
        if not re.search(r"^void %s\(half \*A, half \*B, half \*C, size_t N, size_t K\)" % fn, src, re.M):
            raise SystemExit(f"pub38.py: {path} has no launcher {fn}")
        entry = ("\n\n// KFORECAST entry point (ours): the call main.cu's tester makes of this step's\n"
                 "// launcher (HGEMV_FUNC), on device buffers.\n"
                 "extern \"C\" void kf_run(half *A, half *B, half *C, size_t N, size_t K) {\n"
                 f"    {fn}(A, B, C, N, K);\n}}\n")
        files.append(write_version(out, fam, os.path.basename(stem), repo,
                                   [path, "src/common/common.h", "src/common/logging.h", "src/common/util.h"],
                                   f"{fn}: {what}.", src + entry))
    return family(fam, files, repo, "bench_p38_bl_hgemv.py",
                  "C (1 x N) = A (1 x K) B (K x N), half, B stored a column after another (B[k + col K]), "
                  "N = 16384, K = 4096 (an LLM projection; main.cu's defaults are N 256, K 128, its README "
                  "sweeps dimensions up to 4096), values uniform in [-1, 1] (its Matrix), float "
                  "accumulation. The README's list, thread steps and every other warp width: "
                  + "; ".join(f"{fn} {w}" for _, fn, w in HGEMV_STEPS) + " (warp2/warp8 and the cuBLAS "
                  "step left out). The shared-memory steps set their dynamic shared memory (K halves) once, "
                  "in a static initialiser of the launcher, as the source does.", out)


# ---------------------------------------------------------------- m2papierz PMPP chapters
PMPP_UTILS = ("utils.hpp", "random.hpp", "cpp_utils.hpp", "cuda_utils.cuh")
PMPP_DROP = r"cudaMalloc|cudaMemcpy|cudaFree|\{ nullptr \}"


def pmpp_program(repo, chapter, files, local_headers):
    headers = {h: repo.show(f"utils/{h}") for h in PMPP_UTILS}
    headers.update({os.path.basename(h): repo.show(f"chapters/{chapter}/{h}") for h in local_headers})
    seen = set()
    parts = []
    for f in files:
        parts.append(f"// KFORECAST: chapters/{chapter}/{f} follows\n"
                     + inline_includes(repo.show(f"chapters/{chapter}/{f}"), headers, seen).rstrip())
    return "\n\n".join(parts)


def pmpp_family(mirror, out, fam, chapter, sources, local_headers, host_file, steps, params,
                adapter, notes):
    """One family from a PMPP chapter: each version the chapter's `sources` whole (headers
    inlined) plus a kf_run holding one host function's lines less its allocations, copies and frees."""
    repo = setkit.Repo(mirror, "m2papierz/pmpp")
    prog = pmpp_program(repo, chapter, sources, local_headers)
    host = repo.show(f"chapters/{chapter}/{host_file}")
    paths = ([f"chapters/{chapter}/{f}" for f in sources + local_headers]
             + [f"utils/{h}" for h in PMPP_UTILS])
    files = []
    for fn, what in steps:
        lines = launch_lines(cut_function(host, fn, with_comment=False), PMPP_DROP)
        entry = ("\n\n// KFORECAST entry point (ours): the lines of the source's host function " + fn + "()\n"
                 "// less its allocations, host-device copies and frees, on the adapter's device buffers.\n"
                 f"extern \"C\" void kf_run({params}) {{\n" + "\n".join(lines) + "\n}\n")
        files.append(write_version(out, fam, fn, repo, paths, f"{fn}: {what}.", prog + entry))
    return family(fam, files, repo, adapter,
                  notes + "; ".join(f"{fn} {w}" for fn, w in steps)
                  + f". A version holds the chapter's {' and '.join(sources)} whole.", out)


HISTO_STEPS = [
    ("histogramNaive", "global-memory atomics, one thread a character"),
    ("histogramPrivate", "a private histogram a block in global memory, merged by the other blocks"),
    ("histogramSharedMem", "private histogram in shared memory"),
    ("histogramContiguousPart", "shared memory, contiguous partitioning (CFACTOR 32 characters a thread)"),
    ("histogramContiguousInter", "shared memory, interleaved partitioning (grid-stride loop)"),
    ("histogramAggregation", "interleaved, consecutive identical bins aggregated before the atomic"),
]


def mp_histogram(mirror, out):
    return pmpp_family(mirror, out, "p38-mp-histogram", "ch09", ["kernels.cu", "histogram.cu"],
                       ["kernels.cuh", "histogram.cuh"], "histogram.cu", HISTO_STEPS,
                       "const char* data_d, unsigned int length, unsigned int* histo_d",
                       "bench_p38_mp_histogram.py",
                       "histogram of 2^26 lowercase letters (uniform over a-z, as benchmark.cu draws them; it "
                       "uses 10^9) into 7 bins of 4 letters, unsigned int counts, as the chapter's six host "
                       "functions launch it (BLOCK_SIZE 512; the adapter's histo_d holds NUM_BINS counters a "
                       "block, what histogramPrivate allocates): ")


STENCIL_STEPS = [
    ("stencilNaive", "one thread an output point, 8^3 blocks"),
    ("stencilSharedMem", "10^3 input tile in shared memory"),
    ("stencilThreadCoarsening", "32 x 32 x-y tile walked along z, three planes in shared memory"),
    ("stencilRegisterTiling", "as thread coarsening with the z neighbours in registers"),
]


def mp_stencil(mirror, out):
    return pmpp_family(mirror, out, "p38-mp-stencil", "ch08", ["stencil_sweep.cu"], ["stencil_sweep.cuh"],
                       "stencil_sweep.cu", STENCIL_STEPS,
                       "float* in_d, float* out_d, unsigned int n,\n"
                       "                       int c0, int c1, int c2, int c3, int c4, int c5, int c6",
                       "bench_p38_mp_stencil.py",
                       "seven-point 3-D stencil sweep over a 512^3 float32 grid (benchmark.cu's tensorDim and "
                       "coefficients c0..c6 = 1, input uniform in [0, 1]), boundary points left as the output "
                       "buffer held them (zeros): ")


# ---------------------------------------------------------------- Wong4j CSR SpMV
SPMV_STEPS = [("spmv_csr_scalar", "matMultCSR_scalar", "one thread a row"),
              ("spmv_csr_vector", "matMultCSR_vector", "one warp a row, shared-memory warp reduction")]


def wj_spmv(mirror, out):
    repo = setkit.Repo(mirror, "Wong4j/spmv")
    src = repo.show("spmv_gpu.cuh")
    fam = "p38-wj-spmv"
    files = []
    for fn, kernel, what in SPMV_STEPS:
        body = cut_function(src, fn, with_comment=False)
        dims = [ln.rstrip() for ln in body.split("\n") if re.match(r"\s*dim3 ", ln)]
        launch = [ln.rstrip() for ln in body.split("\n") if f"CUDA_KERNEL_CALL({kernel}<<<" in ln]
        if len(dims) != 2 or not launch:
            raise SystemExit(f"pub38.py: {fn}: launch lines not found")
        entry = ("\n\n// KFORECAST entry point (ours): the grid and block lines of the source's " + fn + "()\n"
                 "// and its first (warm-up) launch, repeat = 1, on the adapter's device buffers.\n"
                 "extern \"C\" void kf_run(const int nrow, int* d_ptr, int* d_indices, double* d_data,\n"
                 "                       double* d_x, double* d_y) {\n"
                 + "\n".join(dims) + "\n" + launch[0].strip() + "\n}\n")
        files.append(write_version(out, fam, fn, repo, ["spmv_gpu.cuh"],
                                   f"{fn}: {what}.", src + entry))
    return family(fam, files, repo, "bench_p38_wj_spmv.py",
                  "y = A x, A a square CSR matrix of 2^20 rows with 8-24 nonzeros a row (random columns; the "
                  "README's SuiteSparse matrices are not carried), float64 values and x uniform in [-1, 1]: "
                  + "; ".join(f"{fn} ({k}) {w}" for fn, k, w in SPMV_STEPS) + ". The cuSPARSE and ELL host "
                  "functions stay in the file (linked with -lcusparse) and are not steps: a library call and "
                  "another storage format.", out)


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public38")
    setkit.clear_set(args.out)
    fams = [lm_hgemm(args.mirror, args.out), bl_hgemv(args.mirror, args.out),
            mp_histogram(args.mirror, args.out), mp_stencil(args.mirror, args.out),
            wj_spmv(args.mirror, args.out)]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
