"""Public set 8's CUDA programs: one file per version, holding the source's prelude, the
version's kernel(s) verbatim and an `extern "C" kf_run` entry point (marked KFORECAST)
that runs the source's own size, grid and launch lines once on device pointers."""

import os
import re
import sys
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "public"))

from cpp_cut import match_brace  # noqa: E402
from setkit import SetText  # noqa: E402

P8 = SetText("Evaluation set public8", "scripts/evalsets/public8/p8.py",
             os.path.join(os.path.dirname(os.path.abspath(__file__)), "adapters"))


def fail(what):
    raise SystemExit(f"p8.py: {what}; the source changed upstream, update the builder")


def cut_def(text, name, nth=0):
    """The nth definition of function/kernel `name`, its `template<..>` and `__global__`
    lines included (they may stand on lines of their own)."""
    rx = re.compile(r"^(template[ \t]*<[^;{]*?>\s*)?(__global__\s+)?[\w:<> \t\*&]*?\b"
                    + re.escape(name) + r"\s*\([^;{]*\)\s*\{", re.M)
    for i, m in enumerate(rx.finditer(text)):
        if i == nth:
            return text[m.start():match_brace(text, m.end() - 1)] + "\n"
    fail(f"no definition of {name}")


def need(text, piece):
    if piece not in text:
        fail(f"missing {piece!r}")
    return piece


def entry(signature, body, note):
    return ("\n// KFORECAST: entry point for the evaluation adapter (not the source's): " + note + "\n"
            f'extern "C" int {signature}\n{{\n{body.rstrip()}\n    return (int)cudaGetLastError();\n}}\n')


# --- zjin-lcf/HeCBench ---------------------------------------------------------------

HEC_ATT = "src/attention-cuda"
ATT_KERNELS = {0: ["attention_kernel1", "attention_kernel2", "attention_kernel3"],
               1: ["attention_kernel1_blockReduce", "attention_kernel2_blockReduce"],
               2: ["attention_kernel1_warpReduce", "attention_kernel2_warpReduce"],
               3: ["attention_kernel1_warpReduce", "attention_kernel2_blockReduce"]}


def hec_attention(repo, impl):
    main = repo.show(f"{HEC_ATT}/main.cu")
    kern = repo.show(f"{HEC_ATT}/kernels.h")
    prelude = main[:main.index("float* attention_device(")]
    need(prelude, '#include "reference.h"\n')
    kernels = kern[:kern.index("__global__")] + "\n".join(cut_def(kern, k) for k in ATT_KERNELS[impl])
    prelude = prelude.replace('#include "reference.h"\n',
                              "// KFORECAST: #include \"reference.h\" (the host check) left out\n")
    prelude = prelude.replace('#include "kernels.h"\n',
                              "// KFORECAST: kernels.h inlined below, cut to this implementation's kernels\n"
                              + kernels + "\n")
    dev = cut_def(main, "attention_device")
    branch = {3: "if (impl_num == 3) {", 2: "else if (impl_num == 2) {",
              1: "else if (impl_num == 1) {", 0: "else {"}[impl]
    b = dev.index(need(dev, branch))
    block = dev[b:match_brace(dev, dev.index("{", b))]
    loop = block.index("for (int k = 0; k < repeat; k++) {")
    body = block[block.index("{", loop) + 1:match_brace(block, block.index("{", loop)) - 1]
    pre = ""
    if impl == 0:
        pre = "  " + need(block, "float *d_score;") + "  // KFORECAST: allocated by the adapter, passed in\n"
    hdr = P8.header(repo, [f"{HEC_ATT}/main.cu", f"{HEC_ATT}/kernels.h"],
                    f"Version: implementation {impl} of attention_device() (main()'s n = 65536, d = 2048 "
                    "come from the adapter, as the Makefile's run line gives them).")
    sig = ("kf_run(float *d_key, float *d_value, float *d_query, float *d_dot_product, float *d_exp_sum, "
           "float *kf_score, float *d_output, int n, int d)")
    body = (pre.replace("float *d_score;", "float *d_score = kf_score;") if pre else "") + textwrap.indent(
        textwrap.dedent(body.strip("\n")), "    ") + "\n"
    return hdr + prelude + entry(sig, body, "one pass of attention_device()'s timed loop for this implementation.")


