#!/usr/bin/env python3
"""Builds public evaluation set 5 ("p5-" families, split "public5"): public programs as their
authors wrote them, from repositories no other set uses, kept unseen (issue 20, 1(b)).

    pub5.py --mirror /work/.mirror --out /work/main/target/evalsets/public5

Reads local bare copies (made with the session's `fetch` tool: MIRROR/<owner>+<name>/repo) of
  brucefan1983/CUDA-Programming          (the book "CUDA Programming": reductions, transposes)
  PacktPublishing/Learn-CUDA-Programming (chapter 3 reduction ladder, chapter 2 transpose,
                                          chapter 7 convolution)
  R100001/Programming-Massively-Parallel-Processors (the PMPP book's convolutions and scans,
                                          launched as its nvbench performance tests do)
  ELS-RD/kernl                           (Triton layer norm, RMS norm and attention)
  pytorch-labs/applied-ai                (Triton softmax, RMS norm and attention)
and writes, OUTSIDE the repository, a set in the layout of HELPERS.md's evaluation-set
contract: families.json, one folder per family (a program file per version, reference first,
and its bench.py adapter), SOURCES.json (a dict keyed by family: repository@commit and paths).

A CUDA version is the source file less main() (and less its timing/printing helpers and the
file's other kernels, their switch cases cut away), with the headers of the same folder
inlined, plus an `extern "C" kf_run` entry point marked KFORECAST that runs main()'s (or the
benchmark loop's) own launch lines once. A Triton version is the module verbatim; where one
module holds several interchangeable kernels, a version keeps one (the others replaced by a
marked `NAME = None`) and a marked entry line names the one it runs. Only this builder and
the adapters (adapters/, ours) live in kforecast's repository.
"""

import os
import re
import sys

from cuts5 import (TEXT, c_header, cut_fn, cut_function, cut_switch, drop_function, drop_prototype, inline_include,
                   py_header, py_keep_kernels, squeeze_blank_lines)
from setkit import Repo, builder_args, clear_set, pair_counts, write, write_index  # (on sys.path through cuts5)

PREFIX = "p5-"
SPLIT = "public5"
adapter = TEXT.adapter


# ---------------------------------------------------------------- brucefan1983/CUDA-Programming
BF_HELPERS = ("timing", "print_matrix")


def bf_program(bf, path, kernel, drop_kernels, entry, method=None, host=None, extra_drop=()):
    """A version from the book's programs: the file less main(), timing(), print_matrix()
    and the other kernels (their prototypes too), error.cuh inlined, the host function `host`
    cut to `case method`, and `entry` appended."""
    src = bf.show(path)
    text = drop_function(src, "main")
    for name in BF_HELPERS + tuple(drop_kernels) + tuple(extra_drop):
        if re.search(r"\b" + name + r"\s*\([^;{]*\)\s*\{", text):
            text = drop_function(text, name)
        text = drop_prototype(text, name)
    if method is not None:
        text = cut_switch(text, host, method)
    folder = os.path.dirname(path)
    text = inline_include(text, "error.cuh", bf.show(f"{folder}/error.cuh"), folder)
    return (c_header(bf, [path, f"{folder}/error.cuh"], f"Version: kernel {kernel}, with the book's host code for it.")
            + squeeze_blank_lines(text).rstrip() + "\n\n" + entry)


def bf_reduce_entry(kernel, method=None):
    call = f"reduce(d_x, {method})" if method is not None else "reduce(d_x)"
    return ("// KFORECAST: entry point for the evaluation adapter: one call of the program's reduce()\n"
            f"// ({kernel}), as timing() makes it; the sum is returned through h_sum.\n"
            "extern \"C\" int kf_run(real *d_x, real *h_sum)\n{\n"
            f"    *h_sum = {call};\n"
            "    return (int)cudaGetLastError();\n}\n")


