"""Evaluation set (b)'s programs from NVIDIA's CUDA samples: one file per kernel of the
reduction, threadfence-reduction, transpose and matrixMul samples, with the sample's own
prelude and host launcher cut to that kernel."""

import re

from cpp_cut import cut_function, match_brace, prelude_of
from python_sources import SET_B

header = SET_B.header


RED_DIR = "Samples/2_Concepts_and_Techniques/reduction"
RED_NAMES = {0: "reduce0", 1: "reduce1", 2: "reduce2", 3: "reduce3", 4: "reduce4", 5: "reduce5",
             6: "reduce6", 7: "reduce7", 8: "cg_reduce", 9: "multi_warp_cg_reduce"}
RED_HELPERS = {8: ["cg_reduce_n"], 9: ["cg_reduce_n"]}


def reduction_program(cs, which):
    kern = cs.show(f"{RED_DIR}/reduction_kernel.cu")
    host = cs.show(f"{RED_DIR}/reduction.cpp")
    prelude = prelude_of(kern, "#include <cooperative_groups.h>", "template <class T> __global__ void reduce0")
    parts = [header(cs, [f"{RED_DIR}/reduction_kernel.cu", f"{RED_DIR}/reduction.cpp"],
                    f"Version: kernel {which} ({RED_NAMES[which]}) of the reduction sample, with its launcher."),
             "#include <helper_cuda.h>\n", prelude, "\n"]
    for helper in RED_HELPERS.get(which, []):
        parts += [cut_function(kern, helper), "\n"]
    cases = [which] + ([7] if which == 9 else [])  # the launcher falls back from 9 to 7 below 64 threads
    for k in sorted(set(cases)):
        parts += [cut_function(kern, RED_NAMES[k]), "\n"]
    # host sizing helpers (reduction.cpp)
    parts.append(re.search(r'extern "C" bool isPow2\(unsigned int x\) \{[^\n]*\}\n', host).group(0) + "\n")
    parts += [cut_function(host, "nextPow2"), "\n"]
    parts.append(re.search(r"#ifndef MIN\n.*?#endif\n", host, re.S).group(0) + "\n")
    gnbt = cut_function(host, "getNumBlocksAndThreads")
    q = ("    checkCudaErrors(cudaGetDevice(&device));\n"
         "    checkCudaErrors(cudaGetDeviceProperties(&prop, device));\n")
    if q not in gnbt:
        raise SystemExit("build.py: getNumBlocksAndThreads changed upstream; update the builder")
    gnbt = gnbt.replace(q, (
        "    // KFORECAST: the device query is made once, not on every call (it takes ~100 us)\n"
        "    static cudaDeviceProp prop_cache;\n"
        "    static bool           have_prop = false;\n"
        "    if (!have_prop) {\n"
        "        checkCudaErrors(cudaGetDevice(&device));\n"
        "        checkCudaErrors(cudaGetDeviceProperties(&prop_cache, device));\n"
        "        have_prop = true;\n"
        "    }\n"
        "    prop = prop_cache;\n"))
    parts += [gnbt, "\n"]
    # the launcher, its switch cut to this version's case(s)
    launcher = cut_function(kern, "reduce", with_comment=True)
    sw = launcher.index("    switch (whichKernel) {")
    body_open = launcher.index("{", sw)
    body_close = match_brace(launcher, body_open)
    body = launcher[body_open + 1:body_close - 1]
    pieces = re.split(r"(?m)^(    case \d+:\n)", body)
    keep = []
    for i in range(1, len(pieces), 2):
        k = int(re.search(r"\d+", pieces[i]).group(0))
        if k in cases:
            keep.append(pieces[i] + pieces[i + 1].rstrip() + "\n")
    launcher = (launcher[:body_open + 1] + "\n" + "\n".join(keep) + "    }" + launcher[body_close:])
    parts += [launcher, "\n"]
    # the GPU final reduction loop of benchmarkReduce (cpuFinalReduction = false)
    bench = cut_function(host, "benchmarkReduce", with_comment=False)
    s0 = bench.index("            int s      = numBlocks;")
    w = bench.index("while (s > cpuFinalThreshold)", s0)
    loop = bench[s0:match_brace(bench, bench.index("{", w))]
    loop = "\n".join(line[8:] if line.startswith("        ") else line for line in loop.split("\n"))
    parts.append(
        "// KFORECAST: entry point for the evaluation adapter. One reduction of n floats to\n"
        "// d_odata[0], as reduction.cpp's benchmarkReduce does it (partial sums reduced on the\n"
        "// GPU, cpuFinalThreshold = 1; maxThreads 256 and maxBlocks 64 are runTest's defaults).\n"
        "extern \"C\" int kf_run(float *d_idata, float *d_odata, float *d_intermediateSums, int n)\n{\n"
        "    typedef float T;  // KFORECAST: benchmarkReduce's template parameter\n"
        "    const int maxThreads = 256, maxBlocks = 64;\n"
        f"    const int whichKernel       = {which};\n"
        "    const int cpuFinalThreshold = 1;\n"
        "    int       numThreads = 0, numBlocks = 0;\n"
        "    getNumBlocksAndThreads(whichKernel, n, maxBlocks, maxThreads, numBlocks, numThreads);\n"
        "    reduce<float>(n, numThreads, numBlocks, whichKernel, d_idata, d_odata);\n"
        f"{loop}\n"
        "    return (int)cudaGetLastError();\n}\n")
    return "".join(parts)


TF_DIR = "Samples/2_Concepts_and_Techniques/threadFenceReduction"


