#!/usr/bin/env python3
"""Builds the "p4-" families of evaluation set public4 (issue 20, 1(b)): public kernels as
their authors wrote them, from repositories no other set uses, kept unseen.

    pub4.py --mirror /work/.mirror --out /work/main/target/evalsets/public4

Sources (local bare copies made with the session's `fetch` tool, MIRROR/<owner>+<name>/repo):
- Tongkaio/CUDA_Kernel_Samples: CUDA programs with host code (a ladder of kernels in one
  .cu with main()). One program file per kernel: the source's includes, that kernel
  verbatim (and its host launcher `call_reduce_vK` where the source has one), and an
  `extern "C" kf_run` entry point marked KFORECAST that does what main() does for it
  (main()'s launch line, copied). The source's include/utils.cuh is vendored.
- BobMcDear/attorch: Triton kernels with their torch wrappers (nn.Module layers). The
  layer module is a version, verbatim; the package's kernel/helper modules are vendored
  under _vendor/pub4/attorch/ (its __init__, which imports every layer, is left empty).
- Torch references that no source ships as a file are written here (marked as ours).

Only families whose name starts with "p4-" are written or replaced in families.json and
SOURCES.json (read-modify-write); the set's other families are left alone. Split "public4".
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "public"))
from cpp_cut import cut_function, match_brace  # noqa: E402
from setkit import Repo, SetText, builder_args, clear_prefix, merge_index, pair_counts, write  # noqa: E402

TEXT = SetText("Evaluation set public4", "scripts/evalsets/public4/pub4.py", os.path.join(HERE, "adapters"))
PREFIX = "p4-"
TAG = "pub4"
SPLIT = "public4"


adapter = TEXT.adapter
cu_header = TEXT.header


def py_header(repo, path, what):
    return TEXT.header(repo, [path], what, comment="#", note=None)


def ours_py(what, body):
    return (f"# {TEXT.title} of kforecast ({TEXT.builder}).\n"
            f"# KFORECAST: written by kforecast, not from a public source: {what}\n\n" + body)


def includes_of(src):
    """The source's #include lines at the top of the file (its prelude)."""
    return "".join(line + "\n" for line in src.split("\n") if line.startswith("#include")) + "\n"


def main_line(src, rx):
    m = re.search(rx, src)
    if not m:
        raise SystemExit(f"pub4.py: main() changed upstream (no match for {rx}); update the builder")
    return m.group(0).strip()


# ---------------------------------------------------------------- Tongkaio/CUDA_Kernel_Samples

TR = "transpose/transpose.cu"


def transpose_program(tk, k):
    src = tk.show(TR)
    name = f"device_transpose_v{k}"
    block = main_line(src, rf"dim3 block_size{k}\([^;]*\);")
    grid = main_line(src, rf"dim3 grid_size{k}\([^;]*\);")
    launch = main_line(src, rf"{name}(<BLOCK_SIZE>)?<<<grid_size{k}, block_size{k}>>>\(d_matrix, d_output{k}, M, N\);")
    bs = main_line(src, r"constexpr size_t BLOCK_SIZE = \d+;")
    return "".join([
        cu_header(tk, [TR], f"Version: kernel {name} with main()'s launch of it."),
        includes_of(src), cut_function(src, name), "\n",
        "// KFORECAST: entry point for the evaluation adapter: main()'s launch of this kernel\n"
        "// (input M x N, output N x M; M = 12800, N = 1280 are main()'s sizes).\n"
        "extern \"C\" int kf_run(float *d_matrix, float *d_output" + str(k) + ", size_t M, size_t N)\n{\n"
        f"    {bs}\n    {block}\n    {grid}\n    {launch}\n"
        "    return (int)cudaGetLastError();\n}\n"])


SUM = "reduce/sum/sum.cu"