def bf_transpose_entry(src, kernel):
    t = cut_function(src, "timing", with_comment=False)
    grid = re.search(r"    const int grid_size_x.*?const dim3 grid_size\(grid_size_x, grid_size_y\);", t, re.S).group(0)
    launch = re.search(rf"{kernel}<<<grid_size, block_size>>>\(d_A, d_B, N\);", t).group(0)
    return ("// KFORECAST: entry point for the evaluation adapter: timing()'s grid and launch for this\n"
            "// kernel, once (N from main()'s argv in the book; the adapter passes it).\n"
            "extern \"C\" int kf_run(const real *d_A, real *d_B, const int N)\n{\n"
            f"{grid}\n    {launch}\n"
            "    return (int)cudaGetLastError();\n}\n")


# ---------------------------------------------------------------- Packt Learn-CUDA-Programming
PK_RED = "Chapter03/03_cuda_thread_programming"


def packt_reduce(pk, folder, kernel_file, host_file):
    """A chapter-3 reduction: the kernel file verbatim (reduction.h inlined), the folder's
    run_reduction() (if the benchmark loop calls it) and kf_run running the body of
    run_benchmark()'s timed loop once."""
    d = f"{PK_RED}/{folder}"
    kern = pk.show(f"{d}/{kernel_file}")
    host = pk.show(f"{d}/{host_file}")
    if '#include "reduction.h"' in kern:
        kern = inline_include(kern, "reduction.h", pk.show(f"{d}/reduction.h"), d)
    launcher = re.search(r"run_benchmark\((\w+), d_outPtr, d_inPtr, size\);", host).group(1)
    bench = cut_function(host, "run_benchmark", with_comment=False)
    rtype = re.search(r"run_benchmark\((\w+)\s*\(\*reduce\)\(([^)]*)\)", bench)
    loop = re.search(r"for \(int i = 0; i < test_iter; i\+\+\)\s*\{", bench)
    body = bench[loop.end():bench.index("}", loop.end())]
    body = "\n".join(line.strip() and "    " + line.strip() or "" for line in body.strip("\n").split("\n"))
    parts = [c_header(pk, [f"{d}/{kernel_file}", f"{d}/reduction.h", f"{d}/{host_file}"],
                      f"Version: {kernel_file} of {folder}, with the folder's benchmark loop body."),
             kern.rstrip(), "\n\n"]
    if "run_reduction(" in body:
        parts += [f"// KFORECAST: run_reduction() of {host_file}\n", cut_fn(host, "run_reduction"), "\n"]
    parts.append(
        f"// KFORECAST: entry point for the evaluation adapter: one pass of {host_file}'s timed loop\n"
        "// (run_benchmark: num_threads 256; main(): size = 1 << 24).\n"
        "extern \"C\" int kf_run(float *d_outPtr, float *d_inPtr, int size)\n{\n"
        f"    {rtype.group(1)} (*reduce)({rtype.group(2)}) = {launcher};\n"
        "    int num_threads = 256;\n"
        f"{body}\n"
        "    return (int)cudaGetLastError();\n}\n")
    return "".join(parts)


PK_TR = "Chapter02/02_memory_overview/04_matrix_transpose"


def packt_transpose(pk, file, kernel, other):
    src = pk.show(f"{PK_TR}/{file}")
    main = cut_function(src, "main", with_comment=False)
    launch = re.search(r"\tdim3 blockSize\(BLOCK_SIZE,BLOCK_SIZE,1\);\n\tdim3 gridSize\(N/BLOCK_SIZE,N/BLOCK_SIZE,1\);", main).group(0)
    text = drop_function(src, "main")
    for f in ("fill_array", "print_output", other):
        text = drop_function(text, f)
    old = re.search(r"#define N (\d+)", text)
    text = text.replace(old.group(0), f"#define N 8192  // KFORECAST: the source's {old.group(1)}, raised to fill an H100", 1)
    return (c_header(pk, [f"{PK_TR}/{file}"], f"Version: {kernel} of {file}, with main()'s launch.")
            + squeeze_blank_lines(text).rstrip() + "\n\n"
            "// KFORECAST: entry point for the evaluation adapter: main()'s launch of this kernel, once.\n"
            "extern \"C\" int kf_run(int *d_a, int *d_b)\n{\n"
            f"{launch}\n\t{kernel}<<<gridSize,blockSize>>>(d_a,d_b);\n"
            "    return (int)cudaGetLastError();\n}\n")


PK_CONV = "Chapter07/07_parallel_programming_pattern/02_convolution/convolution.cu"


