#!/usr/bin/env python3
"""Builds the "pc-" families of the second public evaluation set (issue 20, 1(b)): CUDA
optimisation ladders from public tutorial repositories, each version a standalone .cu
program with its author's host code.

    pubcuda.py --mirror /work/.mirror --out /work/main/target/evalsets/public2

Reads local bare copies (made with the session's `fetch` tool: MIRROR/<owner>+<name>/repo)
of Liu-xiandong/How_to_optimize_in_GPU, BBuf/how-to-optim-algorithm-in-cuda and
PaddleJitLab/CUDATutorial, and writes, OUTSIDE the repository, one folder per family with
one program per version (the reference, the source's baseline, first) and its bench.py
adapter (adapters/, ours). The folder is shared with other builders: only the families whose
name starts with "pc-" are replaced, in the folder, in families.json and in SOURCES.json.

How a program file is made from its source file (a tutorial program with a `main()`):
- the source text before its `main()`, verbatim (less the ladder's other kernels where
  one source file holds several versions); one file gets `#include <cstdint>` (marked), which
  today's toolchain needs;
- a small `extern "C" kf_run` entry point (ours, marked KFORECAST) that names the
  adapter's buffers as main() names them and then runs main()'s own launch lines, taken
  verbatim from main(): its size and grid declarations and its kernel launch(es), once
  (main()'s timing loops and its host-side checking are left out). Where main() launches
  another kernel of the file, the launch is written for this one and marked KFORECAST.
- kf_run returns how many output elements it wrote (the per-block partial sums of a
  reduction, say) or a negative CUDA error.
Nothing here is tuned on: split "public2", report only.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "public"))
from cpp_cut import leading_comment_start, match_brace  # noqa: E402
from setkit import Repo, SetText, builder_args, clear_prefix, merge_index, pair_counts, write  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = SetText("Public evaluation set 2", "scripts/evalsets/public2/pubcuda.py", os.path.join(HERE, "adapters"))
PREFIX = "pc-"
LX = "Liu-xiandong/How_to_optimize_in_GPU"
BB = "BBuf/how-to-optim-algorithm-in-cuda"
PJ = "PaddleJitLab/CUDATutorial"
BK = "deeperlearning/professional-cuda-c-programming"


def function_span(text, name):
    """(start, end) of the definition of `name` (a template line above it included)."""
    rx = re.compile(r"^(template[ \t]*<[^;{]*?>\s*)?[\w:<> \t\*&]*?\b" + re.escape(name)
                    + r"\s*\([^;{]*\)\s*\{", re.M)
    m = rx.search(text)
    if not m:
        raise SystemExit(f"pubcuda.py: no definition of {name} found")
    return m.start(), match_brace(text, m.end() - 1)


def split_main(src):
    """The source's text before its main(), and main()'s body. What follows main() is left
    out (in these sources: nothing but, in one file, a stray "\u23ce" that does not compile)."""
    m = re.search(r"^int main\s*\([^)]*\)\s*\{", src, re.M)
    if not m:
        raise SystemExit("pubcuda.py: no main() in a source file")
    end = match_brace(src, m.end() - 1)
    return src[:m.start()].rstrip() + "\n", src[m.end():end - 1]


def statements(body):
    """main()'s statements, one per item, whitespace-normalised lines joined."""
    out, cur = [], []
    for line in body.split("\n"):
        s = line.strip()
        if not s or s.startswith("//"):
            continue
        cur.append(s)
        code = re.sub(r"//.*$", "", re.sub(r'"(\\.|[^"\\])*"', '""', s)).rstrip()
        if code.endswith(";") or code.endswith("{") or code.endswith("}"):
            out.append("\n        ".join(cur))
            cur = []
    if cur:
        out.append("\n        ".join(cur))
    return out


DECL = re.compile(r"^(const\s+)?(int|int32_t|int64_t|size_t|dim3|float|Pack<[^>]*>\s*\*)\s*(\w+)\s*[=(;]")


