"""Builds public evaluation set 75 ("p75-" families, split "public75", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public75/pub75.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public75

Source (fetched with the session's `fetch` tool first): GilgameshXYZ123/Dragon-Alpha-v1.2, a
Java deep-learning library whose CUDA engine (`source/engine-cuda-base/`, built with MSVC into a
JNI library) carries its own handwritten fp32 GEMM kernels, no CUTLASS or cuBLAS: in
`Cuda_matMul/Cuda_matMul/`, `matMul_kernel.cuh` and `matMul_uernel.cuh` (C = A B) and
`matMulT2_kernel.cuh` and `matMulT2_uernel.cuh` (C = A B^T). The style is the library's own:
every kernel a `template<int LB, int STEP, ...>` (LB = log2 of the block side), launched through
a function-like macro (`k88(LB, stream, A, B, C, N, M, K, SB)`, `u88_mgk(...)`, `k44T2(...)`)
that sets the grid, float4 loads and stores, double-buffered shared tiles, index macros from
`micro.cuh` (get, lget, simdMM4). The variants differ in the register tile a thread computes
(8x8, 8x4, 4x8, 4x4, 2x2, 1x1), in how the K loop is staged (`_mgk`: K a multiple of the step),
and in the "uernel" rewrites (K a multiple of the block side). The library's dispatcher
(`matMul4x` in matMul.cuh, `matMul4x_T2` in matMulT2.cuh) picks u88_mgk / u88T2_mgk with LB = 4
for large matrices, and the author's speed test (test.cuh's testSpeed<4>, called from its
main() at 2048^3) launches each one with `k..(LB, NULL, dA, dB, dC, N, M, K, M)`.

A version is one kernel family: the header that defines it, verbatim (utf-8; matMulT2_kernel.cuh
is read as GB18030, its one non-ASCII character being a full-width colon in a comment), after
micro.cuh verbatim and frame.cuh's includes less <jni.h> (marked KFORECAST), plus an
`extern "C" kf_run` marked KFORECAST running the author's test.cuh launch line for that macro
with LB = 4 (testSpeed<4>) on the adapter's buffers. One header gives several versions, one macro
each; versions are chosen by what the files say of them (the dispatcher's picks and the
variants beside them), never by speed. Adapters (`adapters/bench_p75_*.py`) are ours. The
builder replaces the whole set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public75", "scripts/evalsets/public75/pub75.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public75"

# Versions that failed on the H200 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"
CARD = "H200"

DA = "GilgameshXYZ123/Dragon-Alpha-v1.2"
DIR = "source/engine-cuda-base/Cuda_matMul/Cuda_matMul/"
MICRO = DIR + "micro.cuh"
GB18030 = {DIR + "matMulT2_kernel.cuh"}

PREAMBLE = ("// KFORECAST: frame.cuh's includes (the library's first header), less <jni.h> and "
            "the JNI\n// glue; CUDA_API_PER_THREAD_DEFAULT_STREAM and COMPILE as frame.cuh "
            "defines them.\n"
            "#define CUDA_API_PER_THREAD_DEFAULT_STREAM\n"
            "#include \"cuda_runtime.h\"\n"
            "#include \"device_launch_parameters.h\"\n"
            "#include <iostream>\n"
            "#include <cmath>\n"
            "#include <time.h>\n"
            "#define COMPILE 1\n")


def show(repo, path):
    if path in GB18030:
        return repo.git("show", f"{repo.commit}:{path}", binary=True).decode("gb18030")
    return repo.show(path)


def kf(sig, body):
    return f'extern "C" void kf_run({sig}) {{\n{body}}}\n'


SIG = "const float* dA, const float* dB, float* dC, int N, int M, int K"


def launch(line):
    return kf(SIG, "    const int LB = 4;  // KFORECAST: testSpeed<4>, as the author's main() "
              "calls it\n"
              f"    {line}  // KFORECAST: test.cuh's launch line\n")


def cuda_version(out, fam, repo, header, stem, what, line):
    paths = [DIR + "frame.cuh", MICRO, header]
    text = (TEXT.header(repo, paths, what) + "\n" + PREAMBLE + "\n"
            + f"// KFORECAST: {MICRO}, verbatim:\n" + show(repo, MICRO).rstrip() + "\n"
            + f"// KFORECAST: end of {MICRO}\n\n"
            + f"// KFORECAST: {header}, verbatim:\n" + show(repo, header).rstrip() + "\n"
            + f"// KFORECAST: end of {header}\n\n"
            + "// KFORECAST entry point (ours): the author's launch line for this macro on the "
            "adapter's buffers\n" + launch(line))
    rel = f"{fam}/{stem}.cu"
    setkit.write(os.path.join(out, rel), text)
    return rel


KER = DIR + "matMul_kernel.cuh"
UER = DIR + "matMul_uernel.cuh"
T2K = DIR + "matMulT2_kernel.cuh"
T2U = DIR + "matMulT2_uernel.cuh"

MM = "u88_mgk(LB, NULL, dA, dB, dC, N, M, K, M);"

MATMUL_STEPS = [
    (KER, "k88", "kernel_8_8 via k88: 16 x 16 threads, an 8 x 8 tile of C a thread (128 x 128 a "
     "block), double-buffered shared tiles, K >= 8; the dispatcher's pick for K % 8 != 0",
     "k88(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (KER, "k88_mgk", "kernel_8_8_mgk via k88_mgk: kernel_8_8 for K a multiple of 8 (no K "
     "remainder); the dispatcher's pick for K % 16 != 0, K % 8 == 0",
     "k88_mgk(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (UER, "u88_mgk", "uernel_8_8_mgk via u88_mgk: the 8 x 8 tile rewritten for K a multiple of "
     "16; the dispatcher's pick for large matrices (K % 16 == 0)", MM),
    (KER, "k84", "kernel_8_4 via k84: an 8 x 4 tile a thread (128 x 64 a block)",
     "k84(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (UER, "u84_mgk", "uernel_8_4_mgk via u84_mgk: the 8 x 4 uernel",
     "u84_mgk(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (KER, "k48", "kernel_4_8 via k48: a 4 x 8 tile a thread (64 x 128 a block)",
     "k48(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (KER, "k44", "kernel_4_4 via k44: a 4 x 4 tile a thread (64 x 64 a block)",
     "k44(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (UER, "u44_mgk", "uernel_4_4_mgk via u44_mgk: the 4 x 4 uernel",
     "u44_mgk(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (KER, "k22", "kernel_2_2 via k22 (the file's [Small] section): a 2 x 2 tile a thread",
     "k22(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (KER, "k11", "kernel_1_1 via k11: one element of C a thread, shared tiles",
     "k11(LB, NULL, dA, dB, dC, N, M, K, M);"),
]

T2_STEPS = [
    (T2K, "k88T2", "kernel_t2_8_8 via k88T2: 8 x 32 threads, an 8 x 8 tile of C a thread, B read "
     "as rows of B^T; the T2 dispatcher's pick for K % 16 != 0",
     "k88T2(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (T2K, "k88T2_mgk", "kernel_t2_8_8_mgk via k88T2_mgk: kernel_t2_8_8 for K a multiple of 8",
     "k88T2_mgk(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (T2U, "u88T2_mgk", "uernel_t2_8_8_mgk via u88T2_mgk: the 8 x 8 uernel, the T2 dispatcher's "
     "pick for large matrices (K % 16 == 0)",
     "u88T2_mgk(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (T2K, "k84T2", "kernel_t2_8_4 via k84T2: an 8 x 4 tile a thread",
     "k84T2(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (T2U, "u48T2_mgk", "uernel_t2_4_8_mgk via u48T2_mgk: the 4 x 8 uernel",
     "u48T2_mgk(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (T2K, "k44T2", "kernel_t2_4_4 via k44T2: a 4 x 4 tile a thread",
     "k44T2(LB, NULL, dA, dB, dC, N, M, K, M);"),
    (T2U, "u44T2_mgk", "uernel_t2_4_4_mgk via u44T2_mgk: the 4 x 4 uernel",
     "u44T2_mgk(LB, NULL, dA, dB, dC, N, M, K, M);"),
]


def measured_note(entry):
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in entry["files"]]
    if bad:
        entry["notes"] += (f" {CARD} measurement of {MEASURED_DAY}, failing: " + "; ".join(bad)
                           + "; every other version passed.")
    else:
        entry["notes"] += f" {CARD} measurement of {MEASURED_DAY}: every version passed."
    return entry


def cuda_family(mirror, out, fam, steps, adapter, notes):
    repo = setkit.Repo(mirror, DA)
    files, desc = [], []
    for header, stem, what, line in steps:
        files.append(cuda_version(out, fam, repo, header, stem, what, line))
        desc.append(f"{stem} ({os.path.basename(header)}) {what}")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="cuda",
                 notes=notes + " Versions, in the order used: " + "; ".join(desc) + ".")
    if MEASURED_DAY:
        entry = measured_note(entry)
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public75")
    setkit.clear_set(args.out)
    fams = [
        cuda_family(args.mirror, args.out, "p75-da-matmul", MATMUL_STEPS, "bench_p75_da_matmul.py",
                    "Dragon-Alpha's fp32 GEMM kernels, C[N, M] = A[N, K] B[K, M] row-major "
                    "(stride of B and C = M), N = M = K = 4096 (the author's main() tests 2048^3), "
                    "values (rand() % 1000) / 1000 as test.cuh's newRandomPtr; each version one "
                    "kernel macro of matMul_kernel.cuh or matMul_uernel.cuh with LB = 4, the "
                    "reference k88; micro.cuh inlined."),
        cuda_family(args.mirror, args.out, "p75-da-matmul-t2", T2_STEPS, "bench_p75_da_matmul_t2.py",
                    "Dragon-Alpha's fp32 GEMM kernels with B transposed, C[N, M] = A[N, K] "
                    "B[M, K]^T row-major (SC = M), N = M = K = 4096, values (rand() % 1000) / "
                    "1000; each version one kernel macro of matMulT2_kernel.cuh or "
                    "matMulT2_uernel.cuh with LB = 4, the reference k88T2; micro.cuh inlined."),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