HEC_SM = "src/softmax-cuda"


def hec_softmax(repo, optimized):
    src = repo.show(f"{HEC_SM}/main.cu")
    prelude = src[:src.index("// A C model derived from the OpenCL kernel")]
    kernel = cut_def(src, "softMax2" if optimized else "softMax")
    m = cut_def(src, "main")
    b = m.index(need(m, "if (kernel == 1) {")) if optimized else m.index(need(m, "  else {"))
    block = m[b:match_brace(m, m.index("{", b))]
    grid = re.search(r"dim3 grids \([^\n]*\);\n\s*dim3 blocks \(BLOCK_SIZE\);", block)
    launch = re.search(r"softMax2?<<<grids, blocks>>>\(numSlice, sliceSize, d_input, d_output\);", block)
    if not grid or not launch:
        fail("softmax launch lines")
    hdr = P8.header(repo, [f"{HEC_SM}/main.cu"], f"Version: implementation {1 if optimized else 0} "
                    f"({'softMax2, a warp per row with cooperative-groups reductions' if optimized else 'softMax, a thread per row'}), "
                    "with main()'s grid and launch for it.")
    body = f"    {grid.group(0)}\n    {launch.group(0)}\n"
    return hdr + prelude + kernel + entry("kf_run(float *d_input, float *d_output, int numSlice, int sliceSize)", body,
                                          "main()'s grid and launch for this implementation, once.")


HEC_CONV = "src/convolution1D-cuda/main.cu"
CONV_LAUNCH = {"conv1d": ("", "conv1d <<< grids, blocks >>> (d_a, d_b, input_width, mask_width);"),
               "conv1d_tiled": ("size_t sm_bytes = (bs + MAX_MASK_WIDTH - 1) * sizeof(T);",
                                "conv1d_tiled <<< grids, blocks, sm_bytes, 0 >>> (d_a, d_b, input_width, mask_width);"),
               "conv1d_tiled_caching": ("size_t sm_bytes = bs * sizeof(T);",
                                        "conv1d_tiled_caching <<< grids, blocks, sm_bytes, 0 >>> (d_a, d_b, input_width, mask_width);")}


def hec_conv1d(repo, kernel, bs):
    src = repo.show(HEC_CONV)
    prelude = src[:src.index("template<typename T>\n__global__\nvoid conv1d(")]
    sm, launch = CONV_LAUNCH[kernel]
    need(src, launch)
    if sm:
        need(src, sm)
    need(src, "for (int i = 0; i < MAX_MASK_WIDTH; i++) h_mask[i] = 1;")
    need(src, "GPU_CHECK(cudaMemcpyToSymbol(mask<T>, h_mask, mask_width * sizeof(T)));")
    body = ("    typedef float T;  // KFORECAST: conv1D<float>\n"
            "    static bool mask_set = false;  // KFORECAST: the mask is copied once, as conv1D() does\n"
            "    if (!mask_set) {\n"
            "        T h_mask[MAX_MASK_WIDTH];\n"
            "        for (int i = 0; i < MAX_MASK_WIDTH; i++) h_mask[i] = 1;\n"
            "        GPU_CHECK(cudaMemcpyToSymbol(mask<T>, h_mask, mask_width * sizeof(T)));\n"
            "        mask_set = true;\n"
            "    }\n"
            f"    int bs = {bs};  // KFORECAST: one of conv1D()'s block sizes (64 .. 1024)\n"
            "    dim3 grids (input_width / bs);\n"
            "    dim3 blocks (bs);\n"
            + (f"    {sm}\n" if sm else "") + f"    {launch}\n")
    hdr = P8.header(repo, [HEC_CONV], f"Version: kernel {kernel} at block size {bs}, float, with conv1D()'s "
                    "mask setup, grid and launch for it.")
    return hdr + prelude + cut_def(src, kernel) + entry(
        "kf_run(float *d_a, float *d_b, int input_width, int mask_width)", body,
        "conv1D<float>()'s mask copy, grid and launch for this kernel and block size, once.")


