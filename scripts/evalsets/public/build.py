#!/usr/bin/env python3
"""Builds evaluation set (b): public kernels as their authors wrote them (issue 20, 1(b)).

    build.py --mirror /work/.mirror --out target/evalsets/public

Reads local bare copies of public repositories (made with the session's `fetch` tool:
MIRROR/<owner>+<name>/repo) and writes, OUTSIDE the repository, a set in the layout of
/work/HELPERS.md's evaluation-set contract: families.json, one folder per family with one
program file per version (reference first) and its bench.py adapter, `_vendor/` (the
libraries' own helper modules and headers, which the programs import), SOURCES.json
(repository + commit of every source). Nothing of the public code lives in kforecast's
repository: only this builder and the adapters (adapters/, ours) do.

How a program file is made from its source:
- CUDA samples (one .cu with a ladder of kernels): one file per kernel, holding the
  source's prelude (includes, helpers), that kernel verbatim, the source's host launcher
  code for it (the launcher's `switch` cut to that kernel's case, the host sizing helpers)
  and a small `extern "C"` entry point (marked as ours) the adapter calls through ctypes.
- Triton libraries (Liger-Kernel, FlagGems, unsloth): the library's op module verbatim;
  its package helpers are vendored under `_vendor/` (package `__init__`s that import every
  op are replaced by empty ones; unsloth's `from .utils import` is pointed at a module of
  the few helpers it uses, cut verbatim from unsloth's utils.py).
- KernelBench: the problem module (reference) and the few-shot `ModelNew` examples verbatim.
- Torch references that no source ships as a file are written here (marked as ours).
Everything is report-only: split "public", never tuned on.
"""

import os
import sys

from cuda_samples import (MM_PATH, RED_DIR, RED_NAMES, TF_DIR, TR_PATH, matrixmul_program, reduction_program,
                          threadfence_program, transpose_program)
from python_sources import (SET_B, ours_py, py_header, unsloth_program, vendor_flaggems, vendor_liger,
                            vendor_unsloth, with_py_header, write)
from setkit import Repo, builder_args, clear_set, pair_counts, write_index

REPOS = {
    "cuda-samples": "NVIDIA/cuda-samples",
    "liger": "linkedin/Liger-Kernel",
    "flaggems": "FlagOpen/FlagGems",
    "unsloth": "unslothai/unsloth",
    "kernelbench": "ScalingIntelligence/KernelBench",
}
adapter = SET_B.adapter


REF_RMS = '''import torch


def rms_norm(x, weight, eps=1e-6):
    """LlamaRMSNorm's forward: normalise in float32, scale in the input's dtype."""
    input_dtype = x.dtype
    h = x.to(torch.float32)
    variance = h.pow(2).mean(-1, keepdim=True)
    h = h * torch.rsqrt(variance + eps)
    return weight * h.to(input_dtype)
'''

REF_ADD_RMS = '''import torch


def fused_add_rms_norm(x, residual, weight, eps=1e-6):
    """A decoder layer's `residual = residual + x; x = norm(residual)` (HF Llama), unfused."""
    residual = x + residual
    h = residual.to(torch.float32)
    variance = h.pow(2).mean(-1, keepdim=True)
    h = h * torch.rsqrt(variance + eps)
    return weight * h.to(residual.dtype), residual
'''

REF_LN = '''import torch
import torch.nn.functional as F


def layer_norm(x, weight, bias, eps=1e-5):
    return F.layer_norm(x, (x.shape[-1],), weight, bias, eps)
'''

REF_SWIGLU = '''import torch
import torch.nn.functional as F


def swiglu(gate, up):
    """LlamaMLP's act_fn(gate_proj(x)) * up_proj(x), the projections already done."""
    return F.silu(gate) * up
'''

REF_GEGLU = '''import torch
import torch.nn.functional as F


def geglu(gate, up):
    """GemmaMLP's gelu_pytorch_tanh(gate_proj(x)) * up_proj(x), the projections already done."""
    return F.gelu(gate, approximate="tanh") * up
'''


