"""Builds public evaluation set 44 ("p44-" families, split "public44", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public44/pub44.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public44

Sources (fetched with the session's `fetch` tool first), all CUDA:
- junstar92/cuda-kernel-study (one author's CUDA study, each topic a folder):
  06_reduction/reduction.cu, a torch extension holding eight sum-reduction kernels (global
  atomics, a shared atomic, a shared-memory tree, warp shuffles, an unrolled last warp,
  cooperative-groups `cg::reduce`, cooperative groups with two loads a thread, CUB
  BlockReduce) behind one templated launcher `launch_reduce<VER>` whose `if constexpr`
  chain picks the kernel, bound as eight functions; 02_transpose/transpose.cu, a torch
  extension with the README's transpose steps (row-read, column-read, column-read unrolled by
  four, column-read with float4 stores, shared-memory tiles v0 and v1, v1 unrolled by two; the
  tiled ones behind one `transpose_shm(..., ver)` dispatch switch); 07_pipelining/, three
  programs with host code sharing common.cuh (a main that allocates, checks against a CPU
  GEMM and times with cudaEvent): a 2048^3 SGEMM with no pipelining, ping-pong double
  buffering and a cp.async pipeline (STAGES = 2, the Makefile's default);
- Enjia/CUDA-Kernel-Cases-of-Optimization-Techniques-for-GPU-Programming (28 programs with host
  code, each a baseline kernel and the "optimised" one with a main that times both with cudaEvent
  and compares them): 03_register_blocking.cu (1-D 3-point stencil, one output a thread vs two),
  14_sparse_matrix_format.cu (SpMV, COO with atomics vs CSR a thread a row),
  25_reduce_atomic_ops.cu (256-bin byte histogram, global atomics vs a shared-memory private
  histogram) and 26_inter_block_synchronization.cu (two dependent passes as two kernels vs one
  cooperative-groups kernel with grid.sync() launched by cudaLaunchCooperativeKernel).

A torch-extension version is the source .cu verbatim plus a `kf_run` host function marked
KFORECAST, inserted before the source's PYBIND11_MODULE and bound there by one added `m.def`
line (KFORECAST): it runs one of the source's own launchers the way its benchmarks.py calls it
(output allocated as there). A program with host code is the source file with its own header
inlined where it is included (07_pipelining), less main(), plus an `extern "C" kf_run` (KFORECAST)
holding main()'s launch lines for that step on the adapter's device buffers. Where one source
file holds several steps, every version carries the whole file and differs in what kf_run
runs (as set 41's SpMV family). Steps are the authors' own (function names, the README's
kernel lists, the source's comments), never chosen by speed. Adapters (`adapters/bench_p44_*.py`)
are ours. The builder replaces the whole set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402
from cpp_cut import cut_function  # noqa: E402

TEXT = setkit.SetText("Evaluation set public44", "scripts/evalsets/public44/pub44.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public44"
JS = "junstar92/cuda-kernel-study"
EN = "Enjia/CUDA-Kernel-Cases-of-Optimization-Techniques-for-GPU-Programming"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {
    "p44-js-reduce/reduction_unroll.cu":
        "wrong, the sum off the float64 reference by 1.4e4 of 1.65e7 (rel 8.6e-4): its tree loop stops at "
        "64 values with no barrier after the last step, and the unrolled last warp reads vmem[tid + 32], "
        "which the second warp writes in that step, with no __syncthreads/__syncwarp between them (a race "
        "under independent thread scheduling)",
    "p44-js-reduce/reduction_cg.cu":
        "wrong, the sum off by about 800 of 1.64e7 (rel 5.3e-5): the same missing barrier, warp 0 reads "
        "partial_sum[lane + 32] that warp 1 writes in the loop's last step; reduction_cg_unroll_2 has the "
        "same race and passed both checks",
}
MEASURED_DAY = "2026-11-27"
PYBIND = "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {"


def family(out, fam, files, repo, adapter, style, notes):
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style=style, notes=notes)
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


def torch_ext_version(src, kf_run):
    """The extension source with our kf_run before its PYBIND11_MODULE, bound there."""
    if src.count(PYBIND) != 1:
        raise SystemExit("pub44.py: the extension has no single PYBIND11_MODULE block")
    i = src.index(PYBIND)
    return (src[:i] + kf_run.rstrip() + "\n\n" + PYBIND
            + "\n  m.def(\"kf_run\", &kf_run);  // KFORECAST: binds our entry point above"
            + src[i + len(PYBIND):])


# ---------------------------------------------------------------- junstar92 reduction
JS_REDUCE = [  # (binding, VER, what the source's comment says)
    ("reduction_atomic", 0, "one global atomicAdd an element into the single output"),
    ("reduction_atomic_shm", 1, "a block's partial sum by shared-memory atomics, one global atomic a block"),
    ("reduction_shm", 2, "a shared-memory tree reduction a block, halving the active range"),
    ("reduction_shuffle", 3, "the shared-memory tree down to 32 partial sums, then __shfl_sync steps"),
    ("reduction_unroll", 4, "the last 6 tree steps unrolled on volatile shared memory"),
    ("reduction_cg", 5, "the last 64 values by cooperative groups: tiled_partition<32> and cg::reduce"),
    ("reduction_cg_unroll_2", 6, "reduction_cg with two input elements a thread (half the blocks)"),
    ("reduction_cub", 7, "CUB BlockReduce<T, 256> a block, one atomic a block"),
]


def js_reduce(mirror, out):
    repo = setkit.Repo(mirror, JS)
    path = "06_reduction/reduction.cu"
    src = repo.show(path)
    fam = "p44-js-reduce"
    files = []
    for name, ver, what in JS_REDUCE:
        if f"&launch_reduce<{ver}>);" not in src or f'm.def("{name}"' not in src:
            raise SystemExit(f"pub44.py: {path} no longer binds {name} to launch_reduce<{ver}>")
        kf = ("// KFORECAST entry point (ours): the source's `" + name + "` binding (launch_reduce<"
              + str(ver) + ">) as\n// benchmarks.py calls it, on a zero scalar `out` of the input's dtype "
              "(out = torch.tensor(0, dtype=dtype)).\n"
              "torch::Tensor kf_run(torch::Tensor const& in) {\n"
              "  auto out = torch::zeros(std::vector<int64_t>{}, in.options());\n"
              f"  launch_reduce<{ver}>(out, in);\n"
              "  return out;\n}\n")
        rel = f"{fam}/{name}.cu"
        setkit.write(os.path.join(out, rel),
                     TEXT.header(repo, [path], f"{name} (launch_reduce<{ver}>): {what}.")
                     + torch_ext_version(src, kf))
        files.append(rel)
    return family(out, fam, files, repo, "bench_p44_js_reduce.py", "torch-ext",
                  "sum of a 1-D int32 tensor of 2^25 elements drawn from [-100, 100) (benchmarks.py's "
                  "largest N and its integer inputs; test.py checks in int32), into a zero scalar by "
                  "atomics. One torch extension (built with cpp_extension.load, -O3, as reduction.py "
                  "does) holding the eight kernels the README and benchmarks.py list, each version the "
                  "whole file with kf_run calling one binding, in the source's order: "
                  + "; ".join(f"{n} ({w})" for n, _v, w in JS_REDUCE)
                  + ". test.py comments out its check of reduction_shuffle.")


# ---------------------------------------------------------------- junstar92 transpose
JS_TRANSPOSE = [  # (version name, the call benchmarks.py makes, what)
    ("transpose_row", "launch_transpose_row(dst, src);", "row-read, column-write (coalesced reads)"),
    ("transpose_col", "launch_transpose_col(dst, src);", "column-read, row-write (coalesced writes)"),
    ("transpose_col_unroll_4", "launch_transpose_col_unroll_4(dst, src);",
     "column-read, four elements a thread, unrolled"),
    ("transpose_col_unroll_n", "launch_transpose_col_unroll_n(dst, src);",
     "column-read, four loads a thread and one float4 store"),
    ("transpose_shm_v0", "launch_transpose_shm(dst, src, 0);", "16 x 16 shared-memory tile (ver 0)"),
    ("transpose_shm_v1", "launch_transpose_shm(dst, src, 1);",
     "16 x 16 shared-memory tile, transposed smem indexing (ver 1)"),
    ("transpose_shm_v1_unroll_2", "launch_transpose_shm(dst, src, 5);",
     "32 x 16 tile, two columns a thread (ver 5, 'unroll 2')"),
]


def js_transpose(mirror, out):
    repo = setkit.Repo(mirror, JS)
    path = "02_transpose/transpose.cu"
    src = repo.show(path)
    fam = "p44-js-transpose"
    files = []
    for name, call, what in JS_TRANSPOSE:
        fn = call.split("(")[0]
        if f"void {fn}(" not in src:
            raise SystemExit(f"pub44.py: {path} has no {fn}")
        kf = ("// KFORECAST entry point (ours): benchmarks.py's `" + name + "` provider, on an output\n"
              "// allocated as there (out = torch.empty_like(x)).\n"
              "torch::Tensor kf_run(torch::Tensor const& src) {\n"
              "  auto dst = torch::empty_like(src);\n"
              f"  {call}\n"
              "  return dst;\n}\n")
        rel = f"{fam}/{name}.cu"
        setkit.write(os.path.join(out, rel),
                     TEXT.header(repo, [path], f"{name}: {what}.") + torch_ext_version(src, kf))
        files.append(rel)
    return family(out, fam, files, repo, "bench_p44_js_transpose.py", "torch-ext",
                  "transpose of a square float32 8192 x 8192 matrix (benchmarks.py's sizes run 2^9-2^15; "
                  "float32 randn). One torch extension holding every step, each version the whole file "
                  "with kf_run calling the launcher of one benchmarks.py provider; the steps the README's "
                  "experimental setup lists, in its order (the copy upper bound and the three other "
                  "tile/padding variants benchmarks.py also runs are left out): "
                  + "; ".join(f"{n} ({w})" for n, _c, w in JS_TRANSPOSE) + ".")


# ---------------------------------------------------------------- junstar92 pipelining (host code)
JS_PIPE = [("baseline_no_pipeline", "launch_baseline", "tiled SGEMM, load and compute serialized"),
           ("ping_pong", "launch_ping_pong", "ping-pong double buffering of the shared tiles"),
           ("cp_async", "launch_cp_async", "cp.async multi-stage pipeline, STAGES = 2 (the Makefile's default)")]
JS_COMMON = "07_pipelining/common.cuh"


def js_pipeline(mirror, out):
    repo = setkit.Repo(mirror, JS)
    common = repo.show(JS_COMMON)
    for s in ("constexpr int M = 2048;", "constexpr int N = 2048;", "constexpr int K = 2048;"):
        if s not in common:
            raise SystemExit(f"pub44.py: {JS_COMMON} no longer says `{s}` (the adapter's sizes)")
    fam = "p44-js-pipeline"
    inc = '#include "common.cuh"'
    files = []
    for stem, launcher, what in JS_PIPE:
        path = f"07_pipelining/{stem}.cu"
        src = repo.show(path)
        if src.count(inc) != 1 or f"void {launcher}(" not in src:
            raise SystemExit(f"pub44.py: {path}: no single common.cuh include or no {launcher}")
        i = src.index(inc)
        src = (src[:i] + f"// KFORECAST: {inc} -- the source's {JS_COMMON}, inlined below\n"
               + common.rstrip() + f"\n// KFORECAST: end of {JS_COMMON}" + src[i + len(inc):])
        main_fn = cut_function(src, "main", with_comment=False).strip("\n")
        j = src.index(main_fn)
        text = (src[:j] + "// KFORECAST: the source's main() (allocation, CPU reference, benchmark_kernel "
                "timing and check) left out here\n" + src[j + len(main_fn):].rstrip() + "\n\n"
                "// KFORECAST entry point (ours): the launch main() hands to benchmark_kernel, on the\n"
                "// adapter's device buffers (A: M x K, B: K x N, C: M x N float32, row-major).\n"
                "extern \"C\" void kf_run(const float* d_A, const float* d_B, float* d_C) {\n"
                f"  {launcher}(d_A, d_B, d_C);\n}}\n")
        rel = f"{fam}/{stem}.cu"
        setkit.write(os.path.join(out, rel),
                     TEXT.header(repo, [path, JS_COMMON], f"{stem}: {what}.") + text.rstrip() + "\n")
        files.append(rel)
    return family(out, fam, files, repo, "bench_p44_js_pipeline.py", "host-code",
                  "float32 C = A @ B, M = N = K = 2048 (compile-time constants of common.cuh), A and B "
                  "uniform in [-1, 1) as init_matrix draws them; block tile 128 x 128 x 8, 16 x 16 threads "
                  "of 8 x 8 outputs. The README's three cases, one program each (built -O3 -std=c++17 "
                  "--expt-relaxed-constexpr as the Makefile does, for sm_90): "
                  + "; ".join(f"{s} ({w})" for s, _l, w in JS_PIPE) + ".")


# ---------------------------------------------------------------- Enjia: two steps a program
def enjia_version(repo, path, what, sig, body):
    """The program less main(), plus kf_run holding main()'s lines for one kernel."""
    src = repo.show(path)
    main_fn = cut_function(src, "main", with_comment=False).strip("\n")
    j = src.index(main_fn)
    for line in body:
        if line.startswith("//") or "KFORECAST" in line:
            continue
        probe = line.strip().split("<<<")[0] if "<<<" in line else line.strip()
        if probe and probe not in main_fn:
            raise SystemExit(f"pub44.py: {path}: main() has no `{probe}`")
    text = (src[:j] + "// KFORECAST: the source's main() (host data, both kernels timed with cudaEvent, "
            "compared) left out here\n" + src[j + len(main_fn):].rstrip() + "\n\n"
            "// KFORECAST entry point (ours): main()'s launch lines for this step, on the adapter's\n"
            "// device buffers.\n"
            f"extern \"C\" void kf_run({sig}) {{\n" + "\n".join("  " + ln for ln in body) + "\n}\n")
    return TEXT.header(repo, [path], what) + text.rstrip() + "\n"


