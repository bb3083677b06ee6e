"""Builds public evaluation set 59 ("p59-" families, split "public59", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public59/pub59.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public59

Sources (fetched with the session's `fetch` tool first), all CUDA with host code:
- xudoong/GEMM: one author's fp16 tensor-core GEMM ladder (`hgemm-tensorcore/`): one file a
  kernel, each with its own host launcher `gemm_NN_name(M, N, K, alpha, A, B, beta, C)` that
  asserts the sizes, sets the dynamic shared memory with cudaFuncSetAttribute and launches;
  WMMA fragments first (naive, shared-memory tiles, padded 128-bit loads, a cp.async
  multi-stage pipeline, register double buffering), then inline-PTX mma.sync m16n8k16 with
  ldmatrix (padding, XOR-swizzled shared memory, 4 stages, block swizzle); the shared header
  gemm.cuh holds the PTX wrappers and the macros GEMM_FUNC_SIGNITURE / GEMM_FUNC_PARAM;
- satidev/pmpp_cuda: one author's PMPP and "best practices" exercises in heavy C++ host style:
  a matrix transpose behind a templated strategy class per kernel
  (`TransImplStrategy<T>::launchKernel`, a virtual launcher), a 2-bin histogram whose host
  functions each allocate, copy, size the grid with the occupancy API and launch one of six
  kernels (global atomics, privatised copies in global memory, shared-memory privatisation,
  contiguous and interleaved coarsening, aggregation), and a 1-D convolution whose host
  function dispatches on two flags to four kernels (global filter, __constant__ filter,
  shared-memory tile with halo, shared tile plus __constant__ filter).

A version is one source file at HEAD with its own headers (and the .cu files that define
what they declare) inlined where they are included, plus an `extern "C" kf_run` (ours,
marked KFORECAST) holding the source's own launch lines for one kernel, run once on the
adapter's device buffers (the source's host-to-device copies of the input and the copy of the
result back are left out: they are the same for every version). Adapters
(`adapters/bench_p59_*.py`) are ours. The builder replaces the whole set folder but
`measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public59", "scripts/evalsets/public59/pub59.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public59"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
RACE = ("wrong in the source's kernel: after the last pipeline stage it reuses the stages' shared "
        "memory for the C tile with no __syncthreads, so warps that finish early overwrite A / B "
        "tiles that others still read (the author adds the barrier, '// don't forget this', from "
        "k09 on); on the H100 {} of 4096^2 outputs were wrong")
FAILING = {
    "p59-xd-hgemm/v3_k05_wmma_stage.cu": RACE.format("770,967"),
    "p59-xd-hgemm/v4_k06_wmma_stage_dbreg.cu": RACE.format("239,918"),
}
MEASURED_DAY = "2026-11-28"

XD = "xudoong/GEMM"
SD = "satidev/pmpp_cuda"


CLOCK_OLD = "dev_prop.memoryClockRate"
CLOCK_NEW = "/* KFORECAST: was dev_prop.memoryClockRate */ kf_memory_clock_rate(dev_id)"
CLOCK_GLUE = ("// KFORECAST: CUDA 13 removed cudaDeviceProp::memoryClockRate, which dev_config.cu reads;\n"
              "// the device attribute query gives the same value (kHz). Used where it is marked.\n"
              "static int kf_memory_clock_rate(int dev_id) {\n"
              "    int v = 0;\n"
              "    cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, dev_id);\n"
              "    return v;\n"
              "}\n")


def port_cu(impl, src):
    """The .cu text as it must read to build with CUDA 13 (only dev_config.cu changes)."""
    if impl == "utils/dev_config.cu":
        if src.count(CLOCK_OLD) != 2:
            raise SystemExit("pub59.py: dev_config.cu no longer reads memoryClockRate twice")
        src = CLOCK_GLUE + src.replace(CLOCK_OLD, CLOCK_NEW)
    return src


def inline(repo, text, path, steps):
    """Replaces each `#include "x"` line named in `steps` (include line, header path in the
    repository, optional .cu file defining what the header declares) by the header's text."""
    for inc, header, impl in steps:
        line = f'#include "{inc}"'
        if line not in text:
            raise SystemExit(f"pub59.py: {path} has no {line}")
        body = repo.show(header).rstrip() + "\n"
        if impl:
            own = f'#include "{os.path.basename(header)}"'
            src = port_cu(impl, repo.show(impl))
            if own not in src:
                raise SystemExit(f"pub59.py: {impl} does not include {own}")
            body += (f"// KFORECAST: {impl} (defines what {header} declares) inlined here\n"
                     + src.replace(own, f"// KFORECAST: {own} is inlined above", 1).rstrip() + "\n")
        text = text.replace(line, f"// KFORECAST: {header} (the source's header) inlined below\n"
                            + body + f"// KFORECAST: end of {header}", 1)
    return text


