"""Builds public evaluation set 40 ("p40-" families, split "public40", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public40/pub40.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public40

Sources (fetched with the session's `fetch` tool first), all CUDA programs with host code:
- arisdask/BitonicSortCUDA: src/bitonic_sort_v0..v2.cu with inc/*.cuh, inc/utils.hpp (a
  course's bitonic sort ladder, V0 one launch a step, V1 steps within a block fused into one
  kernel, V2 those steps in shared memory; host functions that allocate, copy, time with
  cudaEvent under #ifdef TIME_MEASURE, and free);
- NontasBak/CUDA-bitonic-sort: src/bitonic_sort_v0..v2.cu (another author's V0-V2 of the same
  course, one file each with a `bitonicSort(d_arr, n, num_threads, num_blocks)` launcher and
  a main() that allocates, copies, times and asserts);
- ekoumpar/bitonicSort_CUDA: V0..V2/bitonicSort.cu with V0..V2/bitonic.h (a third author's
  V0-V2, a `bitonicSort(array, size)` host launcher each, main.cu timing with cudaEvent);
- RouteTrace/CUDA_Kernel_Samples: reduce/sum/sum.cu with include/utils.cuh, src/utils.cu (a
  sum-reduction ladder v0-v5, a templated host launcher `call_reduce_vN<BLOCK_SIZE>` each that
  launches, copies the partial sums or the atomic total back and finishes on the host; main()
  times each with a cudaEvent TIME_RECORD macro);
- AdityaShome/Gpu-Atomic-Ops-Lock-Free-Histogram: main.cu (256-bin byte histogram, global
  atomics, shared-memory atomics, warp-aggregated atomics with __match_any_sync; CUDA_CHECK
  macro, a bench() that times each kernel and checks it against the CPU).

A version is one CUDA program: the source's file(s) verbatim, its own headers inlined where it
#includes them, less its main() where it has one, plus an `extern "C" kf_run` marked KFORECAST
that runs the source's own launch lines for that step (its launcher call with main's launch
sizes, or its host function's lines less the allocations, host-device copies and frees) on
device buffers the adapter passes. Steps are the authors' own (file names, README lists),
never chosen by speed. Adapters (`adapters/bench_p40_*.py`) are ours. The builder replaces
the whole set folder but `measurements/`.
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

TEXT = setkit.SetText("Evaluation set public40", "scripts/evalsets/public40/pub40.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public40"

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


def without(text, name):
    """`text` less the definition of function `name` (its main())."""
    fn = cut_function(text, name, with_comment=False)
    i = text.index(fn.strip("\n"))
    return (text[:i] + f"// KFORECAST: the source's {name}() (allocation, timing, checks) left out here\n"
            + text[i + len(fn.strip("\n")):])


def main_line(main_fn, var):
    """The line of main() that declares `var` (a launch size)."""
    m = re.search(r"^[ \t]*int %s = [^;]*;" % var, main_fn, re.M)
    if not m:
        raise SystemExit(f"pub40.py: main() has no `int {var} = ...;` line")
    return m.group(0).strip()


# ---------------------------------------------------------------- arisdask bitonic sort
AD_STEPS = [("v0", "naive: one kernel launch a compare-exchange step, global memory"),
            ("v1", "the steps a block can do fused into one kernel (__syncthreads between them), "
                   "global memory"),
            ("v2", "the fused in-block steps on a shared-memory copy of the block's elements")]
AD_DROP = r"cudaMalloc|cudaMemcpy\(|cudaFree|int\* d_data;"


def ad_bitonic(mirror, out):
    repo = setkit.Repo(mirror, "arisdask/BitonicSortCUDA")
    headers = {h: repo.show(f"inc/{h}") for h in ("bitonic_sort.cuh", "bitonic_sort_operations.cuh",
                                                  "utils.hpp")}
    fam = "p40-ad-bitonic"
    files = []
    for v, what in AD_STEPS:
        # v1 and v2 launch v0's kernel for the steps wider than a block: their program holds v0's file too.
        srcs = ["src/bitonic_sort_v0.cu"] + ([f"src/bitonic_sort_{v}.cu"] if v != "v0" else [])
        seen = set()
        parts = [f"// KFORECAST: {p} follows\n" + inline_includes(repo.show(p), headers, seen).rstrip()
                 for p in srcs]
        host = cut_function(repo.show(f"src/bitonic_sort_{v}.cu"), f"bitonic_sort_{v}", with_comment=False)
        body = host[host.index("{") + 1:host.rstrip().rindex("}")]
        lines = [ln.rstrip() for ln in body.split("\n") if ln.strip() and not re.search(AD_DROP, ln)]
        entry = ("\n\n// KFORECAST entry point (ours): the lines of the source's host function bitonic_sort_" + v + "()\n"
                 "// less its allocation, host-device copies and free, on the adapter's device buffer (sorted in\n"
                 "// place); `array` stands for its IntArray argument (length only); TIME_MEASURE's print is off.\n"
                 "#undef TIME_MEASURE\n"
                 "extern \"C\" void kf_run(int* d_data, uint64_t length) {\n"
                 "    struct { uint64_t length; } array{length};\n"
                 + "\n".join(lines) + "\n}\n")
        files.append(write_version(out, fam, f"bitonic_sort_{v}", repo,
                                   srcs + ["inc/bitonic_sort.cuh", "inc/bitonic_sort_operations.cuh", "inc/utils.hpp"],
                                   f"bitonic_sort_{v}: {what}.", "\n\n".join(parts) + entry))
    return family(fam, files, repo, "bench_p40_bitonic.py",
                  "ascending bitonic sort of 2^24 int32 keys uniform in [0, RAND_MAX] (main.cpp fills with "
                  "rand(); its README runs 2^20-2^27), THREADS_PER_BLOCK 1024, sorted in place on the device "
                  "(the adapter copies the keys into the work buffer first, in every version): "
                  + "; ".join(f"{v} {w}" for v, w in AD_STEPS) + ". The README's three versions.", out)


# ---------------------------------------------------------------- NontasBak bitonic sort
NB_STEPS = [("v0", "one exchange kernel launch a step"),
            ("v1", "the first 11 stages and every step of distance <= 1024 done within a block, "
                   "global memory (initialExchangeLocally, exchangeLocally)"),
            ("v2", "as v1, the in-block steps on 2048 elements in shared memory")]


def nb_bitonic(mirror, out):
    repo = setkit.Repo(mirror, "NontasBak/CUDA-bitonic-sort")
    fam = "p40-nb-bitonic"
    files = []
    for v, what in NB_STEPS:
        path = f"src/bitonic_sort_{v}.cu"
        src = repo.show(path)
        main_fn = cut_function(src, "main", with_comment=False)
        nt, nb = main_line(main_fn, "num_threads"), main_line(main_fn, "num_blocks")
        if "bitonicSort(d_arr, n, num_threads, num_blocks);" not in main_fn:
            raise SystemExit(f"pub40.py: {path}: main() does not call bitonicSort as expected")
        entry = ("\n\n// KFORECAST entry point (ours): main()'s launch sizes and its call of the launcher,\n"
                 "// on the adapter's device buffer (sorted in place).\n"
                 "extern \"C\" void kf_run(int *d_arr, int n) {\n"
                 f"    {nt}\n    {nb}\n"
                 "    bitonicSort(d_arr, n, num_threads, num_blocks);\n}\n")
        files.append(write_version(out, fam, f"bitonic_sort_{v}", repo, [path],
                                   f"{v}: {what}.", without(src, "main") + entry))
    return family(fam, files, repo, "bench_p40_bitonic.py",
                  "ascending bitonic sort of 2^24 int32 keys uniform in [0, 100) (main() fills with "
                  "rand() % 100 and takes the power of two on its command line; the README benchmarks "
                  "2^20-2^27), 1024 threads a block and n / 2048 blocks as main() sets them, in place: "
                  + "; ".join(f"{v} {w}" for v, w in NB_STEPS) + ".", out)


# ---------------------------------------------------------------- ekoumpar bitonic sort
EK_STEPS = [("V0", "one exchange_V0 launch a step, global memory"),
            ("V1", "initialExchange (first 11 stages in one kernel) and exchange_V1 (steps of distance "
                   "<= 1024 in one kernel), global memory"),
            ("V2", "as V1, the in-block steps on a shared-memory copy (dynamic shared memory, "
                   "2 x 1024 ints)")]


def ek_bitonic(mirror, out):
    repo = setkit.Repo(mirror, "ekoumpar/bitonicSort_CUDA")
    main_cu = repo.show("main.cu")
    if "bitonicSort(GPU_array, size);" not in main_cu:
        raise SystemExit("pub40.py: main.cu does not call bitonicSort(GPU_array, size)")
    fam = "p40-ek-bitonic"
    files = []
    for v, what in EK_STEPS:
        src = inline_includes(repo.show(f"{v}/bitonicSort.cu"), {"bitonic.h": repo.show(f"{v}/bitonic.h")})
        entry = ("\n\n// KFORECAST entry point (ours): main.cu's call of the version's launcher, on the\n"
                 "// adapter's device buffer (sorted in place).\n"
                 "extern \"C\" void kf_run(int *GPU_array, size_t size) {\n"
                 "    bitonicSort(GPU_array, size);\n}\n")
        files.append(write_version(out, fam, f"bitonicSort_{v}", repo,
                                   [f"{v}/bitonicSort.cu", f"{v}/bitonic.h", "main.cu"],
                                   f"{v}: {what}.", src + entry))
    return family(fam, files, repo, "bench_p40_bitonic.py",
                  "ascending bitonic sort of 2^24 int32 keys uniform in [0, 1000) (main.cu fills with "
                  "rand() % 1000, size 2^q from its command line; the report runs q up to 27), in place; "
                  "each version's bitonicSort(array, size) launches size / 1024 blocks of 1024 threads: "
                  + "; ".join(f"{v} {w}" for v, w in EK_STEPS) + ". The Makefile's three versions.", out)


# ---------------------------------------------------------------- AdityaShome histogram
AS_STEPS = [("hist_global", "global atomics, one thread a pixel"),
            ("hist_shared", "a block's 256 bins in shared memory, merged with one global atomic a bin"),
            ("hist_warp", "warp-aggregated: __match_any_sync groups equal pixels of a warp, the leader adds "
                          "their count to shared memory, then merged as hist_shared")]


def as_histogram(mirror, out):
    repo = setkit.Repo(mirror, "AdityaShome/Gpu-Atomic-Ops-Lock-Free-Histogram")
    src = repo.show("main.cu")
    body = without(src, "main")
    bench = cut_function(src, "bench", with_comment=False)
    memset = [ln.strip() for ln in bench.split("\n") if "cudaMemset(d_hist" in ln]
    main_fn = cut_function(src, "main", with_comment=False)
    nblk = re.search(r"^[ \t]*int nblk = [^;]*;", main_fn, re.M)
    if len(memset) != 1 or not nblk or "kern<<<nblk, BLK>>>(d_img, d_hist, n);" not in bench:
        raise SystemExit("pub40.py: main.cu's bench()/main() launch lines not found")
    fam = "p40-as-histogram"
    files = []
    for kern, what in AS_STEPS:
        if f"bench({kern}," not in main_fn:
            raise SystemExit(f"pub40.py: main() does not bench {kern}")
        entry = ("\n\n// KFORECAST entry point (ours): main()'s grid size and bench()'s zeroing and launch for\n"
                 f"// {kern} (bench's kern), on the adapter's device buffers.\n"
                 "extern \"C\" void kf_run(const unsigned char *d_img, int *d_hist, size_t N) {\n"
                 f"    {nblk.group(0).strip()}\n    {memset[0]}\n"
                 f"    {kern}<<<nblk, BLK>>>(d_img, d_hist, N);\n}}\n")
        files.append(write_version(out, fam, kern, repo, ["main.cu"], f"{kern}: {what}.", body + entry))
    return family(fam, files, repo, "bench_p40_as_histogram.py",
                  "256-bin histogram of 2^28 bytes (main()'s N and image, pixel i = (i / 16) % 256: runs of "
                  "16 equal pixels), 256-thread blocks, one thread a pixel: "
                  + "; ".join(f"{k} {w}" for k, w in AS_STEPS) + ". The README's three strategies.", out)


# ---------------------------------------------------------------- RouteTrace sum reduction
RT_STEPS = [("v0", "in-place tree reduction in global memory, block sums finished on the host"),
            ("v1", "static shared memory, block sums finished on the host"),
            ("v2", "dynamic shared memory, block sums finished on the host"),
            ("v3", "dynamic shared memory, block sums added with atomicAdd"),
            ("v4", "warp shuffles (__shfl_down_sync) within warps, then the first warp, atomicAdd"),
            ("v5", "as v4, four elements a thread through float4 loads")]


def rt_reduce(mirror, out):
    repo = setkit.Repo(mirror, "RouteTrace/CUDA_Kernel_Samples")
    src = repo.show("reduce/sum/sum.cu")
    headers = {"utils.cuh": repo.show("reduce/sum/include/utils.cuh")}
    seen = set()
    prog = inline_includes(without(src, "main"), headers, seen)
    utils = inline_includes(repo.show("reduce/sum/src/utils.cu"), headers, seen)
    main_fn = cut_function(src, "main", with_comment=False)
    fam = "p40-rt-reduce"
    files = []
    for v, what in RT_STEPS:
        call = re.search(r"call_reduce_%s<BLOCK_SIZE>\(([^)]*)\);" % v, main_fn)
        if not call:
            raise SystemExit(f"pub40.py: main() does not call call_reduce_{v}")
        entry = ("\n\n// KFORECAST: the source's reduce/sum/src/utils.cu follows, then an entry point (ours):\n"
                 "// main()'s BLOCK_SIZE, its host buffer for the block sums (allocated once, on the first\n"
                 "// call) and its call of this step's launcher (TIME_RECORD's lambda body), on the adapter's\n"
                 "// device buffers; `sum` is the host float main() passes.\n"
                 + utils.rstrip() + "\n\n"
                 "extern \"C\" void kf_run(float *d_nums, float *d_rd_nums, float *d_sum, size_t N, float *sum) {\n"
                 "    constexpr size_t BLOCK_SIZE = 128;\n"
                 "    static float *h_rd_nums = (float *)malloc(sizeof(float) * CEIL(N, BLOCK_SIZE));\n"
                 f"    call_reduce_{v}<BLOCK_SIZE>({call.group(1)});\n}}\n")
        files.append(write_version(out, fam, f"reduce_{v}", repo,
                                   ["reduce/sum/sum.cu", "reduce/sum/include/utils.cuh", "reduce/sum/src/utils.cu"],
                                   f"reduce_{v}: {what}.", prog + entry))
    return family(fam, files, repo, "bench_p40_rt_reduce.py",
                  "sum of N = 10^8 float32 values (main()'s N, BLOCK_SIZE 128, values (k - 1000) / 1000 for k "
                  "uniform in 0..2000 as randomize_matrix draws them), through each step's host launcher as "
                  "main() calls it: the launch, the copy of the block sums (v0-v2, 781250 floats) or of the "
                  "atomic total (v3-v5) back to the host, and v0-v2's host loop adding the block sums, all "
                  "inside the timed call as the source's TIME_RECORD times them: "
                  + "; ".join(f"{v} {w}" for v, w in RT_STEPS) + ". v0 reduces in place, overwriting its input "
                  "(the harness checks each version on cloned inputs; in the timing rounds the other versions "
                  "read the overwritten values, which changes no work). Tolerance atol 2, rtol 1e-3: float32 "
                  "accumulation of a sum of about +-10^4.", out)


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public40")
    setkit.clear_set(args.out)
    fams = [ad_bitonic(args.mirror, args.out), nb_bitonic(args.mirror, args.out),
            ek_bitonic(args.mirror, args.out), rt_reduce(args.mirror, args.out),
            as_histogram(args.mirror, args.out)]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
