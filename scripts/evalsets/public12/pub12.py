"""Public set 12 ("p12-" families): CUDA programs from public repositories no other set uses,
built outside kforecast's repository from local copies made with the session's `fetch` tool.

    python3 scripts/evalsets/public12/pub12.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public12

Sources: scottgeng00/cse554-winter-2026 (a course's reduction, transpose and vector-add
programs, one program per step), VVinstonSmith/Optimize-basic-CUDA-kernels (OneFlow-style
templated softmax implementations, the 3-D Laplace stencil with and without shared memory)
and pytorch extensions (see EXT_SOURCES). A CUDA version is the source's program less
`main()` (and less the file's other kernels), plus an `extern "C" kf_run` entry point marked
KFORECAST that runs main()'s own launch lines once; headers of the same folder are inlined
where the version needs them. The adapters (adapters/bench_p12_*.py) are ours. The builder
replaces the set's folder but `measurements/`. Split "public12": report-only, never tuned on,
never run through kforecast by its builder.
"""

import os
import re
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

from cpp_cut import cut_function, match_brace  # noqa: E402
from setkit import (VERBATIM, Repo, SetText, builder_args, clear_set, pair_counts,  # noqa: E402
                    write, write_index)

SPLIT = "public12"
TEXT = SetText("Evaluation set public12", "scripts/evalsets/public12/pub12.py",
               os.path.join(HERE, "adapters"))


def show(repo, path):
    """A source file as text: GBK comments (VVinstonSmith's) re-encoded as UTF-8, BOM dropped."""
    raw = repo.git("show", f"{repo.commit}:{path}", binary=True)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("gbk", errors="replace")
    return text.lstrip("\ufeff").replace("\r\n", "\n")


def split_main(src):
    """(text before main(), main()'s text)."""
    m = re.search(r"^int\s+main\s*\(", src, re.M)
    if m is None:
        raise SystemExit("pub12.py: no main() found")
    end = match_brace(src, src.index("{", m.end()))
    return src[:m.start()], src[m.start():end]


def statement_from(text, start_rx, through="<<<"):
    """The lines of `text` from the line where start_rx first matches through the end of the
    first statement that holds `through`, dedented."""
    m = re.search(start_rx, text, re.M)
    if m is None:
        raise SystemExit(f"pub12.py: {start_rx!r} not found; the source changed upstream")
    s = text.rfind("\n", 0, m.start()) + 1
    k = text.index(through, m.start())
    e = text.index(";", text.index(">>>", k) if through == "<<<" else k) + 1
    return textwrap.dedent(text[s:e])


def kernel_params(src, name):
    m = re.search(r"__global__\s+void\s+" + re.escape(name) + r"\s*\(([^)]*)\)", src)
    if m is None:
        raise SystemExit(f"pub12.py: kernel {name} not found")
    return [p.strip() for p in m.group(1).split(",")]


def launch_args(block):
    m = re.search(r">>>\s*\((.*?)\)\s*;", block, re.S)
    return [a.strip() for a in m.group(1).split(",")]


def entry(params, body, what):
    body = textwrap.indent(body.rstrip("\n"), "    ")
    return ("\n// KFORECAST: entry point for the evaluation adapter: " + what + "\n"
            f"extern \"C\" int kf_run({', '.join(params)})\n{{\n{body}\n"
            "    return (int)cudaGetLastError();\n}\n")


def host_program(repo, path, kernel, start_rx, what):
    """A one-kernel program: the source less main(), plus kf_run with main()'s launch lines
    (from the line matching start_rx through the launch); kf_run's parameters are the launch's
    arguments, typed as the kernel's parameters."""
    src = show(repo, path)
    before, main = split_main(src)
    block = statement_from(main, start_rx)
    names = launch_args(block)
    types = [re.sub(r"\b\w+\s*$", "", p).strip() for p in kernel_params(src, kernel)]
    if len(types) != len(names):
        raise SystemExit(f"pub12.py: {path}: launch and kernel disagree")
    params = [f"{t[:-1].rstrip()} *{n}" if t.endswith("*") else f"{t} {n}" for t, n in zip(types, names)]
    return (TEXT.header(repo, [path], what) + before.rstrip("\n") + "\n"
            + entry(params, block, f"main()'s launch of {kernel}, once, on buffers\n"
                    "// the adapter allocates (main()'s sizes come in as arguments)."))


