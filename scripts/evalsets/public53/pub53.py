"""Builds evaluation set public53 ("p53-" families, unseen) from local copies of public
repositories no other set uses, outside the repository:

    python3 scripts/evalsets/public53/pub53.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public53

Sources (fetch them first with the session's `fetch` tool), all kernels hosted by Python:
- VachanVY/gpu-programming (HEAD f9f841f): softmax_cuda/softmax_v0.cu ... softmax_v3.cu, four
  row-softmax kernels, each a `.cu` with an `extern "C" softmax(x, out, A, B)` launcher that the
  author builds with `nvcc -shared` and calls from Python through ctypes
  (softmax_cuda/torch_softmax.py: `my_softmax`), against torch.softmax (`torch_softmax` there);
- romitjain/learning-gpu-programming (HEAD ba5fea5): triton/softmax.py, a one-block-a-row Triton
  softmax with its Python launcher `softmax(A)`;
- ENCCS/hpda-python (HEAD 7c33127): the course's numba.cuda matrix products (float64):
  content/example/matmul_kernel.py (two naive kernels), matmul_sm_solution.py (10ea4ac) and
  fast_matmul.py (80c1353) (shared-memory tiles); math_numba_gpu.py (a CUDA ufunc) and
  math_kernel.py (a numba.cuda kernel) for x^3 + 4 sin(y);
- ENCCS/gpu-programming (HEAD 87fab1c): the heat-equation stencil step `evolve` ported to
  numba.cuda (content/examples/stencil/python-numba/core_cuda.py) and to a CuPy RawKernel
  (python-cupy/core.py).

A version is the source file verbatim, plus only glue marked KFORECAST: for a `.cu` its
`#include "include/..."` headers inlined in place; for a Python module, a `kf_run` entry point at
its end that runs the source's own launch lines (the course's grid formulas) on device arrays
that wrap the adapter's torch tensors, and a sibling module imported with `from heat import *`
inlined in place; a file with two kernels is cut to the one the version runs. Nothing is chosen
by speed. Adapters (adapters/, ours) are copied in as `<family>/bench.py`. The builder replaces
the whole folder but `measurements/`. Split "public53": report-only, never tuned on, never run
through kforecast by its builder.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "public"))

import setkit  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = setkit.SetText("Evaluation set public53", "scripts/evalsets/public53/pub53.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public53"
VY = "VachanVY/gpu-programming"
RJ = "romitjain/learning-gpu-programming"
HPDA = "ENCCS/hpda-python"
GPUP = "ENCCS/gpu-programming"
HPDA_SM = "10ea4ac6c0ce8434ec5172f60c0f8a8378d6dc59"    # matmul_sm_solution.py (removed later)
HPDA_FAST = "80c1353dc3cd688f79acfac338c9f4e04741f793"  # fast_matmul.py (removed later)

# What the H100 measurement of 2026-11-27 found (two device calls: the first measured the softmax
# family; its numba families failed in the adapters' glue, numba-cuda vs numpy 2.5, fixed in
# _p53common.py, and the second measured them).
FAILING_H100 = {
    "p53-softmax-rows/v6_vy_triton_long_softmax.py":
        "does not compile: triton.compiler.errors.UnsupportedLanguageConstruct, 'unsupported AST node "
        "type: Lambda' at `expf = lambda x: tl.exp2(LOG2_E * x)` inside the @triton.jit kernel (the "
        "puzzle ran under triton_viz's interpreter, which accepts it)",
    "p53-enccs-mathfn/v1_math_kernel.py":
        "wrong: 16769024 of 16777216 elements off the float64 reference (rel L2 0.80): the page's "
        "launch math_kernel[32, 256] runs 8192 threads and the kernel has no loop, so only the first "
        "8192 elements are written",
}
STATUS_H100 = {
    "p53-softmax-rows": "6 of 7 versions passed, 30 ordered pairs",
    "p53-enccs-matmul": "every version passed, 12 ordered pairs",
    "p53-enccs-heat": "both versions passed, 2 ordered pairs",
    "p53-enccs-mathfn": "the reference passed, the kernel version failed: no pair",
}
MEASURED_DAY = "2026-11-27"


def inline_includes(text, repo, base, commit=None):
    """`text` with each `#include "include/X"` replaced by that header (from `base` in the
    repository), marked KFORECAST."""
    def sub(m):
        path = f"{base}/{m.group(1)}"
        body = repo.show(path, commit).rstrip("\n")
        return (f"// KFORECAST: {m.group(1)} (the source's {path}) follows in place of its #include\n"
                f"{body}\n// KFORECAST: end of {m.group(1)}")
    return re.sub(r'^#include "(include/[^"]+)"[ \t]*$', sub, text, flags=re.M)


def inline_module(text, name, module_text, where):
    """`text` with `from <name> import *` replaced by the module's text, marked KFORECAST."""
    line = f"from {name} import *"
    if line not in text:
        raise SystemExit(f"pub53.py: no '{line}' to inline")
    block = (f"# KFORECAST: {name}.py (the source's {where}, beside this file) follows in place of "
             f"`{line}`\n{module_text.rstrip()}\n# KFORECAST: end of {name}.py\n")
    return text.replace(line + "\n", block, 1)


