"""Builds public evaluation set 69 ("p69-" families, split "public69", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public69/pub69.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public69

Source (fetched with the session's `fetch` tool first), CUDA with heavy host code:
- asuka158/CUDA_Learning: its fp32 sum-reduction program (`02_reduce/reduce_gpu.cu`: a main that
  allocates, times with cudaEvent and checks, and a host `reduce(d_x, method)` that picks one of
  the kernels of `02_reduce/reduce.cuh` by a method switch: shared, dynamic shared, atomic,
  __syncwarp, warp shuffle, cooperative-groups tile shuffle, grid-stride "idle", and a float4 +
  two-level shuffle "best" template), and its WMMA tensor-core HGEMM ladder
  (`03_gemm/hgemm/hgemm.cuh`, myHGEMMAlignedV1..V5, launched by `hgemm_test.cu`'s templated
  dispatcher `myF16F16GemmTCWarp<algo>`).

A version is the program file verbatim (its local headers inlined where included, marked
KFORECAST) plus an `extern "C" kf_run` marked KFORECAST calling the file's own host function
(`reduce(d_x, method)` with one method, or `myF16F16GemmTCWarp<algo>`) on the adapter's device
buffers; built with nvcc -O3 by progbuild. Versions are chosen by what the files say of them,
never by speed. Adapters (`adapters/bench_p69_*.py`) are ours. The builder replaces the whole set
folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public69", "scripts/evalsets/public69/pub69.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public69"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

AS = "asuka158/CUDA_Learning"


def kf(sig, body, ret="void"):
    return f'extern "C" {ret} kf_run({sig}) {{\n{body}}}\n'


def cuda_version(out, fam, repo, path, stem, what, launch, how, inlines):
    """The program file at the mirror's HEAD, each local header of `inlines` ((include line,
    header path), ...) inlined where included, plus the KFORECAST kf_run `launch`."""
    src = repo.show(path)
    paths = [path]
    lines = src.split("\n")
    for line, hpath in inlines:
        at = [i for i, l in enumerate(lines) if l.strip() == line]
        if len(at) != 1:
            raise SystemExit(f"pub69.py: {path}: expected one `{line}`")
        hdr = repo.show(hpath)
        lines[at[0]] = (f"// KFORECAST: the source's {line} ({hpath} at the same commit), inlined "
                        "verbatim:\n" + hdr.rstrip() + f"\n// KFORECAST: end of {hpath}")
        paths.append(hpath)
    src = "\n".join(lines)
    rel = f"{fam}/{stem}.cu"
    text = (TEXT.header(repo, paths, what) + "\n" + src.rstrip() + "\n\n"
            + "// KFORECAST entry point (ours): " + how + "\n" + launch)
    setkit.write(os.path.join(out, rel), text)
    return rel


# ---------------------------------------------------------------- reduction program
RD = "02_reduce/reduce_gpu.cu"
RD_INL = [('#include "error.cuh"', "02_reduce/error.cuh"),
          ('#include "reduce.cuh"', "02_reduce/reduce.cuh")]


def rlaunch(method):
    return kf("real* d_x", f"    return reduce(d_x, {method});  // KFORECAST: the file's host "
              f"reduce() with method {method} (main() passes argv[1])\n", "real")


REDUCE_STEPS = [
    (RD, "m1_shared", "method 1, reduce_shared: a static 128-slot shared tree a block, one "
     "partial a block copied back and added on the host", rlaunch(1)),
    (RD, "m2_dynamic", "method 2, reduce_dynamic: the same tree in dynamic shared memory, "
     "partials added on the host", rlaunch(2)),
    (RD, "m3_atomic", "method 3, reduce_atomic: the dynamic shared tree, each block's sum "
     "atomicAdd-ed into one float", rlaunch(3)),
    (RD, "m4_syncwarp", "method 4, reduce_syncwarp: the tree to 64 with __syncthreads, the last "
     "warp's steps with __syncwarp, atomicAdd", rlaunch(4)),
    (RD, "m5_shfl", "method 5, reduce_shfl: the tree to 32, then __shfl_down_sync in the first "
     "warp, atomicAdd", rlaunch(5)),
    (RD, "m6_coop_groups", "method 6, reduce_cp: the tree to 32, then a cooperative-groups "
     "thread_block_tile<32> shfl_down, atomicAdd", rlaunch(6)),
    (RD, "m7_idle_gridstride", "method 7, reduce_idle: 10240 blocks, a grid-stride register sum "
     "a thread, then the tree and the tile shuffle, atomicAdd", rlaunch(7)),
    (RD, "m8_best_float4", "method 8, reduce_best<1024>: float4 loads, a warp shuffle, one shared "
     "slot a warp and a last warp shuffle, 1024-thread blocks, atomicAdd", rlaunch(8)),
]

# ---------------------------------------------------------------- WMMA HGEMM ladder
HG = "03_gemm/hgemm/hgemm_test.cu"
HG_INL = [('#include "hgemm.cuh"', "03_gemm/hgemm/hgemm.cuh")]
HSIG = "half* a, half* b, half* c, int M, int N, int K"


def hlaunch(algo):
    return kf(HSIG, f"    myF16F16GemmTCWarp<{algo}>(a, b, c, M, N, K);  // KFORECAST: the file's "
              "templated dispatcher, as main() calls it\n    cudaGetLastError();\n")


HGEMM_STEPS = [
    (HG, "v1_wmma_smem", "myHGEMMAlignedV1: 128 x 256 block tiles, BK 32, padded shared A/B "
     "tiles, 8 warps each 4 x 4 wmma 16x16x16 fragments with half accumulators",
     hlaunch("HGEMMAlignedV1")),
    (HG, "v2_async_copy", "myHGEMMAlignedV2: V1 with the global-to-shared loads as cp.async "
     "(inline PTX) instead of register copies", hlaunch("HGEMMAlignedV2")),
    (HG, "v3_double_buffer", "myHGEMMAlignedV3: cp.async into two dynamic shared stages (double "
     "buffering, 98304 B allowed)", hlaunch("HGEMMAlignedV3")),
    (HG, "v4_grid_swizzle", "myHGEMMAlignedV4: V3 with the grid split along N into 4096-wide "
     "slabs on gridDim.z (block swizzle for L2 reuse)", hlaunch("HGEMMAlignedV4")),
    (HG, "v5_refined", "myHGEMMAlignedV5: V4 with its double-buffered main k loop under "
     "#pragma unroll 32 (the rest as V4 up to layout)", hlaunch("HGEMMAlignedV5")),
]


def cuda_family(mirror, out, fam, repo_name, steps, adapter, notes, how, inlines):
    repo = setkit.Repo(mirror, repo_name)
    files, desc = [], []
    for path, stem, what, launch in steps:
        files.append(cuda_version(out, fam, repo, path, stem, what, launch, how, inlines))
        desc.append(f"{stem} ({os.path.basename(path)}) {what}")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="cuda",
                 notes=notes + " Versions, in the order used: " + "; ".join(desc) + ".")
    if MEASURED_DAY:
        entry = setkit.measured_note(entry, FAILING, MEASURED_DAY)
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public69")
    setkit.clear_set(args.out)
    fams = [
        cuda_family(args.mirror, args.out, "p69-as-reduce", AS, REDUCE_STEPS, "bench_p69_as_reduce.py",
                    "CUDA_Learning's fp32 sum-reduction program (reduce_gpu.cu: N = 100000000 as a "
                    "file constant, BLOCK_SIZE 128, main() fills 1.23 and times reduce() with "
                    "cudaEvent); each version is the whole program with kf_run calling its host "
                    "reduce(d_x, method), which allocates the output, launches the method's kernel, "
                    "copies back and (methods 1-2) adds the block partials on the host. error.cuh and "
                    "reduce.cuh inlined. Method 0 (reduce_global) is left out: it reduces in place "
                    "and overwrites its input.",
                    "calls the file's host reduce() on the adapter's device buffer", RD_INL),
        cuda_family(args.mirror, args.out, "p69-as-hgemm", AS, HGEMM_STEPS, "bench_p69_as_hgemm.py",
                    "CUDA_Learning's fp16 WMMA tensor-core HGEMM ladder, C = A B row-major, half "
                    "accumulators, M = 4096, N = 8192, K = 1024 (aligned to its 128 x 256 x 32 tiles; "
                    "N > 4096 so V4/V5 split the grid); kf_run calls hgemm_test.cu's templated "
                    "dispatcher myF16F16GemmTCWarp<algo> (hgemm.cuh inlined) as its main() does.",
                    "calls the file's templated host dispatcher on the adapter's device buffers",
                    HG_INL),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