def launch_lines(body, keep_names, subst=None, only=None):
    """main()'s declarations of the names in keep_names, its cudaMemset/reinterpret_cast
    lines and its kernel launches (or cuBLAS calls), in main()'s order, verbatim."""
    subst = dict(subst or {})
    kept = []
    for st in statements(body):
        first = st.split("\n")[0]
        m = DECL.match(first)
        if st in subst:
            kept.append(subst.pop(st))
        elif m and m.group(3) in keep_names and "malloc" not in st and "argv" not in st:
            kept.append(st)
        elif "<<<" in re.sub(r'"(\\.|[^"\\])*"', '""', st):
            if only is None or re.match(r"\s*" + re.escape(only) + r"\s*(<[^<>]*>)?\s*<<<", st):
                kept.append(st)
        elif st.startswith("cudaMemset(") or "reinterpret_cast<Pack" in st:
            kept.append(st)
        elif st.startswith("cublas") or st.startswith("float alpha") or st.startswith("float beta"):
            kept.append(st)
    if subst:
        raise SystemExit(f"pubcuda.py: main() changed upstream; not found: {list(subst)}")
    if not any("<<<" in k or "cublasSgemv" in k for k in kept):
        raise SystemExit("pubcuda.py: no launch found in main()")
    return kept


def header(repo, path, what):
    return TEXT.header(repo, [path], what)


def entry(aliases, pre, lines, count, note):
    """The kf_run entry point: the adapter's buffers under main()'s names, then main()'s lines."""
    body = "".join(f"    {a}\n" for a in aliases)
    body += "".join(f"    {p}\n" for p in pre)
    body += "".join(f"    {ln}\n" for ln in lines)
    return ("\n// KFORECAST: entry point for the evaluation adapter. " + note + "\n"
            "extern \"C\" long long kf_run(void *kf_in0, void *kf_in1, void *kf_out, void *kf_scratch,\n"
            "                              long long kf_m, long long kf_n)\n{\n"
            + body +
            "    cudaError_t kf_err = cudaGetLastError();\n"
            f"    return kf_err == cudaSuccess ? (long long)({count}) : -(long long)kf_err;\n}}\n")


MAIN_NOTE = ("main()'s launch lines follow, verbatim\n// (its host set-up, timing loop and checking are "
             "left out); the adapter's buffers are named as main() names them.")


def program(repo, path, what, aliases, keep, count, pre=(), subst=None, drop=(), note=MAIN_NOTE, only=None):
    src = repo.show(path)
    rest, body = split_main(src)
    for name in drop:  # the ladder's other kernels held in the same file, with their comments
        s, e = function_span(rest, name)
        s = leading_comment_start(rest, s)
        rest = rest[:s] + rest[e:].lstrip("\n")
    lines = launch_lines(body, keep, subst, only)
    return header(repo, path, what) + rest + entry(aliases, pre, lines, count, note)


# ---------------------------------------------------------------- the families

KEEP = {"N", "block_num", "size", "blocksize", "nx", "ny", "dimx", "dimy", "blockx", "blocky", "grid2", "NUM_PER_BLOCK", "NUM_PER_THREAD", "Grid", "Block", "grid", "block",
        "blocksize", "gridsize", "WARP_SIZE", "ROW_PER_WARP", "THREAD_PER_BLOCK", "WARP_PER_BLOCK",
        "ROW_PER_BLOCK", "dimGrid", "dimBlock"}

LX_REDUCE = ["reduce_v0_baseline", "reduce_v1_no_divergence_branch", "reduce_v2_no_bank_conflict",
             "reduce_v3_add_during_load", "reduce_v4_unroll_last_warp", "reduce_v5_completely_unroll",
             "reduce_v6_multi_add", "reduce_v7_shuffle"]
