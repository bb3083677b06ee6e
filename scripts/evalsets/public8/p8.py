#!/usr/bin/env python3
"""Builds public set 8 ("p8-" families, split "public8"): CUDA programs with their host
code from public repositories no other set uses (issue 20, 1(b)); the set the lead
reports as unseen. Never tuned on; its builder never runs kforecast on it.

    p8.py --mirror /work/.mirror --out /work/main/target/evalsets/public8

Reads local bare copies made with the session's `fetch` tool (MIRROR/<owner>+<name>/repo)
of zjin-lcf/HeCBench, CoffeeBeforeArch/cuda_programming, olcf/cuda-training-series and
mattdean1/cuda, and writes, outside the repository, families.json, SOURCES.json (a dict
keyed by family), one folder per family (one program file per version, the reference
first, and the bench.py adapter). A CUDA version is the source's prelude, the version's
kernel(s) verbatim and an `extern "C" kf_run` entry point, marked KFORECAST, with the
source's own grid and launch lines (p8_cuda.py). Torch programs no source ships are
written here and marked as ours. HeCBench programs under an llm.c licence are left out.
"""

import os
import sys

from p8_cuda import (P8, cba_conv1d, cba_histogram, hec_atomic_reduction, hec_attention, hec_block_scan, hec_conv1d,
                     hec_gelu, hec_popcount, hec_relu, hec_softmax, mattdean_scan, olcf_reduction, olcf_row_sums)
from setkit import Repo, builder_args, clear_set, pair_counts, write, write_index

REPOS = {"hec": "zjin-lcf/HeCBench", "cba": "CoffeeBeforeArch/cuda_programming",
         "olcf": "olcf/cuda-training-series", "md": "mattdean1/cuda"}

TORCH_SOFTMAX = '''import torch


def softmax(x):
    """Row softmax over the last dim (what HeCBench's softMax kernels compute)."""
    return torch.softmax(x, dim=-1)
'''

TORCH_ATTENTION = '''import torch


def attention(key, value, query):
    """softmax(K q) V for one query (what HeCBench's attention kernels compute)."""
    return torch.softmax(key @ query, 0) @ value
'''

TORCH_SCAN = '''import torch


def exclusive_scan(x):
    """Exclusive prefix sum of an int32 vector (the source's `prescan`)."""
    return (torch.cumsum(x, 0) - x).to(torch.int32)
'''

TORCH_BLOCK_SCAN = '''import torch


def block_scan(x, block=1024):
    """Exclusive prefix sum within each `block`-element segment of an int32 vector."""
    seg = x.view(-1, block)
    return (torch.cumsum(seg, 1, dtype=torch.int32) - seg).view(-1)
'''

TORCH_GELU_BIAS = '''import torch
import torch.nn.functional as F


def gelu_bias(x, bias):
    """Tanh GELU of x + bias (bias broadcast over the last dim), in half."""
    return F.gelu(x + bias, approximate="tanh")
'''

TORCH_RELU_INT8X4 = '''import torch


def relu_int8x4(x):
    """ReLU of the four signed bytes packed in each int32."""
    return x.view(torch.int8).clamp_min(0).view(torch.int32)
'''

TORCH_RELU_GRAD = '''import torch


def relu_grad(gradient, feature):
    """ReLU's backward: gradient where feature > 0, else 0 (half)."""
    return torch.where(feature > 0, gradient, torch.zeros_like(gradient))
'''

TORCH_HISTOGRAM = '''import torch

BINS = 7
DIV = (26 + BINS - 1) // BINS


def histogram(chars):
    """Counts of the letters 'a'..'z' (uint8 codes) in 7 bins of 4 letters."""
    return torch.bincount((chars.long() - ord("a")) // DIV, minlength=BINS).to(torch.int32)
'''

TORCH_ROW_SUMS = '''import torch


def row_sums(a):
    """Sum of each row of a float32 matrix."""
    return a.sum(1)
'''


