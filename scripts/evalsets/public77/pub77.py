"""Builds public evaluation set 77 ("p77-" families, split "public77", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public77/pub77.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public77

Source (fetched with the session's `fetch` tool first), CUDA with host code:
- CalebDu/gemm: one author's column-major fp32 GEMM ladder, C = alpha A B + beta C
  (`include/mm.cuh`: gemm_v1 naive, gemm_v2_32x32 pointer offsets, gemm_v3_32x32 shared 32 x 32
  tiles, gemm_v4_32x32 padded tiles, gemm_v5_32x32 float4 loads / 4 outputs a thread,
  gemm_v6_64x64 4 x 4 outputs a thread, gemm_v7_128x128 8 x 8 outputs a thread), launched by
  `mm_run.cu`'s main(), which also times cublasSgemm_v2 on the same buffers (and a CUTLASS GEMM as
  its ground truth).

A version is include/mm.cuh verbatim less its CUTLASS and fmt include lines and the
`cutlass_gemm` template (CUTLASS and fmt are not on the measuring machine; nothing else in the
file uses them), each cut marked KFORECAST, plus an `extern "C" kf_run` marked KFORECAST with
mm_run.cu main()'s declarations (alpha 1, beta 0, lda = M, ldb = K, ldc = M), grid set-up and
launch line for one kernel (the v1-v6 blocks are commented out in main() and used as written), or
main()'s cublasSgemm_v2 call (a static handle in place of main()'s util::Handler, whose header
needs fmt). Built with nvcc -O3 by progbuild (-lcublas for the cuBLAS version). Two families: the
same eight versions at two shapes. Versions are chosen by what the files say of them, never by
speed. Adapters (`adapters/bench_p77_*.py`) are ours. The builder replaces the whole set folder
but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public77", "scripts/evalsets/public77/pub77.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public77"

# Versions that failed on the H200 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

CD = "CalebDu/gemm"
MM = "include/mm.cuh"
RUN = "mm_run.cu"

CUT_INCLUDES = ["#include <cutlass/gemm/device/gemm.h>",
                "#include <cutlass/util/host_tensor.h>",
                "#include <cutlass/util/reference/device/tensor_fill.h>",
                "#include <cutlass/util/reference/host/tensor_compare.h>",
                "#include <fmt/core.h>"]
CUTLASS_FN = "template <typename scalar_t>\ncudaError_t cutlass_gemm("
NEXT_FN = "template <typename scalar_t>\nvoid naive_mm("


def program(repo):
    """include/mm.cuh less the CUTLASS / fmt include lines and the cutlass_gemm template."""
    src = repo.show(MM)
    lines = src.split("\n")
    for inc in CUT_INCLUDES:
        at = [i for i, l in enumerate(lines) if l.strip() == inc]
        if len(at) != 1:
            raise SystemExit(f"pub77.py: {MM}: expected one `{inc}`")
        lines[at[0]] = (f"// KFORECAST: cut `{inc}` (CUTLASS / fmt are not on the measuring "
                        "machine; only cutlass_gemm, cut below, uses them)")
    src = "\n".join(lines)
    a, b = src.find(CUTLASS_FN), src.find(NEXT_FN)
    if a < 0 or b < a:
        raise SystemExit(f"pub77.py: {MM}: cutlass_gemm not found before naive_mm")
    src = (src[:a] + "// KFORECAST: the template cutlass_gemm (a CUTLASS device::Gemm, main()'s "
           "ground truth) is cut here:\n// it needs the CUTLASS headers.\n\n" + src[b:])
    return src


SIG = "float* a, float* b, float* c, int M, int N, int K"
DECL = ("    const auto alpha = 1.0f, beta = 0.0f;  // KFORECAST: main()'s declarations\n"
        "    const auto lda = M, ldb = K, ldc = M;\n")


def kf(body):
    return f'extern "C" void kf_run({SIG}) {{\n{DECL}{body}    cudaGetLastError();\n}}\n'


def launch32(kernel):
    return kf("    dim3 block(32, 32);  // KFORECAST: main()'s grid set-up and launch line\n"
              "    dim3 grid((M - 1) / block.x + 1, (N - 1) / block.y + 1);\n"
              f"    mm::{kernel}<<<grid, block>>>(M, N, K, a, lda, b, ldb, c, ldc, alpha, beta);\n")


def launch_tile(kernel, tile):
    return kf("    dim3 block(256);  // KFORECAST: main()'s grid set-up and launch line\n"
              f"    constexpr int Tile = {tile};\n"
              "    dim3 grid((M - 1) / Tile + 1, (N - 1) / Tile + 1);\n"
              f"    mm::{kernel}<float, float4>\n"
              "        <<<grid, block>>>(M, N, K, a, lda, b, ldb, c, ldc, alpha, beta);\n")


CUBLAS = kf("    static cublasHandle_t h = nullptr;  // KFORECAST: main()'s util::Handler hlr "
            "(cublasCreate_v2), made once\n"
            "    if (!h) cublasCreate_v2(&h);\n"
            "    const auto OPA = CUBLAS_OP_N, OPB = CUBLAS_OP_N;  // KFORECAST: main()'s "
            "declarations and cuBLAS call\n"
            "    cublasSgemm_v2(h, OPA, OPB, M, N, K, &alpha, a, lda, b, ldb, &beta, c, ldc);\n")

STEPS = [
    ("v1_naive", "gemm_v1: one thread an output, 32 x 32 blocks, a column of A and a row of B "
     "read from global memory", launch32("gemm_v1")),
    ("v2_32x32", "gemm_v2_32x32: v1 with the block's A/B/C pointers offset once (no bounds "
     "branch in the loop), 1024-thread launch bounds", launch32("gemm_v2_32x32")),
    ("v3_32x32_smem", "gemm_v3_32x32: 32 x 32 shared tiles of A and B", launch32("gemm_v3_32x32")),
    ("v4_32x32_pad", "gemm_v4_32x32: v3 with the shared tiles padded to 33 columns (bank "
     "conflicts)", launch32("gemm_v4_32x32")),
    ("v5_32x32_float4", "gemm_v5_32x32<float, float4>: 256 threads a 32 x 32 tile, float4 loads, "
     "4 outputs a thread, next tile prefetched to registers", launch_tile("gemm_v5_32x32", 32)),
    ("v6_64x64", "gemm_v6_64x64<float, float4>: 64 x 64 tiles, BK 16, 4 x 4 outputs a thread",
     launch_tile("gemm_v6_64x64", 64)),
    ("v7_128x128", "gemm_v7_128x128<float, float4>: 128 x 128 tiles, BK 8, 8 x 8 outputs a thread "
     "(2 x 2 float4 fragments), #pragma unroll(4)", launch_tile("gemm_v7_128x128", 128)),
    ("cublas_sgemm", "cublasSgemm_v2 as main() times it (\"cublas_sgemm\"), on the same buffers",
     CUBLAS),
]


def version(out, fam, repo, src, stem, what, launch):
    rel = f"{fam}/{stem}.cu"
    how = ("main()'s (mm_run.cu) declarations, grid set-up and launch line for this version, on "
           "the adapter's device buffers")
    text = (TEXT.header(repo, [MM, RUN + " (main()'s launch lines, in kf_run)"], what) + "\n"
            + src.rstrip() + "\n\n" + "// KFORECAST entry point (ours): " + how + "\n" + launch)
    setkit.write(os.path.join(out, rel), text)
    return rel


def family(out, repo, src, fam, adapter, notes):
    files, desc = [], []
    for stem, what, launch in STEPS:
        files.append(version(out, fam, repo, src, stem, what, launch))
        desc.append(f"{stem}: {what}")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="cuda",
                 notes=notes + " Versions, in the order used: " + "; ".join(desc) + ".")
    if MEASURED_DAY:
        bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in files]
        entry["notes"] += (f" H200 measurement of {MEASURED_DAY}: "
                           + ("failing: " + "; ".join(bad) if bad else "every version passed."))
    return entry


COMMON = ("CalebDu/gemm's column-major fp32 GEMM ladder (include/mm.cuh, launched as mm_run.cu's "
          "main() launches it: alpha 1, beta 0, lda = M, ldb = K, ldc = M; main() uses "
          "M = N = K = 8192 and Gaussian(5, 1) fills); CUTLASS / fmt include lines and the "
          "cutlass_gemm template cut. The reference version is the naive gemm_v1; the last is "
          "main()'s cublasSgemm_v2 call.")


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public77")
    setkit.clear_set(args.out)
    repo = setkit.Repo(args.mirror, CD)
    src = program(repo)
    fams = [
        family(args.out, repo, src, "p77-cd-sgemm", "bench_p77_cd_sgemm.py",
               COMMON + " Size: M = N = K = 4096."),
        family(args.out, repo, src, "p77-cd-sgemm-k1024", "bench_p77_cd_sgemm_k1024.py",
               COMMON + " Size: M = N = 8192, K = 1024 (a short inner dimension, the same "
               "flop count as 4096^3)."),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