def program(repo, path, steps, entry, what, glue=""):
    text = inline(repo, repo.show(path), path, steps)
    files = [path] + [h for _, h, _ in steps] + [c for _, _, c in steps if c]
    return (TEXT.header(repo, files, what) + glue + text.rstrip() + "\n\n" + entry)


# ------------------------------------------------------------------ xudoong/GEMM (hgemm)
HG = "hgemm-tensorcore/src/kernels/"
HG_STEPS = [("gemm.cuh", "hgemm-tensorcore/include/gemm.cuh", None)]
HGEMM = [
    ("k02_naive", "gemm_02_naive",
     "one warp a 16 x 16 output tile, WMMA 16x16x16 fragments loaded straight from global memory, "
     "half accumulator"),
    ("k03_wmma_shmem", "gemm_03_wmma_shmem",
     "128 x 128 x 32 block tiles staged in dynamic shared memory, 4 warps of 64 x 64, WMMA"),
    ("k04_wmma_shmem_opt", "gemm_04_wmma_shmem_opt",
     "the shared tiles loaded with 128-bit (float4) copies and padded by 8 halves against bank "
     "conflicts, 128 x 128 x 64"),
    ("k05_wmma_stage", "gemm_05_wmma_stage",
     "256 x 128 x 32 block tiles, a 3-stage cp.async pipeline, C staged through shared memory"),
    ("k06_wmma_stage_dbreg", "gemm_06_wmma_stage_dbreg",
     "k05 plus double-buffered shared-to-register fragment loads"),
    ("k07_mma_padding", "gemm_07_mma_padding",
     "inline-PTX mma.sync m16n8k16 fed by ldmatrix from padded shared tiles"),
    ("k09_mma_stage", "gemm_09_mma_stage",
     "mma.sync with XOR-swizzled shared tiles (no padding) and a 4-stage cp.async pipeline"),
    ("k12_mma_swizzle_opt", "gemm_12_mma_swizzle_opt",
     "mma.sync, swizzled 4-stage pipeline, double-buffered registers, a 3-D grid with block "
     "swizzling along N, per-warp global loads"),
]


def hgemm_entry(launcher):
    return ("// KFORECAST entry point (ours): run_kernel()'s call of " + launcher + " in main.cu,\n"
            "// C = A B with alpha = 1 and beta = 0 as main() sets them, run once on the adapter's\n"
            "// device buffers (A M x K row-major, B N x K, i.e. K x N column-major, C M x N).\n"
            'extern "C" void kf_run(const half *A, const half *B, half *C, int M, int N, int K) {\n'
            "    half alpha = 1, beta = 0;\n"
            f"    {launcher}(M, N, K, alpha, A, B, beta, C);\n"
            "}\n")


# ------------------------------------------------------------------ satidev/pmpp_cuda
CHECK = ("../../utils/check_error.cuh", "utils/check_error.cuh", "utils/check_error.cu")
TR = "bpnv/mat_transpose/"
TRANSPOSE = [
    ("trans_impl_naive.cuh", "TransImplNaive",
     "transNaiveKernel: 16 x 16 blocks, coalesced reads, strided writes"),
    ("trans_impl_sm.cuh", "TransImplSM",
     "transSMKernel: a 16 x 16 shared tile, coalesced reads and writes, bank conflicts on the "
     "column read"),
    ("trans_impl_sm_padding.cuh", "TransImplSMPadding",
     "transSMPaddedKernel: the tile padded to 17 columns"),
    ("trans_impl_sm_swizzling.cuh", "TransImplSMSwizzling",
     "transSMSwizzlingKernel: the tile's rows XOR-swizzled by the column (no padding)"),
]