def only_kernel(text, keep, drop):
    """`text` (a module of @numba.cuda.jit kernels) less the definition of kernel `drop`."""
    m = re.search(r"^@numba\.cuda\.jit\ndef %s\(.*?(?=^@numba\.cuda\.jit\n|\Z)" % re.escape(drop), text,
                  re.M | re.S)
    if not m:
        raise SystemExit(f"pub53.py: kernel {drop} not found")
    return (text[:m.start()] + f"# KFORECAST: the file's other kernel, {drop}, is left out here "
            f"(this version runs {keep})\n\n" + text[m.end():])


def py_entry(what, body):
    return f"\n\n# KFORECAST entry point (ours): {what}\n" + body


def write_version(out, family, name, text):
    setkit.write(os.path.join(out, family, name), text)
    return f"{family}/{name}"


def family_entry(out, family, files, source, style, adapter, notes):
    setkit.write(os.path.join(out, family, "bench.py"), TEXT.adapter(adapter))
    fam = dict(family=family, files=files, split=SPLIT, source=source, style=style, notes=notes)
    fam["notes"] += f" H100 measurement of {MEASURED_DAY}: {STATUS_H100[family]}."
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING_H100.items() if f in files]
    if bad:
        fam["notes"] += " Failing: " + "; ".join(bad) + "."
    return fam


