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

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ADAPTERS = os.path.join(HERE, "adapters")

REPOS = {
    "cuda-samples": "NVIDIA/cuda-samples",
    "liger": "linkedin/Liger-Kernel",
    "flaggems": "FlagOpen/FlagGems",
    "unsloth": "unslothai/unsloth",
    "kernelbench": "ScalingIntelligence/KernelBench",
}
HELD_BACK = ("karpathy/llm.c", "siboehm/SGEMM_CUDA", "codezakh/gpu-forecasters")


class Repo:
    def __init__(self, mirror, full_name):
        assert full_name not in HELD_BACK
        self.name = full_name
        self.git_dir = os.path.join(mirror, full_name.replace("/", "+"), "repo")
        if not os.path.isdir(self.git_dir):
            raise SystemExit(f"build.py: no local copy of {full_name} at {self.git_dir} "
                             f"(fetch it first: fetch github:{full_name})")
        self.commit = self.git("rev-parse", "HEAD").strip()

    def git(self, *args, binary=False):
        res = subprocess.run(["git", "--git-dir", self.git_dir, *args], capture_output=True)
        if res.returncode != 0:
            raise SystemExit(f"build.py: git {' '.join(args)} failed in {self.git_dir}: "
                             f"{res.stderr.decode(errors='replace')}")
        return res.stdout if binary else res.stdout.decode()

    def show(self, path):
        return self.git("show", f"{self.commit}:{path}")

    def ls(self, under):
        return [p for p in self.git("ls-tree", "-r", "--name-only", self.commit, under).splitlines() if p]

    def ref(self, path):
        return f"{self.name}@{self.commit[:12]}:{path}"


# ----------------------------------------------------------------------------- C++ cutting

def match_brace(text, open_idx):
    """Index just past the brace that closes the one at open_idx (skips comments, strings)."""
    depth, i, n = 0, open_idx, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
            continue
        if text.startswith("/*", i):
            i = text.find("*/", i) + 2
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise ValueError("unbalanced braces")


def leading_comment_start(text, start):
    """Moves `start` back over the comment lines right above it (the author's remarks)."""
    lines_before = text[:start].split("\n")
    k = len(lines_before) - 1  # the partial line where start sits
    j = k - 1
    in_block = False
    while j >= 0:
        s = lines_before[j].strip()
        if in_block:
            if s.startswith("/*"):
                in_block = False
            j -= 1
            continue
        if s.startswith("//"):
            j -= 1
        elif s.endswith("*/"):
            in_block = not s.startswith("/*") or s == "*/"
            if s.startswith("/*"):
                in_block = False
            j -= 1
        else:
            break
    return len("\n".join(lines_before[: j + 1])) + (1 if j >= 0 else 0)


def cut_function(text, name, with_comment=True, nth=0):
    """The nth definition of function/kernel `name` (templates included), with its comment."""
    rx = re.compile(r"^(template[ \t]*<[^;{]*?>\s*)?(extern[ \t]+\"C\"[ \t]+)?[\w:<> \t\*&]*?\b"
                    + re.escape(name) + r"\s*\([^;{]*\)\s*\{", re.M)
    for i, m in enumerate(rx.finditer(text)):
        if i < nth:
            continue
        s = m.start()
        end = match_brace(text, m.end() - 1)
        if with_comment:
            s = leading_comment_start(text, s)
        return text[s:end].strip("\n") + "\n"
    raise SystemExit(f"build.py: no definition of {name} found")


def strip_trailing_comments(text):
    prev = None
    while prev != text:
        prev = text
        text = re.sub(r"(/\*(?:(?!\*/).)*\*/|//[^\n]*)\s*\Z", "", text.rstrip(), flags=re.S).rstrip()
    return text + "\n"


def prelude_of(src, start, first_def):
    """The source's text from `start` (its includes) up to the first definition kept
    apart, less the comments that belong to that definition."""
    cut = leading_comment_start(src, src.index(first_def))
    return strip_trailing_comments(src[src.index(start):cut])