def packt_conv(pk, version):
    src = pk.show(PK_CONV)
    text = drop_function(src, "main")
    for f in ("convolution_host", "generate_filter", "generate_data", "value_test"):
        text = drop_function(text, f)
    for v in (1, 2, 3):
        if v != version:
            text = drop_function(text, f"convolution_kernel_v{v}")
    if version == 1:
        text = text.replace("__constant__ float c_filter[MAX_FILTER_LENGTH * MAX_FILTER_LENGTH];\n", "", 1)
    # the launcher's if/else chain cut to this version's branch
    g = cut_function(text, "convolution_gpu", with_comment=False).rstrip("\n")
    chain = re.search(r"    if \(version == 1\).*?\n    \}\n", g, re.S).group(0)
    branch = {1: re.search(r"    if \(version == 1\)\n(.*?\n)", chain, re.S).group(1),
              2: re.search(r"    else if \(version == 2\) \n?(.*?\n)", chain, re.S).group(1),
              3: re.search(r"    else // version == 3\n    \{\n(.*?)    \}\n", chain, re.S).group(1)}[version]
    text = text.replace(g, g.replace(chain, branch.replace("        ", "    ") if version != 3 else
                                     "\n".join(l[4:] if l.startswith("        ") else l for l in branch.split("\n"))), 1)
    inc = '#include <helper_timer.h>\n#include "helper_cuda.h"\n'
    if inc not in text:
        raise SystemExit("pub5.py: convolution.cu's includes changed; update the builder")
    text = text.replace(inc, "// KFORECAST: helper_timer.h and helper_cuda.h (NVIDIA's samples' helpers) are not\n"
                             "// vendored; the one helper the kept code uses, checkCudaErrors, is defined here.\n"
                             "#define checkCudaErrors(call) (call)\n", 1)
    sym = ("    cudaMemcpyToSymbol(c_filter, d_filter, filter_size * filter_size * sizeof(float), 0,\n"
           "                       cudaMemcpyDeviceToDevice);  // KFORECAST: main() copies it from the host\n"
           if version != 1 else "")
    return (c_header(pk, [PK_CONV], f"Version: convolution_kernel_v{version}, with its convolution_gpu() launch.")
            + squeeze_blank_lines(text).rstrip() + "\n\n"
            "// KFORECAST: entry point for the evaluation adapter: main()'s filter upload (v2, v3) and\n"
            "// its call of convolution_gpu() for this version, once.\n"
            "extern \"C\" int kf_run(float *d_output, float *d_input, float *d_filter, int num_row, int num_col,\n"
            "                      int filter_size)\n{\n" + sym +
            f"    convolution_gpu({version}, d_output, d_input, d_filter, num_row, num_col, filter_size);\n"
            "    return (int)cudaGetLastError();\n}\n")


# ---------------------------------------------------------------- R100001 (PMPP book, nvbench tests)
R1 = "Performance-Tests-NvBench"


def r1_launch_body(bench_src, kernel):
    """The size statements and the launch of `<kernel>_bench` (its nvbench lambda's call), with
    thrust::raw_pointer_cast(X.data()) read as the raw pointer X."""
    b = cut_function(bench_src, f"{kernel}_bench", with_comment=False)
    stmts = [m.group(0) for m in re.finditer(r"(?ms)^    const (?:std::size_t|dim3) [^;]*;", b)
             if "state." not in m.group(0)]
    lam = b[b.index("](nvbench::launch &launch) {"):]
    launch = re.search(rf"(?s)\n([ \t]*{re.escape(kernel)}(?:<T>)?(?:<<<.*?>>>)?\(.*?\);)", lam).group(1)
    launch = re.sub(r"thrust::raw_pointer_cast\((\w+)\.data\(\)\)", r"\1", launch)
    return "\n".join(stmts), launch.strip("\n")