def softmax_family(out, vy, rj):
    fam = "p53-softmax-rows"
    files, srcs = [], []
    path = "softmax_cuda/torch_softmax.py"
    hdr = TEXT.header(vy, [path], "The reference version: the author's torch_softmax(x) (torch.softmax "
                      "over dim 1), called by the adapter as the file's __main__ calls it.", comment="#")
    files.append(write_version(out, fam, "v0_torch_softmax.py", hdr + vy.show(path)))
    srcs.append({"file": files[-1], "repo": vy.name, "commit": vy.commit, "path": path})
    whats = {
        "0": "One thread a row in a single block of A threads (dim3 threads(A)): three passes over the "
             "row (max, sum of expf, write), each thread striding through its own row.",
        "1": "One thread a row, the same launch; an online softmax: max and normaliser in one pass "
             "(the running sum rescaled by expf(old_max - new_max)), then the write pass.",
        "2": "One block of 1024 threads a row: each thread's online max/normaliser over a strided "
             "slice, tree reductions in shared memory (1024 floats) for the row max and the row sum.",
        "3": "One block of 1024 threads a row: the same online pass, the max and the sum reduced by "
             "__shfl_down_sync within warps and a second warp over per-warp values in shared memory.",
    }
    for v in "0123":
        path = f"softmax_cuda/softmax_v{v}.cu"
        text = inline_includes(vy.show(path), vy, "softmax_cuda")
        hdr = TEXT.header(vy, [path], f"softmax_v{v}: {whats[v]} Its extern \"C\" softmax(d_x, d_out, A, B) "
                          "launches and synchronises; torch_softmax.py's my_softmax calls it through ctypes.")
        files.append(write_version(out, fam, f"v{int(v) + 1}_softmax_v{v}.cu", hdr + text))
        srcs.append({"file": files[-1], "repo": vy.name, "commit": vy.commit, "path": path})
    path = "triton/softmax.py"
    hdr = TEXT.header(rj, [path], "Another author's Triton softmax: one program a row, the whole row "
                      "in one block (BLOCK_SIZE = next_power_of_2(cols)), exp and sum without a max; its "
                      "Python launcher softmax(A) makes the output on the host and moves it to the GPU, and "
                      "prints the block size, at every call.", comment="#")
    files.append(write_version(out, fam, "v5_rj_triton_softmax.py", hdr + rj.show(path)))
    srcs.append({"file": files[-1], "repo": rj.name, "commit": rj.commit, "path": path})
    path = "H_long_softmax.py"
    text = vy.show(path)
    if "from utils import test\n" not in text:
        raise SystemExit("pub53.py: H_long_softmax.py no longer imports utils.test")
    text = text.replace("from utils import test\n", "# KFORECAST: `from utils import test` left out (utils.py "
                        "imports triton_viz; test() is only the __main__ check)\n", 1)
    text += py_entry(
        "__main__'s test() launch (utils.py): B0=1, B1=32, N1=32, grid (cdiv(N0, B0), cdiv(N1, B1), "
        "cdiv(1, 1)), z made beside x as test() makes it",
        "def kf_run(x):\n"
        "    B = {\"B0\": 1, \"B1\": 32}\n"
        "    nelem = {\"N0\": x.shape[0], \"N1\": 32, \"T\": x.shape[1]}\n"
        "    z = torch.empty_like(x)\n"
        "    grid = lambda meta: (triton.cdiv(nelem[\"N0\"], meta[\"B0\"]),\n"
        "                         triton.cdiv(nelem.get(\"N1\", 1), meta.get(\"B1\", 1)),\n"
        "                         triton.cdiv(nelem.get(\"N2\", 1), meta.get(\"B2\", 1)))\n"
        "    softmax_kernel[grid](x, z, **B, **nelem)\n"
        "    return z\n")
    hdr = TEXT.header(vy, [path, "utils.py (test's launch)"], "The same author's Triton softmax (Triton "
                      "Puzzles 8, long softmax): one program a row (B0 = 1), three loops over the row in "
                      "chunks of B1 = 32 (max, sum of exp2, write).", comment="#")
    files.append(write_version(out, fam, "v6_vy_triton_long_softmax.py", hdr + text))
    srcs.append({"file": files[-1], "repo": vy.name, "commit": vy.commit, "path": path})
    notes = ("Row softmax of x 1024 x 32768 float32 (torch.randn), the size of VachanVY's "
             "torch_softmax.py. Reference: the author's torch_softmax (torch.softmax, dim 1). Then "
             "VachanVY's softmax_v0..v3.cu (a ladder by one author: thread-a-row three-pass, thread-a-row "
             "online, block-a-row shared-memory tree reductions, block-a-row warp shuffles), each built "
             "by the adapter with nvcc -shared and called through ctypes exactly as torch_softmax.py's "
             "my_softmax does (x, out pointers, A, B; the launcher synchronises), and romitjain's Triton "
             "softmax (its softmax(A), host-made output moved to the GPU and a print at every call), then "
             "VachanVY's Triton Puzzles long softmax (three loops of 32-wide chunks a row, launched as the "
             "puzzle's test() launches it, B0 = 1, B1 = 32).")
    return family_entry(out, fam, files, f"{vy.at()} softmax_cuda, {rj.at()} triton/softmax.py",
                        "python-ctypes-cuda+triton", "bench_p53_softmax.py", notes), srcs


MATMUL_LAUNCH = (
    "    import math  # KFORECAST\n"
    "    TPB = 16\n"
    "    threadsperblock = (TPB, TPB)\n"
    "    blockspergrid_x = int(math.ceil(C.shape[0] / threadsperblock[0]))\n"
    "    blockspergrid_y = int(math.ceil(C.shape[1] / threadsperblock[1]))\n"
    "    blockspergrid = (blockspergrid_x, blockspergrid_y)  # KFORECAST: the benchmark computes "
    "x and y but names only blockspergrid\n"
)