def sum_program(tk, k):
    src = tk.show(SUM)
    kern = cut_function(src, f"device_reduce_v{k}")
    launcher = cut_function(src, f"call_reduce_v{k}", with_comment=False)
    bs = main_line(src, r"constexpr size_t BLOCK_SIZE = \d+;")
    if k <= 2:  # the launcher reduces the block sums on the host
        call = main_line(src, rf"call_reduce_v{k}<BLOCK_SIZE>\(d_nums, d_rd_nums, h_rd_nums, N, sum\);")
        body = ("    static float *h_rd_nums = nullptr;  // KFORECAST: main()'s host buffer, made once\n"
                "    if (!h_rd_nums) h_rd_nums = (float *)malloc(sizeof(float) * CEIL(N, BLOCK_SIZE));\n"
                f"    {call}\n")
        args = "float *d_nums, float *d_rd_nums, float *d_sum, float *sum, int N"
    else:  # atomics into d_sum, copied back to *sum
        call = main_line(src, rf"call_reduce_v{k}<BLOCK_SIZE>\(d_nums, d_sum, sum, N\);")
        body = f"    {call}\n"
        args = "float *d_nums, float *d_rd_nums, float *d_sum, float *sum, int N"
    return "".join([
        cu_header(tk, [SUM], f"Version: device_reduce_v{k} with its host launcher call_reduce_v{k}."),
        includes_of(src), kern, "\n", launcher, "\n",
        "// KFORECAST: entry point for the evaluation adapter: main()'s call of this launcher\n"
        "// (N floats summed into *sum on the host; N = 100000000, BLOCK_SIZE 128 are main()'s).\n"
        f"extern \"C\" int kf_run({args})\n{{\n    {bs}\n{body}"
        "    return (int)cudaGetLastError();\n}\n"])


SMX = "reduce/softmax_matrix/softmax_matrix.cu"


def softmax_program(tk, name):
    src = tk.show(SMX)
    launch = main_line(src, r"softmax_row_kernel2<<<M, 32>>>\(input_device, output_device, M, N\);")
    if name != "softmax_row_kernel2":
        launch = ("// KFORECAST: main() launches only softmax_row_kernel2; this kernel gets the same launch\n    "
                  + launch.replace("softmax_row_kernel2", name))
    return "".join([
        cu_header(tk, [SMX], f"Version: the row softmax {name} with main()'s launch (one warp per row)."),
        includes_of(src), cut_function(src, name), "\n",
        "// KFORECAST: entry point for the evaluation adapter: softmax of each row of an M x N matrix\n"
        "extern \"C\" int kf_run(float *input_device, float *output_device, int M, int N)\n{\n"
        f"    {launch}\n    return (int)cudaGetLastError();\n}}\n"])


# ---------------------------------------------------------------- gau-nernst/learn-cuda 07_attention

ATT = "07_attention"


def attention_program(gn, k):
    """attention_vK.cu verbatim, then attention.cpp's torch binding cut to this version."""
    src = gn.show(f"{ATT}/attention_v{k}.cu")
    cpp = gn.show(f"{ATT}/attention.cpp")
    head_end = cpp.index("AttentionFn attention_v1;")
    using = cpp[:head_end]
    decl = main_line(cpp, rf"AttentionFn attention_v{k};")
    t0 = cpp.index("template<AttentionFn attention>")
    tmpl = cpp[t0:cpp.index("PYBIND11_MODULE")]
    mod = main_line(cpp, r"PYBIND11_MODULE\(TORCH_EXTENSION_NAME, m\) \{")
    mdef = main_line(cpp, rf'm.def\("sdpa_v{k}", &sdpa<attention_v{k}>\);')
    return "".join([
        cu_header(gn, [f"{ATT}/attention_v{k}.cu", f"{ATT}/attention.cpp"],
                  f"Version: attention_v{k} (a torch extension), with attention.cpp's binding for it."),
        src.rstrip("\n"), "\n\n",
        "// KFORECAST: attention.cpp (the extension's binding), cut to this version, in the same file\n",
        using, decl, "\n\n", tmpl, mod, "\n  ", mdef, "\n}\n"])


# ---------------------------------------------------------------- ackRow/softmax-kernels

SK = "cuda_kernels"
SK_VERSIONS = [  # (file, kernel, the extension's function), binding.cpp's order
    ("kernel_article1.cu", "softmax_kernel_v1", "softmax_cuda_v1"),
    ("kernel_article2.cu", "softmax_kernel_multi_block_v1", "softmax_cuda_multi_block_v1"),
    ("kernel_article2.cu", "softmax_kernel_multi_block_v2", "softmax_cuda_multi_block_v2"),
    ("kernel_article3.cu", "softmax_kernel_online_v1", "softmax_cuda_online_v1"),
    ("kernel_article3.cu", "softmax_kernel_online_v2", "softmax_cuda_online_v2"),
]