def transpose_entry(cls):
    return ("// KFORECAST entry point (ours): Transpose<float>::run()'s launch, impl_->launchKernel(),\n"
            "// with the strategy perf_test.cu constructs (std::make_unique<" + cls + "<float>>()),\n"
            "// run once on the adapter's device buffers.\n"
            'extern "C" void kf_run(float const *input, float *output,\n'
            "                       unsigned num_rows_input, unsigned num_cols_input) {\n"
            "    auto const impl = std::unique_ptr<BPNV::TransImplStrategy<float>>{\n"
            f"        std::make_unique<BPNV::{cls}<float>>()}};\n"
            "    impl->launchKernel(input, output, num_rows_input, num_cols_input);\n"
            "}\n")


HIST_STEPS = [("histogram.cuh", "pmpp/09_histogram/histogram.cuh", None),
              ("../utils/check_error.cuh", "utils/check_error.cuh", "utils/check_error.cu"),
              ("../utils/exec_config.cuh", "utils/exec_config.cuh", None),
              ("dev_config.cuh", "utils/dev_config.cuh", None)]
H_SIG = ('extern "C" void kf_run(unsigned short const *data_i_dev, unsigned *hist_dev,\n'
         '                       unsigned num_data_elems) {\n'
         "    using namespace PMPP::CUDA;\n"
         "    auto const num_hist_bins = 2u;\n"
         "    auto const op_size_bytes = num_hist_bins * sizeof(unsigned);\n")
H_MEMSET = ("    checkError(cudaMemset(hist_dev, 0u, op_size_bytes),\n"
            "               \"Initialize histogram buffer\");\n")
H_COARSE = ("    auto const shared_mem_bytes = num_hist_bins * sizeof(unsigned);\n"
            "    auto const exec_params = ExecConfig::getParams(num_data_elems, hist_kern, shared_mem_bytes);\n"
            "    auto const block_size = exec_params.block_dim.x;\n"
            "    auto const coarse_factor = 16u;\n"
            "    auto const grid_size = static_cast<unsigned>(std::ceil(static_cast<float>(num_data_elems) /\n"
            "                                                           static_cast<float>(coarse_factor * block_size)));\n")
