"""Builds public evaluation set 83 ("p83-" families, split "public83", kept unseen) from local
copies of two public repositories of one author that no other set uses, outside kforecast's
repository.

    python3 scripts/evalsets/public83/pub83.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public83

Sources (fetched with the session's `fetch` tool first), CUDA with host code, both column-major
BLAS-style (C = alpha A B + beta C, y = alpha A x + beta y), by yzhaiustc (Yujia Zhai):
- yzhaiustc/Optimizing-SGEMM-on-NVIDIA-Turing-GPUs: an fp32 SGEMM ladder of eleven kernels, one
  header each (`include/kernel1.cuh` ... `kernel11.cuh`: naive; 32x32x32 shared tiles; ty
  dropped; shared tiles column-major; 4x1 micro kernel; float4; 64x64x16 with 4x4; 128x128x8
  with 8x8; warp tiling; prefetching; double buffer), each launched by its own host launcher
  `test_mysgemm_vN` in `utils.cu` (cuBLAS as `test_cublas`, the author's "kernel 0"), called by
  test.cu's main() through `test_kernel`.
- yzhaiustc/Optimizing-SGEMV-on-NVIDIA-GPUs: an fp32 SGEMV ladder in one file,
  `mysgemv_gpu.cu` (sgemv_kernel_v1 a row a thread; v2 four rows a thread; v3 four rows as float4
  loads; each with its launcher mysgemv_gpu_vN), against main()'s (test.cu) cublasSgemv call.

SGEMM version: `utils.cu` verbatim with its `#include "utils.cuh"` replaced by that header's text
and its `#include "kernels.cuh"` (which includes all eleven headers) replaced by the one header of
the version's kernel (none for cuBLAS), and the launchers of the other versions and the
`test_kernel` switch cut; each change marked KFORECAST. SGEMV version: `mysgemv_gpu.cu` verbatim
with `#include "utils.h"` replaced by that header's text and the unused `#include <cusolverDn.h>`
cut (marked KFORECAST); the cuBLAS version is test.cu's include lines. Each version ends in an
`extern "C" kf_run` marked KFORECAST with main()'s scalars (SGEMM alpha 1, beta 0; SGEMV alpha 1,
beta 1) calling the author's launcher for the version (or main()'s cuBLAS call with a static
handle). Built with nvcc -O3 by progbuild (-lcublas for cuBLAS). Versions are chosen by what the
files say of them, never by speed. Adapters (`adapters/bench_p83_*.py`) are ours. The builder
replaces the whole set folder but `measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public83", "scripts/evalsets/public83/pub83.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public83"

# Versions that failed on the H200 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

SG = "yzhaiustc/Optimizing-SGEMM-on-NVIDIA-Turing-GPUs"
GV = "yzhaiustc/Optimizing-SGEMV-on-NVIDIA-GPUs"


def replace_line(src, line, new, where):
    lines = src.split("\n")
    at = [i for i, l in enumerate(lines) if l.strip() == line]
    if len(at) != 1:
        raise SystemExit(f"pub83.py: {where}: expected one `{line}`, found {len(at)}")
    lines[at[0]] = new
    return "\n".join(lines)


# ---------------------------------------------------------------- SGEMM

def functions(src):
    """Top-level `void name(` definitions of utils.cu: name -> (start, end) offsets."""
    out = {}
    for m in re.finditer(r"^void (\w+)\(", src, re.M):
        end = src.find("\n}", m.start())
        if end < 0:
            raise SystemExit(f"pub83.py: utils.cu: no end of {m.group(1)}")
        out[m.group(1)] = (m.start(), end + 2)
    return out


def sgemm_program(repo, kernel, launcher):
    """utils.cu with utils.cuh inlined, kernels.cuh replaced by one kernel header (or none) and
    every launcher but `launcher` (and test_kernel) cut."""
    src = repo.show("utils.cu")
    fns = functions(src)
    launchers = [n for n in fns if n.startswith("test_")]
    if launcher not in launchers or "test_kernel" not in launchers:
        raise SystemExit(f"pub83.py: utils.cu: {launcher} or test_kernel not found")
    for name in sorted(launchers, key=lambda x: -fns[x][0]):
        if name == launcher:
            continue
        a, b = fns[name]
        why = ("the switch of test.cu's main() over kernel numbers (kf_run calls the launcher "
               "itself)" if name == "test_kernel" else "another version's launcher")
        src = src[:a] + f"// KFORECAST: {name} cut here ({why})." + src[b:]
    hdr = repo.show("utils.cuh").rstrip()
    src = replace_line(src, '#include "utils.cuh"',
                       '// KFORECAST: utils.cuh inlined here (was #include "utils.cuh"):\n'
                       + hdr + "\n// KFORECAST: end of utils.cuh", "utils.cu")
    if kernel is None:
        new = ("// KFORECAST: #include \"kernels.cuh\" (the eleven kernel headers) cut: the "
               "cuBLAS version launches none of them")
    else:
        new = (f"// KFORECAST: #include \"kernels.cuh\" replaced by the one header of this "
               f"version's kernel, include/{kernel}.cuh, inlined:\n"
               + repo.show(f"include/{kernel}.cuh").rstrip()
               + f"\n// KFORECAST: end of include/{kernel}.cuh")
    src = replace_line(src, '#include "kernels.cuh"', new, "utils.cu")
    return src


SG_SIG = "float* A, float* B, float* C, int M, int N, int K"
SG_DECL = "    FLOAT alpha = 1.0, beta = 0.;  // KFORECAST: test.cu main()'s scalars\n"


def sg_kf(body):
    return (f'extern "C" void kf_run({SG_SIG}) {{\n{SG_DECL}{body}    cudaGetLastError();\n}}\n')


def sg_launch(n):
    return sg_kf(f"    test_mysgemm_v{n}(M, N, K, alpha, A, B, beta, C);  // KFORECAST: "
                 f"test_kernel's case {n}\n")


SG_CUBLAS = sg_kf("    static cublasHandle_t err = nullptr;  // KFORECAST: main()'s "
                  "cublasCreate(&err), made once\n"
                  "    if (!err) cublasCreate(&err);\n"
                  "    test_cublas(err, M, N, K, alpha, A, B, beta, C);  // KFORECAST: "
                  "test_kernel's case 0\n")

SG_STEPS = [
    ("v1_naive", "kernel1, mysgemm_v1: naive, one thread an element of C, 32 x 32 blocks "
     "(__launch_bounds__(1024))", 1),
    ("v2_tile32", "kernel2, mysgemm_v2: kernel1 + 32x32x32 shared tiles (cache blocking), B "
     "transposed into shared memory", 2),
    ("v3_tile32_1d", "kernel3, mysgemm_v3: kernel2 on a 1-D block of 1024 (ty dropped, row = "
     "tx & 31, col = tx >> 5)", 3),
    ("v4_tile32_colmajor", "kernel4, mysgemm_v4: kernel3 with column-major shared tiles "
     "(fewer bank conflicts)", 4),
    ("v5_micro4x1", "kernel5, mysgemm_v5: kernel4 + 4x1 micro kernel, 256 threads", 5),
    ("v6_float4", "kernel6, mysgemm_v6: kernel5 + float4 loads/stores", 6),
    ("v7_64x64x16_4x4", "kernel7, mysgemm_v7: {Ms,Ns,Ks} = {64,64,16}, 4x4 a thread", 7),
    ("v8_128x128x8_8x8", "kernel8, mysgemm_v8: {Ms,Ns,Ks} = {128,128,8}, 8x8 a thread", 8),
    ("v9_warp_tiling", "kernel9, mysgemm_v9: kernel8 + warp-level tiling", 9),
    ("v10_prefetch", "kernel10, mysgemm_v10: kernel9 + prefetching the next tiles into "
     "registers", 10),
    ("v11_double_buffer", "kernel11, mysgemm_v11: kernel10 + double-buffered shared memory "
     "(one __syncthreads a step)", 11),
    ("cublas_sgemm", "cuBLAS cublasSgemm (test_cublas, the author's kernel 0), on the same "
     "buffers", None),
]


def sgemm_family(out, repo, fam, adapter, notes):
    files, desc = [], []
    for stem, what, n in SG_STEPS:
        kernel = None if n is None else f"kernel{n}"
        launcher = "test_cublas" if n is None else f"test_mysgemm_v{n}"
        src = sgemm_program(repo, kernel, launcher)
        launch = SG_CUBLAS if n is None else sg_launch(n)
        paths = ["utils.cu", "utils.cuh"] + ([f"include/{kernel}.cuh"] if kernel else [])
        paths.append("test.cu (main()'s scalars and the test_kernel case, in kf_run)")
        rel = f"{fam}/{stem}.cu"
        text = (TEXT.header(repo, paths, what) + "\n" + src.rstrip() + "\n\n"
                + f"// KFORECAST entry point (ours): test.cu main()'s alpha / beta and the "
                f"launcher {launcher} on the adapter's device buffers\n" + launch)
        setkit.write(os.path.join(out, rel), text)
        files.append(rel)
        desc.append(f"{stem}: {what}")
    return entry(out, repo, fam, adapter, files, desc, notes)


# ---------------------------------------------------------------- SGEMV

def sgemv_program(repo):
    src = repo.show("mysgemv_gpu.cu")
    src = replace_line(src, "#include <cusolverDn.h>",
                       "// KFORECAST: cut `#include <cusolverDn.h>` (nothing here uses cuSOLVER)",
                       "mysgemv_gpu.cu")
    hdr = repo.show("utils.h").rstrip()
    src = replace_line(src, '#include "utils.h"',
                       '// KFORECAST: utils.h inlined here (was #include "utils.h"):\n'
                       + hdr + "\n// KFORECAST: end of utils.h", "mysgemv_gpu.cu")
    return src


def sgemv_cublas_program(repo):
    """test.cu's include lines (up to main()), the cuSOLVER and utils.h ones cut."""
    src = repo.show("test.cu")
    head = src[:src.index("int main(")].rstrip()
    head = replace_line(head, "#include <cusolverDn.h>",
                        "// KFORECAST: cut `#include <cusolverDn.h>` (nothing here uses cuSOLVER)",
                        "test.cu")
    head = replace_line(head, '#include "utils.h"',
                        "// KFORECAST: cut `#include \"utils.h\"` (main()'s helpers; the cuBLAS "
                        "call needs none of them)", "test.cu")
    return head + ("\n// KFORECAST: main() cut here (host set-up, sanity check against "
                   "mysgemv, timing loop); its cublasSgemv call is in kf_run below.\n")