def threadfence_program(cs, single):
    """threadFenceReduction: the multi-pass or the single-pass (__threadfence + retirement
    counter) reduction, each with its launcher and the sample's host sizing."""
    kern = cs.show(f"{TF_DIR}/threadFenceReduction_kernel.cuh")
    host = cs.show(f"{TF_DIR}/threadFenceReduction.cu")
    body = kern[kern.index("#include <cooperative_groups.h>"):kern.rindex("#endif")]
    if single:  # drop the multi-pass kernel and its launcher `reduce`
        drop = [cut_function(body, "reduceMultiPass"), cut_function(body, "reduce")]
    else:  # drop the single-pass kernel and its launcher (both named reduceSinglePass)
        drop = [cut_function(body, "reduceSinglePass", nth=1), cut_function(body, "reduceSinglePass")]
    for d in drop:
        if d not in body:
            raise SystemExit("build.py: threadFenceReduction changed upstream; update the builder")
        body = body.replace(d, "", 1)
    body = re.sub(r"\n{3,}", "\n\n", body)
    bench = cut_function(host, "benchmarkReduce", with_comment=False)
    if single:
        run = "    reduceSinglePass(n, numThreads, numBlocks, d_idata, d_odata);\n"
    else:
        s0 = bench.index("                int s = numBlocks;")
        w = bench.index("while (s > cpuFinalThreshold)", s0)
        loop = bench[s0:match_brace(bench, bench.index("{", w))]
        loop = "\n".join(line[12:] if line.startswith("            ") else line for line in loop.split("\n"))
        run = "    reduce(n, numThreads, numBlocks, d_idata, d_odata);\n" + loop + "\n"
    name = "reduceSinglePass" if single else "reduceMultiPass"
    return "".join([
        header(cs, [f"{TF_DIR}/threadFenceReduction_kernel.cuh", f"{TF_DIR}/threadFenceReduction.cu"],
               f"Version: the {'single' if single else 'multi'}-pass reduction ({name}) of the threadFenceReduction sample."),
        "#include <helper_cuda.h>\n", body, "\n", cut_function(host, "nextPow2"), "\n",
        cut_function(host, "getNumBlocksAndThreads"), "\n",
        "// KFORECAST: entry point for the evaluation adapter. One reduction of n floats to\n"
        "// d_odata[0], as the sample's benchmarkReduce does it (maxThreads 128, maxBlocks 64,\n"
        "// cpuFinalThreshold 1: runTest's defaults).\n"
        "extern \"C\" int kf_run(float *d_idata, float *d_odata, float *d_intermediateSums, int n)\n{\n"
        "    const int maxThreads = 128, maxBlocks = 64, cpuFinalThreshold = 1;\n"
        "    int       numThreads = 0, numBlocks = 0;\n"
        "    getNumBlocksAndThreads(n, maxBlocks, maxThreads, numBlocks, numThreads);\n"
        + run +
        "    return (int)cudaGetLastError();\n}\n"])


TR_PATH = "Samples/6_Performance/transpose/transpose.cu"


def transpose_program(cs, kernel):
    src = cs.show(TR_PATH)
    prelude = prelude_of(src, "#include <cooperative_groups.h>", "__global__ void copy(")
    launch = re.search(r"dim3 grid\(size_x / TILE_DIM, size_y / TILE_DIM\), threads\(TILE_DIM, BLOCK_ROWS\);",
                       src).group(0)
    call = re.search(r"kernel<<<grid, threads>>>\(d_odata, d_idata, size_x, size_y\);", src).group(0)
    return "".join([
        header(cs, [TR_PATH], f"Version: kernel {kernel} of the transpose sample, with its launch."),
        prelude, "\n", cut_function(src, kernel), "\n",
        "// KFORECAST: entry point for the evaluation adapter: the launch of main() for this kernel\n"
        "extern \"C\" int kf_run(float *d_odata, float *d_idata, int size_x, int size_y)\n{\n"
        f"    void (*kernel)(float *, float *, int, int) = &{kernel};\n"
        f"    {launch}\n"
        f"    {call}\n"
        "    return (int)cudaGetLastError();\n}\n"])


MM_PATH = "Samples/0_Introduction/matrixMul/matrixMul.cu"


def matrixmul_program(cs, block_size):
    src = cs.show(MM_PATH)
    prelude = prelude_of(src, "// System includes", "template <int BLOCK_SIZE> __global__ void MatrixMulCUDA")
    grid = re.search(r"dim3 threads\(block_size, block_size\);\n\s*dim3 grid\(dimsB.x / threads.x, dimsA.y / threads.y\);",
                     src).group(0)
    return "".join([
        header(cs, [MM_PATH], f"Version: MatrixMulCUDA<{block_size}> (main()'s block_size = {block_size})."),
        prelude, "\n", cut_function(src, "MatrixMulCUDA"), "\n",
        "// KFORECAST: entry point for the evaluation adapter: MatrixMultiply()'s launch, C = A * B\n"
        "extern \"C\" int kf_run(float *d_C, float *d_A, float *d_B, int hA, int wA, int wB)\n{\n"
        f"    int  block_size = {block_size};\n"
        "    dim3 dimsA(wA, hA, 1);\n"
        "    dim3 dimsB(wB, wA, 1);\n"
        f"    {grid}\n"
        "    cudaStream_t stream = 0;\n"
        "    if (block_size == 16) {\n"
        "        MatrixMulCUDA<16><<<grid, threads, 0, stream>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);\n"
        "    }\n    else {\n"
        "        MatrixMulCUDA<32><<<grid, threads, 0, stream>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);\n"
        "    }\n"
        "    return (int)cudaGetLastError();\n}\n"])
