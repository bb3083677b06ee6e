"""Builds public evaluation set 35 ("p35-" families, split "public35", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public35/pub35.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public35

Sources (fetched with the session's `fetch` tool first), all CUDA programs with host code:
- CRAN3-Wang/cuda_ops: sgemm/ (one author's SGEMM ladder v0-v8, one .cu file and header a
  step, explicit template instantiations, and src/sgemm.cu's main() launching every step in
  turn at 2048^3);
- m8ngotree/mlsys: kernels/quantization/global-int8/quantize_{naive_0,vectorized_1,smem_2,
  reduction_3}.cu (one author's per-tensor int8 quantisation ladder: abs-max kernel, host
  scale, quantise, dequantise; whole programs with main());
- yencal/gpu-scan-optimization: src/*.cuh (inclusive int32 scan: multi-kernel, chained,
  decoupled lookback, each a struct with GetTempSize()/Run(), main.cu running them in turn);
- yencal/gpu-matrix-transpose: transpose_kernels.cuh (square transpose ladder; main.cu's
  RunTest() launches each kernel with its block and grid);
- Greedy-cy/orin-cuda-operator-library: softmax/softmax_v0..v4.cu and rmsnorm/rmsnorm_v0..v4.cu
  (one author's ladders, each step a standalone benchmark with a `launch_x()` host launcher
  and a main() parsing Options).

A version is one CUDA program: the source's file(s) verbatim, its own headers inlined where it
#includes them, less its main() (for the whole-program files), plus an `extern "C" kf_run`
marked KFORECAST that runs the source's own launch lines for that step (taken from the source's
main() or launcher text) on device buffers the adapter passes. Steps are the authors' own
(file names, main() order, README tables), never chosen by speed. Adapters
(`adapters/bench_p35_*.py`) are ours. The builder replaces the whole set folder but
`measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402
from cpp_cut import cut_function, match_brace  # noqa: E402

TEXT = setkit.SetText("Evaluation set public35", "scripts/evalsets/public35/pub35.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public35"

# Versions that failed on the H100 (measurement of MEASURED_DAY, all passed): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-27"


def inline_includes(src, headers, seen=None):
    """Replaces `#include "name"` lines naming one of the source's own headers by its text
    (recursively, each header once, as #pragma once would)."""
    seen = set() if seen is None else seen

    def repl(m):
        name = m.group(1)
        key = os.path.basename(name)
        if key not in headers:
            return m.group(0)
        if key in seen:
            return f"// KFORECAST: {name} already inlined above"
        seen.add(key)
        body = inline_includes(headers[key], headers, seen)
        return (f"// KFORECAST: {name} (the source's header) inlined below\n{body.rstrip()}\n"
                f"// KFORECAST: end of {name}")
    return re.sub(r'^[ \t]*#include\s*"([\w./]+)"[^\n]*$', repl, src, flags=re.M)


def write_version(out, fam, name, repo, paths, what, text):
    rel = f"{fam}/{name}.cu"
    setkit.write(os.path.join(out, rel), TEXT.header(repo, paths, what) + text.rstrip() + "\n")
    return rel


def family(fam, files, repo, adapter, notes, out):
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                 notes=notes)
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


# ---------------------------------------------------------------- CRAN3-Wang SGEMM ladder
SGEMM_STEPS = [
    (0, "v0_global_mem", "global memory, one output a thread"),
    (1, "v1_shared_mem", "16 x 16 shared-memory tiles"),
    (2, "v2_increase_workload_of_threads", "each thread computes a 2 x 2 strided block"),
    (3, "v3_float4", "float4 tile loads, 4 outputs a thread"),
    (4, "v4_reg", "register-held A values, 4 outputs a thread"),
    (5, "v5_reg_float4", "64 x 64 x 64 tiles, 4 x 4 register tile, float4"),
    (6, "v6_transpose_A_smem", "as v5 with A transposed in shared memory"),
    (7, "v7_double_buffer", "128 x 128 x 8 tiles, 8 x 8 per thread, double-buffered shared memory"),
    (8, "v8_double_reg", "as v7 with double-buffered registers"),
]