def matmul_family(out, hpda):
    fam = "p53-enccs-matmul"
    files, srcs = [], []
    what_launch = ("content/example/matmul_kernel_benchmark.py's launch lines (TPB 16: 16 x 16 "
                   "threads, ceil(n / 16) blocks each way) on device arrays A, B, C")
    base = "content/example/matmul_kernel.py"
    full = hpda.show(base)
    for n, (keep, drop, what) in enumerate([
            ("matmul_kernel", "matmul_kernel2", "the naive kernel: a thread an element of C, "
             "(i, j) = numba.cuda.grid(2), a dot product of a row of A and a column of B"),
            ("matmul_kernel2", "matmul_kernel", "the naive kernel written with threadIdx/blockIdx/"
             "blockDim instead of cuda.grid(2)")]):
        text = only_kernel(full, keep, drop)
        text += py_entry(what_launch, "def kf_run(A, B, C):\n" + MATMUL_LAUNCH +
                         f"    {keep}[blockspergrid, threadsperblock](A, B, C)\n")
        hdr = TEXT.header(hpda, [base], f"{keep}: {what}.", comment="#")
        files.append(write_version(out, fam, f"v{n}_{keep}.py", hdr + text))
        srcs.append({"file": files[-1], "repo": hpda.name, "commit": hpda.commit, "path": base})
    for n, (commit, path, kern, what) in enumerate([
            (HPDA_SM, "content/example/matmul_sm_solution.py", "matmul_sm",
             "the exercise's solution: 16 x 16 float64 tiles of A and B in shared memory, zero-filled "
             "at the edges, bounds-checked loads and store"),
            (HPDA_FAST, "content/example/fast_matmul.py", "fast_matmul",
             "shared-memory tiles without the edge checks (an early return for threads outside C)")], 2):
        text = hpda.show(path, commit)
        text += py_entry(what_launch, "def kf_run(A, B, C):\n" + MATMUL_LAUNCH +
                         f"    {kern}[blockspergrid, threadsperblock](A, B, C)\n")
        hdr = TEXT.header(hpda, [f"{path} @ {commit}"], f"{kern}: {what}.", comment="#")
        files.append(write_version(out, fam, f"v{n}_{kern}.py", hdr + text))
        srcs.append({"file": files[-1], "repo": hpda.name, "commit": commit, "path": path})
    notes = ("C = A @ B of 1024 x 1024 float64 matrices (torch.rand), numba.cuda kernels of the "
             "ENCCS high-performance data analytics course, each launched as the course's "
             "matmul_kernel_benchmark.py does (16 x 16 threads, ceil(n / 16) blocks each way). "
             "Reference: matmul_kernel (naive, cuda.grid(2)); then matmul_kernel2 (the same with explicit "
             "indices), matmul_sm (the shared-memory exercise's solution, commit 10ea4ac) and fast_matmul "
             "(shared-memory tiles without edge checks, commit 80c1353). The course's CUDA gufunc "
             "(matmul_numba_gpu.py, one thread for the whole product) is left out: at this size it "
             "would run for minutes.")
    return family_entry(out, fam, files, f"{hpda.at()} content/example (matmul_sm_solution.py @ "
                        f"{HPDA_SM[:7]}, fast_matmul.py @ {HPDA_FAST[:7]})", "python-numba-cuda",
                        "bench_p53_matmul.py", notes), srcs


def mathfn_family(out, hpda):
    fam = "p53-enccs-mathfn"
    files, srcs = [], []
    path = "content/example/math_numba_gpu.py"
    text = hpda.show(path) + py_entry(
        "GPU-computing.rst's call of the ufunc (res = f_numba_gpu(x, y)), on device arrays, "
        "the result written into `result`",
        "def kf_run(x, y, result):\n    f_numba_gpu(x, y, out=result)\n")
    hdr = TEXT.header(hpda, [path], "The reference version: a CUDA ufunc (@numba.vectorize, "
                      "target='cuda') for x^3 + 4 sin(y).", comment="#")
    files.append(write_version(out, fam, "v0_math_numba_gpu.py", hdr + text))
    srcs.append({"file": files[-1], "repo": hpda.name, "commit": hpda.commit, "path": path})
    path = "content/example/math_kernel.py"
    text = hpda.show(path) + py_entry(
        "GPU-computing.rst's benchmark lines: threadsperblock = 32, blockspergrid = 256, "
        "math_kernel[threadsperblock, blockspergrid](d_a, d_b, d_c)",
        "def kf_run(x, y, result):\n    threadsperblock = 32\n    blockspergrid = 256\n"
        "    math_kernel[threadsperblock, blockspergrid](x, y, result)\n")
    hdr = TEXT.header(hpda, [path], "A numba.cuda kernel for the same function, a thread an element "
                      "(pos = cuda.grid(1)), no grid-stride loop, launched with the course's fixed "
                      "[32, 256] configuration (32 blocks of 256 threads).", comment="#")
    files.append(write_version(out, fam, "v1_math_kernel.py", hdr + text))
    srcs.append({"file": files[-1], "repo": hpda.name, "commit": hpda.commit, "path": path})
    notes = ("x^3 + 4 sin(y) over 2^24 float64 elements (torch.rand), two forms from the ENCCS course "
             "page GPU-computing.rst: the CUDA ufunc (reference) and the numba.cuda kernel with the "
             "page's own launch, math_kernel[32, 256] (8192 threads for 2^24 elements and no loop: "
             "the page times it on 10^7 elements the same way).")
    return family_entry(out, fam, files, f"{hpda.at()} content/example/math_*.py",
                        "python-numba-cuda", "bench_p53_mathfn.py", notes), srcs