HEC_AR = "src/atomicReduction-cuda"


def hec_atomic_reduction(repo, kernel, div):
    src = repo.show(f"{HEC_AR}/reduction.cu")
    kern = repo.show(f"{HEC_AR}/kernels.h")
    prelude = src[:src.index("int main(")]
    need(prelude, '#include "kernels.h"\n')
    need(src, "int blocks=std::min((arrayLength+block_size-1)/block_size,2048);")
    need(src, f"benchmark({kernel}, blocks{'/' + str(div) if div > 1 else ''});")
    need(src, "kernel_name<<< dim3(grid_size), dim3(block_size) >>>(in,out,arrayLength);")
    prelude = prelude.replace('#include "kernels.h"\n',
                              "// KFORECAST: kernels.h inlined below, cut to this version's kernel\n"
                              + cut_def(kern, kernel))
    grid = "blocks" + (f"/{div}" if div > 1 else "")
    body = ("    int block_size = 256;  // KFORECAST: one of main()'s block_sizes {128, 256, 512, 1024}\n"
            "    int blocks=std::min((arrayLength+block_size-1)/block_size,2048);\n"
            "    cudaMemset(out,0,sizeof(int));\n"
            f"    {kernel}<<< dim3({grid}), dim3(block_size) >>>(in,out,arrayLength);\n")
    hdr = P8.header(repo, [f"{HEC_AR}/reduction.cu", f"{HEC_AR}/kernels.h"],
                    f"Version: {kernel} with main()'s benchmark({kernel}, {grid}) at block size 256.")
    return hdr + prelude + entry("kf_run(int *in, int *out, int arrayLength)", body,
                                 "one pass of main()'s benchmark macro for this kernel (memset, launch).")


# --- CoffeeBeforeArch/cuda_programming: 1-D convolutions ------------------------------

CBA_CONV = {"1d_naive": ("convolution_1d<<<GRID, THREADS>>>(d_array, d_mask, d_result, n, m);", False),
            "1d_constant_memory": ("convolution_1d<<<GRID, THREADS>>>(d_array, d_result, n);", False),
            "1d_cache": ("convolution_1d<<<GRID, THREADS, SHMEM>>>(d_array, d_result, n);", True),
            "1d_tiled": ("convolution_1d<<<GRID, THREADS, SHMEM>>>(d_array, d_result, n);", True)}


def cba_conv1d(repo, variant):
    path = f"05_convolution/{variant}/convolution.cu"
    src = repo.show(path)
    launch, padded = CBA_CONV[variant]
    need(src, launch)
    kernel = cut_def(src, "convolution_1d")
    prelude = src[:src.index(kernel.rstrip("\n"))]  # the kernel's comment stays right above it
    lines = [need(src, "int THREADS = 256;"), need(src, "int GRID = (n + THREADS - 1) / THREADS;")]
    if variant == "1d_naive":
        pre = "    " + need(src, "int m = 7;") + "\n"
        sig = "kf_run(int *d_array, int *d_mask, int *d_result, int n)"
    else:
        need(src, "cudaMemcpyToSymbol(mask, h_mask, bytes_m);")
        pre = ("    " + need(src, "size_t bytes_m = MASK_LENGTH * sizeof(int);") + "\n"
               "    cudaMemcpyToSymbol(mask, d_mask, bytes_m, 0, cudaMemcpyDeviceToDevice);"
               "  // KFORECAST: main() copies h_mask; here from the adapter's device copy\n")
        sig = "kf_run(int *d_array, int *d_mask, int *d_result, int n)"
    if padded:
        lines.append(need(src, "size_t SHMEM = " + re.search(r"size_t SHMEM = ([^\n]*)", src).group(1)))
        pre = "    " + need(src, "int r = MASK_LENGTH / 2;") + "  // KFORECAST: d_array is the padded array (n + 2r)\n" + pre
    body = pre + "".join(f"    {x}\n" for x in lines) + f"    {launch}\n"
    hdr = P8.header(repo, [path], f"Version: the {variant} convolution_1d, with main()'s grid and launch.")
    return hdr + prelude + kernel + entry(sig, body, "main()'s launch of the kernel, once; n comes from the "
                                          "adapter (2^24; main() uses 1 << 20).")