def softmax_ext_program(sk, fname, kernel, fn):
    """The source file's includes, one kernel and its launcher(s) through the extension's
    function, verbatim, then binding.cpp cut to that function."""
    src = sk.show(f"{SK}/{fname}")
    binding = sk.show(f"{SK}/binding.cpp")
    kidx = src.index(kernel + "(")
    if kernel.endswith("_v2"):  # its dispatcher falls back to the file's v1 launcher past 32768 columns
        kidx = src.index(kernel[:-1] + "1(")
    start = src.rfind("template", 0, kidx)
    fstart = src.index(f"torch::Tensor {fn}(")
    end = match_brace(src, src.index("{", fstart))
    includes = src[:src.index("template")].rstrip() + "\n\n"
    decl = main_line(binding, rf"torch::Tensor {fn}\(torch::Tensor x\);")
    mdef = main_line(binding, rf'm.def\("{fn}", &{fn}, "[^"]*"\);')
    return "".join([
        cu_header(sk, [f"{SK}/{fname}", f"{SK}/binding.cpp"],
                  f"Version: {kernel} with its launcher {fn} (a torch extension), and its binding"
                  + (" (the file's v1 kernel and launcher kept above: v2's dispatcher falls back to them)."
                     if kernel.endswith("_v2") else ".")),
        includes, src[start:end], "\n\n",
        "// KFORECAST: binding.cpp (the extension's module), cut to this version\n",
        decl, "\n\nPYBIND11_MODULE(TORCH_EXTENSION_NAME, m)\n{\n  ", mdef, "\n}\n"])


# ---------------------------------------------------------------- torch references (ours)

REF_SDPA = '''import torch.nn.functional as F


def sdpa(q, k, v):
    """F.scaled_dot_product_attention, the baseline 07_attention/main.py checks and times against."""
    return F.scaled_dot_product_attention(q, k, v)
'''

REF_SOFTMAX = '''import torch


def softmax(x):
    """Row softmax in eager torch."""
    return torch.softmax(x, dim=-1)
'''

REF_RMS_EAGER = '''import torch


def rms_norm(x, weight, eps=1e-6):
    """LlamaRMSNorm's forward in eager torch."""
    h = x.to(torch.float32)
    variance = h.pow(2).mean(-1, keepdim=True)
    h = h * torch.rsqrt(variance + eps)
    return weight * h.to(x.dtype)
'''

REF_RMS_F = '''import torch.nn.functional as F


def rms_norm(x, weight, eps=1e-6):
    """torch's fused F.rms_norm."""
    return F.rms_norm(x, (x.shape[-1],), weight, eps)
'''

REF_LN_EAGER = '''import torch


def layer_norm(x, weight, bias, eps=1e-5):
    """LayerNorm over the last dim, written out in eager torch (biased variance)."""
    mean = x.mean(-1, keepdim=True)
    var = (x - mean).pow(2).mean(-1, keepdim=True)
    return (x - mean) * torch.rsqrt(var + eps) * weight + bias
'''

REF_LN_F = '''import torch.nn.functional as F


def layer_norm(x, weight, bias, eps=1e-5):
    """torch's F.layer_norm."""
    return F.layer_norm(x, (x.shape[-1],), weight, bias, eps)
'''

REF_GELU_EAGER = '''import math

import torch


def gelu(x):
    """Exact GELU written out: x * Phi(x) with erf, in eager torch."""
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))
'''

REF_GELU_F = '''import torch.nn.functional as F


def gelu(x):
    """torch's F.gelu (exact, erf)."""
    return F.gelu(x)
'''

REF_GLU_EAGER = '''import torch


def glu(x):
    """GLU over the last dim written out: first half * sigmoid(second half)."""
    a, b = x.chunk(2, dim=-1)
    return a * torch.sigmoid(b)
'''

REF_GLU_F = '''import torch.nn.functional as F


def glu(x):
    """torch's F.glu over the last dim."""
    return F.glu(x, dim=-1)
'''