GV_SIG = "float* dA, float* dX, float* dY, int m, int n"
GV_DECL = "    float alpha = 1., beta = 1.;  // KFORECAST: test.cu main()'s scalars\n"


def gv_kf(body):
    return f'extern "C" void kf_run({GV_SIG}) {{\n{GV_DECL}{body}    cudaGetLastError();\n}}\n'


GV_STEPS = [
    ("v1_row_per_thread", "sgemv_kernel_v1 via mysgemv_gpu_v1: a thread a row of y, 32-thread "
     "blocks (DIM_M), A read down its columns", "mysgemv_gpu_v1"),
    ("v2_four_rows", "sgemv_kernel_v2 via mysgemv_gpu_v2: four rows a thread (scalar loads), "
     "32-thread blocks of 128 rows", "mysgemv_gpu_v2"),
    ("v3_float4", "sgemv_kernel_v3 via mysgemv_gpu_v3: four rows a thread as float4 loads, "
     "#pragma unroll, float4 store of y", "mysgemv_gpu_v3"),
    ("cublas_sgemv", "cuBLAS cublasSgemv as test.cu's main() calls it (kernel_num 2)", None),
]


def sgemv_family(out, repo, fam, adapter, notes):
    files, desc = [], []
    for stem, what, fn in GV_STEPS:
        rel = f"{fam}/{stem}.cu"
        if fn is None:
            src = sgemv_cublas_program(repo)
            paths = ["test.cu (include lines, and main()'s cublasSgemv call in kf_run)"]
            launch = gv_kf("    static cublasHandle_t myHandle = nullptr;  // KFORECAST: main()'s "
                           "cublasCreate(&myHandle), made once\n"
                           "    if (!myHandle) cublasCreate(&myHandle);\n"
                           "    cublasSgemv(myHandle, CUBLAS_OP_N, m, n, &alpha, dA, m, dX, 1, "
                           "&beta, dY, 1);  // KFORECAST: main()'s call\n")
            how = "test.cu main()'s cublasSgemv call"
        else:
            src = sgemv_program(repo)
            paths = ["mysgemv_gpu.cu", "utils.h",
                     "test.cu (main()'s scalars, in kf_run; main() calls mysgemv, which picks "
                     "v1 below m = 9216 and v3 above)"]
            launch = gv_kf(f"    {fn}(m, n, alpha, dA, m, dX, beta, dY);  // KFORECAST: the "
                           "launcher of this version, lda = m as mysgemv passes it\n")
            how = f"test.cu main()'s alpha / beta and the launcher {fn}"
        text = (TEXT.header(repo, paths, what) + "\n" + src.rstrip() + "\n\n"
                + f"// KFORECAST entry point (ours): {how} on the adapter's device buffers\n"
                + launch)
        setkit.write(os.path.join(out, rel), text)
        files.append(rel)
        desc.append(f"{stem}: {what}")
    return entry(out, repo, fam, adapter, files, desc, notes)