def main_blocks(main_fn):
    """The brace blocks `{ ... }` at the top level of main()'s body, as text."""
    body_start = main_fn.index("{") + 1
    blocks, i = [], body_start
    while True:
        j = main_fn.find("\n    {", i)
        if j < 0:
            break
        k = main_fn.index("{", j)
        end = match_brace(main_fn, k)
        blocks.append(main_fn[k:end])
        i = end
    return blocks


def cw_sgemm(mirror, out):
    repo = setkit.Repo(mirror, "CRAN3-Wang/cuda_ops")
    driver = repo.show("sgemm/src/sgemm.cu")
    main_fn = cut_function(driver, "main", with_comment=False)
    defines = [m.group(0) for m in re.finditer(r"^#define (THREAD_PER_BLOCK|STRIDE)\b[^\n]*$", driver, re.M)]
    if len(defines) != 2:
        raise SystemExit("pub35.py: sgemm.cu's THREAD_PER_BLOCK/STRIDE defines not found")
    blocks = main_blocks(main_fn)
    fam = "p35-cw-sgemm"
    files = []
    for v, stem, what in SGEMM_STEPS:
        inc, src_path = f"sgemm/include/sgemm_{stem}.cuh", f"sgemm/src/sgemm_{stem}.cu"
        src = inline_includes(repo.show(src_path), {f"sgemm_{stem}.cuh": repo.show(inc)})
        launch = re.compile(r"\bsgemm%d\s*(<[^;]*?>)?\s*<<<" % v)
        block = [b for b in blocks if launch.search(b)]
        if len(block) != 1:
            raise SystemExit(f"pub35.py: no single main() block launches sgemm{v}")
        # The block's lines, less the launches of the other steps it also holds.
        lines = [ln for ln in block[0].split("\n")
                 if "<<<" not in ln or launch.search(ln)]
        entry = ("\n// KFORECAST: the defines of the source's src/sgemm.cu, and an entry point (ours)\n"
                 "// running main()'s block for this step (its other launches left out) on device buffers.\n"
                 + "\n".join(defines) + "\n"
                 "extern \"C\" void kf_run(float *d_A, float *d_B, float *d_C_mysgemm, int m, int n, int k) {\n"
                 "    " + "\n".join(lines).strip() + "\n}\n")
        files.append(write_version(out, fam, f"sgemm_{stem}", repo, [src_path, inc, "sgemm/src/sgemm.cu"],
                                   f"Step v{v} of the SGEMM ladder ({what}).", src + entry))
    return family(fam, files, repo, "bench_p35_cw_sgemm.py",
                  "C = A B, row-major float32, m = n = k = 2048 (the source's main()), A and B uniform in "
                  "[-1, 1) (its randomMatrix): " + "; ".join(f"v{v} {w}" for v, _, w in SGEMM_STEPS)
                  + ". Each step's launch block is main()'s (grid and block as written there; v5/v6 and "
                  "v7/v8 share a block, only the step's own launch is kept; the `Sgemm` comparison kernel "
                  "of sgemm_comp.cu is not a step and is left out).", out)


# ---------------------------------------------------------------- m8ngotree int8 quantisation
def m8_quant(mirror, out):
    repo = setkit.Repo(mirror, "m8ngotree/mlsys")
    steps = [("quantize_naive_0", "global atomics in the abs-max kernel"),
             ("quantize_vectorized_1", "+ 4-wide vectorised quantise kernel"),
             ("quantize_smem_2", "+ shared-memory tree reduction in the abs-max kernel"),
             ("quantize_reduction_3", "+ warp-shuffle reduction in the abs-max kernel")]
    fam = "p35-m8-quant"
    files = []
    for stem, what in steps:
        path = f"kernels/quantization/global-int8/{stem}.cu"
        src = repo.show(path)
        main_fn = cut_function(src, "main", with_comment=False).rstrip("\n")
        a = main_fn.index("    float init_val")
        deq = re.search(r"^[ \t]*dequantize_kernel<<<[^;]*;", main_fn, re.M)
        if deq is None:
            raise SystemExit(f"pub35.py: {path}: no dequantize launch in main()")
        lines = [ln for ln in main_fn[a:deq.end()].split("\n")
                 if "printf" not in ln and "h_input" not in ln]
        entry = ("\n\n// KFORECAST entry point (ours): main()'s validation pipeline on device buffers\n"
                 "// (abs-max kernel, scale on the host, quantise, dequantise), its prints and host\n"
                 "// copies of the input left out; N is the adapter's.\n"
                 "extern \"C\" void kf_run(half *d_input, int8_t *d_quantized, half *d_dequantized,\n"
                 "                       float *d_max_val, int N) {\n"
                 + "\n".join(lines) + "\n}\n")
        text = src.replace(main_fn, "// KFORECAST: the source's main() is cut here (see kf_run below).")
        files.append(write_version(out, fam, stem, repo, [path],
                                   f"{stem}: one step of the int8 quantisation ladder ({what}).",
                                   text.rstrip() + entry))
    return family(fam, files, repo, "bench_p35_m8_quant.py",
                  "per-tensor symmetric int8 quantisation of 2^24 float16 values uniform in [-2, 2] "
                  "(the source's range; main() validates at 2^20 and times the quantise kernel alone "
                  "at 2^27): abs-max kernel into one float (atomicCAS max), scale = max / 127 on the "
                  "host, quantise, dequantise, as main() runs them; outputs (max, int8 codes, "
                  "dequantised values). Steps: " + "; ".join(f"{s} {w}" for s, w in steps) + ".", out)


