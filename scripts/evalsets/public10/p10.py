#!/usr/bin/env python3
"""Builds public set 10 ("p10-" families): CUDA programs of repositories no other set uses.

    p10.py --mirror /work/.mirror --out /work/main/target/evalsets/public10

Reads local bare copies of public repositories (made with the session's `fetch` tool:
MIRROR/<owner>+<name>/repo) and writes, OUTSIDE the repository, a set in the layout of
/work/HELPERS.md's evaluation-set contract: families.json, SOURCES.json (a dict keyed by
family), one folder per family with one program file per version (reference first) and
its bench.py adapter (ours, from adapters/), and `_p10common.py` (ours) at the root.

Sources and how a version is made from them:
- KernelTuner/kernel_tuner, examples/cuda: the tunable 2-D convolution, the
  point-in-polygon (pnpoly) and the sum reduction programs, macro-configured as Kernel Tuner compiles them: a
  version is a KFORECAST block of `#define`s (one point of the example's own tune_params,
  fixed before anything was measured: the source's defaults, then one parameter changed at
  a time), the source's prelude and ONE kernel verbatim (the naive kernel is the reference),
  and the launch: pnpoly's own host code (pnpoly_host.cu, its `#include "pnpoly.cu"`
  inlined), or a marked `kf_run` doing what Kernel Tuner does for the convolution and the
  reduction (grid = problem size / (block size x tile size), constant memory filled).
- anneouyang/KernelBenchLeaderboard, docs/assets/solutions: KernelBench-style modules whose
  CUDA lives in `load_inline` strings, written by several language models for one problem,
  verbatim. Every listed solution of a chosen problem is kept, ordered by model name; the
  reference version is a torch module of ours (the problems' own files are KernelBench's,
  whose repository another set uses, so none is copied).
- Infatoshi/cuda-course, 09_PyTorch_Extensions: a templated torch extension (.cu with its
  PYBIND11 binding) against the same activation in eager torch (the module verbatim).
- tspeterkim/flash-attention-minimal: manual attention (bench.py's function) against the
  minimal flash-attention torch extension (flash.cu + main.cpp, branch main) and its
  tensor-core (wmma tf32) rewrite (branch tensorcore).
Matrix multiply problems are left out. Split "public10": report-only, never tuned on,
never run through kforecast by its builder.
"""

import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

from cpp_cut import cut_function, prelude_of  # noqa: E402
from setkit import Repo, SetText, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

PREFIX = "p10-"
SPLIT = "public10"
SET = SetText("Evaluation set public10", "scripts/evalsets/public10/p10.py", os.path.join(HERE, "adapters"))

REPOS = {
    "kt": "KernelTuner/kernel_tuner",
    "kbl": "anneouyang/KernelBenchLeaderboard",
    "infatoshi": "Infatoshi/cuda-course",
    "fam": "tspeterkim/flash-attention-minimal",
}

# ----------------------------------------------------------------------------- Kernel Tuner

KT_CONV = "examples/cuda/convolution.cu"
KT_CONV_PY = "examples/cuda/convolution_correct.py"
KT_PNPOLY = "examples/cuda/pnpoly.cu"
KT_PNPOLY_HOST = "examples/cuda/pnpoly_host.cu"
KT_PNPOLY_PY = "examples/cuda/pnpoly.py"

# Points of convolution_correct.py's tune_params (filter 17x17, 4096x4096 image), fixed
# before measuring: the kernel's defaults, then one change at a time.
CONV_CONFIGS = [
    ("conv_default", {}),
    ("conv_read_only", {"read_only": 1}),
    ("conv_bx32_by8", {"block_size_x": 32, "block_size_y": 8}),
    ("conv_tile2x2", {"tile_size_x": 2, "tile_size_y": 2}),
    ("conv_bx48_by8_nopad", {"block_size_x": 48, "block_size_y": 8, "use_padding": 0}),
    ("conv_bx48_by8_pad", {"block_size_x": 48, "block_size_y": 8, "use_padding": 1}),
]
CONV_DEFAULTS = {"block_size_x": 16, "block_size_y": 16, "tile_size_x": 1, "tile_size_y": 1,
                 "use_padding": 1, "read_only": 0}

