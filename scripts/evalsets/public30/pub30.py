"""Builds public evaluation set 30 ("p30-" families, split "public30", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public30/pub30.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public30

Sources (fetched with the session's `fetch` tool first), each an optimisation ladder by one
author:
- timo-eberl/pmpp-prefix-sum: src/algorithms.cu, one file holding the author's PMPP-style
  inclusive scans (segmented Kogge-Stone, segmented Brent-Kung, segmented coarsened,
  single-pass with domino carry propagation, Thrust), each a host function with the same
  signature, listed in main.cu's table of algorithms with its workspace function and
  size limit;
- debnath2109/Cuda-Optimization-Studies: reduction/01..06 (a sum-reduction study: global
  atomics, shared-memory tree, grid-stride + warp shuffle, float4 loads, thrust::reduce,
  cub::DeviceReduce::Sum), one self-contained program a step;
- CranberryYan/CUDA-Optimization: Reduce/ (the classic reduction ladder: baseline, v1
  interleaved addressing, v2 bank conflicts, v3 idle threads, v4 last-warp unrolling, v5
  complete unrolling, v6.0 grid size, v7 warp shuffles) and Elementwise/ (ReLU baseline, v1
  float4, v2 float4 through shared memory, v3 shared memory), one program a step.

A version is one CUDA program: the source file verbatim (scan.h inlined into algorithms.cu),
less its `main()` where it has one, plus an `extern "C"` entry point marked KFORECAST that
runs the source's own launch lines (or main.cu's table row and run_test()'s workspace reset,
for the scans) on device buffers. Versions are the authors' steps as their file names,
READMEs and tables number them, never chosen by speed. Adapters (`adapters/bench_p30_*.py`)
are ours. The builder replaces the whole set folder but `measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public22"))

import setkit  # noqa: E402
from cpp_cut import cut_function  # noqa: E402
from pub22 import statements as pub22_statements  # noqa: E402

TEXT = setkit.SetText("Evaluation set public30", "scripts/evalsets/public30/pub30.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public30"


def statements(body):
    """Top-level statements of a C++ function body, each less the comment lines that lead it
    and less a trailing same-line comment."""
    out = []
    for s in pub22_statements(body):
        s = re.sub(r"\A(\s*//[^\n]*\n)*\s*", "", s).strip()
        out.append(s)
    return out


def indent(stmts):
    return "\n".join("  " + re.sub(r"\n\s*", "\n    ", s) for s in stmts)


def cut_main(src, path):
    main_fn = cut_function(src, "main", with_comment=False).rstrip("\n")
    if main_fn not in src:
        raise SystemExit(f"pub30.py: main() of {path} not found verbatim")
    body = main_fn[main_fn.index("{") + 1: main_fn.rindex("}")]
    text = src.replace(main_fn, "// KFORECAST: the source's main() is cut here (see the entry point below).")
    return text, body


def write_family(repo, out, fam, items, adapter, notes):
    """items: (rel name, source paths, program text, what)."""
    files = []
    for name, paths, text, what in items:
        rel = f"{fam}/{name}"
        setkit.write(os.path.join(out, rel), TEXT.header(repo, paths, what) + text)
        files.append(rel)
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code", notes=notes)


# ---------------------------------------------------------------- timo-eberl scans
TE_ALGOS = {  # main.cu's table names -> file stem
    "GPU Segm. Kogge-Stone": "segm_kogge_stone",
    "GPU Segm. Brent-Kung": "segm_brent_kung",
    "GPU Segm. Coarse": "segm_coarse",
    "GPU Segm. Single-pass": "segm_single_pass",
    "GPU Thrust library": "thrust",
}


def te_programs(repo):
    """{table name: program text} for every multi-block GPU algorithm of main.cu's table."""
    alg = repo.show("src/algorithms.cu")
    header = repo.show("src/scan.h")
    main = repo.show("src/main.cu")
    inc = '#include "scan.h"'
    if inc not in alg:
        raise SystemExit("pub30.py: algorithms.cu does not include scan.h")
    alg = alg.replace(inc, "// KFORECAST: scan.h (the source's header) inlined below\n" + header.rstrip() + "\n", 1)
    # run_test()'s workspace reset before every timed call, as main.cu writes it
    for line in ("size_t workspace_bytes = algo.calc_workspace(n);",
                 "if (workspace) cudaMemset(workspace, 0, workspace_bytes);",
                 "algo.func(d_in, n, d_out, workspace);"):
        if line not in main:
            raise SystemExit(f"pub30.py: main.cu lacks {line!r}")
    progs = {}
    for name in TE_ALGOS:
        row = re.search(r"^\s*(\{\"" + re.escape(name) + r"\"[^}]*\}),", main, re.M)
        if row is None:
            raise SystemExit(f"pub30.py: no table row for {name} in main.cu")
        entry = ("\n\n// KFORECAST entry point (ours): main.cu's table row for this algorithm and the\n"
                 "// lines of its run_test() that reset the workspace and run it on device buffers\n"
                 "// (run_test allocates the workspace with cudaMalloc; here the adapter passes one,\n"
                 "// used only where the algorithm's workspace function asks for bytes).\n"
                 "extern \"C\" void kf_run(const int* d_in, int n, int* d_out, void* kf_workspace) {\n"
                 f"  ScanAlgorithm algo = {row.group(1)};\n"
                 "  size_t workspace_bytes = algo.calc_workspace(n);\n"
                 "  void* workspace = workspace_bytes > 0 ? kf_workspace : NULL;\n"
                 "  if (workspace) cudaMemset(workspace, 0, workspace_bytes);\n"
                 "  algo.func(d_in, n, d_out, workspace);\n}\n")
        progs[name] = ("// KFORECAST: <cassert> for the source's assert() (it relies on other headers)\n"
                       "#include <cassert>\n" + alg.rstrip() + entry)
    return progs