HISTOGRAM = [
    ("histogram", "hist_kern",
     H_MEMSET
     + "    auto const exec_params = ExecConfig::getParams(num_data_elems, hist_kern, 0u);\n"
     "    hist_kern<<<exec_params.grid_dim, exec_params.block_dim>>>(\n"
     "        data_i_dev, hist_dev, static_cast<unsigned>(num_data_elems));\n"
     "    checkErrorKernel(\"Histogram kernel\", true);\n",
     "histogram(): one element a thread (occupancy-API block size), atomicAdd on the two global bins"),
    ("histogramPrivatization", "hist_kern_privat",
     "    // histogramPrivatization() allocates one private histogram a block in global memory\n"
     "    unsigned *hist_priv = nullptr;\n"
     "    auto const exec_params = ExecConfig::getParams(num_data_elems, hist_kern, 0u);\n"
     "    auto const mult_hist_bytes = exec_params.grid_dim.x * num_hist_bins * sizeof(unsigned);\n"
     "    checkError(cudaMalloc(reinterpret_cast<void **>(&hist_priv), mult_hist_bytes),\n"
     "               \"allocation of device buffer for histogram output\");\n"
     "    checkError(cudaMemset(hist_priv, 0u, mult_hist_bytes),\n"
     "               \"Initialize histogram buffer\");\n"
     "    hist_kern_privat<<<exec_params.grid_dim, exec_params.block_dim>>>(\n"
     "        data_i_dev, hist_priv,\n"
     "        static_cast<unsigned>(num_data_elems),\n"
     "        static_cast<unsigned>(num_hist_bins));\n"
     "    checkErrorKernel(\"Histogram kernel using privatization\", true);\n"
     "    // KFORECAST: the source copies the first op_size_bytes back to the host; here into the\n"
     "    // adapter's device buffer\n"
     "    checkError(cudaMemcpy(hist_dev, hist_priv, op_size_bytes, cudaMemcpyDeviceToDevice),\n"
     "               \"transfer results\");\n"
     "    cudaFree(hist_priv);\n",
     "histogramPrivatization(): a private copy a block in global memory (cudaMalloc'd and "
     "cleared per call), blocks > 0 merged into block 0's copy with atomics"),
    ("histogramPrivateShared", "hist_kern_privat_sm",
     H_MEMSET
     + "    auto const shared_mem_bytes = num_hist_bins * sizeof(unsigned);\n"
     "    auto const exec_params = ExecConfig::getParams(num_data_elems, hist_kern, shared_mem_bytes);\n"
     "    hist_kern_privat_sm<<<exec_params.grid_dim, exec_params.block_dim, shared_mem_bytes>>>(\n"
     "        data_i_dev, hist_dev, static_cast<unsigned>(num_data_elems),\n"
     "        static_cast<unsigned>(num_hist_bins));\n"
     "    checkErrorKernel(\"Histogram kernel\", true);\n",
     "histogramPrivateShared(): a private histogram a block in shared memory, one element a thread"),
    ("histogramPrivateSharedCoarse_contig", "hist_kern_privat_sm_coarse_contig",
     H_MEMSET + H_COARSE
     + "    // histogramPrivateSharedCoarse(data, CoarseningStrategy::CONTIGUOUS_PARTITIONING)\n"
     "    hist_kern_privat_sm_coarse_contig<<<grid_size, block_size, shared_mem_bytes>>>(\n"
     "        data_i_dev, hist_dev, static_cast<unsigned>(num_data_elems),\n"
     "        static_cast<unsigned>(num_hist_bins),\n"
     "        coarse_factor);\n"
     "    checkErrorKernel(\"Histogram kernel\", true);\n",
     "histogramPrivateSharedCoarse(CONTIGUOUS_PARTITIONING): shared privatisation, 16 contiguous "
     "elements a thread, 16 times fewer blocks"),
    ("histogramPrivateSharedCoarse_interleaved", "hist_kern_privat_sm_coarse_interleaved",
     H_MEMSET + H_COARSE
     + "    // histogramPrivateSharedCoarse(data, CoarseningStrategy::INTERLEAVED_PARTITIONING)\n"
     "    hist_kern_privat_sm_coarse_interleaved<<<grid_size, block_size, shared_mem_bytes>>>(\n"
     "        data_i_dev, hist_dev, static_cast<unsigned>(num_data_elems),\n"
     "        static_cast<unsigned>(num_hist_bins));\n"
     "    checkErrorKernel(\"Histogram kernel\", true);\n",
     "histogramPrivateSharedCoarse(INTERLEAVED_PARTITIONING): shared privatisation, a grid-stride "
     "loop over the same 16 times fewer blocks"),
    ("histogramPrivateSharedCoarseAggr", "hist_kern_privat_sm_coarse_interleaved_aggr",
     H_MEMSET + H_COARSE
     + "    hist_kern_privat_sm_coarse_interleaved_aggr<<<grid_size, block_size, shared_mem_bytes>>>(\n"
     "        data_i_dev, hist_dev, static_cast<unsigned>(num_data_elems),\n"
     "        static_cast<unsigned>(num_hist_bins));\n"
     "    checkErrorKernel(\"Histogram kernel\", true);\n",
     "histogramPrivateSharedCoarseAggr(): the interleaved kernel aggregating runs of equal values "
     "in a register before each shared atomicAdd"),
]

CONV_STEPS = [("conv_1d.cuh", "pmpp/07_convolution/conv_1d.cuh", None),
              ("../utils/exec_config.cuh", "utils/exec_config.cuh", None),
              ("dev_config.cuh", "utils/dev_config.cuh", "utils/dev_config.cu")]
C_SIG = ('extern "C" void kf_run(float const *data_dev, float *filter_dev, float *res_dev,\n'
         '                       unsigned num_data_elems, float const *filter_host, unsigned filter_elems) {\n'
         "    using namespace PMPP::CUDA;\n"
         "    auto const filter_radius = filter_elems / 2u;\n"
         "    auto const filter_size_bytes = filter_elems * sizeof(float);\n")
C_UP_CONST = "    cudaMemcpyToSymbol(FILTER_CONST, filter_host, filter_size_bytes);\n"
C_UP_GLOBAL = "    cudaMemcpy(filter_dev, filter_host, filter_size_bytes, cudaMemcpyHostToDevice);\n"
C_SM = ("    auto constexpr ip_tile_width = 768u;\n"
        "    auto const shared_mem_size = ip_tile_width * sizeof(float);\n"
        "    auto const block_size = ip_tile_width;\n")