# ---------------------------------------------------------------- scottgeng00/cse554-winter-2026
CSE = "scottgeng00/cse554-winter-2026"


def cse_families(mirror, out):
    repo = Repo(mirror, CSE)
    fams, srcs = [], {}

    def family(name, items, style, notes, op):
        files = []
        for path, kernel, rx, what in items:
            rel = f"{name}/{os.path.basename(path)}"
            write(os.path.join(out, rel), host_program(repo, path, kernel, rx, what))
            files.append(rel)
        write(os.path.join(out, name, "bench.py"), TEXT.adapter(f"bench_{name.replace('-', '_')}.py"))
        fams.append({"family": name, "files": files, "split": SPLIT, "source": repo.at(),
                     "style": style, "notes": notes, "op": op})
        srcs[name] = [repo.ref(p) for p, *_ in items]

    red = [(f"W2/reduction{i}.cu", "reductionKernel", r"^\s*int blockSize", w) for i, w in [
        (1, "Version 1: interleaved addressing, tid % (2*s) branch, atomicAdd per block."),
        (2, "Version 2: interleaved addressing with a strided index (no divergent modulo)."),
        (3, "Version 3: sequential addressing (s = blockDim/2 down)."),
        (4, "Version 4: first add during the global load (two elements per thread)."),
        (5, "Version 5: 4096 elements per 128-thread block, a serial sum per thread first.")]]
    family("p12-cse554-reduce", red, "host-code",
           "Integer sum with atomicAdd of per-block sums (W2 lecture ladder); main()'s N is 2^30, "
           "measured at 2^26 ints; the adapter zeroes the output before each call.", "reduce-sum")
    tr = [("W2/transpose_v1.cu", "transposeKernel", r"^\s*dim3 gridDim", "Version 1: one block per row, a column range per thread."),
          ("W2/transpose_v2.cu", "transpose", r"^\s*dim3 grid", "Version 2: one block per row, columns strided by blockDim."),
          ("W2/transpose_v3.cu", "transposeKernel", r"^\s*cudaFuncSetAttribute", "Version 3: 128x128 shared-memory tile (dynamic smem)."),
          ("W2/transpose_v4.cu", "transposeKernel", r"^\s*cudaFuncSetAttribute", "Version 4: the tile padded to 129 columns (no bank conflicts)."),
          ("W2/transpose_v5.cu", "transpose", r"^\s*cudaFuncSetAttribute", "Version 5: padded tile, 96 KB dynamic smem, no bounds checks.")]
    family("p12-cse554-transpose", tr, "host-code",
           "8192x8192 float transpose (main()'s own size), five steps of the W2 lecture.", "transpose")
    add = [("W1/addition.cu", "add", r"^\s*dim3 num_block", "Version 1: one int per thread."),
           ("W1/addition2.cu", "add2", r"^\s*dim3 num_block", "Version 2: int4 vector loads, num/4 threads.")]
    family("p12-cse554-add", add, "host-code",
           "Integer vector add (W1 lecture); main()'s num is 1e9, measured at 2^26.", "add")
    return fams, srcs


# --------------------------------------------------------- VVinstonSmith/Optimize-basic-CUDA-kernels
VV = "VVinstonSmith/Optimize-basic-CUDA-kernels"
SM = "softmax"