# --- olcf/cuda-training-series: hw5 sum reductions --------------------------------------

OLCF_RED = "exercises/hw5/reductions.cu"
OLCF_LAUNCH = {"atomic_red": ("", "atomic_red<<<(N+BLOCK_SIZE-1)/BLOCK_SIZE, BLOCK_SIZE>>>(d_A, d_sum);"),
               "reduce_a": ("const int blocks = 640;", "reduce_a<<<blocks, BLOCK_SIZE>>>(d_A, d_sum);"),
               "reduce_ws": ("const int blocks = 640;", "reduce_ws<<<blocks, BLOCK_SIZE>>>(d_A, d_sum);")}


def olcf_reduction(repo, kernel):
    src = repo.show(OLCF_RED)
    from cpp_cut import leading_comment_start
    first = src.index("__global__ void atomic_red(")
    prelude = src[:leading_comment_start(src, first)]
    pre, launch = OLCF_LAUNCH[kernel]
    need(src, launch)
    need(src, "cudaMemset(d_sum, 0, sizeof(float));")
    body = (f"    {pre}\n" if pre else "") + "    cudaMemset(d_sum, 0, sizeof(float));\n" + f"    {launch}\n"
    hdr = P8.header(repo, [OLCF_RED], f"Version: {kernel} with main()'s memset and launch for it (N = 8M floats, "
                    "the file's constant).")
    return hdr + prelude + cut_def(src, kernel) + entry("kf_run(float *d_A, float *d_sum)", body,
                                                       "main()'s memset and launch for this kernel, once.")


# --- mattdean1/cuda: parallel-scan (Blelloch prescan, optionally bank-conflict avoiding) ----

MD_SCAN = "parallel-scan/Submission.cu"


def resolve_bcao(text, bcao):
    """Each `if (bcao) {A} else {B}` replaced by A or B (the version's setting)."""
    out = text
    while True:
        i = out.find("if (bcao) {")
        if i < 0:
            return out
        a_open = out.index("{", i)
        a_end = match_brace(out, a_open)
        m = re.compile(r"\s*else\s*\{").match(out, a_end)
        if not m:
            fail("scan: if (bcao) without else")
        b_open = m.end() - 1
        b_end = match_brace(out, b_open)
        keep = out[a_open + 1:a_end - 1] if bcao else out[b_open + 1:b_end - 1]
        line_start = out.rfind("\n", 0, i) + 1
        indent = out[line_start:i]
        keep = "\n".join(ln[1:] if ln.startswith("\t\t") else ln for ln in keep.strip("\n").split("\n"))
        out = (out[:i] + "// KFORECAST: `if (bcao)` resolved to its " + ("if" if bcao else "else")
               + " branch for this version\n" + indent + keep.strip() + "\n" + out[b_end:].lstrip(" \t"))