CONV = [
    ("global", C_UP_GLOBAL
     + "    auto const exec_params = ExecConfig::getParams(num_data_elems, conv_kern_1d, 0u);\n"
     "    conv_kern_1d<<<exec_params.grid_dim, exec_params.block_dim>>>(\n"
     "        data_dev, filter_dev, res_dev, static_cast<unsigned>(num_data_elems),\n"
     "        static_cast<unsigned>(filter_radius));\n",
     "conv1D(use_const_mem = false, use_shared_mem = false): conv_kern_1d, one output a thread, "
     "data and filter from global memory, occupancy-API block size"),
    ("const_mem", C_UP_CONST
     + "    auto const exec_params = ExecConfig::getParams(num_data_elems, conv_kern_1d, 0u);\n"
     "    conv_kern_1d_const_mem<<<exec_params.grid_dim, exec_params.block_dim>>>(\n"
     "        data_dev, res_dev, static_cast<unsigned>(num_data_elems),\n"
     "        static_cast<unsigned>(filter_radius));\n",
     "conv1D(use_const_mem = true, use_shared_mem = false): conv_kern_1d_const_mem, the filter in "
     "__constant__ memory (cudaMemcpyToSymbol)"),
    ("shared_mem", C_UP_GLOBAL + C_SM
     + "    auto const op_tile_width = ip_tile_width - 2u * filter_radius;\n"
     "    auto const grid_size = (num_data_elems + op_tile_width - 1u) / op_tile_width;\n"
     "    conv_kern_1d_sm<<<grid_size, block_size, shared_mem_size>>>(\n"
     "        data_dev, filter_dev, res_dev, static_cast<unsigned>(num_data_elems),\n"
     "        static_cast<unsigned>(filter_radius));\n",
     "conv1D(use_const_mem = false, use_shared_mem = true): conv_kern_1d_sm, 768-element input "
     "tiles with halo in shared memory, 768 - 2r outputs a block"),
    ("const_mem_shared_mem", C_UP_CONST + C_SM
     + "    auto const grid_size = (num_data_elems + ip_tile_width - 1u) / ip_tile_width;\n"
     "    conv_kern_1d_const_mem_sm<<<grid_size, block_size, shared_mem_size>>>(\n"
     "        data_dev, res_dev, static_cast<unsigned>(num_data_elems),\n"
     "        static_cast<unsigned>(filter_radius));\n",
     "conv1D(use_const_mem = true, use_shared_mem = true): conv_kern_1d_const_mem_sm, 768-element "
     "tiles without halo (halo read from global memory), filter in __constant__ memory"),
]


def fam_entry(fam, repo, files, steps_txt, adapter, notes, out):
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes=notes + " Versions, reference first: " + "; ".join(steps_txt) + ".")


def build_hgemm(mirror, out):
    repo = setkit.Repo(mirror, XD)
    fam, files, steps = "p59-xd-hgemm", [], []
    for i, (stem, launcher, what) in enumerate(HGEMM):
        rel = f"{fam}/v{i}_{stem}.cu"
        entry = hgemm_entry(launcher)
        setkit.write(os.path.join(out, rel),
                     program(repo, HG + stem + ".cu", HG_STEPS, entry, f"{stem}.cu, {launcher}: {what}."))
        files.append(rel)
        steps.append(f"v{i} {stem} ({what})")
    return fam_entry(fam, repo, files, steps, "bench_p59_xd_hgemm.py",
                     "fp16 GEMM C = A B, M = N = K = 4096 (main.cu's default size; every launcher "
                     "asserts multiples of its block tile), B stored K x N column-major as main.cu's "
                     "kernels read it, half accumulators throughout (the kernels' own choice). Inputs "
                     "are multiples of 1/4 in [-1/2, 1/2], so every partial sum is exact in half and "
                     "all versions agree exactly. One author's ladder from hgemm-tensorcore/ (kernels "
                     "k02-k12; main.cu's run_kernel() switch picks one by number). Left out: k00 "
                     "(cuBLAS), k01 (mma_sync on fragments it never loads, a peak-rate probe), k08, k10, k11 (steps between kept ones).",
                     out)