def vv_softmax(repo, which):
    """main.cu with its implementation headers inlined (only those this version dispatches to)
    and DispatchSoftmax cut to this version's branch."""
    main_src = show(repo, f"{SM}/main.cu")
    ops = show(repo, f"{SM}/Operators.cuh")
    headers = {"warp": ["WarpImpl.cuh"], "smem": ["BlockSMemImpl.cuh", "BlockUncachedImpl.cuh"],
               "uncached": ["BlockUncachedImpl.cuh"]}[which]
    d0 = main_src.index("// ^V^\ntemplate<typename LOAD, typename STORE, typename ComputeType, Algorithm algorithm>\n"
                        "inline cudaError_t DispatchSoftmax(")
    prelude = main_src[:d0]
    prelude = prelude.replace('#include "Operators.cuh"\n',
                              '// KFORECAST: Operators.cuh (same folder) inlined\n' + ops.rstrip("\n") + "\n", 1)
    for h in ["WarpImpl.cuh", "BlockSMemImpl.cuh", "BlockUncachedImpl.cuh"]:
        inc = f'#include "{h}"\n'
        if inc not in prelude:
            raise SystemExit("pub12.py: softmax/main.cu changed upstream; update the builder")
        if h in headers:
            body = show(repo, f"{SM}/{h}").replace('#include "Operators.cuh"',
                                                    '// KFORECAST: #include "Operators.cuh" (inlined above)')
            prelude = prelude.replace(inc, f"// KFORECAST: {h} (same folder) inlined\n{body.rstrip()}\n", 1)
        else:
            prelude = prelude.replace(inc, f"// KFORECAST: #include \"{h}\" left out (not dispatched to)\n", 1)
    disp = cut_function(main_src, "DispatchSoftmax", with_comment=False)
    sig = disp[:disp.index("{") + 1]
    if which == "uncached":
        stmt = statement_from(disp, r"return DispatchSoftmaxBlockUncachedImpl", through="(")
    elif which == "warp":
        stmt = statement_from(disp, r"return DispatchSoftmaxWarpImpl", through="(")
    else:
        s = disp.index("        bool dispatch_smem_impl_success;")
        e = disp.index("return cudaSuccess;", s) + len("return cudaSuccess;")
        stmt = textwrap.dedent(disp[s:e])
    dispatch = ("// KFORECAST: main.cu's DispatchSoftmax cut to this version's branch\n"
                + sig + "\n" + textwrap.indent(stmt.rstrip(), "    ") + "\n}\n")
    _, main = split_main(main_src)
    lines = [re.search(rx, main, re.M).group(0).strip() for rx in [
        r"^\s*using ComputeType = float;", r"^\s*DirectLoad<float, ComputeType> load\(input_device, cols\);",
        r"^\s*DirectStore<ComputeType, float> store\(output_device, cols\);"]]
    call = statement_from(main, r"^\s*DispatchSoftmax<", through="(")
    body = "\n".join(lines) + "\ncudaStream_t stream = 0;  // KFORECAST: the default stream (main() creates one)\n" + call
    what = {"uncached": "the block-uncached implementation (the path main.cu dispatches to).",
            "warp": "the warp-per-row implementation (DispatchSoftmaxWarpImpl).",
            "smem": "the block shared-memory implementation (uncached as its fallback)."}[which]
    paths = [f"{SM}/main.cu", f"{SM}/Operators.cuh"] + [f"{SM}/{h}" for h in headers]
    return (TEXT.header(repo, paths, "Version: " + what) + prelude + dispatch
            + entry(["float* input_device", "float* output_device", "int rows", "int cols"], body,
                    "main()'s load/store and DispatchSoftmax call,\n// once, on the adapter's buffers."))


LP = "laplace3d/laplace3d.cu"