def te_scan(mirror, out, fam, names, n, adapter, size_note):
    repo = setkit.Repo(mirror, "timo-eberl/pmpp-prefix-sum")
    progs = te_programs(repo)
    items = []
    for name in names:
        stem = TE_ALGOS[name]
        items.append((f"{stem}.cu", ["src/algorithms.cu", "src/scan.h", "src/main.cu (the table row, run_test's lines)"],
                      progs[name], f"Inclusive scan, main.cu's algorithm \"{name}\", n = {n}."))
    res = write_family(repo, out, fam, items, adapter,
                        f"inclusive prefix sum of {n} ints uniform in [0, 2] (main.cu's "
                        f"`rand() % (max_input_value+1)` with max_input_value 2), through each algorithm's "
                        f"host function from src/algorithms.cu ({size_note}). The workspace is "
                        "zeroed before every call, as run_test() does. Built with the README's "
                        "OpenMP flag (the file also holds the CPU algorithms): -Xcompiler -fopenmp, "
                        "libgomp linked")
    bench = os.path.join(out, fam, "bench.py")
    with open(bench, encoding="utf-8") as f:
        text = f.read()
    line = "N = 1048576  # set by pub30.py: the family's size\n"
    if line not in text:
        raise SystemExit("pub30.py: the scan adapter's size line is missing")
    setkit.write(bench, text.replace(line, f"N = {n}  # set by pub30.py: the family's size\n"))
    return res


def te_scan_1m(mirror, out):
    return te_scan(mirror, out, "p30-te-scan-1m", list(TE_ALGOS), 1048576, "bench_p30_scan.py",
                   "n = 2^20, main.cu's run_test_suite(1048576, 2), the largest of its sizes at "
                   "which all five multi-block GPU algorithms run: segmented Kogge-Stone (double "
                   "buffered, max_n 2^20), segmented Brent-Kung, segmented coarsened (12 elements a "
                   "thread), single-pass with a dynamic block index and a flag chain, Thrust")


def te_scan_151m(mirror, out):
    return te_scan(mirror, out, "p30-te-scan-151m",
                   ["GPU Segm. Coarse", "GPU Segm. Single-pass", "GPU Thrust library"], 150994944,
                   "bench_p30_scan.py",
                   "n = 150994944, main.cu's run_test_suite(150994944, 2), the largest size at "
                   "which segmented coarsened runs (its max_n); Kogge-Stone and Brent-Kung stop "
                   "at 2^20 and 2^22")