def header(repo, paths, what):
    lines = ["// Evaluation set (b) of kforecast, built by scripts/evalsets/public/build.py from",
             f"// {repo.name} at commit {repo.commit}:"]
    lines += [f"//   {p}" for p in paths]
    lines += [f"// {what}", "// Code below is the source's, verbatim, except where a comment says KFORECAST.", ""]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- CUDA samples

RED_DIR = "Samples/2_Concepts_and_Techniques/reduction"
RED_NAMES = {0: "reduce0", 1: "reduce1", 2: "reduce2", 3: "reduce3", 4: "reduce4", 5: "reduce5",
             6: "reduce6", 7: "reduce7", 8: "cg_reduce", 9: "multi_warp_cg_reduce"}
RED_HELPERS = {8: ["cg_reduce_n"], 9: ["cg_reduce_n"]}


def reduction_program(cs, which):
    kern = cs.show(f"{RED_DIR}/reduction_kernel.cu")
    host = cs.show(f"{RED_DIR}/reduction.cpp")
    prelude = prelude_of(kern, "#include <cooperative_groups.h>", "template <class T> __global__ void reduce0")
    parts = [header(cs, [f"{RED_DIR}/reduction_kernel.cu", f"{RED_DIR}/reduction.cpp"],
                    f"Version: kernel {which} ({RED_NAMES[which]}) of the reduction sample, with its launcher."),
             "#include <helper_cuda.h>\n", prelude, "\n"]
    for helper in RED_HELPERS.get(which, []):
        parts += [cut_function(kern, helper), "\n"]
    cases = [which] + ([7] if which == 9 else [])  # the launcher falls back from 9 to 7 below 64 threads
    for k in sorted(set(cases)):
        parts += [cut_function(kern, RED_NAMES[k]), "\n"]
    # host sizing helpers (reduction.cpp)
    parts.append(re.search(r'extern "C" bool isPow2\(unsigned int x\) \{[^\n]*\}\n', host).group(0) + "\n")
    parts += [cut_function(host, "nextPow2"), "\n"]
    parts.append(re.search(r"#ifndef MIN\n.*?#endif\n", host, re.S).group(0) + "\n")
    gnbt = cut_function(host, "getNumBlocksAndThreads")
    q = ("    checkCudaErrors(cudaGetDevice(&device));\n"
         "    checkCudaErrors(cudaGetDeviceProperties(&prop, device));\n")
    if q not in gnbt:
        raise SystemExit("build.py: getNumBlocksAndThreads changed upstream; update the builder")
    gnbt = gnbt.replace(q, (
        "    // KFORECAST: the device query is made once, not on every call (it takes ~100 us)\n"
        "    static cudaDeviceProp prop_cache;\n"
        "    static bool           have_prop = false;\n"
        "    if (!have_prop) {\n"
        "        checkCudaErrors(cudaGetDevice(&device));\n"
        "        checkCudaErrors(cudaGetDeviceProperties(&prop_cache, device));\n"
        "        have_prop = true;\n"
        "    }\n"
        "    prop = prop_cache;\n"))
    parts += [gnbt, "\n"]
    # the launcher, its switch cut to this version's case(s)
    launcher = cut_function(kern, "reduce", with_comment=True)
    sw = launcher.index("    switch (whichKernel) {")
    body_open = launcher.index("{", sw)
    body_close = match_brace(launcher, body_open)
    body = launcher[body_open + 1:body_close - 1]
    pieces = re.split(r"(?m)^(    case \d+:\n)", body)
    keep = []
    for i in range(1, len(pieces), 2):
        k = int(re.search(r"\d+", pieces[i]).group(0))
        if k in cases:
            keep.append(pieces[i] + pieces[i + 1].rstrip() + "\n")
    launcher = (launcher[:body_open + 1] + "\n" + "\n".join(keep) + "    }" + launcher[body_close:])
    parts += [launcher, "\n"]
    # the GPU final reduction loop of benchmarkReduce (cpuFinalReduction = false)
    bench = cut_function(host, "benchmarkReduce", with_comment=False)
    s0 = bench.index("            int s      = numBlocks;")
    w = bench.index("while (s > cpuFinalThreshold)", s0)
    loop = bench[s0:match_brace(bench, bench.index("{", w))]
    loop = "\n".join(line[8:] if line.startswith("        ") else line for line in loop.split("\n"))
    parts.append(
        "// KFORECAST: entry point for the evaluation adapter. One reduction of n floats to\n"
        "// d_odata[0], as reduction.cpp's benchmarkReduce does it (partial sums reduced on the\n"
        "// GPU, cpuFinalThreshold = 1; maxThreads 256 and maxBlocks 64 are runTest's defaults).\n"
        "extern \"C\" int kf_run(float *d_idata, float *d_odata, float *d_intermediateSums, int n)\n{\n"
        "    typedef float T;  // KFORECAST: benchmarkReduce's template parameter\n"
        "    const int maxThreads = 256, maxBlocks = 64;\n"
        f"    const int whichKernel       = {which};\n"
        "    const int cpuFinalThreshold = 1;\n"
        "    int       numThreads = 0, numBlocks = 0;\n"
        "    getNumBlocksAndThreads(whichKernel, n, maxBlocks, maxThreads, numBlocks, numThreads);\n"
        "    reduce<float>(n, numThreads, numBlocks, whichKernel, d_idata, d_odata);\n"
        f"{loop}\n"
        "    return (int)cudaGetLastError();\n}\n")
    return "".join(parts)