BB_REDUCE = ["reduce_v0_baseline", "reduce_v1_interleaved_addressing", "reduce_v2_bank_conflict_free",
             "reduce_v3_idle_threads_free", "reduce_v4_unroll_last_warp", "reduce_v5_completely_unroll",
             "reduce_v6_multi_add", "reduce_v7_shfl_down_sync"]  # v8 left out: families hold at most 8
PJ_REDUCE = ["08_impl_reduce/reduce_naive",
             "09_optimize_reduce/01_interleaved_addressing/reduce_interleaved_addressing",
             "09_optimize_reduce/02_bank_conflict/reduce_bank_conflict_free",
             "09_optimize_reduce/03_idle_threads_free/reduce_idle_threads_free",
             "09_optimize_reduce/04_unroll/reduce_unroll_last_warp",
             "09_optimize_reduce/04_unroll/reduce_unroll_all"]


def lx_reduce(lx):
    out = []
    for name in LX_REDUCE:
        path = f"reduce/{name}.cu"
        out.append((f"{name}.cu", program(
            lx, path, "Version: one kernel of the reduce ladder (per-block partial sums of 2^25 floats).",
            ["float *d_a = (float *)kf_in0;", "float *d_out = (float *)kf_out;"], KEEP, "block_num")))
    return out


def bb_reduce(bb):
    out = []
    for name in BB_REDUCE:
        path = f"cuda-kernels/reduce/{name}.cu"
        if name.startswith("reduce_v7"):
            aliases = ["float *d_a = (float *)kf_in0;", "float *g_odata = (float *)kf_out;"]
        else:
            aliases = ["float *input_device = (float *)kf_in0;", "float *output_device = (float *)kf_out;"]
        count = "block_num"
        out.append((f"{name}.cu", program(
            bb, path, "Version: one kernel of the reduce ladder (per-block partial sums of 2^25 floats).", aliases, KEEP, count)))
    return out


def pj_reduce(pj):
    out = []
    for name in PJ_REDUCE:
        path = f"docs/{name}.cu"
        pre = []
        if name.endswith("reduce_naive"):
            pre = ["const int len = 32 * 1024 * 1024;  // KFORECAST: the ladder's size (this program's "
                   "own global len is 10000)"]
        out.append((f"{os.path.basename(name)}.cu", program(
            pj, path, "Version: one kernel of the int reduce ladder (per-block partial sums of 2^25 ints).",
            ["int *d_arr = (int *)kf_in0;", "int *d_out = (int *)kf_out;"], KEEP, "gridsize", pre=pre)))
    return out


LX_EW = {"add": 1, "vec2_add": 2, "vec4_add": 4}


def lx_elementwise(lx):
    out = []
    path = "elementwise/elementwise_add.cu"
    for name, pack in LX_EW.items():
        subst = {}
        note = MAIN_NOTE
        if name != "vec4_add":  # main() launches vec4_add only
            subst = {"dim3 Grid( N/THREAD_PER_BLOCK/4, 1);":
                     f"dim3 Grid( N/THREAD_PER_BLOCK{'/' + str(pack) if pack > 1 else ''}, 1);"
                     f"  // KFORECAST: main()'s grid, for {pack} element(s) a thread",
                     "vec4_add<<<Grid,Block>>>(d_a, d_b, d_out);":
                     f"{name}<<<Grid,Block>>>(d_a, d_b, d_out);  // KFORECAST: main() launches vec4_add"}
            note = MAIN_NOTE + "\n// main() launches vec4_add; for this kernel its grid and launch are adapted."
        out.append((f"{name}.cu", program(
            lx, path, f"Version: kernel {name} of the elementwise-add program (2^25 floats).",
            ["float *d_a = (float *)kf_in0;", "float *d_b = (float *)kf_in1;", "float *d_out = (float *)kf_out;"],
            KEEP, "N", subst=subst, drop=[k for k in LX_EW if k != name], note=note)))
    return out


