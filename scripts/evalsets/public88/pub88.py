"""Builds public evaluation set 88 ("p88-" families, split "public88", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public88/pub88.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public88

Source (fetched with the session's `fetch` tool first): Bruce-Lee-LY/cuda_hgemm, a small HGEMM
library of tensor-core kernels in a macro-heavy style (every tile size a `#define`, PTX through
macros of `common/ptx.h`: LDMATRIX_X4, HMMA16816, CP_ASYNC_CG; the WMMA API through
`nvcuda::wmma`), one `.cu` file a kernel with its host launcher `void name(half *A, half *B,
half *C, size_t M, size_t N, size_t K)` (a function-local `static` that sets the kernel's dynamic
shared memory size once with cudaFuncSetAttribute, the grid set-up, the launch). C = A B with A
(M, K) row-major and B stored (N, K) row-major ("col-major B", as the kernels and the repository's
cuBLAS check read it); half inputs, half accumulators.
- p88-hgemm-wmma: `src/wmma/`: naive (one warp a 16 x 16 tile straight from global memory),
  base (256 x 128 block tile, 64 x 64 warp tile, int4 loads into shared memory), padding (padded
  shared rows), async (cp.async), async_pg2s (double-buffered global-to-shared prefetch),
  async_pg2s_ps2r (and shared-to-register prefetch), async_stage2, async_stage3 (multi-stage).
- p88-hgemm-mma: `src/mma/`: naive (one warp a 16 x 8 tile, ldmatrix + mma.sync m16n8k16),
  base, permuted (permuted shared layout against bank conflicts), async, async_pg2s,
  async_pg2s_ps2r, async_stage2, async_stage3, async_stage4.

A version is the file verbatim with its local headers (`common.h`, and through it `logging.h`,
`ptx.h`, `util.h`) inlined where included, marked KFORECAST, plus an `extern "C" kf_run` marked
KFORECAST that calls the file's own launcher on the adapter's device buffers (as main.cu's
`tester.evaluate(...)` does); built with nvcc by progbuild (`-O3`, no library: `cublas_v2.h` is
only included by common.h for its error macro). main.cu launches neither naive nor base version
(those `tester.evaluate` lines are commented out in it); they are used as the files define them.
Versions are every kernel file of the two folders, chosen by what the repository says of them,
never by speed. Adapters (`adapters/bench_p88_*.py`) are ours. The builder replaces the whole
set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public88", "scripts/evalsets/public88/pub88.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public88"

# Versions that failed on the H200 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

HG = "Bruce-Lee-LY/cuda_hgemm"
HEADERS = {'#include "common.h"': "src/common/common.h",
           '#include "logging.h"': "src/common/logging.h",
           '#include "ptx.h"': "src/common/ptx.h",
           '#include "util.h"': "src/common/util.h"}


def inline(repo, src, headers, done=None):
    """Replaces each `#include "x"` line naming a key of `headers` (include text -> header path)
    with that header's text at the same commit, recursively, each header once (all of them are
    `#pragma once`)."""
    done = set() if done is None else done
    out = []
    for line in src.split("\n"):
        s = line.strip()
        if s.startswith("#include \"") and s in headers:
            hpath = headers[s]
            if hpath in done:
                out.append(f"// KFORECAST: the source's {s} ({hpath}) was inlined above.")
                continue
            done.add(hpath)
            hdr = inline(repo, repo.show(hpath), headers, done)
            out.append(f"// KFORECAST: the source's {s} ({hpath} at the same commit), inlined "
                       "verbatim:\n" + hdr.rstrip() + f"\n// KFORECAST: end of {hpath}")
        else:
            out.append(line)
    return "\n".join(out)


def kf_run(launcher):
    return ('extern "C" void kf_run(half *A, half *B, half *C, size_t M, size_t N, size_t K) {\n'
            f"    {launcher}(A, B, C, M, N, K);  // KFORECAST: the file's launcher, as main.cu's "
            "tester.evaluate calls it\n"
            "    HGEMM_CHECK_CUDART_ERROR(cudaGetLastError());\n"
            "}\n")


def version(out, fam, repo, path, stem, launcher, what):
    src = inline(repo, repo.show(path), HEADERS)
    used = [h for h in HEADERS.values() if h in src]
    rel = f"{fam}/{stem}.cu"
    text = (TEXT.header(repo, [path] + used, what) + "\n" + src.rstrip() + "\n\n"
            + "// KFORECAST entry point (ours): calls the file's host launcher on the adapter's "
            "device buffers.\n" + kf_run(launcher))
    setkit.write(os.path.join(out, rel), text)
    return rel


WMMA = [
    ("src/wmma/wmma_naive.cu", "w0_naive", "wmmaNaive",
     "wmmaNaiveKernel: one warp a 16 x 16 C tile, wmma fragments loaded straight from global "
     "memory, K in steps of 16 (main.cu's call is commented out)"),
    ("src/wmma/wmma_base.cu", "w1_base", "wmmaBase",
     "wmmaBaseKernel: 256 x 128 block tile, eight warps of 64 x 64, int4 copies of A and B "
     "chunks into shared memory, C staged through shared memory, swizzled grid (BLOCK_STRIDE) "
     "(main.cu's call is commented out)"),
    ("src/wmma/wmma_padding.cu", "w2_padding", "wmmaPadding",
     "wmmaPaddingKernel: base with shared rows padded (SMEM_PADDING) against bank conflicts"),
    ("src/wmma/wmma_async.cu", "w3_async", "wmmaAsync",
     "wmmaAsyncKernel: padding with cp.async (CP_ASYNC_CG) copies global to shared"),
    ("src/wmma/wmma_async_pg2s.cu", "w4_async_pg2s", "wmmaAsyncPg2s",
     "wmmaAsyncPg2sKernel: async with a double-buffered global-to-shared prefetch"),
    ("src/wmma/wmma_async_pg2s_ps2r.cu", "w5_async_pg2s_ps2r", "wmmaAsyncPg2sPs2r",
     "wmmaAsyncPg2sPs2rKernel: pg2s with double-buffered shared-to-register fragments"),
    ("src/wmma/wmma_async_stage2.cu", "w6_async_stage2", "wmmaAsyncStage2",
     "wmmaAsyncStage2Kernel: a K_STAGE = 2 multi-buffer global-to-shared pipeline"),
    ("src/wmma/wmma_async_stage3.cu", "w7_async_stage3", "wmmaAsyncStage3",
     "wmmaAsyncStage3Kernel: the same pipeline with K_STAGE = 3"),
]

MMA = [
    ("src/mma/mma_naive.cu", "m0_naive", "mmaNaive",
     "mmaNaiveKernel: one warp a 16 x 8 C tile, int4 copies into small shared tiles, "
     "LDMATRIX_X4/X2 and HMMA16816 (mma.sync m16n8k16) by PTX macros (main.cu's call is "
     "commented out)"),
    ("src/mma/mma_base.cu", "m1_base", "mmaBase",
     "mmaBaseKernel: 256 x 128 block tile, eight warps of 64 x 64, int4 copies into shared "
     "memory, ldmatrix + mma.sync, swizzled grid (main.cu's call is commented out)"),
    ("src/mma/mma_permuted.cu", "m2_permuted", "mmaPermuted",
     "mmaPermutedKernel: base with a permuted shared layout (16-byte chunks of each row rotated by row) against bank conflicts"),
    ("src/mma/mma_async.cu", "m3_async", "mmaAsync",
     "mmaAsyncKernel: permuted with cp.async copies global to shared"),
    ("src/mma/mma_async_pg2s.cu", "m4_async_pg2s", "mmaAsyncPg2s",
     "mmaAsyncPg2sKernel: async with a double-buffered global-to-shared prefetch"),
    ("src/mma/mma_async_pg2s_ps2r.cu", "m5_async_pg2s_ps2r", "mmaAsyncPg2sPs2r",
     "mmaAsyncPg2sPs2rKernel: pg2s with double-buffered shared-to-register fragments"),
    ("src/mma/mma_async_stage2.cu", "m6_async_stage2", "mmaAsyncStage2",
     "mmaAsyncStage2Kernel: a K_STAGE = 2 multi-buffer global-to-shared pipeline"),
    ("src/mma/mma_async_stage3.cu", "m7_async_stage3", "mmaAsyncStage3",
     "mmaAsyncStage3Kernel: the same pipeline with K_STAGE = 3"),
    ("src/mma/mma_async_stage4.cu", "m8_async_stage4", "mmaAsyncStage4",
     "mmaAsyncStage4Kernel: the same pipeline with K_STAGE = 4"),
]


def family(mirror, out, fam, steps, adapter, notes):
    repo = setkit.Repo(mirror, HG)
    files, desc = [], []
    for path, stem, launcher, what in steps:
        files.append(version(out, fam, repo, path, stem, launcher, what))
        desc.append(f"{stem} ({os.path.basename(path)}) {what}")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="cuda",
                 notes=notes + " Versions, in the order used: " + "; ".join(desc) + ".")
    if MEASURED_DAY:
        bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in entry["files"]]
        entry["notes"] += (f" H200 measurement of {MEASURED_DAY}"
                           + (", failing: " + "; ".join(bad) + "; every other version passed."
                              if bad else ": every version passed."))
    return entry


COMMON = ("C = A B at M = N = K = 4096, fp16 in and out (half accumulators), A (M, K) row-major, "
          "B stored (N, K) row-major as the kernels read it; each version's kf_run calls the "
          "file's host launcher; common.h, logging.h, ptx.h and util.h inlined.")


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public88")
    setkit.clear_set(args.out)
    fams = [
        family(args.mirror, args.out, "p88-hgemm-wmma", WMMA, "bench_p88_hgemm.py",
               "Bruce-Lee-LY/cuda_hgemm's WMMA-API HGEMM ladder (src/wmma/, every file). " + COMMON),
        family(args.mirror, args.out, "p88-hgemm-mma", MMA, "bench_p88_hgemm.py",
               "Bruce-Lee-LY/cuda_hgemm's MMA-PTX HGEMM ladder (src/mma/, every file; "
               "ldmatrix, mma.sync and cp.async through ptx.h's macros). " + COMMON),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