TF_DIR = "Samples/2_Concepts_and_Techniques/threadFenceReduction"


def threadfence_program(cs, single):
    """threadFenceReduction: the multi-pass or the single-pass (__threadfence + retirement
    counter) reduction, each with its launcher and the sample's host sizing."""
    kern = cs.show(f"{TF_DIR}/threadFenceReduction_kernel.cuh")
    host = cs.show(f"{TF_DIR}/threadFenceReduction.cu")
    body = kern[kern.index("#include <cooperative_groups.h>"):kern.rindex("#endif")]
    if single:  # drop the multi-pass kernel and its launcher `reduce`
        drop = [cut_function(body, "reduceMultiPass"), cut_function(body, "reduce")]
    else:  # drop the single-pass kernel and its launcher (both named reduceSinglePass)
        drop = [cut_function(body, "reduceSinglePass", nth=1), cut_function(body, "reduceSinglePass")]
    for d in drop:
        if d not in body:
            raise SystemExit("build.py: threadFenceReduction changed upstream; update the builder")
        body = body.replace(d, "", 1)
    body = re.sub(r"\n{3,}", "\n\n", body)
    bench = cut_function(host, "benchmarkReduce", with_comment=False)
    if single:
        run = "    reduceSinglePass(n, numThreads, numBlocks, d_idata, d_odata);\n"
    else:
        s0 = bench.index("                int s = numBlocks;")
        w = bench.index("while (s > cpuFinalThreshold)", s0)
        loop = bench[s0:match_brace(bench, bench.index("{", w))]
        loop = "\n".join(line[12:] if line.startswith("            ") else line for line in loop.split("\n"))
        run = "    reduce(n, numThreads, numBlocks, d_idata, d_odata);\n" + loop + "\n"
    name = "reduceSinglePass" if single else "reduceMultiPass"
    return "".join([
        header(cs, [f"{TF_DIR}/threadFenceReduction_kernel.cuh", f"{TF_DIR}/threadFenceReduction.cu"],
               f"Version: the {'single' if single else 'multi'}-pass reduction ({name}) of the threadFenceReduction sample."),
        "#include <helper_cuda.h>\n", body, "\n", cut_function(host, "nextPow2"), "\n",
        cut_function(host, "getNumBlocksAndThreads"), "\n",
        "// KFORECAST: entry point for the evaluation adapter. One reduction of n floats to\n"
        "// d_odata[0], as the sample's benchmarkReduce does it (maxThreads 128, maxBlocks 64,\n"
        "// cpuFinalThreshold 1: runTest's defaults).\n"
        "extern \"C\" int kf_run(float *d_idata, float *d_odata, float *d_intermediateSums, int n)\n{\n"
        "    const int maxThreads = 128, maxBlocks = 64, cpuFinalThreshold = 1;\n"
        "    int       numThreads = 0, numBlocks = 0;\n"
        "    getNumBlocksAndThreads(n, maxBlocks, maxThreads, numBlocks, numThreads);\n"
        + run +
        "    return (int)cudaGetLastError();\n}\n"])