EN_FAMS = [
    ("p44-en-stencil", "03_register_blocking.cu", "bench_p44_en_stencil.py",
     "const float* d_in, float* d_o1, float* d_o2, int n",
     [("stencil1", "one output a thread",
       ["dim3 block(256), grid((n+block.x-1)/block.x);",
        "stencil1<<<grid,block>>>(d_in,d_o1,n);"]),
      ("stencil2", "register blocking: two outputs a thread from four loads",
       ["dim3 block(256), grid((n+block.x-1)/block.x);",
        "int n2 = (n+1)/2;",
        "dim3 grid2((n2+block.x-1)/block.x);",
        "stencil2<<<grid2,block>>>(d_in,d_o2,n);"])],
     "1-D 3-point stencil out[i] = 0.25 in[i-1] + 0.5 in[i] + 0.25 in[i+1] (zero outside) on 2^24 float32 "
     "values uniform in [-1, 1) (the program's n is 2^20; 2^24 is a realistic elementwise size). "
     "The program's two kernels: stencil1 (one output a thread); stencil2 (its comment: cache a block "
     "of the computation in registers, two outputs a thread). kf_run's arguments name both output "
     "buffers as main() does (d_o1, d_o2); the adapter passes one buffer for both."),
    ("p44-en-spmv", "14_sparse_matrix_format.cu", "bench_p44_en_spmv.py",
     "const int* d_row, const int* d_rowPtr, const int* d_col, const float* d_val, const float* d_x, "
     "float* d_y1, float* d_y2, int rows, int nnz",
     [("spmv_coo", "COO, a thread a nonzero, atomicAdd into y (zeroed first, as main() does)",
       ["CHECK(cudaMemset(d_y1,0,rows*sizeof(float)));",
        "dim3 block(256), grid1((nnz+block.x-1)/block.x), grid2((rows+block.x-1)/block.x);",
        "spmv_coo<<<grid1,block>>>(d_row,d_col,d_val,d_x,d_y1,nnz);"]),
      ("spmv_csr", "CSR, a thread a row",
       ["dim3 block(256), grid1((nnz+block.x-1)/block.x), grid2((rows+block.x-1)/block.x);",
        "spmv_csr<<<grid2,block>>>(d_rowPtr,d_col,d_val,d_x,d_y2,rows);"])],
     "float32 y = A x for a square sparse matrix of 2^22 rows with 4 nonzeros a row in the program's "
     "own pattern (column (7 r + 13 k) mod cols for k = 0..3; the program uses 1024 rows; 2^22 is a "
     "realistic size), values and x uniform in [-1, 1). The program's two kernels: spmv_coo (a thread a "
     "nonzero, atomicAdd into y, which main() zeroes first); spmv_csr (its comment: choose the sparse "
     "format that fits the access pattern; a thread a row). The adapter passes one y buffer for both."),
    ("p44-en-histogram", "25_reduce_atomic_ops.cu", "bench_p44_en_histogram.py",
     "const unsigned char* d_in, int* d_h1, int* d_h2, int n",
     [("hist_global", "a global atomicAdd an element",
       ["CHECK(cudaMemset(d_h1,0,BINS*sizeof(int)));",
        "dim3 block(256), grid((n+block.x-1)/block.x);",
        "hist_global<<<grid,block>>>(d_in,d_h1,n);"]),
      ("hist_block", "a shared-memory histogram a block, merged by one atomic a bin",
       ["CHECK(cudaMemset(d_h2,0,BINS*sizeof(int)));",
        "dim3 block(256), grid((n+block.x-1)/block.x);",
        "hist_block<<<grid,block>>>(d_in,d_h2,n);"])],
     "256-bin histogram of 2^24 uniformly random bytes (the program: 2^20 bytes i % 256), int32 counts "
     "compared exactly. The program's two kernels: hist_global (a global atomic an element); hist_block "
     "(its comment: reduce atomic contention by blocking; a private shared-memory histogram a block). "
     "The adapter passes one histogram buffer for both."),
    ("p44-en-coop", "26_inter_block_synchronization.cu", "bench_p44_en_coop.py",
     "const float* d_src, float* d2, int n",
     [("two_kernels", "step1 then step2, the grid-wide dependency by two launches",
       ["CHECK(cudaMemcpy(d2,d_src,n*sizeof(float),cudaMemcpyDeviceToDevice));  // KFORECAST: main()'s "
        "host-to-device copy of the input, from the adapter's device input",
        "dim3 block(256), grid((n+block.x-1)/block.x);",
        "step1<<<grid,block>>>(d2,n); step2<<<grid,block>>>(d2,n);"]),
      ("coop_kernel", "one cooperative-groups kernel, grid.sync() between the passes, "
                      "grid-stride loops, launched with cudaLaunchCooperativeKernel",
       ["CHECK(cudaMemcpy(d2,d_src,n*sizeof(float),cudaMemcpyDeviceToDevice));  // KFORECAST: main()'s "
        "host-to-device copy of the input, from the adapter's device input",
        "dim3 block(256), grid((n+block.x-1)/block.x);",
        "int dev; CHECK(cudaGetDevice(&dev)); cudaDeviceProp prop; CHECK(cudaGetDeviceProperties(&prop,dev));",
        "int maxBlocksPerSM=0; CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&maxBlocksPerSM, "
        "coop_kernel, block.x, 0));",
        "int maxCoopBlocks = maxBlocksPerSM * prop.multiProcessorCount;",
        "dim3 coopGrid((grid.x <= (unsigned)maxCoopBlocks) ? grid.x : maxCoopBlocks);",
        "void* args[] = { &d2, &n };",
        "cudaError_t launchErr = cudaLaunchCooperativeKernel((void*)coop_kernel, coopGrid, block, args);",
        "CHECK(launchErr);  // KFORECAST: main() falls back to the two kernels when the cooperative "
        "launch fails; left out here (a failed launch fails the version)"])],
     "x -> 2 x + 1 over 2^24 float32 values (two dependent passes over the whole array; the program: "
     "2^20 values sin(0.01 i), in place), computed into a copy of the input as main() does. The "
     "program's two paths: two_kernels (step1 and step2, the multi-kernel path); coop_kernel (its "
     "comment: coordinate inter-block dependencies by several kernels or a global sync; one "
     "cooperative kernel with cg::this_grid().sync(), as many blocks as fit at once, "
     "launched with cudaLaunchCooperativeKernel after main()'s occupancy query)."),
]


def enjia(mirror, out):
    repo = setkit.Repo(mirror, EN)
    fams = []
    for fam, path, adapter, sig, steps, notes in EN_FAMS:
        files = []
        for name, what, body in steps:
            rel = f"{fam}/{name}.cu"
            setkit.write(os.path.join(out, rel), enjia_version(repo, path, f"{name}: {what}.", sig, body))
            files.append(rel)
        fams.append(family(out, fam, files, repo, adapter, "host-code", notes))
    return fams


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public44")
    setkit.clear_set(args.out)
    fams = [js_reduce(args.mirror, args.out), js_transpose(args.mirror, args.out),
            js_pipeline(args.mirror, args.out)] + enjia(args.mirror, args.out)
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