# Points of pnpoly.py's tune_params, fixed before measuring likewise.
PNPOLY_N = 20_000_000  # pnpoly.py: size = numpy.int32(2e7)
PNPOLY_CONFIGS = [
    ("pnpoly_default", {}),
    ("pnpoly_tile4", {"tile_size": 4}),
    ("pnpoly_slopes", {"use_precomputed_slopes": 1}),
    ("pnpoly_between1", {"between_method": 1}),
    ("pnpoly_method1", {"use_method": 1}),
]
PNPOLY_DEFAULTS = {"block_size_x": 256, "tile_size": 1, "between_method": 0, "use_precomputed_slopes": 0,
                   "use_method": 0}


KT_RED = "examples/cuda/reduction.cu"
KT_RED_PY = "examples/cuda/reduction.py"
RED_N = 1 << 26  # reduction.py sums 8e8 floats; 2^26 here (a measuring worker holds several copies)
# Points of reduction.py's tune_params (first kernel), fixed before measuring: a middle
# point, then one change at a time.
RED_CONFIGS = [
    ("sum_floats_base", {}),
    ("sum_floats_shuffle", {"use_shuffle": 1}),
    ("sum_floats_vector4", {"vector": 4}),
    ("sum_floats_nb8192", {"num_blocks": 8192}),
    ("sum_floats_bs1024", {"block_size_x": 1024}),
    ("sum_floats_unroll8", {"loop_unroll_factor_0": 8}),
]
RED_DEFAULTS = {"block_size_x": 256, "vector": 1, "num_blocks": 1024, "loop_unroll_factor_0": 1, "use_shuffle": 0}


def red_program(kt, name, change):
    src = kt.show(KT_RED)
    params = dict(RED_DEFAULTS)
    params.update(change)
    unroll = params.pop("loop_unroll_factor_0")
    what = (f"Version {name}: sum_floats (first kernel) with " + ", ".join(f"{k}={v}" for k, v in params.items())
            + f", loop_unroll_factor_0={unroll}.")
    entry = (
        "// KFORECAST: entry points for the evaluation adapter, doing what Kernel Tuner does for the first\n"
        "// kernel (reduction.py: problem_size = \"num_blocks\", grid_div_x = []): num_blocks blocks of\n"
        "// block_size_x threads, one partial sum per block; reduction.py's verify sums the partials.\n"
        "extern \"C\" int kf_num_blocks(void) { return num_blocks; }\n\n"
        "extern \"C\" int kf_run(float *sum_global, float *array, int n)\n{\n"
        "    dim3 threads(block_size_x, 1, 1);\n"
        "    dim3 grid(num_blocks, 1, 1);\n"
        "    sum_floats<<<grid, threads>>>(sum_global, (floatvector *)array, n);\n"
        "    return (int)cudaGetLastError();\n}\n")
    return "".join([SET.header(kt, [KT_RED, KT_RED_PY], what),
                    defines(params, "the tunable parameters, defined before the source as Kernel Tuner does"),
                    "// KFORECAST: Kernel Tuner passes loop_unroll_factor_* parameters as constexpr ints\n",
                    f"constexpr int loop_unroll_factor_0 = {unroll};\n\n",
                    src.strip("\n") + "\n\n", entry])


def defines(params, note):
    lines = [f"// KFORECAST: {note}"]
    lines += [f"#define {k} {v}" for k, v in params.items()]
    return "\n".join(lines) + "\n\n"


