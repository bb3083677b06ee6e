#!/usr/bin/env python3
"""Builds public evaluation set 6 ("p6-" families, split "public6"): public programs by
authors no other set uses, as their authors wrote them (issue 20, 1(b)).

    pub6.py --mirror /work/.mirror --out /work/main/target/evalsets/public6

Reads local bare copies of public repositories (made with the session's `fetch` tool:
MIRROR/<owner>+<name>/repo) and writes, OUTSIDE the repository, a set in the layout of
/work/HELPERS.md's evaluation-set contract: families.json, SOURCES.json (repository and
commit per family), one folder per family with one program file per version (reference
first) and its bench.py adapter (adapters/, ours), and `_vendor/` (a Triton package the
programs import). Only this builder and the adapters live in kforecast's repository.

A CUDA version is the source's prelude, one kernel verbatim, the source's own size, grid
and launch lines for it and an `extern "C" kf_run` entry point marked KFORECAST
(p6_cuda.py); a Triton version is the source's module verbatim. Report-only: never tuned
on, never run through kforecast by its builder.
"""

import os
import sys

from p6_cuda import (TEXT, cp_histogram_program, cp_reduce_program, cp_transpose_program, lc_convolution_program,
                     lc_histogram_program, lc_reduction_program, lc_transpose_program, sc_rowsum_program,
                     sc_softmax_program)
from setkit import Repo, builder_args, clear_set, pair_counts, write, write_index  # (on sys.path through p6_cuda)

REPOS = {
    "cp": "AtomicVar/CUDA-Patterns",
    "sc": "yangjunjie0320/SimpleCUDA",
    "lc": "ajkumar-13/Learning-Cuda",
    "pt": "pranavnt/triton-kernels",
    "kk": "kkcocoa/triton_layernorm",
}

SIZE = 4096  # square matrices of 2^24 floats
HIST_N = "16 * 1024 * 1024"
SOFTMAX_ROWS = 131072  # x 128 columns = 2^24 floats
ROWSUM_ROWS = 4096  # x 4096 columns


adapter = TEXT.adapter
py_header = TEXT.py_header


PT_DIR = "triton_kernels/transpose"


def vendor_pt(pt, out):
    """pranavnt/triton-kernels' package as the transpose modules import it."""
    root = os.path.join(out, "_vendor", "triton_kernels")
    write(os.path.join(root, "__init__.py"),
          f"# KFORECAST: an empty package init (the repository has none), so that this copy of\n"
          f"# {pt.name}@{pt.commit} is found before any other package named triton_kernels\n")
    write(os.path.join(root, "utils.py"), pt.show("triton_kernels/utils.py"))
    for name in ("__init__.py", "v0.py", "v1.py", "v2.py", "v3.py"):
        write(os.path.join(root, "transpose", name), pt.show(f"{PT_DIR}/{name}"))


KK_DIR = "layernorm"
KK_FILES = ("layernorm_torch.py", "layernorm_triton.py", "layernorm_triton_v2.py", "layernorm_dispatch.py")


def vendor_kk(kk, out):
    """kkcocoa/triton_layernorm's `layernorm` package, which the dispatch module imports."""
    root = os.path.join(out, "_vendor", "layernorm")
    write(os.path.join(root, "__init__.py"),
          f"# KFORECAST: an empty package init (the repository has none) for this copy of\n"
          f"# {kk.name}@{kk.commit}\n")
    for name in KK_FILES:
        write(os.path.join(root, name), kk.show(f"{KK_DIR}/{name}"))