def vv_laplace(repo, kernel):
    src = show(repo, LP)
    before, main = split_main(src)
    other = "laplace3d_gpu2" if kernel == "laplace3d_gpu1" else "laplace3d_gpu1"
    cut = cut_function(before, other)
    before = re.sub(r"\n{3,}", "\n\n", before.replace(cut, "// KFORECAST: " + other + " left out\n", 1))
    if other == "laplace3d_gpu2":  # its helper goes with it
        helper = cut_function(before, "xyz2sid")
        before = before.replace(helper, "", 1)
    lines = [re.search(rx, main, re.M).group(0).strip() for rx in [
        r"^\s*int blocksize = \d+;", r"^\s*int gridsize = .*;"]
        + ([r"^\s*int dx = .*;", r"^\s*dz = .*;"] if kernel == "laplace3d_gpu2" else [])]
    launch = re.search(r"^\s*" + kernel + r"\s*<<\s*<.*;", main, re.M).group(0).strip()
    body = "\n".join(lines + [launch])
    what = {"laplace3d_gpu1": "Version: laplace3d_gpu1, one thread per point, global memory.",
            "laplace3d_gpu2": "Version: laplace3d_gpu2, 8x8x8 blocks staged in shared memory with halos "
                              "(main()'s commented-out loop)."}[kernel]
    return (TEXT.header(repo, [LP], what) + before.rstrip("\n") + "\n"
            + entry(["float* u1_dev", "float* u2_dev", "int NX", "int NY", "int NZ"], body,
                    "one step of main()'s iteration loop (its sizes,\n// block and grid lines), on the adapter's buffers."))


def vv_families(mirror, out):
    repo = Repo(mirror, VV)
    fams, srcs = [], {}
    name = "p12-vv-softmax"
    files = []
    for which in ["uncached", "warp", "smem"]:
        rel = f"{name}/softmax_{which}.cu"
        write(os.path.join(out, rel), vv_softmax(repo, which))
        files.append(rel)
    write(os.path.join(out, name, "bench.py"), TEXT.adapter("bench_p12_vv_softmax.py"))
    fams.append({"family": name, "files": files, "split": SPLIT, "source": repo.at(), "style": "templated",
                 "notes": "OneFlow-style templated softmax (load/store functors, cub block reduce, "
                          "macro-generated dispatch), 262144 x 127 floats (main()'s own size).", "op": "softmax"})
    srcs[name] = [repo.ref(f"{SM}/{p}") for p in ["main.cu", "Operators.cuh", "WarpImpl.cuh",
                                                  "BlockSMemImpl.cuh", "BlockUncachedImpl.cuh"]]
    name = "p12-vv-laplace3d"
    files = []
    for k in ["laplace3d_gpu1", "laplace3d_gpu2"]:
        rel = f"{name}/{k}.cu"
        write(os.path.join(out, rel), vv_laplace(repo, k))
        files.append(rel)
    write(os.path.join(out, "_vendor", "vv", "freshman.h"), show(repo, "laplace3d/freshman.h"))
    write(os.path.join(out, name, "bench.py"), TEXT.adapter("bench_p12_vv_laplace3d.py"))
    fams.append({"family": name, "files": files, "split": SPLIT, "source": repo.at(), "style": "host-code",
                 "notes": "One Jacobi step of the 3-D Laplace stencil on 512^3 floats (main()'s own size); "
                          "the interior is compared (gpu2 leaves the boundary unwritten).", "op": "stencil"})
    srcs[name] = [repo.ref(LP), repo.ref("laplace3d/freshman.h")]
    return fams, srcs


# ---------------------------------------------------------------- ppeetteerrs/pytorch-cuda-kernels
PP = "ppeetteerrs/pytorch-cuda-kernels"
# (version file, directory, commit): the rosinality/StyleGAN2 original, the author's first naive
# kernel, and the author's rewrite at each of its states with distinct code (0c17354 only
# re-indents 9c8feb0; new/ at 25b3f3e does not link: its binding and kernel declare different
# upfirdn2d_op signatures).
UPFIRDN = [("upfirdn2d_original.cu", "original", None),
           ("upfirdn2d_naiive_25b3f3e.cu", "naiive", "25b3f3e"),
           ("upfirdn2d_new_10f6432.cu", "new", "10f6432"),
           ("upfirdn2d_new_9c8feb0.cu", "new", "9c8feb0"),
           ("upfirdn2d_new_8a21736.cu", "new", "8a21736"),
           ("upfirdn2d_new_c4678b1.cu", "new", "c4678b1")]


