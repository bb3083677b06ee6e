"""Builds public evaluation set 84 ("p84-" families, split "public84", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public84/pub84.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public84

Source (fetched with the session's `fetch` tool first): Olajide-Badejo/CUDA-Kernel-Library, a
CUDA library whose author climbs an optimisation ladder per op, one `.cu` file a rung, each file
its kernel(s) plus the host launcher (`ckl::gemm_*` / `ckl::gemv_*`) that computes the grid from
the run-time sizes m, n, k, checks alignment and launches (or falls back to an earlier rung):
- FP32 GEMM: naive, shared tiled 32 x 33, register blocked 8 x 8 float4, cp.async double
  buffered, and the author's cuBLAS SGEMM wrapper (`cublas_gemm.cpp`);
- FP16-in / FP32-out tensor-core GEMM: WMMA (the templated `detail/wmma_gemm.cuh` instantiated by
  `gemm_wmma_fp16.cu`), mma.sync PTX, mma.sync + ldmatrix, the 128 x 128 cp.async mma kernel as
  first committed (round 7, commit dd7dab9) and at HEAD (round 9: swizzled shared tiles, templated
  for the fusion study), and the author's cublasGemmEx wrapper (`cublas_gemm_ex.cpp`);
- FP32 GEMV: naive thread-per-row, warp-per-row shuffle, float4 warp-per-row, and the author's
  cuBLAS SGEMV wrapper.

A version is the author's file verbatim (its `ckl/...` headers inlined where included, marked
KFORECAST) plus an `extern "C" kf_run` marked KFORECAST that calls the file's host launcher on the
adapter's device buffers and torch's stream. Where the launcher falls back to an earlier rung on
unaligned shapes (never at the adapters' sizes), that rung's file is written beside the version
under `deps/` (same treatment, no kf_run) and the adapter compiles it into the same library as a
second translation unit, as the author's library links them. Versions are chosen by what the
files and commits say of them, never by speed. Adapters (`adapters/bench_p84_*.py`) are ours.
The builder replaces the whole set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public84", "scripts/evalsets/public84/pub84.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public84"
CARD = "NVIDIA H200"

# Versions that failed on the H200 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

CKL = "Olajide-Badejo/CUDA-Kernel-Library"
R7 = "dd7dab9ae6db6343fbb2c99904948077f4833074"  # Phase 5c: ldmatrix and top 128x128 kernel

HEADERS = {'#include "ckl/gemm.hpp"': "include/ckl/gemm.hpp",
           '#include "ckl/gemv.hpp"': "include/ckl/gemv.hpp",
           '#include "ckl/detail/wmma_gemm.cuh"': "include/ckl/detail/wmma_gemm.cuh"}


def inline(repo, src, commit, done=None):
    """Replaces each `#include "ckl/..."` line with that header's text at `commit`, recursively,
    each header once (all are `#pragma once`)."""
    done = set() if done is None else done
    out = []
    for line in src.split("\n"):
        s = line.strip()
        if s in HEADERS:
            hpath = HEADERS[s]
            if hpath in done:
                out.append(f"// KFORECAST: the source's {s} ({hpath}) was inlined above.")
                continue
            done.add(hpath)
            hdr = inline(repo, repo.show(hpath, commit), commit, done)
            out.append(f"// KFORECAST: the source's {s} ({hpath} at the same commit), inlined "
                       "verbatim:\n" + hdr.rstrip() + f"\n// KFORECAST: end of {hpath}")
        else:
            out.append(line)
    return "\n".join(out)


def used_headers(repo, src, commit, acc=None):
    acc = [] if acc is None else acc
    for line in src.split("\n"):
        s = line.strip()
        if s in HEADERS and HEADERS[s] not in acc:
            acc.append(HEADERS[s])
            used_headers(repo, repo.show(HEADERS[s], commit), commit, acc)
    return acc


def program(repo, path, commit, what, tail=""):
    src = repo.show(path, commit)
    paths = [path] + used_headers(repo, src, commit)
    head = TEXT.header(repo, paths, what)
    if commit != repo.commit:
        head = head.replace(f"at commit {repo.commit}:", f"at commit {commit} (HEAD is {repo.commit[:12]}):")
    return head + "\n" + inline(repo, src, commit).rstrip() + "\n" + tail


def kf(sig, call, what):
    return ("\n// KFORECAST entry point (ours): " + what + "\n"
            f'extern "C" void kf_run({sig}) {{\n    {call}\n}}\n')


SG_SIG = ("const float* a, const float* b, float* c, int m, int n, int k, float alpha, float beta, "
          "cudaStream_t stream")
HG_SIG = ("const __half* a, const __half* b, float* c, int m, int n, int k, float alpha, float beta, "
          "cudaStream_t stream")
GV_SIG = ("const float* a, const float* x, float* y, int m, int n, float alpha, float beta, "
          "cudaStream_t stream")


def call(fn, args):
    return f"ckl::{fn}({args});  // KFORECAST: the file's host launcher"


SG_ARGS = "a, b, c, m, n, k, alpha, beta, stream"
GV_ARGS = "a, x, y, m, n, alpha, beta, stream"
HOW = "calls the file's host launcher (grid from m, n, k) on the adapter's buffers and torch's stream"

# (stem, path, commit or None for HEAD, what, launcher, signature, args, deps [(dep stem, path, commit)])
SGEMM = [
    ("v0_naive", "src/gemm/gemm_naive.cu", None, "gemm_naive: one thread an output element, 16 x 16 "
     "blocks, the k loop from global memory (the ladder's baseline)", "gemm_naive", []),
    ("v1_tiled", "src/gemm/gemm_tiled.cu", None, "gemm_tiled: 32 x 32 shared tiles padded to 33, one "
     "output a thread (falls back to gemm_naive for k <= 0)", "gemm_tiled",
     [("gemm_naive", "src/gemm/gemm_naive.cu", None)]),
    ("v2_register", "src/gemm/gemm_register.cu", None, "gemm_register: 128 x 128 block, BK 8, 8 x 8 "
     "register tile a thread, float4 loads, A transposed into shared (falls back to gemm_tiled "
     "when unaligned)", "gemm_register",
     [("gemm_tiled", "src/gemm/gemm_tiled.cu", None), ("gemm_naive", "src/gemm/gemm_naive.cu", None)]),
    ("v3_cp_async", "src/gemm/gemm_cp_async.cu", None, "gemm_cp_async: the register kernel double "
     "buffered with __pipeline_memcpy_async (cp.async), A kept row-major (falls back to gemm_tiled)",
     "gemm_cp_async",
     [("gemm_tiled", "src/gemm/gemm_tiled.cu", None), ("gemm_naive", "src/gemm/gemm_naive.cu", None)]),
    ("v4_cublas", "src/gemm/cublas_gemm.cpp", None, "gemm_cublas: the author's cuBLAS SGEMM wrapper "
     "(cached handle, row-major through the transpose identity); the .cpp compiled by nvcc",
     "gemm_cublas", []),
]

WMMA_DEP = [("gemm_wmma_fp16", "src/gemm/gemm_wmma_fp16.cu", None)]
HGEMM = [
    ("v0_wmma_fp16", "src/gemm/gemm_wmma_fp16.cu", None, "gemm_wmma_fp16: the templated WMMA kernel "
     "(64 x 64 block, BK 16, four warps of 2 x 2 16x16x16 fragments, 128-bit staging loads) "
     "instantiated for __half", "gemm_wmma_fp16", []),
    ("v1_mma_ptx", "src/gemm/gemm_mma_ptx.cu", None, "gemm_mma_ptx: mma.sync.m16n8k16 in inline PTX, "
     "64 x 64 block, fragments gathered by scalar shared loads (falls back to WMMA)", "gemm_mma_ptx",
     WMMA_DEP),
    ("v2_mma_ldm", "src/gemm/gemm_mma_ldmatrix.cu", None, "gemm_mma_ldm: the PTX kernel with ldmatrix "
     "fragment loads (x4 for A, x2.trans for B), 64 x 64 block (falls back to WMMA)", "gemm_mma_ldm",
     WMMA_DEP),
    ("v3_mma_opt_r7", "src/gemm/gemm_mma_opt.cu", R7, "gemm_mma_opt as first committed (Phase 5c, "
     "round 7): 128 x 128 block, BK 32, eight warps, ldmatrix, cp.async double buffering, plain "
     "row-major shared tiles (falls back to WMMA)", "gemm_mma_opt",
     [("gemm_wmma_fp16_r7", "src/gemm/gemm_wmma_fp16.cu", R7)]),
    ("v4_mma_opt", "src/gemm/gemm_mma_opt.cu", None, "gemm_mma_opt at HEAD (round 9): the round-7 "
     "kernel with XOR-swizzled shared chunks for ldmatrix (no bank conflicts), templated on a fused "
     "bias/ReLU epilogue (off here)", "gemm_mma_opt", WMMA_DEP),
    ("v5_cublas_fp16", "src/gemm/cublas_gemm_ex.cpp", None, "gemm_cublas_fp16: the author's "
     "cublasGemmEx wrapper (FP16 in, FP32 compute and out); the .cpp compiled by nvcc",
     "gemm_cublas_fp16", []),
]

GEMV = [
    ("v0_naive", "src/gemv/gemv_naive.cu", None, "gemv_naive: one thread a row walking its row "
     "(uncoalesced across the warp), 128 threads a block", "gemv_naive", []),
    ("v1_warp", "src/gemv/gemv_warp.cu", None, "gemv_warp: one warp a row, lanes stride the row "
     "(coalesced), __shfl_down_sync sum, four warps a block", "gemv_warp", []),
    ("v2_vectorized", "src/gemv/gemv_vectorized.cu", None, "gemv_vectorized: the warp kernel with "
     "float4 loads of A and x (falls back to gemv_warp when n % 4 != 0)", "gemv_vectorized",
     [("gemv_warp", "src/gemv/gemv_warp.cu", None)]),
    ("v3_cublas", "src/gemv/cublas_gemv.cpp", None, "gemv_cublas: the author's cuBLAS SGEMV wrapper "
     "(CUBLAS_OP_T on the row-major matrix); the .cpp compiled by nvcc", "gemv_cublas", []),
]


def family(repo, out, fam, steps, sig, args, adapter, notes):
    files, desc = [], []
    for stem, path, commit, what, launcher, deps in steps:
        commit = commit or repo.commit
        text = program(repo, path, commit, what, kf(sig, call(launcher, args), HOW))
        rel = f"{fam}/{stem}.cu"
        setkit.write(os.path.join(out, rel), text)
        for dstem, dpath, dcommit in deps:
            dcommit = dcommit or repo.commit
            dtext = program(repo, dpath, dcommit, "a dependency of this family's versions: the rung "
                            "their launchers fall back to on unaligned shapes (not at the adapter's "
                            "sizes), compiled as a second translation unit; no kf_run")
            setkit.write(os.path.join(out, fam, "deps", dstem + ".cu"), dtext)
        files.append(rel)
        at = "" if commit == repo.commit else f" at {commit[:7]}"
        dep = f" [+ deps/{', deps/'.join(d[0] + '.cu' for d in deps)}]" if deps else ""
        desc.append(f"{stem} ({path}{at}){dep}: {what}")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="cuda",
                 notes=notes + " Versions, in the order used: " + "; ".join(desc) + ".")
    if MEASURED_DAY:
        bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in files]
        entry["notes"] += (f" {CARD} measurement of {MEASURED_DAY}"
                           + (", failing: " + "; ".join(bad) + "; every other version passed."
                              if bad else ": every version passed."))
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public84")
    setkit.clear_set(args.out)
    repo = setkit.Repo(args.mirror, CKL)
    fams = [
        family(repo, args.out, "p84-ckl-sgemm", SGEMM, SG_SIG, SG_ARGS, "bench_p84_ckl_sgemm.py",
               "Olajide-Badejo/CUDA-Kernel-Library's FP32 GEMM ladder (row-major, C = alpha A B + "
               "beta C, one launcher signature for every rung), m = n = k = 4096 (its benchmark "
               "sweeps up to 4096), alpha 1, beta 0 on a zeroed C; each rung's file with its launcher.")
        ,
        family(repo, args.out, "p84-ckl-hgemm", HGEMM, HG_SIG, SG_ARGS, "bench_p84_ckl_hgemm.py",
               "Olajide-Badejo/CUDA-Kernel-Library's tensor-core GEMM ladder (FP16 A and B, FP32 "
               "accumulate and C, row-major), m = n = k = 8192 (its tensor benchmark sweeps square sizes to 8192), alpha 1, "
               "beta 0 on a zeroed C; the 128 x 128 kernel twice: as committed in round 7 and at "
               "HEAD after the round-9 swizzle."),
        family(repo, args.out, "p84-ckl-gemv", GEMV, GV_SIG, GV_ARGS, "bench_p84_ckl_gemv.py",
               "Olajide-Badejo/CUDA-Kernel-Library's FP32 GEMV ladder (row-major A m x n, y = alpha "
               "A x + beta y), m = n = 16384 (its benchmark sweeps square sizes to 8192), alpha 1, "
               "beta 0 on a zeroed y."),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