# ---------------------------------------------------------------- yencal scan
SCAN_STEPS = [
    ("multi_kernel_smem", "scan_multi_kernel.cuh", "ScanMultiKernelSMEM<BLOCK_SIZE>"),
    ("multi_kernel_warp", "scan_multi_kernel.cuh", "ScanMultiKernelWarp<BLOCK_SIZE>"),
    ("chained", "scan_chained.cuh", "ScanChained<BLOCK_SIZE>"),
    ("lookback_single_thread", "scan_lookback.cuh", "ScanLookbackSingleThread<BLOCK_SIZE>"),
    ("lookback_warp", "scan_lookback.cuh", "ScanLookbackWarp<BLOCK_SIZE>"),
    ("lookback_vec_x4", "scan_lookback.cuh", "ScanLookbackWarpCoarsenedVectorized<BLOCK_SIZE, 1>"),
    ("lookback_vec_x8", "scan_lookback.cuh", "ScanLookbackWarpCoarsenedVectorized<BLOCK_SIZE, 2>"),
    ("lookback_vec_x12", "scan_lookback.cuh", "ScanLookbackWarpCoarsenedVectorized<BLOCK_SIZE, 3>"),
]


def yc_scan(mirror, out):
    repo = setkit.Repo(mirror, "yencal/gpu-scan-optimization")
    main_cu = repo.show("src/main.cu")
    bs = re.search(r"^[ \t]*constexpr int BLOCK_SIZE = \d+;", main_cu, re.M)
    if bs is None:
        raise SystemExit("pub35.py: main.cu's BLOCK_SIZE not found")
    headers = {h: repo.show(f"src/{h}") for h in ("utils.cuh", "scan_primitives.cuh", "tile_descriptor.cuh",
                                                   "scan_multi_kernel.cuh", "scan_chained.cuh",
                                                   "scan_lookback.cuh")}
    fam = "p35-yc-scan"
    files = []
    for name, header, algo in SCAN_STEPS:
        if f"RunBenchmark<{algo}>" not in main_cu:
            raise SystemExit(f"pub35.py: main.cu does not run {algo}")
        src = inline_includes(f'#include "{header}"\n', headers)
        entry = ("\n// KFORECAST: main.cu's block size, and entry points (ours) doing what its\n"
                 f"// RunBenchmark<{algo}> does per call: the\n"
                 "// temporary storage size (allocated once, outside the timing) and one Run().\n"
                 + bs.group(0).strip() + "\n"
                 f"extern \"C\" size_t kf_temp_size(int n) {{ return {algo}::GetTempSize(n); }}\n"
                 "extern \"C\" void kf_run(int *d_input, int *d_output, int n, void *d_temp) {\n"
                 f"    {algo}::Run(d_input, d_output, n, d_temp);\n}}\n")
        files.append(write_version(out, fam, name, repo, [f"src/{header}", "src/main.cu"],
                                   f"{algo}: one step of the scan ladder.", src + entry))
    return family(fam, files, repo, "bench_p35_yc_scan.py",
                  "inclusive prefix sum of 2^24 int32 values uniform in [0, 10) (main.cu scans 2^30 "
                  "ones), block size 512 (main.cu's): the README's table in order, CUB left out (a "
                  "library call): multi-kernel reduce-then-scan with a shared-memory and a "
                  "warp-shuffle tile scan, chained single-pass scan, decoupled lookback with a "
                  "single-thread and a warp lookback, then warp lookback with int4 loads, 1-3 "
                  "vectors a thread (x4, x8, x12). A version holds the whole header defining its "
                  "step (the lookback header holds all lookback steps) with its includes.", out)


