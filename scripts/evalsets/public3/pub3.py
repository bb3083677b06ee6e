#!/usr/bin/env python3
"""Builds the "p3-" families of evaluation set public3: public kernels as their authors
wrote them, from repositories no other set uses (issue 20, 1(b), the unseen set).

    pub3.py --mirror /work/.mirror --out /work/main/target/evalsets/public3

Reads local bare copies of public repositories (made with the session's `fetch` tool:
MIRROR/<owner>+<name>/repo) and writes, OUTSIDE the repository, one folder per family
(one program file per version, the reference first, and its bench.py adapter), the
sources' own headers under `_vendor/pub3/`, and this builder's entries of the shared
`families.json` and `SOURCES.json` (read-modify-write: only entries whose family starts
with "p3-" are replaced). Nothing of the public code lives in kforecast's repository:
only this builder and the adapters (adapters/, ours) do.

How a program file is made from its source:
- a CUDA program (.cu with a main()): the source's text before main(), less the file's
  other kernels, so one kernel verbatim with the source's prelude and host helpers, plus
  a small `extern "C" kf_run` entry point marked KFORECAST that runs main()'s (or the
  source launcher's) own size, grid and launch lines for that kernel once;
- a kernel file with its own launcher (cudacodes' softmax kernels/*.cu): the file
  verbatim plus kf_run, which runs the launcher's grid/block/launch lines without its
  event timing and printf;
- a header library (the shfl reduction post): the header's includes, one kernel and its
  launcher verbatim, kf_run calling the launcher;
- a GPU MODE problem (reference-kernels): the reference / submission module verbatim.
Split "public3": never tuned on, report only.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))
from cpp_cut import cut_function  # noqa: E402
from setkit import Repo, SetText, builder_args, clear_prefix, merge_index, pair_counts, write  # noqa: E402

TEXT = SetText("Evaluation set public3", "scripts/evalsets/public3/pub3.py", os.path.join(HERE, "adapters"))
PREFIX = "p3-"
SPLIT = "public3"
REPOS = {
    "nbody": "harrism/mini-nbody",
    "blog": "NVIDIA-developer-blog/code-samples",
    "cudacodes": "Maharshi-Pandya/cudacodes",
    "gpumode": "gpu-mode/reference-kernels",
    "lectures": "gpu-mode/lectures",
}
VENDOR = "_vendor/pub3"


adapter = TEXT.adapter
c_header = TEXT.header
py_header = TEXT.py_header


def need(text, piece, what):
    if piece not in text:
        raise SystemExit(f"pub3.py: {what} changed upstream (no {piece!r}); update the builder")
    return piece


def before_main(src):
    m = re.search(r"^int main\s*\(", src, re.M)
    if not m:
        raise SystemExit("pub3.py: no main() in a CUDA source")
    return src[:m.start()].rstrip() + "\n"


def drop_kernels(text, names):
    for name in names:
        text = text.replace(cut_function(text, name), "", 1)
    return re.sub(r"\n{3,}", "\n\n", text)


def entry(comment, signature, body):
    return ("\n// KFORECAST: entry point for the evaluation adapter. " + comment + "\n"
            f'extern "C" int kf_run({signature})\n{{\n' + body + "    return (int)cudaGetLastError();\n}\n")


# ----------------------------------------------------------------------------- families

NBODY = ["orig", "soa", "block", "unroll"]


def nbody_program(rp, which):
    path = f"cuda/nbody-{which}.cu"
    src = rp.show(path)
    main = src[src.index("int main("):]
    dt = need(main, "const float dt = 0.01f;", "mini-nbody main()")
    nblocks = need(main, "int nBlocks = (nBodies + BLOCK_SIZE - 1) / BLOCK_SIZE;", "mini-nbody main()")
    launch = re.search(r"bodyForce<<<[^\n]*;", main).group(0)
    if which == "orig":
        sig, setup = "float *d_buf, int nBodies", "    Body *d_p = (Body*)d_buf;\n"
    else:
        sig = "float *d_buf, int nBodies"
        setup = "    " + re.search(r"BodySystem d_p = [^\n]*;", main).group(0) + "\n"
    body = f"    {dt}\n{setup}    {nblocks}\n    {launch}\n"
    return (c_header(rp, [path], f"Version: bodyForce of nbody-{which}.cu (one force step, main()'s launch).")
            + before_main(src)
            + entry("One bodyForce step over d_buf (main()'s device buffer,\n// positions and velocities, updated in place), "
                    "main()'s dt, grid and launch.", sig, body))


TRANSPOSE = ["transposeNaive", "transposeCoalesced", "transposeNoBankConflicts"]
TR_PATH = "series/cuda-cpp/transpose/transpose.cu"


def transpose_program(rp, which):
    src = rp.show(TR_PATH)
    main = src[src.index("int main("):]
    grid = need(main, "dim3 dimGrid(nx/TILE_DIM, ny/TILE_DIM, 1);", "transpose.cu main()")
    block = need(main, "dim3 dimBlock(TILE_DIM, BLOCK_ROWS, 1);", "transpose.cu main()")
    launch = need(main, f"{which}<<<dimGrid, dimBlock>>>(d_tdata, d_idata);", "transpose.cu main()")
    others = [k for k in ["copy", "copySharedMem"] + TRANSPOSE if k != which]
    body = f"    {grid}\n    {block}\n    {launch}\n"
    return (c_header(rp, [TR_PATH], f"Version: {which} of the blog's transpose study, with main()'s launch.")
            + drop_kernels(before_main(src), others)
            + entry("main()'s grid, block and launch for this kernel,\n// at the adapter's nx x ny.",
                    "float *d_tdata, const float *d_idata, int nx, int ny", body))


SOFTMAX = ["naive_0", "online_1", "sharedmem_2", "shfl_3", "vectorized_4", "blocktiling_5"]


def softmax_program(rp, which):
    path = f"softmax/kernels/{which}.cu"
    src = rp.show(path)
    k = which.rsplit("_", 1)[1]
    launcher = cut_function(src, f"run_kernel_{k}", with_comment=False)
    body_lines = launcher[launcher.index("{") + 1:launcher.rindex("}")].split("\n")
    keep = [ln for ln in body_lines
            if ln.strip() and not re.search(r"Event|printf|\bms\b|^\s*//", ln)]
    if not any("<<<" in ln for ln in keep):
        raise SystemExit(f"pub3.py: no launch in run_kernel_{k}; update the builder")
    keep = [re.sub(r"^(\s*)CUDA_CHECK\((.*)\);$", r"\1\2;", ln) for ln in keep]
    body = "\n".join("    " + ln.strip() for ln in keep) + "\n"
    return (c_header(rp, [path], f"Version: softmax kernel {which} with its launcher run_kernel_{k}.")
            + src.rstrip() + "\n"
            + entry(f"run_kernel_{k}'s grid, block and launch lines, without\n// its event timing and printf.",
                    "float *matd, float *resd, int M, int N", body))


SHFL_DIR = "posts/parallel_reduction_with_shfl"
SHFL_HEADERS = ["fake_atomic.h", "fake_shfl.h", "warp_reduce.h", "block_reduce.h"]
# main()'s RunTest order: the scalar kernel of each header and its vector2 form
SHFL = [("device_reduce_atomic", "device_reduce_atomic.h"),
        ("device_reduce_atomic_vector2", "device_reduce_atomic.h"),
        ("device_reduce_warp_atomic", "device_reduce_warp_atomic.h"),
        ("device_reduce_warp_atomic_vector2", "device_reduce_warp_atomic.h"),
        ("device_reduce_block_atomic", "device_reduce_block_atomic.h"),
        ("device_reduce_block_atomic_vector2", "device_reduce_block_atomic.h"),
        ("device_reduce_stable", "device_reduce_stable.h"),
        ("device_reduce_stable_vector2", "device_reduce_stable.h")]


def shfl_program(rp, launcher, header):
    src = rp.show(f"{SHFL_DIR}/{header}")
    includes = "".join(re.findall(r'^#include "[^"]+"\n', src, re.M))
    kernel = (launcher + "_kernel") if not launcher.endswith("_vector2") else \
        launcher[:-len("_vector2")] + "_kernel_vector2"
    kernels = [kernel]
    if launcher == "device_reduce_stable_vector2":  # its second pass is the scalar kernel
        kernels = ["device_reduce_stable_kernel", kernel]
    parts = [c_header(rp, [f"{SHFL_DIR}/{header}", f"{SHFL_DIR}/main.cu"],
                      f"Version: {launcher} (kernel and launcher of {header})."),
             "// KFORECAST: __shfl_down (no mask) is gone from CUDA 9+ on sm_70+; the post's\n"
             "// warp_reduce.h calls it, so it is mapped to the full-warp __shfl_down_sync.\n"
             "#define __shfl_down(v, o) __shfl_down_sync(0xffffffffu, (v), (o))\n",
             "#include <cstdio>\n", includes, "\n"]
    for k in kernels:
        parts += [cut_function(src, k, with_comment=False), "\n"]
    parts.append(cut_function(src, launcher, with_comment=False))
    parts.append(entry(f"one {launcher}() call, as main()'s RunTest makes it.",
                       "int *in, int *out, int N", f"    {launcher}(in, out, N);\n"))
    return "".join(parts)


LEC_VECADD = [("lecture_002/vector_addition/vector_addition.cu", "vecAddKernel"),
              ("lecture_008/privatization.cu", "vectorAdd"),
              ("lecture_008/privatization.cu", "vectorAddPrivatized"),
              ("lecture_008/coarsening.cu", "VecAdd"),
              ("lecture_008/coarsening.cu", "VecAddCoarsened")]


def lec_vecadd_program(rp, path, kernel):
    src = rp.show(path)
    text = before_main(src)
    kernels = re.findall(r"__global__ void (\w+)\(", text)
    text = drop_kernels(text, [k for k in kernels if k != kernel])
    if path.endswith("vector_addition.cu"):
        host = cut_function(src, "vecAdd")
        lines = [need(host, "const unsigned int numThreads = 256;", path),
                 need(host, "unsigned int numBlocks = cdiv(n, numThreads);", path),
                 need(host, "vecAddKernel<<<numBlocks, numThreads>>>(A_d, B_d, C_d, n);", path)]
        sig = "float *A_d, float *B_d, float *C_d, int n"
        what = "vecAdd()'s launch lines (without its allocation and copies)"
    elif path.endswith("privatization.cu"):
        main = src[src.index("int main("):]
        lines = [need(main, "int threadsPerBlock = 256;", path),
                 need(main, "int blocksPerGrid = (n + threadsPerBlock - 1) / threadsPerBlock;", path),
                 need(main, f"{kernel}<<<blocksPerGrid, threadsPerBlock>>>(d_a, d_b, d_result, n);", path)]
        sig = "const float *d_a, const float *d_b, float *d_result, int n"
        what = "main()'s launch lines for this kernel"
    else:  # coarsening.cu: the size is the kernels' #define N
        main = src[src.index("int main("):]
        launch = re.search(re.escape(kernel) + r"<<<[^\n]*;", main).group(0)
        define = need(text, "#define N 1024", path)
        text = text.replace(define, "#define N (1 << 25) // KFORECAST: the source's size is 1024; "
                            "the evaluation's 2^25", 1)
        lines = ["if (n != N) return -1; // KFORECAST: the kernels' size is the #define", launch]
        sig = "float *d_a, float *d_b, float *d_c, int n"
        what = "main()'s launch line for this kernel"
    body = "".join(f"    {ln}\n" for ln in lines)
    return (c_header(rp, [path], f"Version: {kernel} of {path}, less main() and the file's other kernels.")
            + text + entry(what + ".", sig, body))


COPY = [(TR_PATH, "copy"), (TR_PATH, "copySharedMem"),
        ("lecture_008/coalesce.cu", "copyDataCoalesced"), ("lecture_008/occupancy.cu", "copyDataCoalesced")]


def copy_program(bl, lc, path, kernel):
    """A float copy: the blog's 2-D copy kernels (transpose.cu) or lecture 8's 1-D ones.
    kf_run takes the same (odata, idata, nx, ny) in every version."""
    if path == TR_PATH:
        rp = bl
        src = rp.show(path)
        main = src[src.index("int main("):]
        lines = [need(main, "dim3 dimGrid(nx/TILE_DIM, ny/TILE_DIM, 1);", path),
                 need(main, "dim3 dimBlock(TILE_DIM, BLOCK_ROWS, 1);", path),
                 need(main, f"{kernel}<<<dimGrid, dimBlock>>>(d_cdata, d_idata);", path).replace(
                     "d_cdata", "odata").replace("d_idata", "idata")]
        what = "main()'s grid, block and launch for this kernel"
        others = [k for k in ["copy", "copySharedMem"] + TRANSPOSE if k != kernel]
    else:
        rp = lc
        src = rp.show(path)
        main = src[src.index("int main("):]
        bs = re.search(r"int blockSize = \d+;", main).group(0)
        lines = ["const int n = nx * ny; // KFORECAST: main()'s n is 1 << 24; the evaluation's nx * ny",
                 bs, need(main, "int numBlocks = (n + blockSize - 1) / blockSize;", path),
                 need(main, f"{kernel}<<<numBlocks, blockSize>>>(in, out, n);", path).replace(
                     "(in, out, n)", "((float*)idata, odata, n)")]
        what = "main()'s block size, grid and launch"
        others = [k for k in re.findall(r"__global__ void (\w+)\(", src) if k != kernel]
    body = "".join(f"    {ln}\n" for ln in lines)
    return (c_header(rp, [path], f"Version: {kernel} of {path}, less main() and the file's other kernels.")
            + drop_kernels(before_main(src), others)
            + entry(what + ".", "float *odata, const float *idata, int nx, int ny", body))


CHOL_COMMIT = "76cab82cc99361ab74cb1284c70513819c639bbe"  # the last with the baseline submissions
CHOL = "problems/linalg/cholesky_py"
CHOL_FILES = [("reference.py", f"{CHOL}/reference.py"), ("submission.py", f"{CHOL}/submission.py"),
              ("torch_cholesky.py", f"{CHOL}/submissions/torch_cholesky.py"),
              ("blocked_torch_256.py", f"{CHOL}/submissions/blocked_torch_256.py"),
              ("blocked_torch_512.py", f"{CHOL}/submissions/blocked_torch_512.py"),
              ("blocked_torch_1024.py", f"{CHOL}/submissions/blocked_torch_1024.py"),
              ("blocked_torch_auto.py", f"{CHOL}/submissions/blocked_torch_auto.py"),
              ("triton_cholesky32.py", f"{CHOL}/submissions/triton_cholesky32.py")]


def main():
    args = builder_args(__doc__, "/work/main/target/evalsets/public3", more=lambda ap: ap.add_argument(
        "--shfl-versions", type=int, default=8,
        help="how many of the shfl post's kernels (main()'s order) make the int-reduce family"))
    out = args.out
    clear_prefix(out, PREFIX, os.path.basename(VENDOR))  # only this builder's folders are replaced

    nb = Repo(args.mirror, REPOS["nbody"])
    bl = Repo(args.mirror, REPOS["blog"])
    cc = Repo(args.mirror, REPOS["cudacodes"])
    gm = Repo(args.mirror, REPOS["gpumode"])
    lc = Repo(args.mirror, REPOS["lectures"])
    families, sources = [], {}

    def family(name, files, repos, source, style, notes, bench):
        name = PREFIX + name
        for rel, text in files:
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), adapter(bench))
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": SPLIT,
                         "source": source, "style": style, "notes": notes})
        sources[name] = [{"repository": r.name, "commit": r.commit} for r in repos]

    write(os.path.join(out, VENDOR, "p3common.py"), adapter("p3common.py"))
    # headers the programs include, verbatim
    write(os.path.join(out, VENDOR, "mini-nbody", "timer.h"), nb.show("timer.h"))
    write(os.path.join(out, VENDOR, "cudacodes-softmax", "cuda_utils.cuh"),
          cc.show("softmax/include/cuda_utils.cuh"))
    for h in SHFL_HEADERS:
        write(os.path.join(out, VENDOR, "shfl-reduce", h), bl.show(f"{SHFL_DIR}/{h}"))
    write(os.path.join(out, VENDOR, "gpumode-cholesky", "task.py"),
          gm.git("show", f"{CHOL_COMMIT}:{CHOL}/task.py"))
    for p in ("utils.py", "vectoradd_py/task.py"):
        write(os.path.join(out, VENDOR, "gpumode-pmpp", os.path.basename(p)), gm.show(f"problems/pmpp/{p}"))

    family("nbody", [(f"nbody-{k}.cu", nbody_program(nb, k)) for k in NBODY],
           [nb], nb.ref("cuda/"), "host-code",
           "Mark Harris's mini-nbody ladder: bodyForce of nbody-orig (array of structs), nbody-soa (float4 "
           "positions and velocities), nbody-block (shared-memory tiles) and nbody-unroll (the tile loop "
           "unrolled), one force step each with main()'s dt, BLOCK_SIZE 256 and launch. 32768 bodies (main()'s "
           "default 30000 is not a multiple of BLOCK_SIZE, which the tiled kernels need). Output: the new "
           "velocities.", "bench_p3_nbody.py")
    family("transpose", [(f"{k}.cu", transpose_program(bl, k)) for k in TRANSPOSE],
           [bl], bl.ref(TR_PATH), "host-code",
           "The CUDA C++ blog's transpose study (naive, coalesced through a shared tile, padded tile), "
           "32x8 threads per 32x32 tile, at 8192 x 8192 floats (the post's 1024 x 1024 is 4 MB). The copy "
           "kernels of the file are left out: they do not transpose.", "bench_p3_transpose.py")
    family("softmax", [(f"{k}.cu", softmax_program(cc, k)) for k in SOFTMAX],
           [cc], cc.ref("softmax/kernels/"), "host-code",
           "Maharshi Pandya's softmax ladder (cudacodes): naive (a thread per row, 3 passes), online (2 "
           "passes), shared-memory block reduction, warp shuffles, float4 loads with block reductions from "
           "cuda_utils.cuh, 4-row block tiles; each file verbatim with its run_kernel launcher, run through "
           "an entry point without the launcher's event timing. 1024 x 32768 floats (bench.cu's M and one of "
           "its N), inputs clamped normal as bench.cu draws them.", "bench_p3_softmax.py")
    shfl = SHFL[:args.shfl_versions]
    family("int-reduce", [(f"{k}.cu", shfl_program(bl, k, h)) for k, h in shfl],
           [bl], bl.ref(SHFL_DIR), "macro-heavy",
           f"Integer sum from the 'faster parallel reductions with shfl' post: {len(shfl)} of "
           "main()'s RunTest kernels (all but cub's) (atomics per thread, per warp after warp shuffles, per block "
           "after a block reduction, the two-pass stable reduction; each scalar and with int2 loads), each "
           "header's kernel and launcher verbatim. 2^25 ints in 0..3 (main()'s rand()%4). Exact.",
           "bench_p3_int_reduce.py")
    family("lecture-vecadd", [(f"{os.path.basename(p)[:-3]}_{k}.cu", lec_vecadd_program(lc, p, k))
                              for p, k in LEC_VECADD],
           [lc], lc.ref("lecture_002/, lecture_008/"), "host-code",
           "Float vector add from GPU MODE's lectures: lecture 2's vecAddKernel, lecture 8's vectorAdd and "
           "vectorAddPrivatized (privatization.cu) and VecAdd / VecAddCoarsened (coarsening.cu, size a "
           "#define, set to 2^25), each with its source's launch lines; 2^25 floats.",
           "bench_p3_vecadd.py")

    def gmp(path):
        return py_header(gm, path, "Verbatim.") + "\n" + gm.show(path)

    va = "problems/pmpp/vectoradd_py"
    family("gpumode-vectoradd",
           [("reference.py", gmp(f"{va}/reference.py")), ("submission.py", gmp(f"{va}/submission.py")),
            ("submission_cuda_inline.py", gmp(f"{va}/solutions/correct/submission_cuda_inline.py")),
            ("submission_triton.py", gmp(f"{va}/solutions/correct/submission_triton.py"))],
           [gm], gm.ref(va), "gpumode-custom_kernel",
           "GPU MODE's pmpp vectoradd_py problem: the reference (ref_kernel), the template submission, and "
           "the two correct example solutions (load_inline CUDA, a 2-D tiled Triton kernel); float16 "
           "8192 x 8192 (one of task.yml's benchmark sizes).", "bench_p3_gm_vectoradd.py")
    vs = "problems/pmpp/vectorsum_py"
    family("gpumode-vectorsum",
           [("reference.py", gmp(f"{vs}/reference.py")), ("submission.py", gmp(f"{vs}/submission.py")),
            ("pytorch.py", gmp(f"{vs}/solutions/correct/pytorch.py"))],
           [gm], gm.ref(vs), "gpumode-custom_kernel",
           "GPU MODE's pmpp vectorsum_py problem: the reference (float64 sum), the example submission (Triton "
           "block sums with atomic adds, torch.compile reduce-overhead) and the correct pytorch solution "
           "(compiled data.sum()); 52428800 floats (task.yml's largest benchmark), the reference's "
           "generate_input.", "bench_p3_gm_vectorsum.py")

    family("copy", [(f"{os.path.basename(p)[:-3]}_{k}.cu", copy_program(bl, lc, p, k)) for p, k in COPY],
           [bl, lc], f"{bl.ref(TR_PATH)}, {lc.ref('lecture_008/')}", "host-code",
           "Float copy of 8192 x 8192 (2^26): the transpose post's copy and copySharedMem (32x8 threads per "
           "32x32 tile, its baselines) and GPU MODE lecture 8's copyDataCoalesced as coalesce.cu (128 "
           "threads) and occupancy.cu (1024 threads) launch it, each with its main()'s launch lines.",
           "bench_p3_copy.py")

    def chol(path):
        text = gm.git("show", f"{CHOL_COMMIT}:{path}")
        return (f"# Evaluation set public3 of kforecast, built by scripts/evalsets/public3/pub3.py from\n"
                f"# {gm.name} at commit {CHOL_COMMIT}: {path}\n# Verbatim.\n\n" + text)

    family("gpumode-cholesky", [(rel, chol(p)) for rel, p in CHOL_FILES],
           [gm], f"{gm.name}@{CHOL_COMMIT[:12]}:{CHOL}", "gpumode-custom_kernel",
           "GPU MODE's batched Cholesky problem (linalg/cholesky_py) at the commit that ships its baseline "
           "submissions: the reference (cholesky_ex), the template submission, torch.linalg.cholesky, the "
           "blocked torch factorizations with 256/512/1024 panels and the 'auto' one (blocked at n = 2048), "
           "and the Triton 32x32 kernel (which falls back to cholesky_ex at other n). torch_cholesky_ex.py "
           "is left out: byte for byte the template submission. Size: task.yml's benchmark {batch 2, n "
           "2048, cond 2} (2^23 floats, the one benchmark size where every blocked strategy runs its blocks), "
           "the reference's generate_input.", "bench_p3_gm_cholesky.py")

    merge_index(out, PREFIX, families, sources)  # read-modify-write: only our entries are replaced
    n_files, n_pairs = pair_counts(families)
    print(f"pub3.py: {len(families)} families, {n_files} program files, {n_pairs} ordered pairs -> {out}")
    for r in (nb, bl, cc, gm, lc):
        print(f"  {r.name} @ {r.commit}")


if __name__ == "__main__":
    sys.exit(main())