def entry(out, repo, fam, adapter, files, desc, notes):
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    e = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="cuda",
             notes=notes + " Versions, in the order used: " + "; ".join(desc) + ".")
    if MEASURED_DAY:
        bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in files]
        e["notes"] += (f" H200 measurement of {MEASURED_DAY}: "
                       + ("failing: " + "; ".join(bad) if bad else "every version passed."))
    return e


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public83")
    setkit.clear_set(args.out)
    sg = setkit.Repo(args.mirror, SG)
    gv = setkit.Repo(args.mirror, GV)
    fams = [
        sgemm_family(args.out, sg, "p83-yz-sgemm", "bench_p83_yz_sgemm.py",
                     "yzhaiustc's column-major fp32 SGEMM ladder (include/kernelN.cuh, each "
                     "launched by its utils.cu launcher test_mysgemm_vN as test.cu's main() "
                     "runs it: alpha 1, beta 0, lda = M, ldb = K, ldc = M; main() sweeps M = N = "
                     "K = 256 .. 6144, 256 .. 2048 for kernels 1-4). The reference version is "
                     "the naive kernel1; the last is cuBLAS (the author's kernel 0). Size: "
                     "M = N = K = 4096."),
        sgemv_family(args.out, gv, "p83-yz-sgemv", "bench_p83_yz_sgemv.py",
                     "yzhaiustc's column-major fp32 SGEMV ladder (mysgemv_gpu.cu, one launcher "
                     "a kernel), y = alpha A x + beta y with alpha = beta = 1 as test.cu's "
                     "main(); the reference version is sgemv_kernel_v1; the last is main()'s "
                     "cublasSgemv call. Size: m = n = 20480 (the README's sample run)."),
    ]
    srcs = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, srcs)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