# ---------------------------------------------------------------- yencal transpose
TRANSPOSE_STEPS = ["Naive", "Tiled", "TiledPadded", "Coarsen4", "Vec4Coarsen4", "Vec2_T64_Coarsen2"]


def yc_transpose(mirror, out):
    repo = setkit.Repo(mirror, "yencal/gpu-matrix-transpose")
    kernels = repo.show("transpose_kernels.cuh")
    main_cu = repo.show("main.cu")
    consts = {m.group(1): m.group(0).strip() for m in re.finditer(
        r"^[ \t]*(?:constexpr int|const unsigned int) (TILE64|TILE|grid_size_64|grid_size) = [^;]*;", main_cu, re.M)}
    fam = "p35-yc-transpose"
    files = []
    for label in TRANSPOSE_STEPS:
        m = re.search(r'RunTest\("%s",\s*([^,]+(?:<[^>]*>)?),\s*(\{[^}]*\}),\s*(\{[^}]*\}),\s*N,\s*peak_bw\)'
                      % re.escape(label), main_cu)
        if m is None:
            raise SystemExit(f"pub35.py: main.cu has no RunTest for {label}")
        kernel, block, grid = m.group(1).strip(), m.group(2), m.group(3)
        need = ["TILE", "grid_size"] + (["TILE64", "grid_size_64"] if "64" in block + grid else [])
        entry = ("\n\n// KFORECAST entry point (ours): main.cu's constants and its RunTest(\"%s\", ...)\n"
                 "// launch (RunTest runs `kernel<<<grid_dim, block_dim>>>(d_input, d_transposed, N)`).\n"
                 "extern \"C\" void kf_run(const float *d_input, float *d_transposed, int N) {\n"
                 % label + "\n".join("    " + consts[c] for c in need) + "\n"
                 f"    const dim3 block_dim = {block};\n"
                 f"    const dim3 grid_dim = {grid};\n"
                 f"    auto kernel = {kernel};\n"
                 "    kernel<<<grid_dim, block_dim>>>(d_input, d_transposed, N);\n}\n")
        files.append(write_version(out, fam, label, repo, ["transpose_kernels.cuh", "main.cu"],
                                   f"main.cu's {label} step of the transpose ladder.", kernels.rstrip() + entry))
    return family(fam, files, repo, "bench_p35_yc_transpose.py",
                  "out-of-place transpose of an 8192 x 8192 float32 matrix (main.cu's default is 32768, 4 GiB a matrix): "
                  "the README's optimisation progression: Naive (coalesced reads, strided writes), "
                  "Tiled (32 x 32 shared tile, bank conflicts), TiledPadded (+1 padding), Coarsen4 (32 x 8 "
                  "block, 4 rows a thread), Vec4Coarsen4 (float4 with coarsening), Vec2_T64_Coarsen2 "
                  "(64 x 64 tiles, float2, 32 x 16 block). A version holds the whole kernels header.", out)


# ---------------------------------------------------------------- Greedy-cy softmax / RMSNorm
def gr_entry(path, main_fn, params, glue, call_name):
    """kf_run for a Greedy-cy standalone benchmark: the Options main() parses, filled from the
    arguments (glue), main()'s `threads` line if it has one, and main()'s launch call made
    after its warm-up loop (`CUDA_CHECK(cudaDeviceSynchronize());` then `launch_x(...)`)."""
    sync = main_fn.index("CUDA_CHECK(cudaDeviceSynchronize());")
    call = re.compile(r"^[ \t]*%s\([^;]*\);" % call_name, re.M).search(main_fn, sync)
    if call is None:
        raise SystemExit(f"pub35.py: {path}: no {call_name}() call after the warm-up in main()")
    threads = re.search(r"^[ \t]*(constexpr|const) int threads = [^;]*;", main_fn, re.M)
    lines = glue + ([threads.group(0).strip()] if threads else []) + [call.group(0).strip()]
    return ("\n\n// KFORECAST entry point (ours): main()'s Options filled from the arguments (the\n"
            "// other fields keep their defaults), main()'s own buffers passed in, and main()'s\n"
            "// `threads` line and launch call (the one after its warm-up loop), verbatim.\n"
            f"extern \"C\" void kf_run({params}) {{\n"
            + "\n".join("  " + ln for ln in lines) + "\n}\n")