def conv_program(kt, name, change):
    src = kt.show(KT_CONV)
    params = dict(CONV_DEFAULTS)
    params.update(change)
    prelude = prelude_of(src, "#define image_height", "__global__ void convolution_kernel")
    kernel = cut_function(src, "convolution_kernel")
    what = (f"Version {name}: convolution_kernel with the tunable parameters "
            + ", ".join(f"{k}={v}" for k, v in params.items()) + " (filter 17x17, image 4096x4096).")
    entry = (
        "// KFORECAST: entry point for the evaluation adapter, doing what Kernel Tuner does for this kernel\n"
        "// (convolution_correct.py): the filter copied to constant memory d_filter (cmem_args), the grid\n"
        "// the problem size divided by grid_div_x = block_size_x*tile_size_x, grid_div_y = block_size_y*tile_size_y.\n"
        "extern \"C\" int kf_run(float *output, float *input, float *filter)\n{\n"
        "    cudaMemcpyToSymbol(d_filter, filter, filter_height * filter_width * sizeof(float), 0,\n"
        "                       cudaMemcpyDeviceToDevice);\n"
        "    dim3 threads(block_size_x, block_size_y, block_size_z);\n"
        "    dim3 grid((image_width + block_size_x * tile_size_x - 1) / (block_size_x * tile_size_x),\n"
        "              (image_height + block_size_y * tile_size_y - 1) / (block_size_y * tile_size_y));\n"
        "    convolution_kernel<<<grid, threads>>>(output, input, filter);\n"
        "    return (int)cudaGetLastError();\n}\n")
    return "".join([SET.header(kt, [KT_CONV, KT_CONV_PY], what),
                    defines(params, "the tunable parameters, defined before the source as Kernel Tuner does"),
                    prelude, "\n", kernel, "\n", entry])


def conv_naive_program(kt):
    src = kt.show(KT_CONV)
    prelude = prelude_of(src, "#define image_height", "__global__ void convolution_kernel")
    kernel = cut_function(src, "convolution_naive")
    what = ("Version conv_naive: convolution_naive, the kernel convolution_correct.py computes its reference "
            "answer with (block_size_x = block_size_y = 16).")
    entry = (
        "// KFORECAST: entry point for the evaluation adapter: convolution_correct.py's run_kernel of\n"
        "// convolution_naive (params block_size_x = block_size_y = 16, grid_div_x/y = block sizes).\n"
        "extern \"C\" int kf_run(float *output, float *input, float *filter)\n{\n"
        "    dim3 threads(block_size_x, block_size_y, block_size_z);\n"
        "    dim3 grid((image_width + block_size_x - 1) / block_size_x,\n"
        "              (image_height + block_size_y - 1) / block_size_y);\n"
        "    convolution_naive<<<grid, threads>>>(output, input, filter);\n"
        "    return (int)cudaGetLastError();\n}\n")
    return "".join([SET.header(kt, [KT_CONV, KT_CONV_PY], what),
                    defines({"block_size_x": 16, "block_size_y": 16},
                            "the launch parameters, defined before the source as Kernel Tuner does"),
                    prelude, "\n", kernel, "\n", entry])


def pnpoly_naive_program(kt):
    src = kt.show(KT_PNPOLY)
    prelude = prelude_of(src, "#define VERTICES", "__global__ void cn_pnpoly(")
    kernel = cut_function(src, "cn_pnpoly_naive")
    what = ("Version pnpoly_naive: cn_pnpoly_naive, the kernel the source keeps for verifying the others "
            "(its prelude with the default tunable parameters).")
    entry = (
        "// KFORECAST: entry point for the evaluation adapter (the source launches this kernel from its\n"
        "// tests): the polygon copied to d_vertices as pnpoly_host.cu does, one thread per point,\n"
        "// block_size_x (256, the prelude's default) threads per block.\n"
        "extern \"C\" int kf_run(int* bitmap, float2* points, float2* vertices, int n)\n{\n"
        "    cudaMemcpyToSymbol(d_vertices, vertices, VERTICES*sizeof(float2), 0, cudaMemcpyHostToDevice);\n"
        "    dim3 threads(block_size_x, 1, 1);\n"
        "    dim3 grid((n + block_size_x - 1) / block_size_x);\n"
        "    cn_pnpoly_naive<<<grid, threads>>>(bitmap, points, n);\n"
        "    return (int)cudaGetLastError();\n}\n")
    return "".join([SET.header(kt, [KT_PNPOLY], what), prelude, "\n", kernel, "\n", entry])