TR_PATH = "Samples/6_Performance/transpose/transpose.cu"


def transpose_program(cs, kernel):
    src = cs.show(TR_PATH)
    prelude = prelude_of(src, "#include <cooperative_groups.h>", "__global__ void copy(")
    launch = re.search(r"dim3 grid\(size_x / TILE_DIM, size_y / TILE_DIM\), threads\(TILE_DIM, BLOCK_ROWS\);",
                       src).group(0)
    call = re.search(r"kernel<<<grid, threads>>>\(d_odata, d_idata, size_x, size_y\);", src).group(0)
    return "".join([
        header(cs, [TR_PATH], f"Version: kernel {kernel} of the transpose sample, with its launch."),
        prelude, "\n", cut_function(src, kernel), "\n",
        "// KFORECAST: entry point for the evaluation adapter: the launch of main() for this kernel\n"
        "extern \"C\" int kf_run(float *d_odata, float *d_idata, int size_x, int size_y)\n{\n"
        f"    void (*kernel)(float *, float *, int, int) = &{kernel};\n"
        f"    {launch}\n"
        f"    {call}\n"
        "    return (int)cudaGetLastError();\n}\n"])


MM_PATH = "Samples/0_Introduction/matrixMul/matrixMul.cu"


def matrixmul_program(cs, block_size):
    src = cs.show(MM_PATH)
    prelude = prelude_of(src, "// System includes", "template <int BLOCK_SIZE> __global__ void MatrixMulCUDA")
    grid = re.search(r"dim3 threads\(block_size, block_size\);\n\s*dim3 grid\(dimsB.x / threads.x, dimsA.y / threads.y\);",
                     src).group(0)
    return "".join([
        header(cs, [MM_PATH], f"Version: MatrixMulCUDA<{block_size}> (main()'s block_size = {block_size})."),
        prelude, "\n", cut_function(src, "MatrixMulCUDA"), "\n",
        "// KFORECAST: entry point for the evaluation adapter: MatrixMultiply()'s launch, C = A * B\n"
        "extern \"C\" int kf_run(float *d_C, float *d_A, float *d_B, int hA, int wA, int wB)\n{\n"
        f"    int  block_size = {block_size};\n"
        "    dim3 dimsA(wA, hA, 1);\n"
        "    dim3 dimsB(wB, wA, 1);\n"
        f"    {grid}\n"
        "    cudaStream_t stream = 0;\n"
        "    if (block_size == 16) {\n"
        "        MatrixMulCUDA<16><<<grid, threads, 0, stream>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);\n"
        "    }\n    else {\n"
        "        MatrixMulCUDA<32><<<grid, threads, 0, stream>>>(d_C, d_A, d_B, dimsA.x, dimsB.x);\n"
        "    }\n"
        "    return (int)cudaGetLastError();\n}\n"])


# ----------------------------------------------------------------------------- Python sources

def py_header(repo, path, what):
    return (f"# Evaluation set (b) of kforecast, built by scripts/evalsets/public/build.py from\n"
            f"# {repo.name} at commit {repo.commit}: {path}\n# {what}\n")


def with_py_header(text, hdr):
    """Puts the provenance comment after a module docstring / shebang-free first lines."""
    return hdr + "\n" + text


def ours_py(what, body):
    return ("# Evaluation set (b) of kforecast: a torch reference written by scripts/evalsets/public/build.py\n"
            f"# (KFORECAST's own code, not a public source). {what}\n" + body)


def vendor_liger(lg, out):
    root = os.path.join(out, "_vendor", "liger_kernel")
    os.makedirs(os.path.join(root, "ops"), exist_ok=True)
    note = ("# KFORECAST: package init left empty (the library's imports every op); "
            f"vendored from {lg.name}@{lg.commit}\n")
    write(os.path.join(root, "__init__.py"), note)
    write(os.path.join(root, "ops", "__init__.py"), note)
    write(os.path.join(root, "utils.py"), lg.show("src/liger_kernel/utils.py"))
    write(os.path.join(root, "ops", "utils.py"), lg.show("src/liger_kernel/ops/utils.py"))