def main():
    args = builder_args(__doc__, "/work/main/target/evalsets/public8")
    out = args.out
    clear_set(out)
    hec = Repo(args.mirror, REPOS["hec"])
    cba = Repo(args.mirror, REPOS["cba"])
    olcf = Repo(args.mirror, REPOS["olcf"])
    md = Repo(args.mirror, REPOS["md"])
    families, sources = [], {}
    write(os.path.join(out, "_p8common.py"), P8.adapter("p8common.py"))

    def family(name, files, repos, style, notes, bench):
        for rel, text in files:
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), P8.adapter(bench))
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": "public8",
                         "source": ", ".join(r.at() for r in repos), "style": style, "notes": notes})
        sources[name] = [{"repository": r.name, "commit": r.commit} for r in repos]

    family("p8-hec-attention", [(f"attention_impl{k}.cu", hec_attention(hec, k)) for k in range(4)]
           + [("torch_attention.py", P8.ours_py("softmax(K q) V in torch.", TORCH_ATTENTION))], [hec],
           "host-code",
           "HeCBench attention-cuda: single-query attention softmax(K q) V over n = 65536 keys of d = 2048 "
           "(the Makefile's run line), float32. Implementation 0 (naive: three kernels, atomics for the "
           "exp-sum), 1 (two fused kernels, block reductions), 2 (warp reductions), 3 (mixed), and the same in torch "
           "(ours). Multi-kernel versions; cub and cooperative groups included by the source.", "bench_hec_attention.py")
    family("p8-hec-softmax",
           [("softmax_impl0.cu", hec_softmax(hec, False)), ("softmax_impl1.cu", hec_softmax(hec, True)),
            ("torch_softmax.py", P8.ours_py("torch.softmax over rows.", TORCH_SOFTMAX))], [hec],
           "cooperative-groups",
           "HeCBench softmax-cuda: row softmax of 100000 x 784 floats (the Makefile's run line): softMax (a "
           "thread per row, three passes), softMax2 (a warp per row, cg::reduce), and torch.softmax (ours).",
           "bench_hec_softmax.py")
    conv = [(k, bs) for k in ("conv1d", "conv1d_tiled", "conv1d_tiled_caching") for bs in (64, 1024)]
    family("p8-hec-conv1d", [(f"{k}_bs{bs}.cu", hec_conv1d(hec, k, bs)) for k, bs in conv], [hec], "templated",
           "HeCBench convolution1D-cuda (PMPP chapter 7 kernels, templated on the type, mask in a templated "
           "__constant__ array): conv1d, conv1d_tiled, conv1d_tiled_caching, each at the first and last of the "
           "source's block sizes (64, 1024); float, 2^27 elements (the Makefile's run line), mask width 5 of the "
           "source's 3..9, mask of ones (the source's).", "bench_hec_conv1d.py")
    ar = [("atomic_reduction", 1), ("atomic_reduction_v2", 2), ("atomic_reduction_v4", 4),
          ("atomic_reduction_v8", 8), ("atomic_reduction_v16", 16)]
    family("p8-hec-atomic-reduction", [(f"{k}.cu", hec_atomic_reduction(hec, k, d)) for k, d in ar], [hec],
           "host-code",
           "HeCBench atomicReduction-cuda (AMD's sample): int sum of 52428800 elements (main()'s default) with "
           "one atomicAdd per thread; v2..v16 read 2..16 elements per iteration on a grid 2..16 times smaller; "
           "block size 256 (one of main()'s four).", "bench_hec_atomic_reduction.py")
    family("p8-hec-popcount", [(f"pc{k}.cu", hec_popcount(hec, k)) for k in range(1, 7)], [hec], "host-code",
           "HeCBench popcount-cuda: population count of 2^24 64-bit words (the Makefile's run line), one word "
           "per thread, 256 threads: SWAR shifts and adds, SWAR with a multiply, a clear-lowest-bit loop, a "
           "64-step bit loop, a byte lookup table in constant memory (copied on every call, as main()'s timed "
           "loop does), the __popcll intrinsic.", "bench_hec_popcount.py")
    family("p8-cba-conv1d",
           [(f"conv_{v}.cu", cba_conv1d(cba, v)) for v in ("1d_naive", "1d_constant_memory", "1d_cache", "1d_tiled")],
           [cba], "host-code",
           "CoffeeBeforeArch's 1-D convolution videos: naive (mask in global memory), constant-memory mask, "
           "shared-memory cache, tiled with halo; int, mask length 7, 256 threads; n = 2^24 (main() uses "
           "2^20: changed to fill an H100). The cache and tiled versions read main()'s zero-padded array.",
           "bench_cba_conv1d.py")
    family("p8-olcf-sum-reduction", [(f"{k}.cu", olcf_reduction(olcf, k)) for k in ("atomic_red", "reduce_a", "reduce_ws")],
           [olcf], "host-code",
           "OLCF CUDA training series hw5: float sum of N = 8M (the file's constant): one atomicAdd per element, "
           "shared-memory sweep with a grid-stride load and one atomic per block (640 blocks), warp-shuffle "
           "reduction with one atomic per block.", "bench_olcf_sum_reduction.py")
    family("p8-olcf-row-sums",
           [("hw4_row_sums.cu", olcf_row_sums(olcf, 4)), ("hw5_row_sums.cu", olcf_row_sums(olcf, 5)),
            ("torch_row_sums.py", P8.ours_py("a.sum(1).", TORCH_ROW_SUMS))], [olcf], "host-code",
           "OLCF CUDA training series hw4/hw5 matrix_sums solutions: row sums of a 16384 x 16384 float matrix "
           "(the files' DSIZE): hw4's thread per row (strided reads), hw5's block per row with a shared-memory "
           "sweep; torch (ours).", "bench_olcf_row_sums.py")
    family("p8-mdean-scan",
           [("scan.cu", mattdean_scan(md, False)), ("scan_bcao.cu", mattdean_scan(md, True)),
            ("torch_scan.py", P8.ours_py("cumsum - x.", TORCH_SCAN))], [md], "host-code",
           "mattdean1/cuda parallel-scan: exclusive int scan of 20,000,000 elements (main()'s first size) by "
           "Blelloch prescan per 1024-element block, recursive scan of the block sums and an add pass (host "
           "recursion with cudaMalloc/cudaFree per level, as the source); the same with bank-conflict "
           "avoidance (BCAO); and torch.cumsum (ours).", "bench_mdean_scan.py")
    family("p8-hec-block-scan",
           [("scan_n1024.cu", hec_block_scan(hec, False, 1024)), ("scan_bcao_n1024.cu", hec_block_scan(hec, True, 1024)),
            ("torch_block_scan.py", P8.ours_py("cumsum per 1024-element block, minus x.", TORCH_BLOCK_SCAN))],
           [hec], "templated",
           "HeCBench scan-cuda: exclusive scan of every 1024-element block (scan<int, 1024>, a work-efficient "
           "scan in shared memory over a grid-stride loop of blocks) of 2^28 ints (the Makefile's run line), "
           "the same with bank-conflict-avoiding offsets (scan_bcao), and torch (ours). N = 1024 is one of "
           "main()'s 128 .. 2048, int one of its four types.", "bench_hec_block_scan.py")
    family("p8-hec-gelu",
           [("gelu_bias_loop_base.cu", hec_gelu(hec, False)), ("gelu_bias_loop.cu", hec_gelu(hec, True)),
            ("torch_gelu_bias.py", P8.ours_py("F.gelu(x + bias, tanh).", TORCH_GELU_BIAS))], [hec], "host-code",
           "HeCBench gelu-cuda (FasterTransformer's kernels): tanh GELU of x + bias in half, in place, batch 16 x "
           "seq 8192 x hidden 512 (the Makefile's commented run line is 512 x 8192 x 512, whose indices overflow "
           "int: batch cut to 16); one half per thread, then half2; torch (ours, out of place).",
           "bench_hec_gelu.py")
    family("p8-hec-relu",
           [("Relu_impl1.cu", hec_relu(hec, 1, False)), ("Relu_impl2.cu", hec_relu(hec, 2, False)),
            ("torch_relu_int8x4.py", P8.ours_py("int8 clamp_min(0) on the packed bytes.", TORCH_RELU_INT8X4))],
           [hec], "warp-level-primitives",
           "HeCBench relu-cuda (TensorFlow's kernels): ReLU of four signed bytes packed per int, 2^26 ints "
           "(the Makefile's run line has 10^7: raised to fill an H100): bytes unpacked by hand, then the "
           "__vmaxs4 SIMD intrinsic; torch (ours).", "bench_hec_relu.py")
    family("p8-hec-relu-grad",
           [("ReluGrad_impl1.cu", hec_relu(hec, 1, True)), ("ReluGrad_impl2.cu", hec_relu(hec, 2, True)),
            ("torch_relu_grad.py", P8.ours_py("torch.where(feature > 0, gradient, 0).", TORCH_RELU_GRAD))],
           [hec], "host-code",
           "HeCBench relu-cuda (TensorFlow's kernels): ReLU gradient in half, 2^26 elements (10^7 in the "
           "Makefile: raised): one half2 per thread with a grid-stride loop, then eight halves per thread; "
           "torch (ours).", "bench_hec_relu_grad.py")
    family("p8-cba-histogram",
           [("global_atomic.cu", cba_histogram(cba, "global_atomic")), ("shmem_atomic.cu", cba_histogram(cba, "shmem_atomic")),
            ("torch_histogram.py", P8.ours_py("torch.bincount of the bin indices.", TORCH_HISTOGRAM))],
           [cba], "host-code",
           "CoffeeBeforeArch's histogram videos: 7 bins of the letters 'a'..'z', N = 2^24 chars (the global "
           "version's main() size; the shared-memory version's main() uses 2^16), 512 threads: atomics in "
           "global memory, then per-block bins in shared memory; torch.bincount (ours).", "bench_cba_histogram.py")

    write_index(out, families, sources)
    n_files, n_pairs = pair_counts(families)
    print(f"p8.py: {len(families)} families, {n_files} program files, {n_pairs} ordered pairs -> {out}")
    for r in (hec, cba, olcf, md):
        print(f"  {r.name} @ {r.commit}")


if __name__ == "__main__":
    sys.exit(main())