def pnpoly_host_program(kt, name, change):
    src = kt.show(KT_PNPOLY)
    host = kt.show(KT_PNPOLY_HOST)
    params = dict(PNPOLY_DEFAULTS)
    params.update(change)
    params["grid_size_x"] = math.ceil(PNPOLY_N / (params["block_size_x"] * params["tile_size"]))
    naive = cut_function(src, "cn_pnpoly_naive")
    if naive not in src:
        raise SystemExit("p10.py: pnpoly.cu changed upstream; update the builder")
    body = re.sub(r"\n{4,}", "\n\n\n", src.replace(naive, "", 1)).rstrip() + "\n"
    inc = '#include "pnpoly.cu"\n'
    if inc not in host:
        raise SystemExit("p10.py: pnpoly_host.cu no longer includes pnpoly.cu; update the builder")
    host = host.replace(inc, "// KFORECAST: pnpoly.cu inlined here (less cn_pnpoly_naive, which this version does not use)\n"
                        + body + "// KFORECAST: end of pnpoly.cu\n", 1)
    what = (f"Version {name}: cn_pnpoly with " + ", ".join(f"{k}={v}" for k, v in params.items())
            + f", launched by the source's host code cn_pnpoly_host (n = {PNPOLY_N} points, 600 vertices).")
    return "".join([SET.header(kt, [KT_PNPOLY_HOST, KT_PNPOLY, KT_PNPOLY_PY], what),
                    defines(params, "the tunable parameters and grid (pnpoly.py: grid_div_x = block_size_x, "
                            "tile_size; problem size 2e7), defined before the source as Kernel Tuner does"),
                    host])


# ----------------------------------------------------------------------------- KernelBench leaderboard