def vendor_flaggems(fg, out):
    root = os.path.join(out, "_vendor")
    for p in fg.ls("src/flag_gems"):
        rel = p[len("src/"):]
        if "/csrc/" in p:
            continue
        dst = os.path.join(root, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as f:
            f.write(fg.git("show", f"{fg.commit}:{p}", binary=True))
    note = ("# KFORECAST: package init left empty (the library's imports and registers every op); "
            f"vendored from {fg.name}@{fg.commit}\n")
    for init in ("flag_gems/__init__.py", "flag_gems/ops/__init__.py", "flag_gems/fused/__init__.py"):
        write(os.path.join(root, init), note)


UNSLOTH_UTILS = "unsloth/kernels/utils.py"


def vendor_unsloth(us, out):
    """unsloth's kernels import `.utils`, which pulls in bitsandbytes and unsloth_zoo; the
    few helpers the kept kernels use are cut verbatim from it into one module."""
    src = us.show(UNSLOTH_UTILS)
    tree = ast.parse(src)
    keep = []
    for node in tree.body:
        names = []
        if isinstance(node, (ast.FunctionDef, ast.AnnAssign, ast.Assign)):
            if isinstance(node, ast.FunctionDef):
                names = [node.name]
            elif isinstance(node, ast.AnnAssign):
                names = [getattr(node.target, "id", "")]
            else:
                names = [getattr(t, "id", "") for t in node.targets]
        if set(names) & {"MAX_FUSED_SIZE", "next_power_of_2", "calculate_settings"}:
            keep.append(ast.get_source_segment(src, node))
    if len(keep) != 3:
        raise SystemExit("build.py: unsloth's utils.py changed upstream; update the builder")
    text = (f"# KFORECAST: helpers of {us.name}@{us.commit}:{UNSLOTH_UTILS} that the kernels of the\n"
            "# set use, cut verbatim (the module itself needs bitsandbytes and unsloth_zoo).\n"
            "import torch\nimport triton\nfrom triton.language.extra import libdevice\n\n"
            + "\n\n".join(keep) + "\n\n"
            "# KFORECAST: as utils.py sets them for CUDA with Triton >= 3\n"
            "triton_tanh = libdevice.tanh\ntorch_gpu_device = torch.cuda.device\n")
    write(os.path.join(out, "_vendor", "unsloth_kernels_utils.py"), text)


def unsloth_program(us, path):
    text = us.show(path)
    if "from .utils import" not in text:
        raise SystemExit(f"build.py: {path} has no `from .utils import`; update the builder")
    new = text.replace("from .utils import", "from unsloth_kernels_utils import", 1)
    return py_header(us, path, "KFORECAST: the one change is `from .utils import` -> `from unsloth_kernels_utils import`.") + new


# ----------------------------------------------------------------------------- the set

def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def adapter(name):
    with open(os.path.join(ADAPTERS, name)) as f:
        return f.read()


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
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirror", default="/work/.mirror", help="folder of fetched bare repositories")
    ap.add_argument("--out", default="target/evalsets/public", help="the set's folder (outside git)")
    args = ap.parse_args()
    out = os.path.abspath(args.out)
    keep_measurements = os.path.join(out, "measurements")
    if os.path.isdir(out):
        for entry in os.listdir(out):
            p = os.path.join(out, entry)
            if p == keep_measurements:
                continue
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    os.makedirs(out, exist_ok=True)

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

    write(os.path.join(out, "families.json"), json.dumps(families, indent=1) + "\n")
    sources = [{"repository": r.name, "commit": r.commit} for r in (cs, lg, fg, us, kb)]
    write(os.path.join(out, "SOURCES.json"), json.dumps(sources, indent=1) + "\n")
    n_files = sum(len(f["files"]) for f in families)
    print(f"build.py: {len(families)} families, {n_files} program files -> {out}")
    for r in sources:
        print(f"  {r['repository']} @ {r['commit']}")


if __name__ == "__main__":
    sys.exit(main())