BB_DOT = ["atomic_add_half", "atomic_add_half_pack2", "fast_atomic_add_half"]


def bb_half_dot(bb):
    out = []
    for name in BB_DOT:
        path = f"cuda-kernels/fast-atomic-add/{name}.cu"
        text = program(
            bb, path, "Version: one half-precision dot product kernel (2^25 halves, atomics into one sum).",
            ["half *x_device = (half *)kf_in0;", "half *y_device = (half *)kf_in1;",
             "half *output_device = (half *)kf_out;"], KEEP, "1")
        if "std::uintptr_t" in text and "<cstdint>" not in text:
            # nvcc 13's headers no longer bring std::uintptr_t in through <iostream>
            first = text.index("#include")
            text = (text[:first] + "#include <cstdint>  // KFORECAST: for std::uintptr_t (older toolchains had it "
                    "through <iostream>)\n" + text[first:])
        out.append((f"{name}.cu", text))
    return out


def lx_sgemv(lx):
    out = []
    sizes = ["size_t M = kf_m;  // KFORECAST: main() reads M from argv[1]",
             "size_t N = kf_n;  // KFORECAST: main() reads N from argv[2]"]
    aliases = ["float *d_A = (float *)kf_in0;", "float *d_x = (float *)kf_in1;", "float *d_y = (float *)kf_out;"]
    for v in (0, 1):
        path = f"sgemv/Sgemv_v{v}.cu"
        src = lx.show(path)
        rest, body = split_main(src)
        lines = [ln for ln in launch_lines(body, KEEP) if not ln.startswith(("cublas", "float alpha", "float beta"))]
        out.append((f"Sgemv_v{v}.cu", header(lx, path, f"Version: kernel Sgemv_v{v} with main()'s launch "
                                             "(y = A x, A row-major M x N).")
                    + rest + entry(aliases, sizes, lines, "M", MAIN_NOTE)))
    # the cuBLAS call main() checks the kernels against, as a program of its own
    path = "sgemv/Sgemv_v0.cu"
    src = lx.show(path)
    rest, body = split_main(src)
    s, e = function_span(rest, "Sgemv_v0")
    s = rest.rfind("\n// if N == 32", 0, s) + 1 or s
    rest = rest[:s] + rest[e:].lstrip("\n")
    lines = [ln for ln in launch_lines(body, set()) if ln.startswith(("cublas", "float alpha", "float beta"))]
    create = "cublasHandle_t blas_handle;\n    cublasCreate(&blas_handle);"
    if lines[:2] != ["cublasHandle_t blas_handle;", "cublasCreate(&blas_handle);"] or \
            lines[-1] != "cublasDestroy(blas_handle);":
        raise SystemExit("pubcuda.py: Sgemv_v0.cu's cuBLAS part changed upstream; update the builder")
    lines = (["// KFORECAST: the handle is made once, not on every call (main() makes one per run)",
              "static cublasHandle_t blas_handle;", "static bool kf_have_handle = false;",
              "if (!kf_have_handle) { cublasCreate(&blas_handle); kf_have_handle = true; }"]
             + lines[2:-1])
    del create
    out.append(("Sgemv_cublas.cu", header(lx, path, "Version: the cublasSgemv call that Sgemv_v0.cu's main() "
                                          "checks its kernel against (the kernel left out).")
                + rest + entry(aliases, sizes, lines, "M", MAIN_NOTE.replace("launch lines", "cuBLAS lines"))))
    return out


BOOK_DIR = "examples"
BOOK_NOTE_INC = "common/common.h"


def kernels_of(src):
    return re.findall(r"__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s+)?(\w+)\s*\(", src)


def book_version(bk, path, kernel, what, aliases, count, pre=(), subst=None, keep=None):
    src = bk.show(path)
    drop = [k for k in dict.fromkeys(kernels_of(src)) if k != kernel]
    return program(bk, path, what, aliases, keep or KEEP, count, pre=pre, subst=subst, drop=drop, only=kernel)