def mattdean_scan(repo, bcao):
    src = repo.show(MD_SCAN)
    for name in ("test", "main", "blockscan", "scan"):
        src = src.replace(cut_def(src, name).rstrip("\n"), f"// KFORECAST: {name}() left out (test driver / host copies and timing)")
    t = src.find("/*\n\tTimings")
    if t < 0:
        fail("scan: no Timings comment")
    src = src[:t] + "// KFORECAST: the author's timing notes left out\n"
    drop = ["prescan_arbitrary_unoptimized", "prescan_large_unoptimized"] if bcao else ["prescan_arbitrary", "prescan_large"]
    for k in drop:
        src = src.replace(cut_def(src, k).rstrip("\n"), f"// KFORECAST: {k} left out (the other variant)")
        src = re.sub(r"(?m)^__global__ void " + k + r"\([^;{]*\);\n", "", src)
    need(src, '#include "device_functions.h"\n')
    src = src.replace('#include "device_functions.h"\n',
                      "// KFORECAST: #include \"device_functions.h\" left out (deprecated; nothing of it used)\n")
    src = src.replace(need(src, '#include "device_launch_parameters.h"\n'),
                      "// KFORECAST: #include \"device_launch_parameters.h\" left out (deprecated; nvcc declares "
                      "threadIdx and the like itself)\n")
    src = resolve_bcao(src, bcao)
    body = ("    if (length > ELEMENTS_PER_BLOCK) {\n"
            f"        scanLargeDeviceArray(d_out, d_in, length, {'true' if bcao else 'false'});\n"
            "    }\n    else {\n"
            f"        scanSmallDeviceArray(d_out, d_in, length, {'true' if bcao else 'false'});\n"
            "    }\n")
    hdr = P8.header(repo, [MD_SCAN], f"Version: the full {'bank-conflict-avoiding (BCAO) ' if bcao else ''}"
                    "exclusive scan (scan(..., bcao = " + ("true" if bcao else "false") + ")), its host recursion "
                    "included.")
    return hdr + src + entry("kf_run(int *d_out, int *d_in, int length)", body,
                             "scan()'s device part (its copies and timing are the adapter's), once.")


# --- HeCBench: block-wise scans, GELU with bias, ReLU and its gradient -------------------

HEC_SCAN = "src/scan-cuda/main.cu"


def hec_block_scan(repo, bcao, n_block):
    src = repo.show(HEC_SCAN)
    kname = "scan_bcao" if bcao else "scan"
    prelude = src[:src.index("template<typename T>\nvoid verify(")]
    defines = ""
    if bcao:
        defines = need(src, "#define LOG_MEM_BANKS 5\n#define OFFSET(n) ((n) >> LOG_MEM_BANKS)\n")
    kernel = cut_def(src, kname)
    run = cut_def(src, "runTest")
    need(run, "int64_t num_blocks = (n + N - 1) / N;")
    need(run, "cudaGetDeviceProperties(&prop, 0);")
    launch = need(run, f"{kname}<T, N><<<grids, blocks>>>(num_blocks, d_out, d_in);")
    body = ("    typedef int T;  // KFORECAST: runTest<int, N>\n"
            f"    const int N = {n_block};  // KFORECAST: run<{n_block}>, one of main()'s 128 .. 2048\n"
            "    int64_t num_blocks = (n + N - 1) / N;\n"
            "    // KFORECAST: the device query is made once, not on every call\n"
            "    static cudaDeviceProp prop;\n"
            "    static bool have_prop = false;\n"
            "    if (!have_prop) { cudaGetDeviceProperties(&prop, 0); have_prop = true; }\n"
            "    dim3 grids (16 * prop.multiProcessorCount);\n"
            "    dim3 blocks (N/2);\n"
            f"    {launch}\n")
    hdr = P8.header(repo, [HEC_SCAN], f"Version: {kname}<int, {n_block}> (exclusive scan of each {n_block}-element "
                    "block), with runTest()'s grid and launch.")
    return hdr + prelude + ("// bank conflict aware optimization\n\n" + defines + "\n" if bcao else "") + kernel + entry(
        "kf_run(int *d_out, int *d_in, long long n)", body, "runTest()'s grid and launch, once.")


HEC_GELU = "src/gelu-cuda/main.cu"


