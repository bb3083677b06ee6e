"""Builds public evaluation set 28 ("p28-" families, split "public28", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public28/pub28.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public28

Sources (fetched with the session's `fetch` tool first), each an optimisation ladder by one
author, one self-contained CUDA file per step:
- rpelke/cuda-vscode-setup: src/sgemm/00..07 (an SGEMM ladder: simple, coalesced, tiled,
  2-D tiled, vectorized x2, warptiling, tensor cores), each launched by its block of
  src/sgemm/benchmark_sgemm.cu's start_benchmarks();
- stanleyedward/learn_cuda (PMPP lecture notes): Kogge-Stone scan steps 1, 2, 3, 5 and the
  Brent-Kung scan (11_scan_koggeStone/, 12_scan_brentKung/), the sum reduction steps
  1-4 (10_reduction/), the histogram steps 1-3 (13_histogram/) and the 3-D stencil steps
  1-2 (9_stencil/);
- abhishek2002228/Cuda-Bitonic-Sort-Kernels: the four bitonic sort programs of kernels/.

A version is one CUDA program: the source file verbatim, with the source's own headers
inlined where it includes them, less its `main()` (the bitonic programs) or its host
function where that function does not compile (the histogram files end before its closing
brace), plus an `extern "C" kf_run` entry point marked KFORECAST that runs the source's
own launch lines on device buffers. Versions are the authors' steps as their folders and
READMEs number them, never chosen by speed. Adapters (`adapters/bench_p28_*.py`) are ours.
The builder replaces the whole set folder but `measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public22"))

import setkit  # noqa: E402
from cpp_cut import cut_function, match_brace  # noqa: E402
from pub22 import statements as pub22_statements  # noqa: E402

TEXT = setkit.SetText("Evaluation set public28", "scripts/evalsets/public28/pub28.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public28"


def statements(body):
    """Top-level statements of a C++ function body (public22's splitter), each less the
    comment lines that lead it (the author's remarks above it)."""
    return [re.sub(r"\A(\s*//[^\n]*\n)*\s*", "", s).strip() for s in pub22_statements(body)]


def inline_headers(src, headers):
    """Replaces `#include "name"` lines of the source's own headers by their text (once)."""
    done = set()

    def repl(m):
        name = m.group(1)
        if name in headers:
            if name in done:
                return f"// KFORECAST: {name} (the source's header) inlined above"
            done.add(name)
            body = inline_headers_nested(headers[name], headers, done)
            return f"// KFORECAST: {name} (the source's header) inlined below\n{body.rstrip()}\n"
        return m.group(0)
    return re.sub(r'^#include\s*"([\w./]+)"[^\n]*$', repl, src, flags=re.M)


def inline_headers_nested(text, headers, done):
    def repl(m):
        name = m.group(1)
        if name in headers and name not in done:
            done.add(name)
            return (f"// KFORECAST: {name} (the source's header) inlined below\n"
                    f"{inline_headers_nested(headers[name], headers, done).rstrip()}\n")
        if name in headers:
            return f"// KFORECAST: {name} (the source's header) inlined above"
        return m.group(0)
    return re.sub(r'^#include\s*"([\w./]+)"[^\n]*$', repl, text, flags=re.M)


def indent(stmts):
    return "\n".join("  " + re.sub(r"\n\s*", "\n    ", s) for s in stmts)


# ---------------------------------------------------------------- rpelke SGEMM ladder
RP_STEPS = ["00_sgemm_simple", "01_sgemm_coalesced", "02_sgemm_tiled", "03_sgemm_tiled_2d",
            "04_sgemm_tiled_2d_vectorized_1", "05_sgemm_tiled_2d_vectorized_2",
            "06_sgemm_warptiling", "07_sgemm_tensor_cores"]


def rp_sgemm(mirror, out):
    repo = setkit.Repo(mirror, "rpelke/cuda-vscode-setup")
    headers = {"sgemm/sgemm.cuh": repo.show("inc/sgemm/sgemm.cuh"),
               "sgemm/sgemm_kernel_dimensions.cuh": repo.show("inc/sgemm/sgemm_kernel_dimensions.cuh")}
    utils = repo.show("inc/utils.cuh")
    bench = repo.show("src/sgemm/benchmark_sgemm.cu")
    start = bench.index("void SGEMMBenchmark::start_benchmarks")
    body = bench[start:]
    fam = "p28-rp-sgemm"
    files = []
    for n, step in enumerate(RP_STEPS):
        a = body.index(f"// {n:02d}: ")
        nxt = body.find(f"// {n + 1:02d}: ", a)
        block = body[a:nxt if nxt >= 0 else body.rindex("}")]
        block = block[block.index("\n") + 1:]  # less the step's comment line
        keep = [s for s in statements(block) if s.startswith(("static_assert", "dim3"))]
        lam = block.index("[](")
        lam_end = match_brace(block, block.index("{", lam))
        lambda_text = block[lam:lam_end]
        if "<<<gridDim, blockDim>>>" not in lambda_text or not any(s.startswith("dim3 gridDim") for s in keep):
            raise SystemExit(f"pub28.py: no launch found for step {n:02d}")
        grid = re.search(r"dim3 (gridDim_\w+)", " ".join(keep)).group(1)
        blk = re.search(r"dim3 (blockDim_\w+)", " ".join(keep)).group(1)
        path = f"src/sgemm/{step}.cu"
        src = inline_headers(repo.show(path), headers)
        entry = ("\n// KFORECAST entry point (ours): the source's block for step %02d in\n"
                 "// SGEMMBenchmark::start_benchmarks() (benchmark_sgemm.cu): its checks, grid and\n"
                 "// block lines and its launcher lambda, called as benchmark_kernel() calls it, on\n"
                 "// device buffers (kf_run's M, K, N are start_benchmarks()'s); CEIL_DIV comes\n"
                 "// from the source's inc/utils.cuh, inlined here (benchmark_sgemm.cu includes it).\n" % n
                 + utils.rstrip() + "\n"
                 "extern \"C\" void kf_run(int M, int K, int N, float alpha, const float *A,\n"
                 "                       const float *B, float beta, float *C) {\n"
                 + indent(keep) + "\n"
                 "  auto launcher =  // KFORECAST: the lambda start_benchmarks() passes\n"
                 f"    {lambda_text};\n"
                 "  // KFORECAST: as benchmark_kernel() calls its launcher\n"
                 f"  launcher(M, N, K, alpha, A, B, beta, C, {grid}, {blk});\n}}\n")
        rel = f"{fam}/{step}.cu"
        setkit.write(os.path.join(out, rel), TEXT.header(
            repo, [path, "inc/sgemm/sgemm.cuh", "inc/sgemm/sgemm_kernel_dimensions.cuh", "inc/utils.cuh",
                   "src/sgemm/benchmark_sgemm.cu (the launch lines)"],
            f"Step {n:02d} of the SGEMM ladder.") + src.rstrip() + "\n" + entry)
        files.append(rel)
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter("bench_p28_sgemm.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes="C = alpha * A @ B + beta * C, float32, M = N = K = 2048 (square: the "
                      "source's main() uses 1027 x 1025 x 1023, alpha 2, beta 3; alpha and beta "
                      "kept), C refreshed from the input before every call (the kernels update it "
                      "in place). Steps 00-07 as the source numbers them: simple (one thread an "
                      "element, row index on threadIdx.x), coalesced, shared-memory tiles, 2-D "
                      "register tiles (64x32x16, 4x2 a thread), vectorized shared loads (float2) x2, "
                      "warptiling, wmma tensor cores with fp16 operands (tolerance rtol 2e-2, "
                      "atol 0.5 for the fp16 step). Each kf_run holds the step's static_asserts, "
                      "grid/block lines and launch from benchmark_sgemm.cu")


# ---------------------------------------------------------------- stanleyedward (PMPP notes)
def sl_write(repo, out, fam, items, adapter, notes):
    """items: (rel name, source path, program text, what)."""
    files = []
    for name, path, text, what in items:
        rel = f"{fam}/{name}"
        setkit.write(os.path.join(out, rel), TEXT.header(repo, [path], what) + text)
        files.append(rel)
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code", notes=notes)


def sl_scan(mirror, out):
    repo = setkit.Repo(mirror, "stanleyedward/learn_cuda")
    fam = "p28-sl-scan"
    steps = [("ks1_segmentedScan.cu", "11_scan_koggeStone/1_segmentedScan.cu", "Kogge-Stone step 1 (in global memory)"),
             ("ks2_sharedScan.cu", "11_scan_koggeStone/2_sharedScan.cu", "Kogge-Stone step 2 (shared memory)"),
             ("ks3_doubleBufferScan.cu", "11_scan_koggeStone/3_doubleBufferScan.cu", "Kogge-Stone step 3 (double buffering)"),
             ("ks5_coarsenedScan.cu", "11_scan_koggeStone/5_coarsenedScan.cu", "Kogge-Stone step 5 (thread coarsening)"),
             ("bk1_scan.cu", "12_scan_brentKung/1_scan.cu", "the Brent-Kung scan")]
    items = []
    for name, path, what in steps:
        src = repo.show(path)
        if "void scan_gpu_d(float *input_d, float *output_d, unsigned int N)" not in src:
            raise SystemExit(f"pub28.py: no scan_gpu_d in {path}")
        entry = ("\n\n// KFORECAST entry point (ours): the source's own host function, on device buffers.\n"
                 "extern \"C\" void kf_run(float *input_d, float *output_d, unsigned int N) {\n"
                 "  scan_gpu_d(input_d, output_d, N);\n}\n")
        items.append((name, path, src.rstrip() + entry, f"Inclusive scan: {what}."))
    return sl_write(repo, out, fam, items, "bench_p28_scan.py",
                    "inclusive prefix sum of 2^26 floats uniform in [0, 1), through each file's "
                    "own recursive host function scan_gpu_d (block scan, scan of the block sums, "
                    "add; cudaMalloc/cudaFree of the block sums and cudaDeviceSynchronize on "
                    "every level, as the source does). Kogge-Stone steps 1 (global memory), 2 "
                    "(shared memory), 3 (double buffering), 5 (coarsening by 8) and the "
                    "Brent-Kung scan; step 4 (an exclusive scan, another function) left out. "
                    "The source's kernels have no bounds checks: at 2^26 the last level of "
                    "the recursion scans 64 (Kogge-Stone 1-3) or 16 (Brent-Kung) block sums "
                    "with a whole block, reading and writing past those small buffers (only "
                    "the coarsened step's 8192-element blocks divide 2^26 exactly)")


def sl_reduce(mirror, out):
    repo = setkit.Repo(mirror, "stanleyedward/learn_cuda")
    fam = "p28-sl-reduce"
    steps = [("1_reduction.cu", "step 1"), ("2_reduction_coalesced.cu", "step 2 (coalesced)"),
             ("3_reduction_shared.cu", "step 3 (shared memory)"),
             ("4_reduction_coarsened.cu", "step 4 (coarsened)")]
    items = []
    for name, what in steps:
        path = f"10_reduction/{name}"
        src = repo.show(path)
        host = cut_function(src, "reduce_gpu", with_comment=False)
        body = host[host.index("{") + 1: host.rindex("}")]
        keep = [s for s in statements(body) if s.startswith("const unsigned int") or "<<<" in s]
        if not any("<<<" in s for s in keep):
            raise SystemExit(f"pub28.py: no launch in {path}")
        entry = ("\n\n// KFORECAST entry point (ours): the constants and launch line of the source's\n"
                 "// reduce_gpu() on device buffers (it copies from the host and adds the partial\n"
                 "// sums on the CPU); returns numBlocks, the number of partial sums written.\n"
                 "extern \"C\" unsigned int kf_run(float *input_d, float *partialSums_d, unsigned int N) {\n"
                 + indent(keep) + "\n  return numBlocks;\n}\n")
        items.append((name, path, src.rstrip() + entry, f"Sum reduction {what}."))
    return sl_write(repo, out, fam, items, "bench_p28_reduce.py",
                    "sum of 2^26 floats uniform in [0, 1): each kernel writes one partial sum a "
                    "block (1024 threads, 2048 or 8192 elements a block), the adapter adds them "
                    "in float64 (the source's host adds them on the CPU). Steps 1 (interleaved, "
                    "in place), 2 (coalesced, in place), 3 (shared memory), 4 (coarsened by 4). "
                    "Failing (the author's kernels): steps 3 and 4 add `input[threadIdx.x + "
                    "stride]` (the global array) instead of the shared array and store "
                    "`input_s[i]` with the global index i; on the H100 both stop with an illegal "
                    "memory access (2026-11-27)")


def sl_histogram(mirror, out):
    repo = setkit.Repo(mirror, "stanleyedward/learn_cuda")
    fam = "p28-sl-histogram"
    common = repo.show("13_histogram/common.h")
    items = []
    for name, what in (("1_histogram.cu", "step 1 (global atomics)"),
                       ("2_histogramPrivatized.cu", "step 2 (privatized in shared memory)"),
                       ("3_histogramCoarsened.cu", "step 3 (coarsened by 4)")):
        path = f"13_histogram/{name}"
        src = repo.show(path)
        at = src.index("\nvoid histogram_gpu(unsigned char *image")
        host = src[at:]
        keep = [s for s in statements(host[host.index("{") + 1:])
                if s.startswith("cudaMemset(bins_d") or s.startswith("unsigned int num") or "<<<" in s]
        keep = [re.sub(r"\s*//[^\n]*$", "", s) for s in keep]
        if not any("<<<" in s for s in keep):
            raise SystemExit(f"pub28.py: no launch in {path}")
        text = inline_headers(src[:at], {"common.h": common})
        entry = ("\n\n// KFORECAST: the source's host function histogram_gpu() is cut here: the file ends\n"
                 "// before its closing brace, so it does not compile as published. Its bins reset,\n"
                 "// grid lines and launch, on device buffers, are kf_run below (ours).\n"
                 "extern \"C\" void kf_run(unsigned char *image_d, unsigned int *bins_d, unsigned int width,\n"
                 "                       unsigned int height) {\n" + indent(keep) + "\n}\n")
        items.append((name, path, text.rstrip() + entry, f"Histogram {what}."))
    return sl_write(repo, out, fam, items, "bench_p28_histogram.py",
                    "256-bin histogram of an 8192 x 8192 image of random bytes (2^26 pixels), "
                    "unsigned int bins reset by the source's cudaMemset line. Steps 1 (global "
                    "atomics), 2 (privatized bins in shared memory), 3 (+ coarsening by 4). "
                    "Failing (the author's kernel): step 3 reads `image[i]` with its loop "
                    "counter i (0-3) instead of the pixel index; on the H100 all 256 bins differ "
                    "from the float64 reference (2026-11-27). "
                    "The files end before histogram_gpu()'s closing brace: that host function "
                    "is cut and its launch lines kept in kf_run (KFORECAST)")


def sl_stencil(mirror, out):
    repo = setkit.Repo(mirror, "stanleyedward/learn_cuda")
    fam = "p28-sl-stencil"
    items = []
    for name, what in (("1_stencil.cu", "step 1 (global memory)"),
                       ("2_stencil_tiling.cu", "step 2 (shared-memory input tiles)")):
        path = f"9_stencil/{name}"
        src = repo.show(path)
        host = cut_function(src, "stencil_gpu", with_comment=False)
        body = host[host.index("{") + 1: host.rindex("}")]
        keep = [s for s in statements(body) if s.startswith("dim3") or "<<<" in s]
        entry = ("\n\n// KFORECAST entry point (ours): the grid lines and launch of the source's\n"
                 "// stencil_gpu() on device buffers (it copies the grid from and to the host).\n"
                 "extern \"C\" void kf_run(float *in_d, float *out_d, unsigned int N) {\n"
                 + indent(keep) + "\n}\n")
        items.append((name, path, src.rstrip() + entry, f"3-D seven-point stencil {what}."))
    return sl_write(repo, out, fam, items, "bench_p28_stencil.py",
                    "seven-point 3-D stencil (c0 = 2, c1 = 3) on a 384^3 float grid (56.6 M "
                    "points), interior points only (the kernels write no boundary point; the "
                    "adapter compares the interior). Step 1 one thread a point (8^3 blocks), "
                    "step 2 shared-memory input tiles (8^3 threads, 6^3 outputs). Step 3 is "
                    "byte-identical to step 2 at the source's HEAD and step 4's file is empty: "
                    "both left out")


# ---------------------------------------------------------------- bitonic sort
def ab_bitonic(mirror, out):
    repo = setkit.Repo(mirror, "abhishek2002228/Cuda-Bitonic-Sort-Kernels")
    fam = "p28-ab-bitonic"
    files = []
    for stem in ("bitonic_naive", "bitonic_noidlethreads", "bitonic_shared_mem", "bitonic_shared_mem_warp"):
        path = f"kernels/{stem}.cu"
        src = repo.show(path)
        main_fn = cut_function(src, "main", with_comment=False).rstrip("\n")
        if main_fn not in src:
            raise SystemExit(f"pub28.py: main() of {path} not found verbatim")
        call = re.search(r"^[ \t]*else\s*\n\s*(bitonic_sort\w*\(d_arr, size[^;]*\);)", main_fn, re.M)
        if call is None:
            raise SystemExit(f"pub28.py: no sort call in main() of {path}")
        text = src.replace(main_fn, "// KFORECAST: the source's main() is cut here (see kf_run below).")
        entry = ("\n\n// KFORECAST entry point (ours): main()'s sort call for a power-of-two size, on the\n"
                 "// device array (main() fills it from the host and checks it against std::sort).\n"
                 "extern \"C\" void kf_run(int *d_arr, int size) {\n"
                 f"  {call.group(1)}\n}}\n")
        rel = f"{fam}/{stem}.cu"
        setkit.write(os.path.join(out, rel), TEXT.header(repo, [path], f"{stem}: one step of the "
                     "bitonic sort ladder.") + text.rstrip() + entry)
        files.append(rel)
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter("bench_p28_bitonic.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes="ascending sort of 2^24 ints in [0, 1000) (main()'s `rand() % 1000`; the "
                      "size is main()'s argument), in place, the input copied into the work "
                      "array before every call: naive (one compare-exchange a thread, a launch "
                      "and cudaDeviceSynchronize per step), no idle threads (4 pairs a thread), "
                      "shared memory for block-sized stages, + warp shuffles. Failing (the "
                      "author's code): bitonic_shared_mem_warp does not compile (nvcc 13: "
                      "identifier \"d\" is undefined; its bitonic_sort_shared uses `d` a line "
                      "before declaring it)")


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public28")
    setkit.clear_set(args.out)
    fams = [rp_sgemm(args.mirror, args.out), sl_scan(args.mirror, args.out),
            sl_reduce(args.mirror, args.out), sl_histogram(args.mirror, args.out),
            sl_stencil(args.mirror, args.out), ab_bitonic(args.mirror, args.out)]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
