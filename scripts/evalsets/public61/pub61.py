"""Builds public evaluation set 61 ("p61-" families, split "public61", kept unseen) from a local
copy of a public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public61/pub61.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public61

Source (fetched with the session's `fetch` tool first): gau-nernst/gpu-mode-kernels, one
author's GPU MODE leaderboard submissions. Its `pmpp_v2/histogram_py/` holds the problem
histogram_v2 (256-bin histogram of uint8 data into an int64 output, `custom_kernel((data,
output))`): the problem's reference.py (`ref_kernel`: torch.bincount) and three submissions, a
Triton one (per-program `tl.histogram` over a grid-stride loop, one atomic add of the 256 bins a
program) and two CUDA ones through `load_inline` (per-warp shared-memory sub-histograms, 16-byte
loads; v1 re-splits the input so each block gets whole waves, "reduce wave quantization").

A version is the source file verbatim plus a `kf_run(data, output)` entry point marked KFORECAST
that makes the leaderboard's call (`custom_kernel((data, output))`, or `ref_kernel` for the
reference). The problem's task.py and the leaderboard's pmpp_v2/utils.py (which reference.py
imports; the file of gpu-mode/reference-kernels, read from the fork T-prog123/reference-kernels
already fetched for set 56, identical upstream) are copied beside the versions, marked as
helpers. One family a benchmark contention (the share of elements set to one value, which
decides how much the atomics collide), all at 2^28 elements so the GPU, not the launch, is timed.

LeetGPU solutions by three authors for one challenge each (the challenge's fixed interface,
`extern "C" void solve(...)` on device pointers, CUDA with host code): Young-TW/LeetGPU
(`src/<challenge>.cu`), ccs96307/LeetGPU (`CUDA/Medium/<Challenge>/kernel.cu`, its one-line
`kernel.cuh` inlined where it is included, marked KFORECAST) and txfs19260817/LeetGPU (the
reduction file `001m-reduction/src_cuda.cu`, a ladder of `solve`, `solve1` .. `solve6` and
`solve_cub` in one file: one version an entry point, as the author's benchmark calls them).
Each CUDA version gets an `extern "C" kf_run(...)` marked KFORECAST that calls that solve as
the LeetGPU harness does. The reference version of these families is a torch program written by
the builder (marked as ours: no source ships one): torch.sum, torch.bincount, torch.cumsum.
Adapters (`adapters/bench_p61_*.py`, `adapters/_p61hist.py`, `adapters/_p61lg.py`) are ours.
The builder replaces the whole set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public61", "scripts/evalsets/public61/pub61.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public61"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

GN = "gau-nernst/gpu-mode-kernels"
GM = "T-prog123/reference-kernels"  # only for the leaderboard's pmpp_v2/utils.py
D = "pmpp_v2/histogram_py/"

STEPS = [
    (D + "reference.py", "v0_reference", "the problem's reference.py (ref_kernel: torch.bincount(data, "
     "minlength=256) written into output, inside the leaderboard's DeterministicContext)", "ref_kernel"),
    (D + "submission_triton_v0.py", "submission_triton_v0", "Triton: 264 programs, each a grid-stride "
     "loop over 2048-element blocks accumulating tl.histogram into 256 int32 bins, then one "
     "tl.atomic_add of its bins into the int64 output", "custom_kernel"),
    (D + "submission_v0.py", "submission_v0", "CUDA through load_inline (TORCH_LIBRARY op): 264 blocks "
     "of 8 warps, a shared-memory sub-histogram per warp, 16 uint8 a thread per 16-byte load in a "
     "grid-stride loop, the warps' histograms summed and atomically added to the output's low words",
     "custom_kernel"),
    (D + "submission_v1.py", "submission_v1", "v0 re-split ('reduce wave quantization'): each block "
     "takes one contiguous chunk rounded up to whole 16 x 256-element waves, only the last block "
     "handles the remainder", "custom_kernel"),
]

FAMILIES = [
    # family, adapter, contention (%), benchmark seed
    ("p61-gn-hist-c10", "bench_p61_gn_hist_c10.py", 10, 8841),
    ("p61-gn-hist-c40", "bench_p61_gn_hist_c40.py", 40, 3411),
    ("p61-gn-hist-c90", "bench_p61_gn_hist_c90.py", 90, 8753),
]
SIZE = 1 << 28


def version(out, fam, repo, path, stem, what, entry):
    src = repo.show(path)
    rel = f"{fam}/{stem}.py"
    text = (TEXT.py_line_header(repo.name, repo.commit, path, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            + "# KFORECAST entry point (ours): the leaderboard's call of this file, "
            + f"{entry}((data, output)).\n"
            + f"def kf_run(data, output):\n    return {entry}((data, output))\n")
    setkit.write(os.path.join(out, rel), text)
    return rel


def helpers(out, fam, gn, gm):
    for repo, path, name, what in (
            (gn, D + "task.py", "task.py", "the problem's task.py (the versions import input_t, output_t)"),
            (gm, "problems/pmpp_v2/utils.py", "utils.py", "the leaderboard's pmpp_v2/utils.py "
             "(reference.py imports verbose_allequal, DeterministicContext)")):
        hdr = TEXT.header(repo, [path], f"Helper, not a version (KFORECAST: copied beside the versions): {what}.",
                          comment="#", note=setkit.VERBATIM)
        setkit.write(os.path.join(out, fam, name), hdr + repo.show(path))


# ---------------------------------------------------------------- LeetGPU (CUDA, three authors)
YT = "Young-TW/LeetGPU"
CC = "ccs96307/LeetGPU"
TX = "txfs19260817/LeetGPU"
TXR = "001m-reduction/src_cuda.cu"
LG_SIG = {
    "reduction": ("const float* input, float* output, int N", "input, output, N"),
    "histogram": ("const int* input, int* histogram, int N, int num_bins", "input, histogram, N, num_bins"),
    "prefix": ("const float* input, float* output, int N", "input, output, N"),
}
LG_REF = {
    "reduction": ("v0_torch_sum", "torch's sum of the input into output[0]", "def kf_run(input, output, N):\n"
                  "    output.copy_(torch.sum(input[:N]).reshape(1))\n    return output\n"),
    "histogram": ("v0_torch_bincount", "torch.bincount of the input (minlength num_bins) into histogram", "def kf_run(input, histogram, N, num_bins):\n"
                  "    histogram.copy_(torch.bincount(input[:N], minlength=num_bins))\n    return histogram\n"),
    "prefix": ("v0_torch_cumsum", "torch.cumsum of the input into output", "def kf_run(input, output, N):\n"
               "    torch.cumsum(input[:N], dim=0, out=output[:N])\n    return output\n"),
}
# (family, adapter, challenge kind, [(repo, path, stem, what, solve)], notes)
LG_FAMILIES = [
    ("p61-lg-reduction", "bench_p61_lg_reduction.py", "reduction", [
        (YT, "src/reduction.cu", "youngtw_reduction", "Young-TW: at most 4096 blocks of 256 threads, a "
         "grid-stride loop per thread, a shared-memory tree, one atomicAdd a block (output zeroed by "
         "cudaMemset)", "solve"),
        (CC, "CUDA/Medium/Reduction/kernel.cu", "ccs96307_reduction", "ccs96307: one block of 256 threads "
         "per 256 elements, warp shuffles, per-warp sums in shared memory, one atomicAdd a block into "
         "output", "solve"),
        (TX, TXR, "txfs_reduce0", "txfs19260817's solve (V0, 'warp-divergence kernel'): 1024-thread blocks "
         "one element a thread, interleaved tree with tid % (2s), partials to a cudaMalloc'd buffer, a final "
         "stage kernel with atomicAdd, a tail kernel", "solve"),
        (TX, TXR, "txfs_reduce2", "txfs19260817's solve2 (V2, 'warp-divergence free and bank-conflict "
         "free'): sequential addressing tree, otherwise as solve", "solve2"),
        (TX, TXR, "txfs_reduce3", "txfs19260817's solve3 (V3, 'idle thread free'): two elements a thread "
         "added on load, half the blocks", "solve3"),
        (TX, TXR, "txfs_reduce5", "txfs19260817's solve5 (V5): V3 plus the last 32 lanes reduced with "
         "__shfl_down_sync", "solve5"),
        (TX, TXR, "txfs_cub", "txfs19260817's solve_cub: cub::DeviceReduce::Sum (temporary storage "
         "cudaMalloc'd and freed each call)", "solve_cub"),
    ], "LeetGPU challenge 4 (reduction): the sum of N = 100,000,000 fp32 values (the challenge's "
       "maximum; its performance size is 4,194,304) drawn uniformly from [-1, 1] (the challenge allows "
       "[-1000, 1000]), into output[0] (a zeroed tensor in each input draw)."),
    ("p61-lg-histogram", "bench_p61_lg_histogram.py", "histogram", [
        (YT, "src/histogramming.cu", "youngtw_histogramming", "Young-TW: at most 2048 blocks of 256 "
         "threads, a shared-memory histogram per block filled by a grid-stride loop, non-zero bins "
         "atomically added to the output (zeroed by cudaMemset)", "solve"),
        (CC, "CUDA/Medium/Histogramming/kernel.cu", "ccs96307_histogramming", "ccs96307: one block of 1024 "
         "threads per 1024 elements, a shared-memory histogram per block, every bin atomically added to the "
         "output", "solve"),
    ], "LeetGPU challenge 13 (histogramming): N = 50,000,000 int32 values uniform in [0, 256), 256 "
       "bins (the challenge's performance size), counts into an int32 histogram (zeroed before each "
       "call)."),
    ("p61-lg-prefix-sum", "bench_p61_lg_prefix_sum.py", "prefix", [
        (YT, "src/prefix_sum.cu", "youngtw_prefix_sum", "Young-TW: Blelloch scan of 1024-element tiles "
         "(512 threads), the tile totals scanned recursively (cudaMalloc'd per level), an offset-add "
         "kernel", "solve"),
        (CC, "CUDA/Medium/Prefix_Sum/kernel.cu", "ccs96307_prefix_sum", "ccs96307: Blelloch scan of "
         "512-element tiles (256 threads), block sums scanned by a recursive solve (cudaMalloc'd per "
         "level), an add kernel of 512-thread blocks", "solve"),
    ], "LeetGPU challenge 16 (prefix sum): inclusive scan of N = 2^26 fp32 values uniform in [-1, 1] "
       "(the challenge allows up to 10^8 in [-1000, 1000]; its performance size is 250,000)."),
]


def lg_cuda_version(out, fam, repo, path, stem, what, solve, kind):
    src = repo.show(path)
    if '#include "kernel.cuh"' in src:
        hdr_path = os.path.join(os.path.dirname(path), "kernel.cuh")
        inc = repo.show(hdr_path).rstrip()
        src = src.replace('#include "kernel.cuh"', f"// KFORECAST: {hdr_path} inlined in place of its #include\n"
                          + inc + "\n// KFORECAST: end of kernel.cuh", 1)
        paths = [path, hdr_path]
    else:
        paths = [path]
    sig, args = LG_SIG[kind]
    text = (TEXT.header(repo, paths, what, comment="//") + "\n" + src.rstrip() + "\n\n"
            + f"// KFORECAST entry point (ours): the LeetGPU harness's call of this file's {solve}.\n"
            + f'extern "C" void kf_run({sig}) {{ {solve}({args}); }}\n')
    rel = f"{fam}/{stem}.cu"
    setkit.write(os.path.join(out, rel), text)
    return rel


def lg_families(out, repos):
    fams, sources = [], {}
    for fam, adapter, kind, steps, notes in LG_FAMILIES:
        stem, what, body = LG_REF[kind]
        ref = f"{fam}/{stem}.py"
        setkit.write(os.path.join(out, ref), TEXT.ours_py(what + ".", "import torch\n\n\n" + body))
        files = [ref] + [lg_cuda_version(out, fam, repos[r], p, s, w, solve, kind) for r, p, s, w, solve in steps]
        setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
        notes += (" Versions, in the order used: " + stem + " (ours) " + what + "; "
                  + "; ".join(f"{s} ({r}:{p}) {w}" for r, p, s, w, _ in steps) + ". Each CUDA version is "
                  "built with nvcc -O3 into a shared library and entered through its KFORECAST kf_run.")
        entry = dict(family=fam, files=files, split=SPLIT, source="; ".join(sorted({repos[r].at() for r, *_ in steps})),
                     style="leetgpu-cuda", notes=notes)
        if MEASURED_DAY:
            entry = setkit.measured_note(entry, FAILING, MEASURED_DAY)
        fams.append(entry)
        sources[fam] = {"versions": [{"file": f"{fam}/{s}.cu", "repo": r, "commit": repos[r].commit, "path": p,
                                      "entry": solve} for r, p, s, _w, solve in steps],
                        "reference": {"file": ref, "ours": True}}
    return fams, sources


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public61")
    setkit.clear_set(args.out)
    gn = setkit.Repo(args.mirror, GN)
    gm = setkit.Repo(args.mirror, GM)
    setkit.write(os.path.join(args.out, "_p61hist.py"), TEXT.adapter("_p61hist.py"))
    fams, sources = [], {}
    for fam, adapter, contention, seed in FAMILIES:
        files = [version(args.out, fam, gn, p, s, w, e) for p, s, w, e in STEPS]
        helpers(args.out, fam, gn, gm)
        setkit.write(os.path.join(args.out, fam, "bench.py"), TEXT.adapter(adapter))
        notes = (f"GPU MODE problem histogram_v2 (pmpp_v2): 256-bin histogram of {SIZE} uint8 elements "
                 f"(2^28; the problem's largest benchmark is 10485760) into an int64 output, contention "
                 f"{contention}% (that share of the elements set to one random value, as the problem's "
                 f"generate_input does; benchmark seed {seed}). The CUDA submissions atomically add "
                 "int32 counts into the int64 output's low words (fine while a bin stays under 2^31). "
                 "Both CUDA submissions register their op as TORCH_LIBRARY(my_module): the adapter "
                 "renames that namespace per version at build time (and points the module's "
                 "torch.ops.my_module at it) so both load in one process; the kernels are untouched. "
                 "Versions, in the order used: " + "; ".join(
                     f"{s} ({os.path.basename(p)}) {w}" for p, s, w, _e in STEPS) + ".")
        entry = dict(family=fam, files=files, split=SPLIT, source=gn.ref(D), style="gpumode-triton+load_inline",
                     notes=notes)
        if MEASURED_DAY:
            entry = setkit.measured_note(entry, FAILING, MEASURED_DAY)
        fams.append(entry)
        sources[fam] = {"repo": GN, "commit": gn.commit, "paths": [p for p, *_ in STEPS],
                        "helpers": {"task.py": f"{GN}@{gn.commit}:{D}task.py",
                                    "utils.py": f"{GM}@{gm.commit}:problems/pmpp_v2/utils.py"},
                        "size": SIZE, "contention": contention, "seed": seed}
    repos = {r: setkit.Repo(args.mirror, r) for r in (YT, CC, TX)}
    lf, ls = lg_families(args.out, repos)
    fams += lf
    sources.update(ls)
    setkit.write(os.path.join(args.out, "_p61lg.py"), TEXT.adapter("_p61lg.py"))
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