def r1_conv(r1, kernel, dims):
    kpath, bpath = f"{R1}/convolution/convolution_kernels.cuh", f"{R1}/convolution/convolution_bench.cu"
    kern, bench = r1.show(kpath), r1.show(bpath)
    const = re.search(r"#define MAX_MASK_WIDTH \d+\n__constant__ float M\[MAX_MASK_WIDTH\];\n", bench).group(0)
    prelude = kern[:kern.index("__global__")].rstrip() + "\n"
    stmts, launch = r1_launch_body(bench, kernel)
    if dims == 1:
        sig = "float *input, float *mask, float *output, std::size_t array_size, std::size_t mask_width, std::size_t block_dim"
        msize = "mask_width"
    else:
        sig = ("float *input, float *mask, float *output, std::size_t axis_size, std::size_t num_channels,\n"
               "                      std::size_t mask_width, std::size_t block_axis_dim")
        msize = "mask_width * mask_width"
    return (c_header(r1, [kpath, bpath], f"Version: {kernel}, with its nvbench benchmark's launch.")
            + "// KFORECAST: the benchmark file's constant mask (it includes the kernels after it)\n" + const + "\n"
            + prelude + "\n" + cut_fn(kern, kernel) + "\n"
            "// KFORECAST: entry point for the evaluation adapter: the sizes and launch of the benchmark's\n"
            f"// {kernel}_bench (nvbench state values passed as arguments); the mask is also uploaded to\n"
            "// the constant M, which the benchmark leaves unset.\n"
            f"extern \"C\" int kf_run({sig})\n{{\n"
            f"    cudaMemcpyToSymbol(M, mask, {msize} * sizeof(float), 0, cudaMemcpyDeviceToDevice);\n"
            f"{stmts}\n{launch}\n"
            "    return (int)cudaGetLastError();\n}\n")


SCAN = {"Kogge_Stone": "Kogge_Stone_inclusive_scan", "Brent_Kung": "Brent_Kung_inclusive_scan",
        "three_phase": "three_phase_parallel_inclusive_scan"}


def r1_scan(r1, which):
    kpath, bpath = f"{R1}/scan/scan_kernels.cuh", f"{R1}/scan/scan_bench.cu"
    kern, bench = r1.show(kpath), r1.show(bpath)
    prelude = kern[:kern.index("//", kern.index("#include"))].rstrip() + "\n"
    host = f"hierarchical_scan_{which}"
    b = cut_function(bench, f"{host}_bench", with_comment=False)
    call = re.search(rf"(?s)\n([ \t]*{host}<T>\(.*?\);)", b).group(1)
    call = re.sub(r"thrust::raw_pointer_cast\((\w+)\.data\(\)\)", r"\1", call).replace("<T>", "<uint32_t>")
    return (c_header(r1, [kpath, bpath], f"Version: {host} ({SCAN[which]}), with its nvbench benchmark's call.")
            + prelude + "#include <cstdint>  // KFORECAST: uint8_t/uint32_t, which nvbench's headers brought in\n\n"
            "// KFORECAST: nvbench is not vendored; the host code only asks its launch object for a stream.\n"
            "namespace nvbench { struct launch { cudaStream_t get_stream() const { return 0; } }; }\n\n"
            + cut_fn(kern, SCAN[which]) + "\n" + cut_fn(kern, "add_intermediate_results") + "\n"
            + cut_fn(kern, host) + "\n"
            "// KFORECAST: entry point for the evaluation adapter: the benchmark's call (uint32 elements,\n"
            "// its block, shared-memory and per-block sizes), once.\n"
            "extern \"C\" int kf_run(uint32_t *input, uint32_t *output, std::size_t num_elements)\n{\n"
            "    nvbench::launch launch;\n"
            f"{call}\n"
            "    return (int)cudaGetLastError();\n}\n")


# ---------------------------------------------------------------- kernl, applied-ai (Triton)
KL_LN = "src/kernl/implementations/layer_norm.py"
KL_KERNELS = ("layer_norm_xformers", "_layer_norm_fwd_fused_single_pass", "_layer_norm_fwd_fused_multi_pass")


def kernl_version(kl, keep, entry):
    text = py_keep_kernels(kl.show(KL_LN), KL_KERNELS, (keep,) if keep else ())
    what = f"kernel {keep}" if keep else "the module's PyTorch reference (no Triton kernel)"
    return (py_header(kl, [KL_LN], f"Version: {what}.") + text.rstrip() + "\n\n\n"
            "# KFORECAST: the entry the evaluation adapter calls\n" + entry + "\n")