def pp_families(mirror, out):
    repo = Repo(mirror, PP)
    name = "p12-pp-upfirdn2d"
    files, refs = [], []
    for fname, d, commit in UPFIRDN:
        full = repo.git("rev-parse", commit).strip() if commit else repo.commit
        kern_p, bind_p = f"upfirdn2d/{d}/upfirdn2d_kernel.cu", f"upfirdn2d/{d}/upfirdn2d.cpp"
        kern = repo.show(kern_p, full).replace("\r\n", "\n")
        bind = repo.show(bind_p, full).replace("\r\n", "\n")
        state = f"as of commit {commit} (history)" if commit else "at HEAD"
        head = (TEXT.built_by("//") + "\n"
                f"// {PP} at commit {full}:\n//   {kern_p}\n//   {bind_p}\n"
                f"// Version: upfirdn2d/{d}/ {state} as a torch extension: the kernel file, then its\n"
                "// pybind11 binding file, in one source.\n// " + VERBATIM + "\n\n")
        text = (head + kern.rstrip("\n") + "\n\n// KFORECAST: the binding file " + bind_p + " follows\n"
                + bind.rstrip("\n") + "\n")
        rel = f"{name}/{fname}"
        write(os.path.join(out, rel), text)
        files.append(rel)
        refs += [f"{PP}@{full[:12]}:{kern_p}", f"{PP}@{full[:12]}:{bind_p}"]
    write(os.path.join(out, name, "bench.py"), TEXT.adapter("bench_p12_pp_upfirdn2d.py"))
    fam = {"family": name, "files": files, "split": SPLIT, "source": repo.at(), "style": "torch-extension",
           "notes": "StyleGAN2 upfirdn2d as torch extensions (kernel .cu + pybind11 binding in one file), "
                    "called as the source's profile.py does: 4096x1x64x64 floats, 4x4 [1,3,3,1] blur "
                    "kernel, up 1, down 1, pad 2 on every side. The reference is the original "
                    "(rosinality) kernel; the others are the author's naive kernel and rewrite.",
           "op": "upfirdn2d"}
    return [fam], {name: refs}


# ---------------------------------------------------------------- yencal/gpu-histogram-optimization
YH = "yencal/gpu-histogram-optimization"
HIST = [("histogram_global_atomic.cu", "HistogramGlobalAtomic", "global-memory atomics (the baseline)"),
        ("histogram_shared_atomic.cu", "HistogramSharedAtomic", "block-private shared-memory histogram"),
        ("histogram_shared_atomic_vec.cu", "HistogramSharedAtomicVec", "shared-memory histogram, 16-byte loads"),
        ("histogram_cub.cu", None, "cub::DeviceHistogram::HistogramEven (RunCUBBenchmark)")]