def gr_family(mirror, out, op, fam, steps, params, glue_of, call_name, adapter, notes):
    repo = setkit.Repo(mirror, "Greedy-cy/orin-cuda-operator-library")
    files = []
    for v, what in steps:
        path = f"{op}/{op}_v{v}.cu"
        src = repo.show(path)
        main_fn = cut_function(src, "main", with_comment=False).rstrip("\n")
        entry = gr_entry(path, main_fn, params, glue_of(main_fn), call_name)
        text = src.replace(main_fn, "// KFORECAST: the source's main() is cut here (see kf_run below).")
        files.append(write_version(out, fam, f"{op}_v{v}", repo, [path],
                                   f"{op} v{v}: {what}.", text.rstrip() + entry))
    return family(fam, files, repo, adapter, notes, out)


def gr_softmax(mirror, out):
    steps = [(0, "one block a row, two shared-memory tree reductions, exponentials through global memory"),
             (1, "warp-shuffle reductions with a second-level warp reduction"),
             (2, "float4 loads for aligned rows, scalar fallback"),
             (3, "warp-per-row kernel for cols <= 128, block path otherwise"),
             (4, "register-cached input and exponentials for short and medium rows")]
    return gr_family(mirror, out, "softmax", "p35-gr-softmax", steps,
                     "float *device_input, float *device_output, int rows, int cols",
                     lambda m: ["Options options;", "options.rows = rows;", "options.cols = cols;"],
                     "launch_softmax", "bench_p35_gr_softmax.py",
                     "stable softmax over the last axis of a 16384 x 1024 float32 matrix uniform in [-5, 5] "
                     "(the source's range and row length; its main shape is 4096 x 1024), the README's "
                     "v0-v4: " + "; ".join(f"v{v} {w}" for v, w in steps) + ". For cols = 1024, v3 "
                     "takes its block path and v4 its block_cached_float4 path.")


def gr_rmsnorm(mirror, out):
    steps = [(0, "four kernels (square, row inverse RMS, normalise, weight) through two buffers"),
             (1, "one block a row, fused, shared-memory tree reduction"),
             (2, "warp-shuffle reduction"),
             (3, "float4 path for aligned hidden sizes, scalar fallback"),
             (4, "block size as a template parameter (128/256/512 scan), 256 selected")]

    def glue(main_fn):
        g = ["Options options;", "options.tokens = tokens;", "options.hidden = hidden;"]
        if "DeviceBuffers buffers;" in main_fn:
            g += ["DeviceBuffers buffers;", "buffers.input = device_input;", "buffers.weight = device_weight;",
                  "buffers.squared = squared;", "buffers.inverse_rms = inverse_rms;",
                  "buffers.normalized = normalized;", "buffers.output = device_output;"]
        return g
    return gr_family(mirror, out, "rmsnorm", "p35-gr-rmsnorm", steps,
                     "float *device_input, float *device_weight, float *device_output,\n"
                     "                       float *squared, float *inverse_rms, float *normalized,\n"
                     "                       int tokens, int hidden",
                     glue, "launch_rmsnorm", "bench_p35_gr_rmsnorm.py",
                     "y = x * rsqrt(mean(x^2) + 1e-5) * weight over rows of a 4096 x 4096 float32 matrix "
                     "(x uniform in [-3, 3], weight in [0.5, 1.5], the source's draws; its README shape is "
                     "2048 x 4096), the README's v0-v4: " + "; ".join(f"v{v} {w}" for v, w in steps)
                     + ". v0's intermediate buffers (squared, inverse_rms, normalized), which its main() "
                     "allocates once, come from the adapter.")


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public35")
    setkit.clear_set(args.out)
    fams = [cw_sgemm(args.mirror, args.out), m8_quant(args.mirror, args.out),
            yc_scan(args.mirror, args.out), yc_transpose(args.mirror, args.out),
            gr_softmax(args.mirror, args.out), gr_rmsnorm(args.mirror, args.out)]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