def ours_py(what, body):
    return (f'"""Written for kforecast\'s public evaluation set 5 (ours, not a public source): {what}"""\n'
            + body)


REF_SOFTMAX = '''import torch


def softmax(x):
    """Row softmax over the last dimension in eager torch (torch.softmax)."""
    return torch.softmax(x, dim=-1)
'''


def main():
    args = builder_args(__doc__, "target/evalsets/public5")
    out = args.out
    clear_set(out)  # this set's folder is ours alone: keep only measurements/

    bf = Repo(args.mirror, "brucefan1983/CUDA-Programming")
    pk = Repo(args.mirror, "PacktPublishing/Learn-CUDA-Programming")
    kl = Repo(args.mirror, "ELS-RD/kernl")
    aa = Repo(args.mirror, "pytorch-labs/applied-ai")
    r1 = Repo(args.mirror, "R100001/Programming-Massively-Parallel-Processors")
    families, sources = [], {}
    write(os.path.join(out, "p5common.py"), adapter("p5common.py"))

    def family(name, files, srcs, style, notes, bench):
        name = PREFIX + name
        for rel, text in files:
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), adapter(bench))
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": SPLIT,
                         "source": "; ".join(f"{r.name}@{r.commit[:12]}" for r, _ in srcs), "style": style,
                         "notes": notes})
        sources[name] = [{"repository": r.name, "commit": r.commit, "paths": paths} for r, paths in srcs]

    # brucefan1983/CUDA-Programming: sum reductions of N = 1e8 floats
    R2 = "src/08-shared-memory/reduce2gpu.cu"
    WP = "src/10-warp/reduce.cu"
    AT = "src/09-atomic/reduce.cu"
    P1 = "src/10-warp/reduce1parallelism.cu"
    r2_kernels = ("reduce_global", "reduce_shared", "reduce_dynamic")
    wp_kernels = ("reduce_syncwarp", "reduce_shfl", "reduce_cp")
    family("bf-reduce", [
        ("reduce2gpu_shared.cu", bf_program(bf, R2, "reduce_shared", [k for k in r2_kernels if k != "reduce_shared"],
                                            bf_reduce_entry("reduce_shared", 1), method=1, host="reduce")),
        ("reduce_atomic.cu", bf_program(bf, AT, "reduce", [], bf_reduce_entry("reduce"))),
        ("reduce_warp_shfl.cu", bf_program(bf, WP, "reduce_shfl", [k for k in wp_kernels if k != "reduce_shfl"],
                                           bf_reduce_entry("reduce_shfl", 1), method=1, host="reduce")),
        ("reduce1parallelism.cu", bf_program(bf, P1, "reduce_cp", [], bf_reduce_entry("reduce_cp"))),
    ], [(bf, [R2, AT, WP, P1])], "host-code",
        "The book's float sum of N = 1e8 elements (its own size, a global const): chapter 8's shared-memory "
        "reduction with the partial sums copied back and added on the CPU (reference), chapter 9's atomicAdd "
        "of the block sums, chapter 10's warp-shuffle reduction, and chapter 10's grid-stride reductions with "
        "a second one-block pass (reduce1parallelism). Each version's reduce() allocates, copies the result to the host and "
        "frees, as the book does. Chapter 8's reduce_global is left out: it sums in place and destroys its "
        "input, so no two versions could be checked on one input. Chapter 10's reduce2static (reduce1parallelism "
        "with a static __device__ buffer) is left out, chosen before any measurement, to keep sums under a "
        "third of the set's pairs.",
        "bench_p5_bf_reduce.py")

    MT = "src/07-global-memory/matrix.cu"
    BK = "src/08-shared-memory/bank.cu"
    mt, bk = bf.show(MT), bf.show(BK)
    mt_kernels = ("copy", "transpose1", "transpose2", "transpose3")
    family("bf-transpose", [
        ("matrix_transpose1.cu", bf_program(bf, MT, "transpose1", [k for k in mt_kernels if k != "transpose1"],
                                            bf_transpose_entry(mt, "transpose1"))),
        ("matrix_transpose2.cu", bf_program(bf, MT, "transpose2", [k for k in mt_kernels if k != "transpose2"],
                                            bf_transpose_entry(mt, "transpose2"))),
        ("matrix_transpose3.cu", bf_program(bf, MT, "transpose3", [k for k in mt_kernels if k != "transpose3"],
                                            bf_transpose_entry(mt, "transpose3"))),
        ("bank_transpose1.cu", bf_program(bf, BK, "transpose1", ["transpose2"], bf_transpose_entry(bk, "transpose1"))),
        ("bank_transpose2.cu", bf_program(bf, BK, "transpose2", ["transpose1"], bf_transpose_entry(bk, "transpose2"))),
    ], [(bf, [MT, BK])], "host-code",
        "The book's float transposes of an N x N matrix, 32 x 32 threads per block, N = 8192 (the book "
        "takes N from argv): chapter 7's coalesced read (reference), coalesced write, coalesced write with "
        "__ldg, and chapter 8's shared-memory tile with and without the bank-conflict padding. The copy "
        "kernel is left out: it does not transpose.", "bench_p5_bf_transpose.py")

    # Packt: chapter 3 reductions of 1 << 24 floats (the book's size)
    pk_red = [("03_threadsync_and_reduction", "reduction_shared_kernel.cu", "reduction_shared.cpp"),
              ("03_threadsync_and_reduction", "reduction_global_kernel.cu", "reduction_global.cpp"),
              ("05_warp_divergence", "reduction_kernel_interleaving.cu", "reduction.cpp"),
              ("05_warp_divergence", "reduction_kernel_sequential.cu", "reduction.cpp"),
              ("06_limiter_balancing", "reduction_kernel_opt.cu", "reduction.cpp")]
    family("packt-reduce",
           [(f"{f[:2]}_{k}", packt_reduce(pk, f, k, h)) for f, k, h in pk_red],
           [(pk, [f"{PK_RED}/{f}/{k}" for f, k, _ in pk_red])], "host-code",
           "Learn CUDA Programming, chapter 3's float sum of 1 << 24 elements (its size), 256 threads, each "
           "version one pass of its folder's timed loop (device-to-device copy of the input, then the "
           "reduction in place in the copy): shared-memory tree (reference), the global-memory stride loop, "
           "interleaved and sequential addressing with the host loop relaunching until one block is left, "
           "and the occupancy-sized grid-stride kernel with 4 loads per thread. The output is element 0.",
           "bench_p5_packt_reduce.py")

    family("packt-transpose", [
        ("matrix_transpose_naive.cu", packt_transpose(pk, "matrix_transpose.cu", "matrix_transpose_naive",
                                                      "matrix_transpose_shared")),
        ("matrix_transpose_shared.cu", packt_transpose(pk, "matrix_transpose.cu", "matrix_transpose_shared",
                                                       "matrix_transpose_naive")),
        ("conflict_solved_shared.cu", packt_transpose(pk, "conflict_solved.cu", "matrix_transpose_shared",
                                                      "matrix_transpose_naive")),
    ], [(pk, [f"{PK_TR}/matrix_transpose.cu", f"{PK_TR}/conflict_solved.cu"])], "host-code",
        "Chapter 2's int32 transpose of an N x N matrix, 32 x 32 blocks, N a #define raised from 2048/1024 "
        "to 8192: naive (reference), shared-memory tile, shared-memory tile padded against bank conflicts.",
        "bench_p5_packt_transpose.py")

    family("packt-conv", [(f"convolution_v{v}.cu", packt_conv(pk, v)) for v in (1, 2, 3)],
           [(pk, [PK_CONV])], "host-code",
           "Chapter 7's 2-D convolution of a float image with a 9 x 9 filter (zero padding), 16 x 16 blocks, "
           "4096 x 4096 (main() uses 2048): filter in global memory (reference), in constant memory, and "
           "constant filter with a shared-memory input tile.", "bench_p5_packt_conv.py")

    # R100001: the PMPP book's kernels as its nvbench performance tests launch them
    c1 = ["convolution_1D_basic_kernel", "convolution_1D_constant_memory_kernel", "convolution_1D_tiled_kernel",
          "convolution_1D_tiled_caching_kernel"]
    conv_paths = [f"{R1}/convolution/convolution_kernels.cuh", f"{R1}/convolution/convolution_bench.cu"]
    family("pmpp-conv1d", [(f"{k}.cu", r1_conv(r1, k, 1)) for k in c1], [(r1, conv_paths)], "host-code",
           "PMPP chapter 7's 1-D convolution (mask width 5, output clamped to [0, 1]) of 2^26 floats, 512 threads "
           "(the benchmark's largest size and its block size): mask in global memory (reference), mask in "
           "constant memory, shared-memory tile with halo, shared tile for the interior with halo reads from "
           "global memory (the 'caching' kernel).", "bench_p5_pmpp_conv1d.py")
    c2 = ["convolution_2D_basic_kernel", "convolution_2D_constant_memory_kernel", "convolution_2D_tiled_kernel"]
    family("pmpp-conv2d", [(f"{k}.cu", r1_conv(r1, k, 2)) for k in c2], [(r1, conv_paths)], "host-code",
           "PMPP chapter 7's 2-D convolution (5 x 5 mask, one channel, output clamped to [0, 1]) of an 8192 x 8192 "
           "float image, 16 x 16 blocks (the benchmark's largest size): mask in global memory (reference), in "
           "constant memory, and input tiles in shared memory (12 x 12 outputs a block).",
           "bench_p5_pmpp_conv2d.py")
    scan_paths = [f"{R1}/scan/scan_kernels.cuh", f"{R1}/scan/scan_bench.cu"]
    family("pmpp-scan", [(f"hierarchical_scan_{w}.cu", r1_scan(r1, w)) for w in SCAN], [(r1, scan_paths)],
           "host-code",
           "PMPP chapter 8's hierarchical inclusive scan of 2^26 uint32 (the benchmark's largest size), each level "
           "a block scan, a recursive scan of the block sums and an add pass, cudaMalloc/cudaFree per level: "
           "Kogge-Stone (reference; 512 per block), Brent-Kung (1024 per block), three-phase (4096 per block).",
           "bench_p5_pmpp_scan.py")

    # kernl (Triton): layer norm and RMS norm, fp16 16384 x 4096
    kl_entry = "def kf_entry(x, weight, bias, eps):\n    return {}\n"
    family("kernl-layer-norm", [
        ("kernl_pytorch_naive_layernorm.py",
         kernl_version(kl, None, kl_entry.format("pytorch_naive_layernorm(x, weight, bias, eps)"))),
        ("kernl_layer_norm_xformers.py", kernl_version(kl, "layer_norm_xformers", kl_entry.format(
            "layer_norm(x, weight, bias, eps, implementation=layer_norm_xformers)"))),
        ("kernl_layer_norm_single_pass.py", kernl_version(kl, "_layer_norm_fwd_fused_single_pass", kl_entry.format(
            "layer_norm(x, weight, bias, eps, implementation=_layer_norm_fwd_fused_single_pass)"))),
    ], [(kl, [KL_LN])], "library-triton",
        "kernl's LayerNorm forward, fp16 16384 tokens x 4096 with weight and bias, eps 1e-5: the module's "
        "PyTorch naive layer norm (reference), the xformers-style one-block-per-row kernel and the fused "
        "single-pass (Welford) kernel, each called through kernl's LayerNorm wrapper. kernl's multi-pass "
        "kernel is left out: its docstring says it is the Triton tutorial's layer norm, and the Triton "
        "tutorials belong to another set.",
        "bench_p5_kernl_layer_norm.py")

    AA_RMS = "kernels/triton/training/rms_norm/fused_rms_norm.py"
    rms_entry = "def kf_entry(x, weight, eps):\n    return {}\n"
    family("rms-norm", [
        ("kernl_rmsnorm_single_pass.py", kernl_version(kl, "_layer_norm_fwd_fused_single_pass", rms_entry.format(
            "layer_norm(x, weight, None, eps, implementation=_layer_norm_fwd_fused_single_pass, use_rms_norm=True)"))),
        ("kernl_pytorch_naive_rmsnorm.py",
         kernl_version(kl, None, rms_entry.format("pytorch_naive_rmsnorm(x, weight, eps)"))),
        ("applied_ai_fused_rms_norm.py", py_header(aa, [AA_RMS], "Verbatim.") + aa.show(AA_RMS)),
    ], [(kl, [KL_LN]), (aa, [AA_RMS])], "library-triton",
        "RMSNorm forward (x * rsqrt(mean(x^2) + eps) * w), fp16 16384 x 4096, eps 1e-5 (kernl raises it to "
        "1.6e-5 for fp16): kernl's fused single-pass kernel in RMS mode (reference: its default), its PyTorch "
        "naive rmsnorm (which scales its input in place, as the source does), and applied-ai's autotuned "
        "Triton kernel. kernl's xformers and multi-pass kernels are left out: both ignore the RMS flag and "
        "compute a layer norm (and the multi-pass one is the Triton tutorial's).", "bench_p5_rms_norm.py")

    AA_SM = "kernels/triton/training/fused_softmax/softmax.py"
    AA_SMT = "tutorials/triton/kernels/fused_softmax.py"
    family("softmax", [
        ("torch_softmax.py", ours_py("torch.softmax over rows.", REF_SOFTMAX)),
        ("applied_ai_softmax.py", py_header(aa, [AA_SM], "Verbatim.") + aa.show(AA_SM)),
        ("applied_ai_tutorial_fused_softmax.py", py_header(aa, [AA_SMT], "Verbatim.") + aa.show(AA_SMT)),
    ], [(aa, [AA_SM, AA_SMT])], "library-triton",
        "Row softmax, float32 16384 x 4096: eager torch (ours, reference), applied-ai's training "
        "fused softmax and the copy in applied-ai's own tutorials folder (a few lines apart), one row per "
        "program. applied-ai credits the Triton softmax tutorial as inspiration; the code is its own.",
        "bench_p5_softmax.py")

    KL_AT = "src/kernl/implementations/attention.py"
    KL_SK = "src/kernl/implementations/attention_skinny.py"
    AA_AT = "kernels/triton/inference/flash_attention/stay_attention.py"
    at_entry = ("def kf_entry(q, k, v, sm_scale):\n    output = torch.empty_like(q)\n"
                "    return {}(q, k, v, output, sm_scale, False, None)\n")
    family("attention", [
        ("kernl_attention_reference.py",
         py_header(kl, [KL_AT], "Version: the module's PyTorch attention_reference (its Triton kernel left out).")
         + py_keep_kernels(kl.show(KL_AT), ("_fwd_kernel",), ()).rstrip() + "\n\n\n"
         "# KFORECAST: the entry the evaluation adapter calls\n" + at_entry.format("attention_reference") + "\n"),
        ("kernl_attention.py", py_header(kl, [KL_AT], "Version: kernel _fwd_kernel.") + kl.show(KL_AT).rstrip()
         + "\n\n\n# KFORECAST: the entry the evaluation adapter calls\n" + at_entry.format("attention_forward") + "\n"),
        ("kernl_attention_skinny.py", py_header(kl, [KL_SK], "Verbatim, plus an entry.") + kl.show(KL_SK).rstrip()
         + "\n\n\n# KFORECAST: the entry the evaluation adapter calls\n"
         + at_entry.format("skinny_attention_forward") + "\n"),
        ("applied_ai_stay_attention.py", py_header(aa, [AA_AT], "Verbatim.") + aa.show(AA_AT)),
    ], [(kl, [KL_AT, KL_SK]), (aa, [AA_AT])], "library-triton",
        "Non-causal attention softmax(Q K^T * 0.5) V, fp16, batch 1 x 32 heads x 4096 tokens x head dim 128 "
        "(applied-ai's own test size; its flash_fn fixes sm_scale = 0.5 and head dim 128): kernl's PyTorch "
        "attention_reference (reference), kernl's fused Triton attention, kernl's two-kernel split-N "
        "'skinny' attention, and applied-ai's persistent ('stay') Triton flash attention.",
        "bench_p5_attention.py")

    write_index(out, families, sources)
    n_files, n_pairs = pair_counts(families)
    print(f"pub5.py: {len(families)} families, {n_files} program files, {n_pairs} ordered pairs -> {out}")
    for r in (bf, pk, r1, kl, aa):
        print(f"  {r.name} @ {r.commit}")


if __name__ == "__main__":
    sys.exit(main())