def yh_program(repo, kernel, what):
    utils = show(repo, "src/utils.cuh")
    kerns = show(repo, "src/histogram_kernels.cuh")
    main_src = show(repo, "src/main.cu")
    cut = utils.index("// ============================================================================\n"
                      "// TEST DATA INITIALIZATION")
    prelude = utils[:cut].rstrip("\n") + "\n"

    def line(text, rx):
        m = re.search(rx, text, re.M)
        if m is None:
            raise SystemExit(f"pub12.py: {rx!r} not found in {YH}; the source changed upstream")
        return m.group(0).strip()

    consts = [line(main_src, r"^\s*constexpr int BLOCK_SIZE = \d+;"), line(main_src, r"^\s*constexpr int NUM_BINS = \d+;")]
    hist_bytes = line(utils, r"^\s*size_t histogram_bytes = NUM_BINS \* sizeof\(int\);")
    memset = line(utils, r"^\s*CHECK_CUDA\(cudaMemset\(d_histogram, 0, histogram_bytes\)\);")
    paths = ["src/main.cu", "src/utils.cuh"]
    if kernel is not None:
        bench = cut_function(utils, "RunBenchmark", with_comment=False)
        body = consts + [hist_bytes,
                         f"void (*histogram_kernel)(const unsigned char*, int, int*) = {kernel}<NUM_BINS>;"
                         "  // KFORECAST: main()'s argument to RunBenchmark",
                         line(bench, r"^\s*const int max_grid_size = .*;"),
                         line(bench, r"^\s*int grid_size = .*;"),
                         line(bench, r"^\s*grid_size = std::min\(.*;"), memset,
                         line(bench, r"^\s*histogram_kernel<<<.*;")]
        code = cut_function(kerns, kernel) + "\n"
        paths.insert(1, "src/histogram_kernels.cuh")
    else:
        bench = cut_function(utils, "RunCUBBenchmark", with_comment=False)
        query = statement_from(bench, r"^\s*size_t temp_storage_bytes = 0;", through="nullptr")
        query = query[:query.index(";") + 1] + "\n" + statement_from(
            bench, r"^\s*cub::DeviceHistogram::HistogramEven\(\n\s*nullptr", through="nullptr")
        run = statement_from(bench[bench.index("// Timed runs"):],
                             r"^\s*cub::DeviceHistogram::HistogramEven\(", through="d_temp_storage")
        body = consts + [hist_bytes, query.rstrip(),
                         "// KFORECAST: the temporary storage is allocated once, not on every call\n"
                         "static void* d_temp_storage = nullptr;\n"
                         "static size_t temp_allocated = 0;\n"
                         "if (temp_allocated < temp_storage_bytes) {\n"
                         "    if (d_temp_storage) CHECK_CUDA(cudaFree(d_temp_storage));\n"
                         "    CHECK_CUDA(cudaMalloc(&d_temp_storage, temp_storage_bytes));\n"
                         "    temp_allocated = temp_storage_bytes;\n}",
                         memset, run.rstrip()]
        code = ""
    return (TEXT.header(repo, paths, "Version: " + what + ".") + prelude + "\n" + code
            + entry(["const unsigned char* d_data", "int* d_histogram", "int num_elements"], "\n".join(body),
                    "one timed run of the source's benchmark\n// runner (launch configuration, memset, launch) "
                    "on the adapter's buffers; main()'s constants."))


def yh_families(mirror, out):
    repo = Repo(mirror, YH)
    name = "p12-yh-histogram"
    files = []
    for fname, kernel, what in HIST:
        rel = f"{name}/{fname}"
        write(os.path.join(out, rel), yh_program(repo, kernel, what))
        files.append(rel)
    write(os.path.join(out, name, "bench.py"), TEXT.adapter("bench_p12_yh_histogram.py"))
    fam = {"family": name, "files": files, "split": SPLIT, "source": repo.at(), "style": "templated",
           "notes": "256-bin byte histogram, templated kernels with the source's benchmark launcher "
                    "(grid = min(n/512, 32 x SMs)); main()'s size is 2^30 bytes, measured at 2^26.",
           "op": "histogram"}
    return [fam], {name: [repo.ref(p) for p in ["src/main.cu", "src/utils.cuh", "src/histogram_kernels.cuh"]]}


def main():
    args = builder_args(__doc__, "target/evalsets/public12")
    clear_set(args.out)
    fams, srcs = [], {}
    for build in (cse_families, vv_families, pp_families, yh_families):
        f, s = build(args.mirror, args.out)
        fams += f
        srcs.update(s)
    write(os.path.join(args.out, "p12common.py"), TEXT.adapter("p12common.py"))
    write(os.path.join(args.out, "prebuild.py"), TEXT.adapter("prebuild.py"))
    write_index(args.out, fams, srcs)
    files, pairs = pair_counts(fams)
    ops = {}
    for f in fams:
        ops[f["op"]] = ops.get(f["op"], 0) + len(f["files"]) * (len(f["files"]) - 1)
    print(f"pub12.py: {len(fams)} families, {files} programs, {pairs} ordered pairs -> {args.out}")
    print("pub12.py: pairs by op: " + ", ".join(f"{k} {v}" for k, v in sorted(ops.items())))


if __name__ == "__main__":
    main()