KBL_DATA = "docs/assets/data.json"
KBL_SOL = "docs/assets/solutions"
KBL_PROBLEMS = [
    # (family, leaderboard key, reference file, reference body, what)
    ("p10-kbl-elu", "Level 1: 31_ELU", "torch_elu.py", '''import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """ELU activation in eager torch."""

    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.elu(x, alpha=self.alpha)
''', "ELU (alpha 1.0) of a float32 4096 x 16384 tensor (KernelBench's 16 x 16384 raised to 2^26 elements)."),
    ("p10-kbl-instance-norm", "Level 1: 34_InstanceNorm", "torch_instance_norm.py", '''import torch
import torch.nn as nn


class Model(nn.Module):
    """InstanceNorm2d (no affine, eps 1e-5) in eager torch."""

    def __init__(self, num_features: int):
        super().__init__()
        self.inorm = nn.InstanceNorm2d(num_features=num_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.inorm(x)
''', "InstanceNorm2d of float32 16 x 64 x 256 x 256 (KernelBench's size, 2^26 elements), 64 features."),
    ("p10-kbl-maxpool2d", "Level 1: 42_Max_Pooling_2D", "torch_maxpool2d.py", '''import torch
import torch.nn as nn


class Model(nn.Module):
    """MaxPool2d in eager torch."""

    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        super().__init__()
        self.maxpool = nn.MaxPool2d(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.maxpool(x)
''', "MaxPool2d(kernel 2, stride 2, padding 1, dilation 3) of float32 64 x 32 x 128 x 128 (KernelBench's "
        "batch 16 raised to 64: 2^25 elements)."),
    ("p10-kbl-cosine-loss", "Level 1: 97_CosineSimilarityLoss", "torch_cosine_loss.py", '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Mean of 1 - cosine similarity along dim 1, in eager torch."""

    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        cosine_sim = torch.nn.functional.cosine_similarity(predictions, targets, dim=1)
        return torch.mean(1 - cosine_sim)
''', "Cosine-similarity loss of two float32 8192 x 4096 tensors (KernelBench's batch 128 raised to 8192: "
        "2^25 elements each)."),
]


def model_file(display_name):
    return re.sub(r"[^0-9A-Za-z]+", "_", display_name).strip("_") + ".py"


# ----------------------------------------------------------------------------- flash-attention-minimal

FAM_MANUAL = '''import math

import torch
from torch.nn import functional as F

'''


def main():
    args = builder_args(__doc__, "target/evalsets/public10")
    out = args.out
    clear_set(out)
    kt = Repo(args.mirror, REPOS["kt"])
    kbl = Repo(args.mirror, REPOS["kbl"])
    inf = Repo(args.mirror, REPOS["infatoshi"])
    fam = Repo(args.mirror, REPOS["fam"])
    families, sources = [], {}

    def family(name, files, repos, style, notes, bench, extra=()):
        for rel, text in list(files) + list(extra):
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), SET.adapter(bench))
        # repos: (repo, paths) at its HEAD, or (repo, paths, commit) at another branch's commit
        at = [(e[0], e[1], e[2] if len(e) > 2 else e[0].commit) for e in repos]
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": SPLIT,
                         "source": ", ".join(f"{r.name}@{c[:12]}" for r, _, c in at), "style": style,
                         "notes": notes})
        sources[name] = [{"repository": r.name, "commit": c, "paths": paths} for r, paths, c in at]

    write(os.path.join(out, "_p10common.py"), SET.adapter("_p10common.py"))

    # Kernel Tuner: convolution and pnpoly
    family("p10-kt-convolution",
           [("conv_naive.cu", conv_naive_program(kt))]
           + [(f"{n}.cu", conv_program(kt, n, c)) for n, c in CONV_CONFIGS],
           [(kt, [KT_CONV, KT_CONV_PY])], "macro-heavy",
           "Kernel Tuner's 2-D convolution example (17x17 filter in constant memory, 4096x4096 output, input "
           "with a 16-pixel border): the naive kernel (reference), then convolution_kernel (shared-memory tile, "
           "#if-configured) at six points of convolution_correct.py's tune_params fixed before measuring: "
           "defaults 16x16; read-only cache (__ldg); 32x8 threads; 2x2 tiles per thread; 48x8 threads without "
           "and with shared-memory padding. Kernel Tuner defines the parameters before the source; so does "
           "each version. The launch (grid = size / (block x tile)) is written here, marked KFORECAST.",
           "bench_p10_kt_convolution.py")
    family("p10-kt-pnpoly",
           [("pnpoly_naive.cu", pnpoly_naive_program(kt))]
           + [(f"{n}.cu", pnpoly_host_program(kt, n, c)) for n, c in PNPOLY_CONFIGS],
           [(kt, [KT_PNPOLY, KT_PNPOLY_HOST, KT_PNPOLY_PY])], "host-code",
           "Kernel Tuner's point-in-polygon example (crossing number, 600-vertex polygon in constant memory, "
           "2e7 points, int bitmap out): the naive kernel (reference, launch marked KFORECAST), then cn_pnpoly "
           "through the source's own host function cn_pnpoly_host (stream, events, optional slopes "
           "precomputed on the host) at five points of pnpoly.py's tune_params fixed before measuring: "
           "defaults (256 threads, tile 1, between_method 0); tile_size 4; precomputed slopes; between_method "
           "1; use_method 1 (branch-free count).", "bench_p10_kt_pnpoly.py")

    family("p10-kt-reduction",
           [(f"{n}.cu", red_program(kt, n, c)) for n, c in RED_CONFIGS],
           [(kt, [KT_RED, KT_RED_PY])], "macro-heavy",
           "Kernel Tuner's reduction example, first kernel (sum_floats: grid-stride loop over float/float2/"
           "float4 vectors, shared-memory tree, optional warp-shuffle tail; one partial sum per block, which "
           "the source's verify sums on the host and the adapter sums in torch), 2^26 floats (the source's "
           "8e8 lowered so that parallel checking workers fit), at six points of reduction.py's tune_params "
           "fixed before measuring: 256 threads x 1024 blocks, vector 1, no shuffle, unroll 1; then "
           "use_shuffle 1; vector 4; 8192 blocks; 1024 threads; loop unroll 8.",
           "bench_p10_kt_reduction.py")

    # KernelBench leaderboard: load_inline solutions by several models per problem
    data = json.loads(kbl.show(KBL_DATA))
    for name, key, ref_file, ref_body, what in KBL_PROBLEMS:
        entries = sorted(data[key], key=lambda e: e["display_name"])
        files = [(ref_file, SET.ours_py(what, ref_body, kind="reference module"))]
        paths = [KBL_DATA]
        for e in entries:
            p = f"{KBL_SOL}/{e['file']}.py"
            paths.append(p)
            files.append((model_file(e["display_name"]),
                          SET.py_header(kbl, p, f"Verbatim: the leaderboard's solution by {e['display_name']} "
                                                f"for KernelBench problem '{key}'.") + "\n" + kbl.show(p)))
        family(name, files, [(kbl, paths)], "kernelbench-load_inline",
               f"{what} Reference: a torch module of ours; then every solution the KernelBench leaderboard lists "
               f"for '{key}' ({len(entries)}, CUDA in load_inline strings, each by another language model), "
               "verbatim, ordered by model name. Called as ModelNew(*init)(*inputs).",
               f"bench_{name.replace('-', '_')}.py")

    # Infatoshi: polynomial activation, eager torch vs torch extension
    pa, pc = "09_PyTorch_Extensions/polynomial_activation.py", "09_PyTorch_Extensions/polynomial_cuda.cu"
    family("p10-infatoshi-polynomial",
           [("polynomial_activation.py",
             SET.py_header(inf, pa, "Verbatim; run as PolynomialActivation(implementation='pytorch').")
             + "\n" + inf.show(pa)),
            ("polynomial_cuda.cu", SET.header(inf, [pc, "09_PyTorch_Extensions/setup.py"],
                                              "Verbatim; built as setup.py builds it (a CUDAExtension).")
             + inf.show(pc))],
           [(inf, [pa, pc, "09_PyTorch_Extensions/setup.py"])], "torch-extension",
           "x^2 + x + 1 of 2^26 float32 (the source's 1e6 raised): the course's eager torch module "
           "(three elementwise kernels) against its templated torch extension (AT_DISPATCH, one kernel, "
           "1024 threads). Measured 2026-11-26 (torch 2.11): the extension does not build (its "
           "AT_DISPATCH_FLOATING_TYPES(x.type(), ...) is no longer accepted), and the eager module imports it, "
           "so both versions stay as failing lines.", "bench_p10_infatoshi_polynomial.py")

    # flash-attention-minimal: manual attention vs two torch extensions
    bench_main = fam.show("bench.py")
    m = re.search(r"(# Our minimal flash attention aims.*?\n)?def manual_attn\(q, k, v\):\n(?:    .*\n)+", bench_main)
    if not m or "import math" not in bench_main:
        raise SystemExit("p10.py: flash-attention-minimal's bench.py changed upstream; update the builder")
    manual = FAM_MANUAL + m.group(0)
    tc = "tensorcore"
    tc_commit = fam.git("rev-parse", tc).strip()
    family("p10-fam-attention",
           [("manual_attn.py", SET.py_header(fam, "bench.py", "Its imports and manual_attn, verbatim (the "
                                             "profiling script around them left out).") + "\n" + manual),
            ("flash.cu", SET.header(fam, ["flash.cu", "main.cpp (beside: flash.bind.cpp)"],
                                    "Verbatim (branch main); built as bench.py builds it (load, -O2).")
             + fam.show("flash.cu")),
            ("flash_tensorcore.cu",
             SET.header(fam, [f"flash.cu at {tc_commit} (branch tensorcore)",
                              "main.cpp there (beside: flash_tensorcore.bind.cpp)"],
                        "Verbatim; built as that branch's bench.py builds it (load, -O3 -use_fast_math) and "
                        "called as it does, forward(q, k, v, True): the wmma (tf32) kernel.")
             + fam.show("flash.cu", tc_commit))],
           [(fam, ["bench.py", "flash.cu", "main.cpp"]), (fam, ["flash.cu", "main.cpp", "bench.py"], tc_commit)],
           "torch-extension",
           "Non-causal attention, float32 8 x 12 heads x 1024 x 64 (the tensorcore branch's bench.py sizes, "
           "GPT-2): bench.py's manual attention (matmul, softmax, matmul in torch), the minimal flash-attention "
           "extension (one thread per query row, 32x32 tiles in shared memory), and its tensor-core rewrite "
           "(16x16 wmma tf32 tiles). The tolerance is bench.py's own (atol 1e-2).",
           "bench_p10_fam_attention.py",
           extra=[("flash.bind.cpp", SET.header(fam, ["main.cpp"], "Verbatim: the binding of flash.cu.")
                   + fam.show("main.cpp")),
                  ("flash_tensorcore.bind.cpp",
                   SET.header(fam, [f"main.cpp at {tc_commit}"], "Verbatim: the binding of flash_tensorcore.cu.")
                   + fam.show("main.cpp", tc_commit))])

    write_index(out, families, sources)
    n_files, n_pairs = pair_counts(families)
    print(f"p10.py: {len(families)} families, {n_files} program files, {n_pairs} ordered pairs -> {out}")
    for f in families:
        print(f"  {f['family']}: {len(f['files'])} versions")


if __name__ == "__main__":
    sys.exit(main())