def heat_family(out, gpup):
    fam = "p53-enccs-heat"
    files, srcs = [], []
    base = "content/examples/stencil"
    ports = [
        ("python-numba", "core_cuda.py", "numba",
         "the numba.cuda port: _evolve_kernel[(bx, by), (16, 16)] with (i, j) = cuda.grid(2), the "
         "scalars a, dt, dx2, dy2 passed as Python floats (float64)",
         "    current.dev = cuda.as_cuda_array(curr)\n    previous.dev = cuda.as_cuda_array(prev)\n"),
        ("python-cupy", "core.py", "cupy",
         "the CuPy port: the same stencil as a RawKernel (CUDA C in a string), 16 x 16 threads, "
         "i from x and j from y, the scalars passed as float32",
         "    current.dev = cp.asarray(curr)\n    previous.dev = cp.asarray(prev)\n"),
    ]
    for n, (port, name, tag, what, wrap) in enumerate(ports):
        path = f"{base}/{port}/{name}"
        text = inline_module(gpup.show(path), "heat", gpup.show(f"{base}/{port}/heat.py"),
                             f"{base}/{port}/heat.py")
        text += py_entry(
            "main_cuda.py's time step, evolve(current, previous, a, dt), on two fields whose device "
            "arrays (.dev) wrap the adapter's tensors without a copy; dx, dy as Field sets them",
            "def kf_run(curr, prev, a, dt):\n"
            "    current, previous = Field.__new__(Field), Field.__new__(Field)\n"
            "    current.dx = previous.dx = DX\n    current.dy = previous.dy = DY\n" + wrap +
            "    evolve(current, previous, a, dt)\n")
        hdr = TEXT.header(gpup, [path, f"{base}/{port}/heat.py"], f"evolve: {what}.", comment="#")
        files.append(write_version(out, fam, f"v{n}_{tag}_{name}", hdr + text))
        srcs.append({"file": files[-1], "repo": gpup.name, "commit": gpup.commit, "path": path})
    notes = ("One time step of the 2-D heat equation (five-point stencil, a = 0.5, dx = dy = 0.01, "
             "dt = dx2 dy2 / (2 a (dx2 + dy2)) as main_cuda.py sets it) on the course's default "
             "2000 x 2000 grid with its halo (2002 x 2002 float64, values uniform in [5, 85]). Two ports "
             "of the ENCCS GPU-programming course's evolve(): numba.cuda (reference) and a CuPy "
             "RawKernel. The adapter hands each a copy of the previous field as the current one (the "
             "source's deepcopy: the halo is never written), so one device copy is in every timing.")
    return family_entry(out, fam, files, f"{gpup.at()} {base}/python-numba, python-cupy",
                        "python-numba-cuda+cupy", "bench_p53_heat.py", notes), srcs


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public53")
    vy = setkit.Repo(args.mirror, VY)
    rj = setkit.Repo(args.mirror, RJ)
    hpda = setkit.Repo(args.mirror, HPDA)
    gpup = setkit.Repo(args.mirror, GPUP)
    setkit.clear_set(args.out)
    families, sources = [], {}
    for fam, src in [softmax_family(args.out, vy, rj), matmul_family(args.out, hpda),
                     heat_family(args.out, gpup), mathfn_family(args.out, hpda)]:
        families.append(fam)
        sources[fam["family"]] = src
    setkit.write(os.path.join(args.out, "_p53common.py"), TEXT.adapter("_p53common.py"))
    setkit.write_index(args.out, families, sources)
    n, pairs = setkit.pair_counts(families)
    print(json.dumps({"families": len(families), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
