#!/usr/bin/env python3
"""Builds public set 17, "p17-" families (issue 20, 1(b)): the set reported as unseen.

    pub17.py --mirror /work/.mirror --out /work/main/target/evalsets/public17

Reads local bare copies (made with the session's `fetch` tool) of
- DiwakarBasnet/GPU-mode: standalone CUDA programs with host code (PMPP exercises):
  the day-14 text-histogram ladder, the day-13 3D stencil sweeps, the day-16 row softmaxes;
- andrewhinh/gpu-mode: GPU MODE leaderboard submissions (`custom_kernel(data)` with CUDA
  in a `load_inline` string) for histogram, vectorsum and sort, one file per target GPU;
and writes, OUTSIDE the repository, the set in the layout of HELPERS.md's evaluation-set
contract (families.json, SOURCES.json keyed by family, one folder per family with one
program per version, reference first, and its bench.py adapter).

How a version is made:
- CUDA program: the source file less its `main()` (cut at `int main(`), plus an
  `extern "C" kf_run` entry point (marked KFORECAST) holding the source host function's own
  `dim3` and launch lines for the kernel, with device pointers given by the adapter.
- GPU MODE submission: the module verbatim. Versions whose code is the same except for the
  `#!POPCORN gpus` line are kept once (the first in h100, a100, l4, t4 order).
  The problem's torch reference (no source ships it here) is written by us, marked as ours.
Nothing is chosen or dropped for its speed. Split "public17", never tuned on.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "public"))
from setkit import Repo, SetText, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

PREFIX = "p17-"
SPLIT = "public17"
HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = SetText("Evaluation set public17", "scripts/evalsets/public17/pub17.py", os.path.join(HERE, "adapters"))

KFPTR = """
// KFORECAST: entry point added for the evaluation harness (not the source's code). It runs
// the source host function's own dim3 and launch lines once, on device buffers the
// harness owns; KfPtr converts the harness's addresses to the kernel's pointer types.
struct KfPtr { void* p; template <class T> operator T*() const { return (T*)p; } };
"""


def _host_function(text, launch_at):
    """The header match (group 2: its parameters) of the host function holding the launch."""
    heads = [m for m in re.finditer(r"^(?:void|float|int)\s+(\w+)\s*\(([^)]*)\)\s*\{", text, re.M)
             if m.start() < launch_at]
    if not heads:
        raise SystemExit(f"pub17: no host function before the launch at {launch_at}")
    return heads[-1]


def cuda_program(repo, path, scalars):
    """The source less main(), plus kf_run(void* p0, void* p1, <scalars by name>): the
    device pointers of the launch, in the order they appear, then the named scalars."""
    src = repo.show(path)
    cut = re.search(r"^int\s+main\s*\(", src, re.M)
    if cut is None:
        raise SystemExit(f"pub17: no main() in {path}")
    prelude = src[:cut.start()].rstrip() + "\n"
    launch = re.search(r"^[ \t]*\w+\s*<<<.*?>>>\s*\((.*?)\)\s*;", prelude, re.M | re.S)
    if launch is None:
        raise SystemExit(f"pub17: no kernel launch in {path}")
    head_m = _host_function(prelude, launch.start())
    params = head_m.group(2)
    types = {}
    for p in params.split(","):
        m = re.match(r"\s*(.*?)\s*(\w+)\s*$", p)
        if m and "*" not in m.group(1):
            types[m.group(2)] = m.group(1)
    host = prelude[head_m.start():launch.start()]
    dims = [ln.strip() for ln in host.splitlines() if re.match(r"\s*dim3\s", ln)]
    # constants the host function sets before the launch (cudaMemcpyToSymbol from a local)
    setup = []
    for m in re.finditer(r"^\s*cudaMemcpyToSymbol\(\s*\w+\s*,\s*&(\w+).*?;", host, re.M):
        decl = re.search(rf"^\s*[\w ]+\s{m.group(1)}\s*=.*?;", host, re.M)
        if decl is None:
            raise SystemExit(f"pub17: no declaration of {m.group(1)} in {path}")
        setup += [decl.group(0).strip(), m.group(0).strip()]
    dims = setup + dims
    args = [a.strip() for a in launch.group(1).split(",")]
    ptrs = [a for a in args if re.fullmatch(r"\w+", a) and a not in types and a not in scalars]
    sig = [f"void* kf_p{i}" for i in range(len(ptrs))] + [f"{types.get(s, 'int')} {s}" for s in scalars]
    lines = [KFPTR, f'extern "C" void kf_run({", ".join(sig)}) {{']
    lines += [f"    KfPtr {p}{{kf_p{i}}};" for i, p in enumerate(ptrs)]
    lines += [f"    {d}" for d in dims]
    lines += ["    " + launch.group(0).strip(), "}", ""]
    head = TEXT.header(repo, [path], "The file less main(), with an entry point for the harness (KFORECAST).")
    return head + prelude + "\n".join(lines), ptrs


def strip_gpu_line(text):
    return "\n".join(ln for ln in text.splitlines() if not ln.startswith("#!POPCORN gpus"))


def gpumode_versions(repo, problem, order=("h100", "a100", "l4", "t4")):
    """[(file name, text)] of the distinct per-GPU submissions of one problem."""
    seen, out = set(), []
    for gpu in order:
        path = f"leaderboard/{problem}/{gpu}.py"
        text = repo.show(path)
        key = strip_gpu_line(text)
        if key in seen:
            continue
        seen.add(key)
        out.append((f"{problem}_{gpu}.py", TEXT.py_header(repo, path, "Verbatim.") + text))
    return out


TASK_PY = '''# Evaluation set public17 of kforecast: the GPU MODE `task` module the submissions import
# (KFORECAST's own code, not a public source): only the two type names they use.
from typing import TypeVar

import torch

input_t = TypeVar("input_t", bound=torch.Tensor)
output_t = TypeVar("output_t", bound=torch.Tensor)
'''

REF_HIST = '''import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    """256-bin histogram of uint8 data (counts as int64)."""
    return torch.bincount(data, minlength=256)
'''

REF_VSUM = '''import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    """Sum of a float32 vector."""
    return data.sum()
'''

REF_SORT = '''import torch
from task import input_t, output_t


def custom_kernel(data: input_t) -> output_t:
    """Ascending sort of a float32 vector."""
    return torch.sort(data)[0]
'''


def main():
    args = builder_args(__doc__, "/work/main/target/evalsets/public17")
    out = args.out
    clear_set(out)
    dw = Repo(args.mirror, "DiwakarBasnet/GPU-mode")
    ah = Repo(args.mirror, "andrewhinh/gpu-mode")
    families, sources = [], {}
    write(os.path.join(out, "_vendor", "task.py"), TASK_PY)
    write(os.path.join(out, "_p17common.py"), TEXT.adapter("_p17common.py"))

    def family(name, files, repo_refs, style, notes, bench):
        name = PREFIX + name
        for rel, text in files:
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), TEXT.adapter(bench))
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": SPLIT,
                         "source": repo_refs, "style": style, "notes": notes})
        sources[name] = repo_refs

    def dw_family(name, paths, scalars, style, notes, bench):
        files = []
        for p in paths:
            text, _ = cuda_program(dw, p, scalars)
            files.append((os.path.basename(p), text))
        family(name, files, ", ".join(dw.ref(p) for p in paths), style, notes, bench)

    dw_family("dw-text-histogram",
              [f"CUDA/day-14/{f}.cu" for f in ("atomic_operation", "atomic_operation_privatization",
                                               "atomic_privatized_sm", "contiguous_partitioning_coarsening",
                                               "interleaved_partitioning_coarsening", "aggregated_text_histogram")],
              ["length"], "host-code",
              "PMPP chapter 9 text histogram (letters a-z in 7 bins of 4): global atomics, per-block "
              "private copies in global memory, shared-memory privatisation, contiguous and interleaved "
              "coarsening, run aggregation. 2^26 characters; the source's block sizes (32 or 8) and grids. "
              "The output is zeroed by the adapter before each run (some sources leave it unset).",
              "bench_dw_histogram.py")
    dw_family("dw-stencil3d",
              [f"CUDA/day-13/{f}.cu" for f in ("basic_stencil", "stenchil_shared_mem",
                                               "stencil_sweep_register_tiling", "stencil_sweep_thread_coarsening")],
              ["N"], "host-code",
              "PMPP chapter 8 seven-point 3D stencil sweep: basic, shared-memory tiles, thread coarsening "
              "in z, register tiling. N=256 (2^24 floats); interior points compared.",
              "bench_dw_stencil.py")
    dw_family("dw-row-softmax",
              [f"CUDA/day-16/{f}.cu" for f in ("naive_softmax", "online_softmax", "sm_softmax", "softmax_reduction")],
              ["height", "width"], "host-code",
              "Row softmax: a thread per row with three passes (naive) or an online max/sum, and a block "
              "per row with shared-memory reductions (BLOCK_DIM 8, so width 8). 2^23 rows x 8. "
              "softmax.cu (one block for one vector of N <= 1024) is left out: it cannot take rows.",
              "bench_dw_softmax.py")

    ref = lambda what, body: ("torch_reference.py", TEXT.ours_py(what, body))  # noqa: E731
    family("ah-histogram", [ref("torch.bincount, the problem's reference.", REF_HIST)]
           + gpumode_versions(ah, "histogram"), ah.ref("leaderboard/histogram/"), "gpumode-load_inline",
           "GPU MODE 'histogram' submissions (uint8 data, 256 bins): one load_inline CUDA kernel with "
           "shared-memory privatisation and run aggregation, block size and block cap per target GPU. "
           "2^26 elements.", "bench_ah_histogram.py")
    family("ah-vectorsum", [ref("torch.sum, the problem's reference.", REF_VSUM)]
           + gpumode_versions(ah, "vectorsum"), ah.ref("leaderboard/vectorsum/"), "gpumode-load_inline",
           "GPU MODE 'vectorsum' submissions: two-pass load_inline reductions (the H100 one with cp.async "
           "into shared memory). 2^26 floats. a100, l4 and t4 are the same code (kept once).",
           "bench_ah_vectorsum.py")
    family("ah-sort", [ref("torch.sort, the problem's reference.", REF_SORT)]
           + gpumode_versions(ah, "sort"), ah.ref("leaderboard/sort/"), "gpumode-load_inline",
           "GPU MODE 'sort' submissions: bitonic sort over a padded copy (h100, = a100, l4) and the T4 "
           "file's radix sort. 2^24 floats.", "bench_ah_sort.py")

    family("ah-vectoradd", gpumode_versions(ah, "vectoradd", ("a100", "l4", "h100", "t4")),
           ah.ref("leaderboard/vectoradd/"), "gpumode-load_inline",
           "GPU MODE 'vectoradd' submissions (fp16 A + B): the A100 file returns torch's A + B (its "
           "extension is built but unused; the source's baseline, first), the L4 file (= T4) a thread "
           "per element load_inline kernel, the H100 file cp.async of 16-byte half8 chunks. 8192 x 8192.",
           "bench_ah_vectoradd.py")

    write_index(out, families, sources)
    n, pairs = pair_counts(families)
    print(f"pub17: {len(families)} families, {n} programs, {pairs} ordered pairs -> {out}")


if __name__ == "__main__":
    main()