# ---------------------------------------------------------------- debnath2109 reduction study
DB_STEPS = [("01_naive_atomic", "reduceNaive", "stage 1: one global atomicAdd a thread (into a double)"),
            ("02_shared_tree", "reduceShared", "stage 2: shared-memory tree, one atomicAdd a block"),
            ("03_gridstride_shuffle", "reduceOptimized", "stage 3: grid-stride loop + warp shuffle, 256 blocks"),
            ("04_float4_vectorized", "float4Optimized", "stage 4: float4 loads, 120 blocks"),
            ("05_thrust_reduce", None, "thrust::reduce"),
            ("06_cub_reduction", None, "cub::DeviceReduce::Sum")]


def db_reduce(mirror, out):
    repo = setkit.Repo(mirror, "debnath2109/Cuda-Optimization-Studies")
    fam = "p30-db-reduce"
    items = []
    for stem, kernel, what in DB_STEPS:
        path = f"reduction/{stem}.cu"
        src = repo.show(path)
        text, body = cut_main(src, path)
        st = statements(body)
        if kernel is not None:
            m = re.search(r"\b(float|double)\s*\*d_out;", body)
            if m is None:
                raise SystemExit(f"pub30.py: no d_out declaration in {path}")
            outt = m.group(1)
            keep = [s for s in st if s.startswith(("int threadsPerBlock", "int blocks"))]
            memset = next(s for s in st if s.startswith("cudaMemset(d_out, 0"))
            launch = next(s for s in st if s.startswith(kernel + "<<<"))
            entry = ("\n\n// KFORECAST entry point (ours): main()'s launch lines on device buffers (main()\n"
                     "// copies the input from the host and runs the kernel once before the timed call):\n"
                     "// its block counts, the reset of the result and the launch.\n"
                     f"extern \"C\" int kf_out_bytes(void) {{ return sizeof({outt}); }}\n"
                     "extern \"C\" void kf_run(float* d_A, void* kf_out, int n) {\n"
                     f"  {outt} *d_out = ({outt}*)kf_out;\n"
                     + indent(keep + [memset, launch]) + "\n}\n")
        elif stem == "05_thrust_reduce":
            call = "float sum = thrust::reduce(d_data.begin(), d_data.end(), 0.0f, thrust::plus<float>());"
            if call not in src:
                raise SystemExit(f"pub30.py: no thrust::reduce call in {path}")
            entry = ("\n\n// KFORECAST entry point (ours): main()'s thrust::reduce call on the device input\n"
                     "// (main() builds a device_vector of ones; here its iterators are device_ptrs over\n"
                     "// the input), its sum stored to the device result.\n"
                     "extern \"C\" int kf_out_bytes(void) { return sizeof(float); }\n"
                     "extern \"C\" void kf_run(float* kf_in, void* kf_out, int n) {\n"
                     "  thrust::device_ptr<float> kf_begin(kf_in), kf_end(kf_in + n);\n"
                     "  float sum = thrust::reduce(kf_begin, kf_end, 0.0f, thrust::plus<float>());\n"
                     "  cudaMemcpy(kf_out, &sum, sizeof(float), cudaMemcpyHostToDevice);\n}\n")
        else:
            keep = []
            for s in st:
                if s.startswith(("void* d_temp", "size_t temp_bytes", "cub::DeviceReduce::Sum", "cudaMalloc(&d_temp")):
                    keep.append(s)
            if len(keep) != 5:
                raise SystemExit(f"pub30.py: CUB's two-call pattern not found in {path}")
            entry = ("\n\n// KFORECAST entry point (ours): main()'s CUB two-call pattern on device buffers\n"
                     "// (scratch query, cudaMalloc, the reduction), then its cudaFree of the scratch.\n"
                     "extern \"C\" int kf_out_bytes(void) { return sizeof(float); }\n"
                     "extern \"C\" void kf_run(float* d_in, void* kf_out, int n) {\n"
                     "  float *d_out = (float*)kf_out;\n"
                     + indent(keep) + "\n  cudaFree(d_temp);\n}\n")
        items.append((f"{stem}.cu", [path], text.rstrip() + entry, f"Sum reduction, {what}."))
    return write_family(repo, out, fam, items, "bench_p30_dbreduce.py",
                        "sum of 32,000,000 floats (the source's n) uniform in [0, 1) (the source "
                        "fills ones), one result (float; a double for stage 1's atomics), reset "
                        "before every call as main() does before its timed launch. Stages 1-6 as "
                        "the files number them: global atomics (double), shared-memory tree, "
                        "grid-stride + warp shuffle (256 blocks), float4 loads (120 blocks), "
                        "thrust::reduce (main()'s call on device_ptrs instead of a device_vector), "
                        "cub::DeviceReduce::Sum (two-call pattern with cudaMalloc/cudaFree of the "
                        "scratch every call, as main() does)")