BOOK_SUM = [("sumMatrixOnGPU-2D-grid-2D-block", "sumMatrixOnGPU2D"),
            ("sumMatrixOnGPU-1D-grid-1D-block", "sumMatrixOnGPU1D"),
            ("sumMatrixOnGPU-2D-grid-1D-block", "sumMatrixOnGPUMix")]


def book_summatrix(bk):
    return [(f"{f}.cu", book_version(
        bk, f"{BOOK_DIR}/chapter02/{f}.cu", k, f"Version: {k}, 2^14 x 2^14 float matrices (main()'s size).",
        ["float *d_MatA = (float *)kf_in0;", "float *d_MatB = (float *)kf_in1;", "float *d_MatC = (float *)kf_out;"],
        "nx * ny")) for f, k in BOOK_SUM]


BOOK_T4 = ["transposeNaiveRow", "transposeNaiveCol", "transposeUnroll4Row", "transposeUnroll4Col",
           "transposeDiagonalRow", "transposeDiagonalCol"]


def book_transpose(bk):
    """chapter04/transpose.cu: main() picks a kernel with switch (iKernel); each version has
    its case of the switch (the kernel pointer and, for Unroll4, the narrower grid)."""
    path = f"{BOOK_DIR}/chapter04/transpose.cu"
    src = bk.show(path)
    rest, body = split_main(src)
    out = []
    for k in BOOK_T4:
        m = re.search(r"case (\d+):\n\s*kernel = &" + k + r";\n(.*?)break;", body, re.S)
        if not m:
            raise SystemExit(f"pubcuda.py: no case for {k} in transpose.cu's main(); update the builder")
        case = [f"// main()'s case {m.group(1)} of switch (iKernel):", f"kernel = &{k};"]
        case += [ln.strip() for ln in m.group(2).split("\n") if ln.strip() and "kernelName" not in ln]
        sub = {"int nx = 1 << 11;": "int nx = kf_n;  // KFORECAST: main() reads nx from argv[4] (default 1 << 11)",
               "int ny = 1 << 11;": "int ny = kf_m;  // KFORECAST: main() reads ny from argv[5] (default 1 << 11)"}
        lines = launch_lines(body, KEEP, sub)
        fp = "void (*kernel)(float *, float *, int, int);"
        if fp not in body:
            raise SystemExit("pubcuda.py: transpose.cu's kernel pointer changed upstream; update the builder")
        lines = [ln for ln in lines if not ln.startswith("warmup<<<")]
        launch = [i for i, ln in enumerate(lines) if ln.startswith("kernel<<<")]
        if len(launch) != 1:
            raise SystemExit("pubcuda.py: transpose.cu's launch changed upstream; update the builder")
        lines = lines[:launch[0]] + ["// kernel pointer and descriptor", fp] + case + lines[launch[0]:]
        r = rest
        for d in dict.fromkeys(kernels_of(src)):
            if d != k:
                a, e = function_span(r, d)
                a = leading_comment_start(r, a)
                r = r[:a] + r[e:].lstrip("\n")
        out.append((f"{k}.cu", header(bk, path, f"Version: {k} (main()'s iKernel case), float nx x ny = 8192 x 8192.")
                    + r + entry(["float *d_A = (float *)kf_in0;", "float *d_C = (float *)kf_out;"], [], lines,
                                "(long long)nx * ny", MAIN_NOTE)))
    return out


BOOK_T5 = ["naiveGmem", "naiveGmemUnroll", "transposeSmem", "transposeSmemPad", "transposeSmemDyn",
           "transposeSmemPadDyn", "transposeSmemUnroll", "transposeSmemUnrollPad"]


def book_transpose_smem(bk):
    path = f"{BOOK_DIR}/chapter05/transposeRectangle.cu"
    return [(f"{k}.cu", book_version(
        bk, path, k, f"Version: {k}, float nx x ny = 4096 x 4096 (main()'s size).",
        ["float *d_A = (float *)kf_in0;", "float *d_C = (float *)kf_out;"], "(long long)nx * ny")) for k in BOOK_T5]