def hec_gelu(repo, vectorized):
    src = repo.show(HEC_GELU)
    kname = "gelu_bias_loop" if vectorized else "gelu_bias_loop_base"
    prelude = src[:src.index("// width is hidden_dim and height is seq_len")]
    need(prelude, '#include "reference.h"\n')
    prelude = prelude.replace('#include "reference.h"\n', "// KFORECAST: #include \"reference.h\" (the host check) left out\n")
    m = cut_def(src, "main")
    sizing = need(m, "  int block_size;\n  if (hidden_dim >= 4096)\n    block_size = 512;\n  else if (hidden_dim >= 2048)\n"
                  "    block_size = 256;\n  else\n    block_size = 128;\n")
    grid = need(m, "  dim3 block(block_size, 1);\n  dim3 grid(seq_len, batch_size);\n")
    launch = need(m, f"  {kname} <<<grid, block>>> (d_output, d_bias, hidden_dim, seq_len);\n")
    body = textwrap.indent(textwrap.dedent(sizing + grid + launch), "    ")
    hdr = P8.header(repo, [HEC_GELU], f"Version: {kname} ({'two halves at a time (half2)' if vectorized else 'one half at a time'}), "
                    "in place, with main()'s block size, grid and launch.")
    comment = "// width is hidden_dim and height is seq_len\n"
    return hdr + prelude + comment + cut_def(src, kname) + entry(
        "kf_run(__half *d_output, __half *d_bias, int batch_size, int seq_len, int hidden_dim)", body,
        "main()'s block size, grid and launch, once (in place on d_output).")


HEC_RELU = "src/relu-cuda/main.cu"


def hec_relu(repo, impl, grad):
    src = repo.show(HEC_RELU)
    kname = f"{'ReluGrad' if grad else 'Relu'}_impl{impl}"
    first = src.index("// This kernel computes ReluGrad by processing one half2")
    prelude = src[:first]
    need(prelude, '#include "reference.h"\n')
    prelude = prelude.replace('#include "reference.h"\n', "// KFORECAST: #include \"reference.h\" (the host check) left out\n")
    kernel = cut_def(src, kname)
    kstart = src.index(kernel.rstrip("\n"))
    from cpp_cut import leading_comment_start
    kernel = src[leading_comment_start(src, kstart):kstart] + kernel
    if kname == "ReluGrad_impl2":
        kernel = kernel.replace("__global__\nvoid ReluGrad_impl2", need(src, "static constexpr int VectorSize = 8;\n")
                                + "\n__global__\nvoid ReluGrad_impl2", 1)
    m = cut_def(src, "main")
    threads = need(m, "constexpr int kThreadInBlock = 256;")
    if grad:
        sizing = need(m, "half_count = divup(count, 2);" if impl == 1 else "half_count = divup(count, VectorSize);")
        body = (f"    {threads}\n    int half_count, kBlock;\n    {sizing}\n"
                "    kBlock = divup(half_count, kThreadInBlock);\n"
                f"    {kname} <<< kBlock, kThreadInBlock >>> (\n        d_gradient, d_feature, d_backprop, count);\n")
        need(m, f"{kname} <<< kBlock, kThreadInBlock >>> (\n        d_gradient, d_feature, d_backprop, count);")
        sig = "kf_run(half *d_gradient, half *d_feature, half *d_backprop, int count)"
    else:
        launch = need(m, f"{kname} <<< kBlock, kThreadInBlock >>> (count, d_in, d_out);")
        body = f"    {threads}\n    int kBlock = divup(count, kThreadInBlock);\n    {launch}\n"
        sig = "kf_run(int *d_in, int *d_out, int count)"
    what = {"ReluGrad_impl1": "one half2 per thread, grid-stride", "ReluGrad_impl2": "eight halves (a float4) per thread",
            "Relu_impl1": "four chars unpacked and packed by hand", "Relu_impl2": "__vmaxs4 SIMD intrinsic"}[kname]
    hdr = P8.header(repo, [HEC_RELU], f"Version: {kname} ({what}), with main()'s grid and launch.")
    return hdr + prelude + kernel + entry(sig, body, "main()'s grid and launch, once.")