def main():
    args = builder_args(__doc__, "/work/main/target/evalsets/public4")
    out = args.out
    clear_prefix(out, PREFIX, TAG)  # remove only our own earlier output

    tk = Repo(args.mirror, "Tongkaio/CUDA_Kernel_Samples")
    at = Repo(args.mirror, "BobMcDear/attorch")
    gn = Repo(args.mirror, "gau-nernst/learn-cuda")
    sk = Repo(args.mirror, "ackRow/softmax-kernels")
    families, sources = [], {}

    def family(name, files, repos, style, notes, bench):
        assert name.startswith(PREFIX)
        for rel, text in files:
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), adapter(bench))
        write(os.path.join(out, name, "_p4common.py"), adapter("_p4common.py"))
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": SPLIT,
                         "source": ", ".join(r.at() for r in repos), "style": style, "notes": notes})
        sources[name] = [{"repository": r.name, "commit": r.commit} for r in repos]

    # vendored headers and packages
    for d in ("transpose", "reduce/sum", "reduce/softmax_matrix"):
        write(os.path.join(out, "_vendor", TAG, "tongkaio", d, "utils.cuh"), tk.show(f"{d}/include/utils.cuh"))
    write(os.path.join(out, "_vendor", TAG, "attorch", "__init__.py"),
          "# KFORECAST: attorch's __init__ (which imports every layer) is left empty here.\n")
    for p in at.ls("attorch"):
        base = os.path.basename(p)
        if p.count("/") == 1 and base.endswith(".py") and base != "__init__.py" and not base.endswith(("_layer.py", "_layers.py")):
            write(os.path.join(out, "_vendor", TAG, "attorch", base), at.show(p))

    write(os.path.join(out, "_vendor", TAG, "learn-cuda", ATT, "common.h"), gn.show(f"{ATT}/common.h"))

    for p in sk.ls(f"{SK}/utils"):
        write(os.path.join(out, "_vendor", TAG, "softmax-kernels", p), sk.show(p))
    for p in ("triton_kernels/article1.py", "triton_kernels/utils.py"):
        write(os.path.join(out, "_vendor", TAG, "softmax-kernels", p), sk.show(p))
    write(os.path.join(out, "_vendor", TAG, "softmax-kernels", "triton_kernels", "__init__.py"),
          "# KFORECAST: the source has no __init__ here (a namespace package); an empty one.\n")

    def atf(path):
        return at.show(f"attorch/{path}").join([py_header(at, f"attorch/{path}", "Verbatim."), ""])

    family("p4-transpose", [(f"transpose_v{k}.cu", transpose_program(tk, k)) for k in range(6)], [tk],
           "host-code",
           "Tongkaio's transpose ladder: naive (coalesced read), coalesced write, __ldg reads, shared-memory "
           "tile (bank conflicts), padded tile, XOR-swizzled tile; 32x32 blocks; float32 12800 x 1280 "
           "(main()'s size, 16.4 M elements).", "bench_transpose.py")
    family("p4-sum", [(f"reduce_v{k}.cu", sum_program(tk, k)) for k in range(6)], [tk], "host-code",
           "Tongkaio's sum ladder, each kernel with its own host launcher: global-memory in-place tree (v0, "
           "modifies its input), static shared memory, dynamic shared memory (v0-v2 sum block partials on "
           "the host after a D2H copy), atomicAdd of block sums, warp shuffle, warp shuffle + float4 loads; "
           "N = 1e8 floats, 128 threads (main()'s).", "bench_sum.py")
    family("p4-softmax",
           [("torch_softmax.py", ours_py("torch.softmax over rows.", REF_SOFTMAX)),
            ("softmax_row_kernel.cu", softmax_program(tk, "softmax_row_kernel")),
            ("softmax_row_kernel2.cu", softmax_program(tk, "softmax_row_kernel2")),
            ("attorch_softmax_layers.py", atf("softmax_layers.py"))],
           [tk, at], "mixed-cuda-triton",
           "Row softmax, float32 65536 x 1024: eager torch (ours), Tongkaio's one-warp-per-row CUDA kernels "
           "(shared-memory broadcast with __shfl_down_sync, and __shfl_xor_sync), attorch's Triton "
           "Softmax layer.", "bench_softmax.py")
    family("p4-rms-norm",
           [("torch_rms_norm_eager.py", ours_py("LlamaRMSNorm's arithmetic in eager torch.", REF_RMS_EAGER)),
            ("torch_rms_norm_functional.py", ours_py("F.rms_norm.", REF_RMS_F)),
            ("attorch_rms_norm_layer.py", atf("rms_norm_layer.py"))],
           [at], "library-triton",
           "RMSNorm over the last dim with weight, float32 16384 x 4096: eager torch (ours), F.rms_norm "
           "(ours), attorch's Triton RMSNorm layer.", "bench_rms_norm.py")
    family("p4-layer-norm",
           [("torch_layer_norm_eager.py", ours_py("LayerNorm written out in eager torch.", REF_LN_EAGER)),
            ("torch_layer_norm_functional.py", ours_py("F.layer_norm.", REF_LN_F)),
            ("attorch_layer_norm_layer.py", atf("layer_norm_layer.py"))],
           [at], "library-triton",
           "LayerNorm over the last dim with weight and bias, float32 16384 x 4096: eager torch (ours), "
           "F.layer_norm (ours), attorch's Triton LayerNorm layer.", "bench_layer_norm.py")
    family("p4-gelu",
           [("torch_gelu_eager.py", ours_py("exact GELU written out with erf.", REF_GELU_EAGER)),
            ("torch_gelu_functional.py", ours_py("F.gelu.", REF_GELU_F)),
            ("attorch_act_layers.py", atf("act_layers.py"))],
           [at], "library-triton",
           "Exact (erf) GELU, float32 8192 x 8192: eager formula (ours), F.gelu (ours), attorch's Triton "
           "GELU layer (act_func kernel).", "bench_gelu.py")
    family("p4-glu",
           [("torch_glu_eager.py", ours_py("GLU written out.", REF_GLU_EAGER)),
            ("torch_glu_functional.py", ours_py("F.glu.", REF_GLU_F)),
            ("attorch_glu_layer.py", atf("glu_layer.py"))],
           [at], "library-triton",
           "GLU (sigmoid gate) over the last dim, float32 8192 x 16384 -> 8192 x 8192: eager (ours), F.glu "
           "(ours), attorch's Triton GLU layer.", "bench_glu.py")

    family("p4-attention",
           [("torch_sdpa.py", ours_py("F.scaled_dot_product_attention (main.py's baseline).", REF_SDPA))]
           + [(f"attention_v{k}.cu", attention_program(gn, k)) for k in range(1, 6)],
           [gn], "torch-extension",
           "Non-causal flash attention, bf16, head_dim 128, at 07_attention/main.py's default sizes (bs 4, "
           "8 heads, len_q 4096, len_kv 8192): F.sdpa (ours, the source's baseline), then gau-nernst's "
           "torch-extension kernels v1 (mma.sync + ldmatrix), v2 (shared-memory swizzling), v3 (2-stage "
           "cp.async pipelining), v4 (ldmatrix.x4 for K and V), v5 (better pipelining).",
           "bench_attention.py")

    family("p4-softmax-ext",
           [(f"{fn}.cu", softmax_ext_program(sk, f, k, fn)) for f, k, fn in SK_VERSIONS]
           + [(f"triton_{a}.py", sk.show(f"triton_kernels/{a}.py").join(
               [py_header(sk, f"triton_kernels/{a}.py", "Verbatim."), ""])) for a in ("article2", "article3")],
           [sk], "torch-extension",
           "Row softmax, float32 16384 x 4096, ackRow's ladder: torch-extension CUDA kernels baseline "
           "(one block per row, float4), multi-block v1 and v2 (templated warps / max columns), online "
           "softmax v1 and v2 (nvcc flags of its setup.py: -O3 -use_fast_math -maxrregcount=128), and its "
           "Triton kernels: article2's triton_softmax_v2 (adaptive block size) and article3's "
           "triton_online_softmax (online softmax). Left out: article1's Triton baseline (launches its "
           "warmed-up kernel with the old launcher signature; fails on Triton 3.6: 'function takes exactly "
           "20 arguments (19 given)'); it stays vendored, as article2/3 import its kernel.",
           "bench_softmax_ext.py")

    merge_index(out, PREFIX, families, sources)  # read-modify-write: only our prefix is replaced
    n, pairs = pair_counts(families)
    print(f"pub4.py: {len(families)} families, {n} program files, {pairs} ordered pairs -> {out}")
    for r in (tk, at, gn, sk):
        print(f"  {r.name} @ {r.commit}")


if __name__ == "__main__":
    sys.exit(main())