BOOK_RED = [("reduceNeighbored", 1), ("reduceNeighboredLess", 1), ("reduceInterleaved", 1), ("reduceUnrolling2", 2),
            ("reduceUnrolling4", 4), ("reduceUnrolling8", 8), ("reduceUnrollWarps8", 8),
            ("reduceCompleteUnrollWarps8", 8)]


def book_reduce(bk):
    path = f"{BOOK_DIR}/chapter03/reduceInteger.cu"
    return [(f"{k}.cu", book_version(
        bk, path, k, f"Version: {k} with main()'s launch, 2^24 ints (main()'s size), block 512.",
        ["int *d_idata = (int *)kf_in0;", "int *d_odata = (int *)kf_out;"],
        "grid.x" if u == 1 else f"grid.x / {u}")) for k, u in BOOK_RED]


def vendor_book(bk, out):
    write(os.path.join(out, "_vendor", "pubcuda", "common", "common.h"), bk.show(f"{BOOK_DIR}/common/common.h"))


FAMILIES = [
    ("pc-lx-reduce", LX, lx_reduce, "bench_pc_reduce_f32.py", "host-code",
     "Liu-xiandong's reduce ladder v0..v7 (interleaved baseline, no divergent branch, no bank conflict, add "
     "during load, unrolled last warp, complete unroll, multiple adds per thread, warp shuffles), each with "
     "main()'s launch: per-block partial sums of 2^25 floats (main()'s N), summed by the adapter in float64."),
    ("pc-bb-reduce", BB, bb_reduce, "bench_pc_reduce_f32.py", "host-code",
     "BBuf's reduce ladder v0..v7 (its own text of the same steps: interleaved addressing, bank-conflict free, "
     "idle-thread free, unrolled last warp, complete unroll, multiple adds, warp shuffles), 2^25 floats "
     "(#define N). The ladder's ninth step, v8 (packed loads, grid-stride loop, second launch), is left out: "
     "families hold at most 8 versions, the first 8 steps are kept."),
    ("pc-pj-reduce-int", PJ, pj_reduce, "bench_pc_reduce_i32.py", "host-code",
     "PaddleJitLab's CUDATutorial int reduce ladder: naive (block 32), interleaved addressing, bank-conflict "
     "free, idle-thread free (two loads a thread), unrolled last warp, fully unrolled; 2^25 ints (the naive "
     "program's own len, 10000, is raised to the ladder's 2^25 in its entry point); partial sums summed by the "
     "adapter. reduce_interleaved_addressing.cu ends upstream with a stray '\u23ce' after main() that does not "
     "compile; like all text after main() it is left out."),
    ("pc-lx-elementwise-add", LX, lx_elementwise, "bench_pc_elementwise_add.py", "host-code",
     "Liu-xiandong's elementwise add: add, vec2_add (float2), vec4_add (float4) of 2^25 floats; main() launches "
     "vec4_add, the other two get its grid divided by their elements per thread (marked)."),
    ("pc-bb-half-dot", BB, bb_half_dot, "bench_pc_half_dot.py", "host-code",
     "BBuf's fast-atomic-add study: a half dot product of 2^25 elements, every thread atomically adding its "
     "partial to one half: atomicAdd(half), a Pack<half,2> half2 atomicAdd, PyTorch's FastAdd (half2 atomic "
     "with a zero). Inputs are 0/1 with few ones, so every order of addition gives the exact sum. "
     "fast_atomic_add_half.cu gets #include <cstdint> (marked KFORECAST): nvcc 13 needs it for std::uintptr_t."),
    ("pc-lx-sgemv", LX, lx_sgemv, "bench_pc_sgemv.py", "runtime-sizes",
     "Liu-xiandong's sgemv: Sgemv_v0 (a warp a row, N/32 steps), Sgemv_v1 (float4 loads, N % 128 == 0) and the "
     "cublasSgemv call main() checks them against; y = A x with A 16384 x 4096 float (M, N from argv in the "
     "source, from the adapter here). Sgemv_v2 (N == 16 only) is left out: it computes another shape."),
    ("pc-book-summatrix", BK, book_summatrix, "bench_pc_book_summatrix.py", "host-code",
     "Professional CUDA C Programming (Cheng, Grossman, McKercher), chapter 2: C = A + B of 2^14 x 2^14 floats "
     "with three launch geometries, one program each: 2D grid of 32x32 blocks (reference), 1D grid of 32-thread "
     "blocks with a loop over rows, 2D grid of 1D blocks."),
    ("pc-book-transpose", BK, book_transpose, "bench_pc_book_transpose.py", "runtime-sizes",
     "Professional CUDA C Programming, chapter 4 transpose.cu: naive row/column, unroll-4 row/column, diagonal "
     "block order row/column, through global memory only (16x16 blocks, main()'s defaults); the copy kernels "
     "are left out (they do not transpose). main() reads nx, ny from argv: 8192 x 8192 here."),
    ("pc-book-transpose-smem", BK, book_transpose_smem, "bench_pc_book_transpose.py", "host-code",
     "Professional CUDA C Programming, chapter 5 transposeRectangle.cu: naive, naive unrolled, shared-memory "
     "tile, padded, dynamic shared memory, padded dynamic, unrolled, unrolled padded (16x16 blocks, IPAD 2), "
     "4096 x 4096 floats (main()'s size). Nine transposes in main(); the first eight in main()'s order are kept "
     "(families hold at most 8), transposeSmemUnrollPadDyn is left out; copyGmem does not transpose."),
    ("pc-book-reduce-int", BK, book_reduce, "bench_pc_book_reduce.py", "host-code",
     "Professional CUDA C Programming, chapter 3 reduceInteger.cu: neighbored, neighbored with less divergence, "
     "interleaved, unrolling 2/4/8, unrolled warps, completely unrolled warps; 2^24 ints, block 512 (main()'s "
     "defaults). The kernels reduce in place in the input (as in the book). Nine kernels in main(); the first "
     "eight are kept (families hold at most 8), the templated reduceCompleteUnroll is left out."),
]