def main():
    args = builder_args(__doc__, "target/evalsets/public")
    out = args.out
    clear_set(out)

    cs = Repo(args.mirror, REPOS["cuda-samples"])
    lg = Repo(args.mirror, REPOS["liger"])
    fg = Repo(args.mirror, REPOS["flaggems"])
    us = Repo(args.mirror, REPOS["unsloth"])
    kb = Repo(args.mirror, REPOS["kernelbench"])
    families = []

    def family(name, files, source, style, notes, bench):
        for rel, text in files:
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), adapter(bench))
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": "public",
                         "source": source, "style": style, "notes": notes})

    # CUDA samples: the vendored Common/ headers the programs include
    for p in cs.ls("Common"):
        if p.endswith(".h") and p.count("/") == 1:
            write(os.path.join(out, "_vendor", "cuda-samples-common", os.path.basename(p)), cs.show(p))
    write(os.path.join(out, "_kfcommon.py"), adapter("_kfcommon.py"))

    family("cuda-samples-reduction",
           [(f"reduce{k}.cu", reduction_program(cs, k)) for k in range(7)],
           cs.ref(RED_DIR), "host-code",
           "NVIDIA's reduction ladder reduce0..reduce6 (interleaved/modulo, bank conflicts, sequential "
           "addressing, first add during load, unrolled last warp, templated unroll, multiple elements per "
           "thread), each with the sample's launcher and GPU final-sum loop; 2^25 floats, 256 threads, "
           "64 blocks max (the sample's defaults).", "bench_reduction.py")
    family("cuda-samples-reduction-cg",
           [(f"{RED_NAMES[k]}.cu", reduction_program(cs, k)) for k in (6, 7, 8, 9)]
           + [("threadFence_multipass.cu", threadfence_program(cs, False)),
              ("threadFence_singlepass.cu", threadfence_program(cs, True))],
           f"{cs.ref(RED_DIR)}, {cs.ref(TF_DIR)}", "cooperative-groups",
           "The reduction sample's later kernels: reduce6 against reduce7 (warp shuffles / __reduce_add_sync), "
           "cg_reduce (cg::reduce) and multi_warp_cg_reduce (multi-warp tiled partitions); and the "
           "threadFenceReduction sample's multi-pass and single-pass (__threadfence, last block sums) "
           "reductions (128 threads, 64 blocks max, its defaults). 2^25 floats.",
           "bench_reduction.py")
    family("cuda-samples-transpose",
           [(f"{k}.cu", transpose_program(cs, k)) for k in
            ("transposeNaive", "transposeCoalesced", "transposeNoBankConflicts", "transposeDiagonal")],
           cs.ref(TR_PATH), "host-code",
           "NVIDIA's transpose study (naive, coalesced through shared memory, padded tile, diagonal block "
           "order); 8192x8192 floats, 32x16 threads per 32x32 tile. The partial (coarse/fine-grained) and "
           "copy kernels are left out: they do not transpose.", "bench_transpose.py")
    family("cuda-samples-matrixmul",
           [(f"matrixMul_bs{b}.cu", matrixmul_program(cs, b)) for b in (16, 32)],
           cs.ref(MM_PATH), "templated",
           "MatrixMulCUDA<BLOCK_SIZE> at the sample's two block sizes, 4096x4096x4096 float.",
           "bench_matrixmul.py")

    # Triton libraries
    vendor_liger(lg, out)
    vendor_flaggems(fg, out)
    vendor_unsloth(us, out)

    def lig(path):
        return with_py_header(lg.show(f"src/liger_kernel/ops/{path}"),
                              py_header(lg, f"src/liger_kernel/ops/{path}", "Verbatim."))

    def fgm(path):
        return with_py_header(fg.show(f"src/flag_gems/{path}"),
                              py_header(fg, f"src/flag_gems/{path}", "Verbatim."))

    def kbf(path):
        return with_py_header(kb.show(path), py_header(kb, path, "Verbatim."))

    family("rms-norm",
           [("torch_rms_norm.py", ours_py("LlamaRMSNorm's arithmetic in eager torch.", REF_RMS)),
            ("liger_rms_norm.py", lig("rms_norm.py")),
            ("flaggems_rms_norm.py", fgm("ops/rms_norm.py")),
            ("unsloth_rms_layernorm.py", unsloth_program(us, "unsloth/kernels/rms_layernorm.py"))],
           f"{lg.name}@{lg.commit[:12]}, {fg.name}@{fg.commit[:12]}, {us.name}@{us.commit[:12]}",
           "library-triton", "RMSNorm forward over the last dim, bf16 (16384 tokens x 4096), weight, "
           "eps 1e-6: eager torch against three libraries' Triton kernels.", "bench_rms_norm.py")
    family("fused-add-rms-norm",
           [("torch_fused_add_rms_norm.py", ours_py("residual add then LlamaRMSNorm in eager torch.", REF_ADD_RMS)),
            ("liger_fused_add_rms_norm.py", lig("fused_add_rms_norm.py")),
            ("flaggems_fused_add_rms_norm.py", fgm("fused/fused_add_rms_norm.py"))],
           f"{lg.name}@{lg.commit[:12]}, {fg.name}@{fg.commit[:12]}",
           "library-triton", "Residual add + RMSNorm (a decoder layer's pre-norm), bf16 16384 x 4096: "
           "outputs the normalised rows and the new residual. FlagGems' kernel works in place.",
           "bench_fused_add_rms_norm.py")
    family("layer-norm",
           [("torch_layer_norm.py", ours_py("F.layer_norm.", REF_LN)),
            ("liger_layer_norm.py", lig("layer_norm.py")),
            ("flaggems_layernorm.py", fgm("ops/layernorm.py"))],
           f"{lg.name}@{lg.commit[:12]}, {fg.name}@{fg.commit[:12]}",
           "library-triton", "LayerNorm forward over the last dim, bf16 (16384 x 4096), weight and bias.",
           "bench_layer_norm.py")
    family("swiglu",
           [("torch_swiglu.py", ours_py("silu(gate) * up in eager torch.", REF_SWIGLU)),
            ("liger_swiglu.py", lig("swiglu.py")),
            ("unsloth_swiglu.py", unsloth_program(us, "unsloth/kernels/swiglu.py")),
            ("flaggems_silu_and_mul.py", fgm("fused/silu_and_mul.py"))],
           f"{lg.name}@{lg.commit[:12]}, {fg.name}@{fg.commit[:12]}, {us.name}@{us.commit[:12]}",
           "library-triton", "SwiGLU gate, bf16 (4 x 4096 x 14336, Llama-3-8B's MLP).", "bench_swiglu.py")
    family("geglu",
           [("torch_geglu.py", ours_py("gelu_tanh(gate) * up in eager torch.", REF_GEGLU)),
            ("liger_geglu.py", lig("geglu.py")),
            ("unsloth_geglu.py", unsloth_program(us, "unsloth/kernels/geglu.py")),
            ("flaggems_gelu_and_mul.py", fgm("fused/gelu_and_mul.py"))],
           f"{lg.name}@{lg.commit[:12]}, {fg.name}@{fg.commit[:12]}, {us.name}@{us.commit[:12]}",
           "library-triton", "GeGLU gate with tanh GELU, bf16 (4 x 4096 x 16384, Gemma-7B's MLP); unsloth's "
           "approximate kernel.", "bench_geglu.py")
    family("softmax",
           [("kernelbench_23_Softmax.py", kbf("KernelBench/level1/23_Softmax.py")),
            ("liger_softmax.py", lig("softmax.py")),
            ("flaggems_softmax.py", fgm("ops/softmax.py"))],
           f"{kb.name}@{kb.commit[:12]}, {lg.name}@{lg.commit[:12]}, {fg.name}@{fg.commit[:12]}",
           "kernelbench-module", "Row softmax, float32 16384 x 16384 (KernelBench's 4096 x 393216 is past "
           "Liger's 65536-column limit): KernelBench level-1 problem 23 against two Triton libraries.",
           "bench_softmax.py")
    family("cross-entropy",
           [("kernelbench_95_CrossEntropyLoss.py", kbf("KernelBench/level1/95_CrossEntropyLoss.py")),
            ("liger_cross_entropy.py", lig("cross_entropy.py")),
            ("flaggems_cross_entropy_loss.py", fgm("fused/cross_entropy_loss.py"))],
           f"{kb.name}@{kb.commit[:12]}, {lg.name}@{lg.commit[:12]}, {fg.name}@{fg.commit[:12]}",
           "kernelbench-module", "Mean cross-entropy of float32 logits at KernelBench's size (32768 x 4096) "
           "with class targets: KernelBench level-1 problem 95 against two Triton libraries (forward only, "
           "logits not requiring grad).", "bench_cross_entropy.py")
    family("gelu-tanh",
           [("kernelbench_88_MinGPTNewGelu.py", kbf("KernelBench/level1/88_MinGPTNewGelu.py")),
            ("kernelbench_model_ex_fuse_gelu.py", kbf("src/kernelbench/prompts/few_shot/model_ex_fuse_gelu.py")),
            ("kernelbench_model_new_ex_fuse_gelu.py",
             kbf("src/kernelbench/prompts/few_shot/model_new_ex_fuse_gelu.py")),
            ("flaggems_gelu.py", fgm("ops/gelu.py"))],
           f"{kb.name}@{kb.commit[:12]}, {fg.name}@{fg.commit[:12]}",
           "kernelbench-load_inline", "Tanh GELU, float32 8192 x 8192 (problem 88's size): MinGPT's formula in "
           "eager torch, F.gelu, KernelBench's few-shot load_inline CUDA kernel, FlagGems' Triton kernel.",
           "bench_gelu.py")
    family("matmul-fp32",
           [("kernelbench_1_Square_matrix_multiplication_.py",
             kbf("KernelBench/level1/1_Square_matrix_multiplication_.py")),
            ("kernelbench_model_new_ex_tiled_matmul.py",
             kbf("src/kernelbench/prompts/few_shot/model_new_ex_tiled_matmul.py")),
            ("flaggems_mm.py", fgm("ops/mm.py"))],
           f"{kb.name}@{kb.commit[:12]}, {fg.name}@{fg.commit[:12]}",
           "kernelbench-load_inline", "Square float32 matmul at problem 1's size (4096): torch.matmul (cuBLAS, "
           "no TF32), KernelBench's few-shot 16x16 tiled load_inline kernel, FlagGems' Triton mm (tl.dot, TF32).",
           "bench_matmul.py")

    family("attention-fp32",
           [("kernelbench_model_ex_flash_attn.py", kbf("src/kernelbench/prompts/few_shot/model_ex_flash_attn.py")),
            ("kernelbench_97_ScaledDotProductAttention.py",
             kbf("KernelBench/level1/97_ScaledDotProductAttention.py")),
            ("kernelbench_model_new_ex_flash_attn.py",
             kbf("src/kernelbench/prompts/few_shot/model_new_ex_flash_attn.py"))],
           f"{kb.name}@{kb.commit[:12]}", "kernelbench-load_inline",
           "Non-causal attention, float32, 16 x 12 heads x 1024 x 64: KernelBench's few-shot eager "
           "softmax(QK^T/sqrt(d))V, level-1 problem 97's F.scaled_dot_product_attention, and the few-shot "
           "minimal flash-attention load_inline kernel (32x32 tiles, one block per batch and head).",
           "bench_attention.py")
    family("add",
           [("kernelbench_model_ex_add.py", kbf("src/kernelbench/prompts/few_shot/model_ex_add.py")),
            ("kernelbench_model_new_ex_add.py", kbf("src/kernelbench/prompts/few_shot/model_new_ex_add.py")),
            ("flaggems_add.py", fgm("ops/add.py"))],
           f"{kb.name}@{kb.commit[:12]}, {fg.name}@{fg.commit[:12]}", "kernelbench-load_inline",
           "Elementwise float32 a + b of 16384 x 16384: eager torch, KernelBench's few-shot load_inline "
           "kernel (its output zero-filled first), FlagGems' pointwise_dynamic Triton kernel.",
           "bench_add.py")

    sources = [{"repository": r.name, "commit": r.commit} for r in (cs, lg, fg, us, kb)]
    write_index(out, families, sources)
    n_files, _ = pair_counts(families)
    print(f"build.py: {len(families)} families, {n_files} program files -> {out}")
    for r in sources:
        print(f"  {r['repository']} @ {r['commit']}")


if __name__ == "__main__":
    sys.exit(main())