def main():
    args = builder_args(__doc__, "target/evalsets/public6")
    out = args.out
    clear_set(out)

    cp, sc, lc, pt, kk = (Repo(args.mirror, REPOS[k]) for k in ("cp", "sc", "lc", "pt", "kk"))
    families, sources = [], {}

    def family(name, files, repos, style, notes, bench):
        for rel, text in files:
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), adapter(bench))
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": "public6",
                         "source": ", ".join(f"{r.name}@{r.commit[:12]}" for r in repos), "style": style, "notes": notes})
        sources[name] = [{"repository": r.name, "commit": r.commit} for r in repos]

    write(os.path.join(out, "_p6common.py"), adapter("_p6common.py"))

    family("p6-cp-reduce-sum",
           [(f"reduce_V{k}.cu", cp_reduce_program(cp, k)) for k in range(1, 8)], [cp], "host-code",
           "CUDA-Patterns' 5-reduce-sum ladder (interleaved addressing, bank-conflict-free, sequential "
           "addressing, first add during load, unrolled last warp, completely unrolled, grid-stride multiple "
           "add), each with main.cu's multi-pass launch sequence (D2D copies between passes). int32 sum of "
           "main.cu's N = 2560*1440*10 ints in [0, 5), 1024 threads.", "bench_p6_reduce_int.py")
    family("p6-transpose",
           [(f"cp_{k}.cu", cp_transpose_program(cp, k, SIZE)) for k in
            ("transpose_naive_read_coalesced", "transpose_naive_write_coalesced", "transpose_tiled",
             "transpose_no_bank_conflicts")]
           + [(f"lc_{k}.cu", lc_transpose_program(lc, k)) for k in ("transposeNaive", "transposeTiled")],
           [cp, lc], "host-code",
           "float32 4096 x 4096 transpose by two authors: CUDA-Patterns' 2-transpose (naive read-coalesced, "
           "naive write-coalesced, templated shared-memory tile, padded tile; 32x32 threads; its #define M/N "
           "changed from 10240 x 1024 to the set's size) and Learning-Cuda's post 06 snippet (naive, padded "
           "tile; main()'s 4096 x 4096).", "bench_p6_transpose.py")
    family("p6-histogram",
           [(f"cp_{k}.cu", cp_histogram_program(cp, k, HIST_N)) for k in
            ("histogram_blocked", "histogram_interleaved", "histogram_privatized")]
           + [(f"lc_{k}.cu", lc_histogram_program(lc, k)) for k in ("histGlobal", "histShared")],
           [cp, lc], "host-code",
           "256-bin histogram of 16M ints uniform in [0, 256) by two authors: CUDA-Patterns' 4-histogram "
           "(blocked, interleaved, shared-memory privatized; 512 threads, one per element; #define N changed "
           "from 1920*1080) and Learning-Cuda's post 05 snippet (global atomics, shared privatized; 256 x 256 "
           "grid-stride; main() fills a solid colour, the set uses uniform data for all versions).",
           "bench_p6_histogram.py")
    family("p6-sc-softmax",
           [(f"softmax-v{v}.cu", sc_softmax_program(sc, v, SOFTMAX_ROWS)) for v in range(1, 8)], [sc],
           "host-code",
           "SimpleCUDA's row-softmax ladder v1-v7 (one thread per row, shared-memory tree, CUB BlockReduce, one "
           "warp per row, warps of a block on rows, warp shuffles across a block, templated multi-row warps), "
           f"float32 {SOFTMAX_ROWS} x 128 (ncol is fixed by the kernels' design at 32 x 4; main() loops nrow "
           "to 8192). v3 does not build with CUDA 13 (its cub::Max and cub::Sum are gone from CCCL 3) and "
           "is left failing, as measured.", "bench_p6_softmax.py")
    family("p6-sc-rowsum",
           [(f"block-reduce-v{v}.cu", sc_rowsum_program(sc, v, ROWSUM_ROWS)) for v in range(1, 4)], [sc],
           "host-code",
           f"SimpleCUDA's block-reduce v1-v3 (row sums, one block of 1024 threads per row), float32 "
           f"{ROWSUM_ROWS} x 4096 (main() has 1024 rows).", "bench_p6_rowsum.py")
    family("p6-lc-reduction",
           [(f"{k}.cu", lc_reduction_program(lc, k)) for k in ("reduceNaiveAtomic", "reduceShared",
                                                              "reduceWarpShuffle")], [lc], "host-code",
           "Learning-Cuda's post 04 snippet: float32 sum of 16M floats by one atomic per element, a "
           "shared-memory tree per block, and warp shuffles with a grid-stride loop (1024 blocks), 256 threads. "
           "Inputs are uniform in [-0.5, 0.5) (main() draws [0, 1]) so that the one-address float atomic sum "
           "stays within tolerance of a float64 sum.", "bench_p6_sum_float.py")
    family("p6-lc-conv2d",
           [(f"{k}.cu", lc_convolution_program(lc, k, SIZE)) for k in ("convNaive", "convConst", "convTiled")],
           [lc], "host-code",
           "Learning-Cuda's post 07 snippet: 3x3 box blur of a float32 4096 x 4096 image (main() has "
           "1920 x 1080): filter in global memory, in constant memory, and an 18x18 shared tile with halo. "
           "main() launches only the tiled kernel; the other two get TILE x TILE blocks (marked).",
           "bench_p6_conv2d.py")

    vendor_pt(pt, out)
    family("p6-pt-transpose",
           [(f"{v}.py", py_header(pt, f"{PT_DIR}/{v}.py", "Verbatim.") + pt.show(f"{PT_DIR}/{v}.py"))
            for v in ("v0", "v1", "v2", "v3")], [pt], "triton-module",
           "pranavnt/triton-kernels' transpose ladder, modules verbatim: v0 x.t().contiguous(), v1 one program "
           "per row chunk, v2 16x16 block looping rows, v3 a tile in a register array (uses item assignment "
           "and tl.sync, which Triton lacks: it does not build, and is left failing, as measured). v4 holds only a docstring and is left "
           "out. float32 4096 x 4096.", "bench_p6_triton_transpose.py")

    vendor_kk(kk, out)
    family("p6-kk-layernorm",
           [(name, py_header(kk, f"{KK_DIR}/{name}", "Verbatim.") + kk.show(f"{KK_DIR}/{name}")) for name in KK_FILES],
           [kk], "triton-module",
           "kkcocoa/triton_layernorm's LayerNorm forward, float32 4096 x 4096 with weight and bias (its "
           "benchmarks' size), modules verbatim: nn.LayerNorm in a module (reference), the single-pass Triton "
           "kernel (one program per row, BLOCK_N = N), the two-pass Triton version (row statistics, then a "
           "tiled normalise; its default BLOCK_N 1024), and the dispatcher (picks the single-pass kernel for "
           "N = 4096, so it times like it).", "bench_p6_layernorm.py")

    write_index(out, families, sources)
    n_files, pairs = pair_counts(families)
    print(f"pub6.py: {len(families)} families, {n_files} program files, {pairs} ordered pairs -> {out}")
    for r in (cp, sc, lc, pt, kk):
        print(f"  {r.name} @ {r.commit}")


if __name__ == "__main__":
    sys.exit(main())