def main():
    args = builder_args(__doc__, "/work/main/target/evalsets/public2")
    out = args.out
    os.makedirs(out, exist_ok=True)
    repos = {name: Repo(args.mirror, name) for name in (LX, BB, PJ, BK)}
    clear_prefix(out, PREFIX, "pubcuda")
    families, sources = [], {}
    vendor_book(repos[BK], out)
    write(os.path.join(out, "_vendor", "pubcuda", "pc_common.py"), TEXT.adapter("pc_common.py"))
    for fam, repo_name, make, bench, style, notes in FAMILIES:
        repo = repos[repo_name]
        files = make(repo)
        for rel, text in files:
            write(os.path.join(out, fam, rel), text)
        write(os.path.join(out, fam, "bench.py"), TEXT.adapter(bench))
        families.append({"family": fam, "files": [f"{fam}/{rel}" for rel, _ in files], "split": "public2",
                         "source": f"{repo.name}@{repo.commit[:12]}", "style": style, "notes": notes})
        sources[fam] = {"repository": repo.name, "commit": repo.commit}
    # the folder is shared: replace only this builder's entries
    merge_index(out, PREFIX, families, sources, sort_keys=True)
    n_files, n_pairs = pair_counts(families)
    print(f"pubcuda.py: {len(families)} families, {n_files} programs, {n_pairs} ordered pairs -> {out}")
    for r in repos.values():
        print(f"  {r.name} @ {r.commit}")


if __name__ == "__main__":
    sys.exit(main())