# --- CoffeeBeforeArch: histograms -----------------------------------------------------

def cba_histogram(repo, variant):
    path = f"04_histogram/{variant}/histogram.cu"
    src = repo.show(path)
    kernel = cut_def(src, "histogram")
    prelude = src[:src.index(kernel.rstrip("\n"))]
    m = cut_def(src, "main")
    lines = [need(m, "int THREADS = 512;"), need(m, "int BLOCKS = N / THREADS;"),
             need(m, "histogram<<<BLOCKS, THREADS>>>(d_input, d_result, N);")]
    need(m, "cudaMemcpy(d_result, h_result.data(), BINS * sizeof(int),")
    body = ("    cudaMemset(d_result, 0, BINS * sizeof(int));  // KFORECAST: main() copies a zeroed host vector\n"
            + "".join(f"    {x}\n" for x in lines))
    default = re.search(r"int N = ([^;]*);", m).group(1)
    hdr = P8.header(repo, [path], f"Version: the {variant} histogram (7 bins of 'a'..'z'), with main()'s launch; "
                    f"N comes from the adapter (2^24; main() uses {default}).")
    return hdr + prelude + kernel + entry("kf_run(char *d_input, int *d_result, int N)", body,
                                          "main()'s zeroed result, grid and launch, once.")


def olcf_row_sums(repo, hw):
    path = f"exercises/hw{hw}/matrix_sums_solution.cu"
    src = repo.show(path)
    kernel = cut_def(src, "row_sums")
    prelude = src[:src.index(kernel.rstrip("\n"))]  # the kernel's comments stay right above it
    m = cut_def(src, "main")
    launch = re.search(r"row_sums<<<[^\n]*>>>\(d_A, d_sums, DSIZE\);", m)
    if not launch:
        fail("row_sums launch")
    what = "a thread per row" if hw == 4 else "a block per row with a shared-memory sweep"
    hdr = P8.header(repo, [path], f"Version: hw{hw}'s row_sums ({what}), with main()'s launch (DSIZE = 16384, "
                    "the file's constant).")
    return hdr + prelude + kernel + entry("kf_run(float *d_A, float *d_sums)", f"    {launch.group(0)}\n",
                                          "main()'s launch of row_sums, once.")


HEC_POP = "src/popcount-cuda/main.cu"


def hec_popcount(repo, k):
    src = repo.show(HEC_POP)
    prelude = src[:src.index("// reference implementation")]
    kernel = cut_def(src, f"pc{k}")
    if k == 5:
        kernel = need(src, "__constant__ unsigned char lut[256]; \n") + kernel
    m = cut_def(src, "main")
    grid = need(m, "dim3 grids ((length+BLOCK_SIZE-1)/BLOCK_SIZE);\n  dim3 threads (BLOCK_SIZE);")
    launch = need(m, f"pc{k}<<<grids, threads>>>(d_data, d_result, length);")
    pre = ""
    if k == 5:
        lut = re.search(r"const unsigned char a\[256\] = \{[^}]*\};\n\s*cudaMemcpyToSymbol\(lut, a, sizeof\(a\)\);", m)
        if not lut:
            fail("popcount lut")
        pre = "    " + lut.group(0).replace("\n    ", "\n    ") + "\n"
    body = "    " + grid.replace("\n  ", "\n    ") + "\n" + pre + f"    {launch}\n"
    what = {1: "SWAR bit counting, shifts and adds", 2: "SWAR with a multiply by h01", 3: "clear the lowest set bit in a loop",
            4: "test all 64 bits in a loop", 5: "byte lookup table in constant memory (copied in the timed loop, as main() does)",
            6: "the __popcll intrinsic"}[k]
    hdr = P8.header(repo, [HEC_POP], f"Version: pc{k} ({what}), with main()'s grid and launch.")
    return hdr + prelude + kernel + entry("kf_run(unsigned long *d_data, int *d_result, int length)", body,
                                          "one pass of main()'s timed loop for this kernel.")