def build_transpose(mirror, out):
    repo = setkit.Repo(mirror, SD)
    fam, files, steps = "p59-sd-transpose", [], []
    glue = "// KFORECAST: <memory> for the entry point's std::unique_ptr\n#include <memory>\n"
    for i, (hdr, cls, what) in enumerate(TRANSPOSE):
        stem = os.path.splitext(hdr)[0]
        rel = f"{fam}/v{i}_{stem}.cu"
        steps_inc = [("trans_impl_strategy.cuh", TR + "trans_impl_strategy.cuh", None), CHECK]
        setkit.write(os.path.join(out, rel),
                     program(repo, TR + hdr, steps_inc, transpose_entry(cls), f"{hdr}, {cls}: {what}.",
                             glue))
        files.append(rel)
        steps.append(f"v{i} {cls} ({what})")
    return fam_entry(fam, repo, files, steps, "bench_p59_sd_transpose.py",
                     "fp32 out-of-place transpose of an 8192 x 8192 matrix (perf_test.cu uses 19200 x "
                     "19200; cut so that the checks' float64 copies fit), one strategy class a version "
                     "from bpnv/mat_transpose/: each header holds a templated kernel and its launcher, "
                     "launchKernel(), which ends with checkErrorKernel(name, true), a "
                     "cudaDeviceSynchronize.", out)


def one_file_family(mirror, out, fam, path, inc_steps, versions, adapter, notes):
    """A family whose versions are one source file with different entry points:
    `versions` lists (file stem, entry point text, what it runs)."""
    repo = setkit.Repo(mirror, SD)
    files, steps = [], []
    for i, (stem, entry, what) in enumerate(versions):
        rel = f"{fam}/v{i}_{stem}.cu"
        setkit.write(os.path.join(out, rel),
                     program(repo, path, inc_steps, entry, f"{os.path.basename(path)}, {what}."))
        files.append(rel)
        steps.append(f"v{i} {what}")
    return fam_entry(fam, repo, files, steps, adapter, notes, out)


def build_histogram(mirror, out):
    versions = [(fn, "// KFORECAST entry point (ours): " + fn.split("_")[0] + "()'s device lines for " + kern
                 + " (the clear of the bins,\n// the grid from the occupancy API, the launch, the "
                 "checked synchronisation), run once on the\n// adapter's device buffers.\n"
                 + H_SIG + body + "}\n", what) for fn, kern, body, what in HISTOGRAM]
    return one_file_family(
        mirror, out, "p59-sd-histogram", "pmpp/09_histogram/histogram.cu", HIST_STEPS, versions,
        "bench_p59_sd_histogram.py",
        "Two-bin histogram (false / true) of 2^24 random booleans held as unsigned short "
        "(the host functions convert std::vector<bool> so), PMPP chapter 9 as one author "
        "wrote it: six host functions in one file, each allocating, copying, clearing the "
        "bins, sizing the grid with cudaOccupancyMaxPotentialBlockSize (ExecConfig) and "
        "launching one kernel. Every version is the whole file; kf_run runs one function's "
        "device lines. The comparison is exact.")


def build_conv(mirror, out):
    versions = [(f"conv1D_{name}",
                 "// KFORECAST entry point (ours): conv1D()'s filter upload and launch lines for one pair\n"
                 "// of its flags, run once on the adapter's device buffers (the host filter as conv1D()\n"
                 "// receives it).\n" + C_SIG + body + "}\n", what) for name, body, what in CONV]
    return one_file_family(
        mirror, out, "p59-sd-conv1d", "pmpp/07_convolution/conv_1d.cu", CONV_STEPS, versions,
        "bench_p59_sd_conv1d.py",
        "1-D convolution of 2^24 floats with a 31-tap filter (radius 15), zero ghost "
        "cells, PMPP chapter 7: one host function conv1D(data, filter, use_const_mem, "
        "use_shared_mem) dispatching on its two flags to four kernels; every version is "
        "the whole file and kf_run runs the filter upload (cudaMemcpy to the device, or "
        "cudaMemcpyToSymbol into __constant__ memory) and the launch for one pair of flags.")


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public59")
    setkit.clear_set(args.out)
    m, o = args.mirror, args.out
    fams = [build_hgemm(m, o), build_transpose(m, o), build_histogram(m, o), build_conv(m, o)]
    fams = [setkit.measured_note(f, FAILING, MEASURED_DAY) for f in fams]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