# ---------------------------------------------------------------- CranberryYan ladders
CY_REDUCE = [("reduce_baseline.cu", "baseline (v0): interleaved addressing with tid % (2*i)"),
             ("reduce_v1_interleaved_addressing.cu", "v1: interleaved addressing, no divergent modulo"),
             ("reduce_v2_bank_conflict.cu", "v2: sequential addressing (no bank conflicts)"),
             ("reduce_v3_Idel_thread.cu", "v3: first add during load (half the blocks)"),
             ("reduce_v4_unrolling_the_last_warp.cu", "v4: last warp unrolled"),
             ("reduce_v5_complete_unrolling.cu", "v5: complete unrolling (templated block size)"),
             ("reduce_v6.0_grid&block_size.cu", "v6.0: fixed grid of 1024 blocks, many elements a thread"),
             ("reduce_v7_shfl_down_sync.cu", "v7: warp shuffles, 512 blocks")]

CY_RELU = [("elementwise_relu_baseline.cu", "baseline: one element a thread"),
           ("elementwise_relu_v1.cu", "v1: float4, four elements a thread"),
           ("elementwise_relu_v2.cu", "v2: float4 through shared memory"),
           ("elementwise_relu_v3.cu", "v3: one element a thread through shared memory")]


def cy_family(mirror, out, fam, folder, steps, prefixes, signature, ret, adapter, what, notes):
    repo = setkit.Repo(mirror, "CranberryYan/CUDA-Optimization")
    items = []
    for name, step in steps:
        path = f"{folder}/{name}"
        src = repo.show(path)
        text, body = cut_main(src, path)
        keep = [s for s in statements(body) if s.startswith(prefixes) or "<<<" in s]
        if not any("<<<" in s for s in keep):
            raise SystemExit(f"pub30.py: no launch in {path}")
        entry = ("\n\n// KFORECAST entry point (ours): main()'s grid lines and launch on device buffers\n"
                 "// (main() copies the input from the host, copies the result back and checks it).\n"
                 f"extern \"C\" {signature} {{\n" + indent(keep) + (f"\n  return {ret};" if ret else "") + "\n}\n")
        rel = name.replace("&", "_")
        items.append((rel, [path], text.rstrip() + entry, f"{what}, {step}."))
    return write_family(repo, out, fam, items, adapter, notes)


def cy_reduce(mirror, out):
    return cy_family(mirror, out, "p30-cy-reduce", "Reduce", CY_REDUCE,
                     ("dim3", "int block_num", "const int"),
                     "int kf_run(float *input_device, float *output_device)", "block_num",
                     "bench_p30_cyreduce.py", "Sum reduction",
                     "sum of N = 32 * 1024 * 1024 floats (the source's #define) uniform in [0, 1) "
                     "(the source fills ones): each kernel writes one partial sum a block and "
                     "kf_run returns main()'s block_num, the number written; the adapter adds them "
                     "in float64 (main() adds them on the host). Steps as the files and CMakeLists "
                     "number them: baseline, v1-v5, v6.0, v7. Left out before measuring: v6.1 and "
                     "v6.2, the same kernel as v6.0 with main()'s block_num set to 2048 and 512 "
                     "(grid-size variants of one step)")


def cy_relu(mirror, out):
    return cy_family(mirror, out, "p30-cy-relu", "Elementwise", CY_RELU,
                     ("int32_t elem_cnt", "int blockSize", "int blockNum", "dim3"),
                     "void kf_run(float *input_d, float *output_d)", None,
                     "bench_p30_relu.py", "ReLU",
                     "ReLU of 32 * 1024 * 1024 floats (main()'s elem_cnt) drawn from a standard "
                     "normal (the source fills i - 10000). Steps as the file names number them: "
                     "baseline, v1 (float4), v2 (float4 staged in shared memory), v3 (shared "
                     "memory, one element a thread); the dotmul files are another op and left out")


