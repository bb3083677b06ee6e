"""Builds public evaluation set 41 ("p41-" families, split "public41", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public41/pub41.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public41

Sources (fetched with the session's `fetch` tool first), all CUDA programs with host code:
- lvyy1999/Simple_CUDA_Kernel: one author's operator ladders, one file a step
  (src/<op>_vN.cu), each with an `extern "C"` host launcher `<op>_vN(...)` registered in a
  function table `kernel_funcs[]` (include/<op>.cuh) that tests/test_<op>.cu walks, timing
  each step with a cudaEvent timer after a warmup and checking it against a CPU reference:
  reduce v1-v6 (tree, reversed stride, two loads a thread, last warp unrolled with shuffles,
  warp-shuffle hierarchy, grid-stride loop), softmax v1-v4 (three passes + shared-memory
  reductions, warp reductions, online softmax, online + warp), half GEMM v1-v6 (naive, block
  tiling in shared memory, thread tiling, outer product in registers, transposed A + float4 +
  padding, shared half + Half4 loads; templated tile sizes) and attention v1-v4 (three
  kernels with S and P in global memory, one fused kernel a query row, tiles + online
  softmax, a warp a row + vectorised loads; templated tiles);
- 0xmenna/spmv-scpa: src/cuda_csr.cu, a course project's CSR SpMV ladder in double (kernel 0
  a thread a row, 1 a warp a row, 2 a half warp a row with __ldg, 3 a block a row, 4 a half
  warp a row reading x through a texture object), each with a host function that allocates,
  copies up, times the launch with a cudaEvent timer (src/cuda_timer.cu), copies down and
  frees.

A version is one CUDA program: the source's file verbatim (0xmenna: with its own headers
inlined and src/cuda_timer.cu appended, since its host functions call the timer), plus an
`extern "C" kf_run` marked KFORECAST that runs the source's own launch path for that step:
the test program's call of the step's launcher through its arguments (reduce: with the
test's cudaMemset of the output before each call), or (SpMV) the lines of the step's host
function less its allocation, copies and frees (its cudaEvent timer kept), on the adapter's device buffers.
Steps are the authors' own (file names, the README's and docs' version lists, the source's
"Kernel N" comments), never chosen by speed. Adapters (`adapters/bench_p41_*.py`) are ours.
The builder replaces the whole set folder but `measurements/`.
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

TEXT = setkit.SetText("Evaluation set public41", "scripts/evalsets/public41/pub41.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public41"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
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


# ---------------------------------------------------------------- lvyy1999 ladders
LV = "lvyy1999/Simple_CUDA_Kernel"

LV_OPS = {
    "reduce": dict(
        steps=[("v1", "naive tree reduction in shared memory (tid % (2*s)), one atomicAdd a block"),
               ("v2", "reversed stride (tid < s), fewer divergent warps"),
               ("v3", "two elements loaded a thread, half the blocks"),
               ("v4", "as v3, the last warp unrolled with __shfl_down_sync"),
               ("v5", "warp-shuffle hierarchy: warp sums to shared memory, the first warp finishes"),
               ("v6", "grid-stride loop over 4 blocks an SM, then the v5 warp hierarchy")],
        sig="const float* input, float* output, int N",
        body="    cudaMemset(output, 0, sizeof(float));\n    {fn}(input, output, N);",
        prelude="",
        test_line="cudaMemset(d_output, 0, sizeof(float))",
        adapter="bench_p41_lv_reduce.py",
        notes="sum of N = 2^24 float32 values uniform in [-1, 1] (tests/test_reduce.cu's N and "
              "fill_random_float), 256-thread blocks, each block's partial sum added to the output with "
              "atomicAdd; the output is zeroed before each call as the test does (cudaMemset): "),
    "softmax": dict(
        steps=[("v1", "three passes (max, sum of exp, normalise), shared-memory tree reductions"),
               ("v2", "the max and sum reductions with warp shuffles"),
               ("v3", "online softmax: max and sum in one pass, shared-memory reductions"),
               ("v4", "online softmax with warp-shuffle reductions")],
        sig="const float* input, float* output, int N",
        body="    {fn}(input, output, N);",
        prelude="",
        test_line="kernel_funcs[i](d_input, d_output, N)",
        adapter="bench_p41_lv_softmax.py",
        notes="softmax of one vector of N = 2^24 float32 values uniform in [-1, 1] (tests/test_softmax.cu's "
              "N), every step one block of 256 threads as its launcher sets it: "),
    "gemm": dict(
        steps=[("v1", "naive, a thread an output element, float accumulation"),
               ("v2", "block tiling in shared memory"),
               ("v3", "thread tiling, several outputs a thread"),
               ("v4", "outer-product formulation with register reuse"),
               ("v5", "A stored transposed in shared memory, float4 loads, padding (BM + 4)"),
               ("v6", "shared memory in half, Half4 global loads, BK 32; templated tile sizes")],
        sig="const half* A, const half* B, half* C, int M, int N, int K",
        body="    float alpha = 1.0f;\n    float beta = 0.0f;\n    {fn}(A, B, C, M, N, K, alpha, beta);",
        prelude="",
        test_line="kernel_funcs[i](d_A, d_B, d_C, M, N, K, alpha, beta)",
        adapter="bench_p41_lv_gemm.py",
        notes="C = A B with A 1024 x 1024 and B 1024 x 1024 half, row-major, float accumulation, half "
              "output (tests/test_gemm.cu's M = N = K = 1024, alpha 1, beta 0, values uniform in [-1, 1]); "
              "all on CUDA cores (no tensor cores): "),
    "attention": dict(
        steps=[("v1", "three kernels (Q K^T, row softmax, P V) with S and P in global memory, "
                      "cudaMalloc/cudaFree and cudaDeviceSynchronize inside the launcher"),
               ("v2", "one fused kernel a query row, the score row in dynamic shared memory"),
               ("v3", "tiles of 8 query rows and 32 key rows in shared memory, online softmax; "
                      "templated tile sizes"),
               ("v4", "a warp a query row, vectorised loads, online softmax; templated tile sizes")],
        sig="const float* Q, const float* K, const float* V, float* output, int M, int N, int d",
        body="    {fn}(Q, K, V, output, M, N, d);",
        prelude="",
        test_line="kernel_funcs[i](d_Q, d_K, d_V, d_output, M, N, d)",
        adapter="bench_p41_lv_attention.py",
        notes="single-head attention softmax(Q K^T / sqrt(d)) V with Q 4096 x 128, K and V 4096 x 128 "
              "float32 (tests/test_attention.cu's M = N = 4096, d = 128, values uniform in [-1, 1]): "),
}


def lv_family(mirror, out, op):
    repo = setkit.Repo(mirror, LV)
    spec = LV_OPS[op]
    test = repo.show(f"tests/test_{op}.cu")
    if spec["test_line"] not in test:
        raise SystemExit(f"pub41.py: tests/test_{op}.cu does not call {spec['test_line']}")
    table = repo.show(f"include/{op}.cuh")
    fam = f"p41-lv-{op}"
    files = []
    for v, what in spec["steps"]:
        fn = f"{op}_{v}"
        if fn not in table:
            raise SystemExit(f"pub41.py: include/{op}.cuh does not register {fn}")
        src = repo.show(f"src/{fn}.cu")
        if not re.search(r'extern "C" void %s\(' % fn, src):
            raise SystemExit(f"pub41.py: src/{fn}.cu has no extern \"C\" {fn}")
        entry = ("\n\n// KFORECAST entry point (ours): tests/test_" + op + ".cu's call of this step's launcher\n"
                 "// (kernel_funcs[i]) with the test's arguments, on the adapter's device buffers.\n"
                 + spec["prelude"]
                 + "extern \"C\" void kf_run(" + spec["sig"] + ") {\n"
                 + spec["body"].format(fn=fn) + "\n}\n")
        files.append(write_version(out, fam, fn, repo, [f"src/{fn}.cu", f"include/{op}.cuh",
                                                         f"tests/test_{op}.cu"],
                                   f"{fn}: {what}.", src + entry))
    return family(fam, files, repo, spec["adapter"],
                  spec["notes"] + "; ".join(f"{v} {w}" for v, w in spec["steps"])
                  + ". The steps registered in include/" + op + ".cuh's kernel_funcs[] (the README's list).", out)


# ---------------------------------------------------------------- 0xmenna CSR SpMV
MN = "0xmenna/spmv-scpa"
MN_STEPS = [("thread_row", "spmv_kernel_0", "kernel 0: a thread a row"),
            ("warp_row", "spmv_kernel_1", "kernel 1: a warp a row, __shfl_sync reduction"),
            ("halfwarp_row", "spmv_kernel_2", "kernel 2: a half warp a row, __ldg loads, 16-wide shuffles"),
            ("block_row", "spmv_kernel_3", "kernel 3: a block a row, warp sums through shared memory"),
            ("halfwarp_row_text", "spmv_kernel_4", "kernel 4: as kernel 2, x read through a texture object")]
MN_DROP = r"spmv_cuda_up|spmv_cuda_down|int \*d_IRP, \*d_JA;|double \*d_AS, \*d_x, \*d_y;|return elapsed;|// Memory setup|// Copy back|// Launch kernel"


def mn_spmv(mirror, out):
    repo = setkit.Repo(mirror, MN)
    names = ["csr.h", "cuda_csr.h", "cuda_timer.cuh", "utils.h", "vector.h"]
    headers = {h: repo.show(f"include/{h}") for h in names}
    src = repo.show("src/cuda_csr.cu")
    seen = set()
    prog = inline_includes(src, headers, seen)
    timer = inline_includes(repo.show("src/cuda_timer.cu"), headers, seen)
    fam = "p41-mn-spmv"
    files = []
    for name, kern, what in MN_STEPS:
        host = cut_function(src, f"csr_spmv_cuda_{name}", with_comment=False)
        if kern + "<<<" not in host.replace(" ", ""):
            raise SystemExit(f"pub41.py: csr_spmv_cuda_{name} does not launch {kern}")
        body = host[host.index("{") + 1:host.rstrip().rindex("}")]
        lines = [ln.rstrip() for ln in body.split("\n") if ln.strip() and not re.search(MN_DROP, ln)]
        entry = ("\n\n// KFORECAST: the source's src/cuda_timer.cu follows (its host functions call the timer),\n"
                 "// then an entry point (ours): the lines of the source's host function csr_spmv_cuda_" + name + "()\n"
                 "// less its allocation, host-device copies and frees (its cudaEvent timer kept: it waits for the\n"
                 "// launch before the texture object is destroyed), on the adapter's device buffers;\n"
                 "// `A` stands for its sparse_csr argument (sizes only), warps_per_block keeps the file's 4.\n"
                 + timer.rstrip() + "\n\n"
                 "extern \"C\" void kf_run(int *d_IRP, int *d_JA, double *d_AS, double *d_x, double *d_y,\n"
                 "                        int M, int N, int NZ) {\n"
                 "      struct { int M, N, NZ; } A_{M, N, NZ};\n"
                 "      auto *A = &A_;\n"
                 + "\n".join(lines) + "\n}\n")
        files.append(write_version(out, fam, f"csr_spmv_cuda_{name}", repo,
                                   ["src/cuda_csr.cu", "src/cuda_timer.cu"] + [f"include/{h}" for h in names],
                                   f"csr_spmv_cuda_{name}: {what}.", prog + entry))
    return family(fam, files, repo, "bench_p41_mn_spmv.py",
                  "y = A x in double, A a random CSR matrix of 2^20 x 2^20 with 8-56 nonzeros a row (32 on "
                  "average, columns uniform and sorted within a row, about 33.5 million nonzeros; the source "
                  "benchmarks SuiteSparse matrices such as webbase-1M, cant, af_1_k101), through each step's "
                  "host function's lines less allocation, copies and frees (its cudaEvent timer, which waits for the "
                  "launch, kept) with the file's warps_per_block = 4: "
                  + "; ".join(f"{n} {w}" for n, _, w in MN_STEPS)
                  + ". The five CSR host functions of src/cuda_csr.cu (its 'Host 1-5' comments).", out)


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public41")
    setkit.clear_set(args.out)
    fams = [lv_family(args.mirror, args.out, op) for op in ("reduce", "softmax", "gemm", "attention")]
    fams.append(mn_spmv(args.mirror, args.out))
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