CY_UPSAMPLE = [("upsamplenearest_v1.cu", "v1: one thread an output pixel, 32x32 blocks"),
               ("upsamplenearest_v2.cu", "v2: input tile staged in shared memory"),
               ("upsamplenearest_v3.cu", "v3: vectorized, four output columns a thread"),
               ("upsamplenearest_v4.cu", "v4: aligned two-wide packs, one input pixel a thread")]


def cy_upsample(mirror, out):
    return cy_family(mirror, out, "p30-cy-upsample", "UpsampleNearst", CY_UPSAMPLE,
                     ("int blockSize", "int blockNum", "dim3"),
                     "void kf_run(float *input_d, float *output_d)", None,
                     "bench_p30_upsample.py", "Nearest-neighbour 2x upsampling",
                     "nearest-neighbour 2x upsampling of a 1024 x 1024 float image (main()'s "
                     "size and SCALE 2) uniform in [0, 1) to 2048 x 2048. Steps v1-v4 as the "
                     "file names number them (the folder's own spelling, UpsampleNearst): one "
                     "thread an output pixel, shared-memory input tile, four output columns a "
                     "thread, two-wide packs with a grid-stride loop over input pixels")


# ---------------------------------------------------------------- debnath2109 matmul study
DB_MM = [("01_matmul_naive", "matmulNaive", "stage 1: one thread an output element"),
         ("02_matmul_tiled", "matmulTiled", "stage 2: 16 x 16 shared-memory tiles"),
         ("03_matmul_register_tiling", "matmulRegisterTiled", "stage 3: 64 x 64 block tiles, 4 x 4 a thread"),
         ("04_matmul_cublas", None, "cuBLAS cublasSgemm (the study's reference)")]


def db_matmul(mirror, out):
    repo = setkit.Repo(mirror, "debnath2109/Cuda-Optimization-Studies")
    fam = "p30-db-matmul"
    items = []
    for stem, kernel, what in DB_MM:
        path = f"matmul/{stem}.cu"
        src = repo.show(path)
        text, body = cut_main(src, path)
        st = statements(body)
        if kernel is not None:
            keep = [s for s in st if s.startswith("dim3")]
            launch = next(s for s in st if s.startswith(kernel + "<<<"))
            entry = ("\n\n// KFORECAST entry point (ours): main()'s grid lines and launch on device buffers\n"
                     "// (main() fills A and B with ones on the host, runs a warm-up and a timed launch).\n"
                     "extern \"C\" void kf_run(float *d_A, float *d_B, float *d_C, int N) {\n"
                     + indent(keep + [launch]) + "\n}\n")
        else:
            alpha = next(s for s in st if s.startswith("float alpha"))
            gemm = [s for s in st if s.startswith("cublasSgemm(")]
            if len(gemm) != 2:
                raise SystemExit(f"pub30.py: expected two cublasSgemm calls in {path}")
            entry = ("\n\n// KFORECAST entry point (ours): main()'s handle (created once, on the first call,\n"
                     "// as main() creates it once), its alpha/beta line and its timed cublasSgemm call,\n"
                     "// on device buffers.\n"
                     "extern \"C\" void kf_run(float *d_A, float *d_B, float *d_C, int N) {\n"
                     "  static cublasHandle_t handle;  // KFORECAST: kept across calls\n"
                     "  static bool kf_made = false;\n"
                     "  if (!kf_made) { cublasCreate(&handle); kf_made = true; }\n"
                     + indent([alpha, gemm[1]]) + "\n}\n")
        items.append((f"{stem}.cu", [path], text.rstrip() + entry, f"Square SGEMM C = A B, {what}."))
    return write_family(repo, out, fam, items, "bench_p30_matmul.py",
                        "C = A @ B, float32, N = 4096 (the source's size), A and B from a standard "
                        "normal (the source fills ones). Stages 1-3 and the cuBLAS reference as "
                        "the files number them; the cuBLAS step computes row-major C through the "
                        "transpose trick (B first), linked with -lcublas. The README's 8 x 8 "
                        "register-tile variant is a commented #define in stage 3, left as the "
                        "file has it (4 x 4)")


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public30")
    setkit.clear_set(args.out)
    fams = [te_scan_1m(args.mirror, args.out), te_scan_151m(args.mirror, args.out),
            db_reduce(args.mirror, args.out), cy_reduce(args.mirror, args.out),
            cy_relu(args.mirror, args.out), cy_upsample(args.mirror, args.out),
            db_matmul(args.mirror, args.out)]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
