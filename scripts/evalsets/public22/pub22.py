"""Builds public evaluation set 22 ("p22-" families, split "public22", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public22/pub22.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public22

Sources (fetched with the session's `fetch` tool first):
- GaoXiangYa/KernelPractice: src/cuda/reduce/reduce_v0..v4.cu (a float sum ladder), src/cuda/rmsnorm/rmsnorm_v0..v2.cu;
- tkob-vh/CUDA_kernels: kernels/ParallelHistogram (histogram v0-v3) and
  kernels/Convolution (2-D convolution v0-v2), each with its folder's header.

A version is one CUDA program: the source file with its own folder's headers inlined where
it includes them, less its `*_benchmark()` driver (the source's main-like function), plus an
`extern "C" kf_run` entry point marked KFORECAST that runs the source's own launch lines for
that kernel on device pointers (the source's sizes: 32 Mi floats for the sum; the histogram
and convolution read their sizes from a data file, so the adapter gives 2^26 letters and an
8192 x 8192 image). Adapters (`adapters/bench_p22_*.py`) are ours. The builder replaces the
whole set folder but `measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402
from cpp_cut import cut_function  # noqa: E402

TEXT = setkit.SetText("Evaluation set public22", "scripts/evalsets/public22/pub22.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public22"


def inline_headers(src, headers):
    """Replaces `#include "name"` lines of the source's own headers by their text."""
    def repl(m):
        name = m.group(1)
        if name in headers:
            return f"// KFORECAST: {name} (the source's header) inlined below\n{headers[name].rstrip()}\n"
        return m.group(0)
    return re.sub(r'^#include\s*[<"]([\w./]+)[">][^\n]*$', repl, src, flags=re.M)


def statements(body):
    """Top-level statements of a C++ function body (split at ';' outside parentheses)."""
    out, depth, cur = [], 0, ""
    for ch in body:
        cur += ch
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ";" and depth == 0:
            out.append(cur.strip())
            cur = ""
    return out


# ---------------------------------------------------------------- GaoXiangYa reduce
def gx_reduce(mirror, out):
    repo = setkit.Repo(mirror, "GaoXiangYa/KernelPractice")
    headers = {
        "util.h": repo.show("src/cuda/utils/util.h"),
        "benchmark.cuh": repo.show("src/cuda/benchmark/benchmark.cuh"),
        "reduce.h": repo.show("src/cuda/reduce/reduce.h"),
    }
    fam = "p22-gx-reduce"
    files, notes = [], []
    # The ladder's first five steps (v0-v4): with v5 the sum would hold more than a third of
    # the set's pairs (chosen before any measurement).
    for v in (0, 1, 2, 3, 4):
        path = f"src/cuda/reduce/reduce_v{v}.cu"
        src = repo.show(path)
        host = cut_function(src, f"reduce_v{v}", with_comment=False)
        bench = cut_function(src, f"reduce_v{v}_benchmark", with_comment=False).rstrip("\n")
        if bench not in src:
            raise SystemExit(f"pub22.py: reduce_v{v}_benchmark() not found verbatim")
        body = host[host.index("{") + 1: host.rindex("}")]
        keep = [s for s in statements(body)
                if s.startswith("const int") or "<<<" in s]
        if not any("<<<" in s for s in keep):
            raise SystemExit(f"pub22.py: no launch found in reduce_v{v}")
        keep = [re.sub(r"\n\s*", "\n  ", s) for s in keep]
        text = src.replace(bench, "// KFORECAST: the source's reduce_v%d_benchmark() driver is cut here.\n" % v)
        text = inline_headers(text, headers)
        entry = ("\n// KFORECAST entry point (ours): the launch lines of the source's reduce_v%d()\n"
                 "// on device buffers; returns BLOCK_COUNT (the number of partial sums written).\n"
                 "extern \"C\" int kf_run(float *input_dev, float *output_dev, size_t input_count) {\n  "
                 % v + "\n  ".join(keep) + "\n  return BLOCK_COUNT;\n}\n")
        rel = f"{fam}/reduce_v{v}.cu"
        setkit.write(os.path.join(out, rel), TEXT.header(repo, [path, "src/cuda/utils/util.h",
                     "src/cuda/benchmark/benchmark.cuh", "src/cuda/reduce/reduce.h"],
                     f"Version v{v} of the float sum ladder.") + text + entry)
        files.append(rel)
        notes.append(f"reduce_v{v}.cu: reduce_kernel_v{v} with the source's reduce_v{v}() launch")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter("bench_p22_reduce.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes="float sum of 32 Mi floats, partial sums per block (the source's host sums "
                      "them; the adapter sums them in torch). The ladder's first five steps (v5 left out, before "
                      "measuring, to keep the sum under a third of the set's pairs). reduce_v0 sums in place (its input "
                      "is overwritten). " + "; ".join(notes))


def gx_rmsnorm(mirror, out):
    """GaoXiangYa/KernelPractice rmsnorm_v0..v2 (v3 keeps the whole input in one block's
    shared memory, so it runs only at 8192 elements, and is left out). kf_run keeps the
    launch lines of the source's rmsnorm_vN() host function and its constants; the
    temporaries v0 cudaMallocs on every call come from the adapter instead."""
    repo = setkit.Repo(mirror, "GaoXiangYa/KernelPractice")
    headers = {"util.h": repo.show("src/cuda/utils/util.h"),
               "util.cuh": repo.show("src/cuda/utils/util.cuh"),
               "rmsnorm.h": repo.show("src/cuda/rmsnorm/rmsnorm.h")}
    fam = "p22-gx-rmsnorm"
    files = []
    for v in (0, 1, 2):
        path = f"src/cuda/rmsnorm/rmsnorm_v{v}.cu"
        src = repo.show(path)
        host = cut_function(src, f"rmsnorm_v{v}", with_comment=False)
        bench = cut_function(src, f"rmsnorm_v{v}_benchmark", with_comment=False).rstrip("\n")
        if bench not in src:
            raise SystemExit(f"pub22.py: rmsnorm_v{v}_benchmark() not found verbatim")
        body = host[host.index("{") + 1: host.rindex("}")]
        keep = [st for st in statements(body)
                if re.match(r"(//[^\n]*\n\s*)*(const int|constexpr int|const size_t|int round)", st)
                or "<<<" in st]
        keep = [re.sub(r"\n\s*", "\n  ", st) for st in keep]
        cast = ("  float4 *input_dev = reinterpret_cast<float4 *>(input_f), "
                "*output_dev = reinterpret_cast<float4 *>(output_f);\n" if v == 2 else
                "  float *input_dev = input_f, *output_dev = output_f;\n")
        entry = ("\n// KFORECAST entry point (ours): the constants and launch lines of the source's\n"
                 "// rmsnorm_v%d() on device buffers (its cudaMalloc'd temporaries come as arguments).\n"
                 "extern \"C\" void kf_run(float *input_f, float *output_f, const int input_len, const float eps,\n"
                 "                       float *square_output, float *reduce_sum_dev, float *rms_dev) {\n" % v
                 + cast + "  " + "\n  ".join(keep) + "\n}\n")
        text = src.replace(bench, "// KFORECAST: the source's rmsnorm_v%d_benchmark() driver is cut here.\n" % v)
        text = inline_headers(text, headers)
        rel = f"{fam}/rmsnorm_v{v}.cu"
        setkit.write(os.path.join(out, rel), TEXT.header(repo, [path, "src/cuda/utils/util.h",
                     "src/cuda/utils/util.cuh", "src/cuda/rmsnorm/rmsnorm.h"],
                     f"Version v{v} of the RMS norm (no weight) over one vector.") + text + entry)
        files.append(rel)
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter("bench_p22_rmsnorm.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes="y = x / sqrt(mean(x^2) + eps) over one vector of 32 Mi floats, eps 1 "
                      "(the source's benchmark): v0 three kernels (square, atomic block sums, "
                      "rms, divide), v1 one 1024-thread block with warp shuffles, v2 the same "
                      "with float4. rmsnorm_v3 left out: it holds the whole vector in shared "
                      "memory (8192 floats at most)")


# ---------------------------------------------------------------- tkob-vh histogram / conv
def tk_family(repo, fam, folder, header, versions, entry_of, what, adapter, notes):
    hdr = repo.show(f"{folder}/include/{header}")
    files = []
    for v in versions:
        path = f"{folder}/src/{v}.cu"
        src = inline_headers(repo.show(path), {header: hdr})
        rel = f"{fam}/{v}.cu"
        setkit.write(os.path.join(out_dir[0], rel),
                     TEXT.header(repo, [path, f"{folder}/include/{header}"], what(v)) + src.rstrip()
                     + "\n\n" + entry_of(v))
        files.append(rel)
    setkit.write(os.path.join(out_dir[0], fam, "bench.py"), TEXT.adapter(adapter))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code", notes=notes)


out_dir = [None]


def tk_histogram(mirror, out):
    repo = setkit.Repo(mirror, "tkob-vh/CUDA_kernels")

    def entry(v):
        return ("// KFORECAST entry point (ours): main.cc's call for this version on device buffers.\n"
                "extern \"C\" void kf_run(int length, char *in_d, unsigned int *histo_d) {\n"
                f"  {v}_invok(length, in_d, histo_d);\n}}\n")
    return tk_family(repo, "p22-tk-histogram", "kernels/ParallelHistogram", "histogram.hh",
                     ["histogram_v0", "histogram_v1", "histogram_v2", "histogram_v3"], entry,
                     lambda v: f"Version {v} of the letter histogram (7 bins of 4 letters).",
                     "bench_p22_histogram.py",
                     "histogram of 2^26 random lowercase letters into 7 bins: v0 global atomics, "
                     "v1 shared-memory privatization, v2 + thread coarsening, v3 + aggregation")


def tk_conv(mirror, out):
    repo = setkit.Repo(mirror, "tkob-vh/CUDA_kernels")

    def entry(v):
        if v == "convolution_v0":
            call = "  convolution_v0_invok(width, height, FILTER_RADIUS, d_in, d_out, d_filter);\n"
        else:
            call = ("  // KFORECAST: main.cc never fills the __constant__ filter F; load it here.\n"
                    "  cudaMemcpyToSymbol(F, d_filter, (2 * FILTER_RADIUS + 1) * (2 * FILTER_RADIUS + 1)"
                    " * sizeof(float), 0, cudaMemcpyDeviceToDevice);\n"
                    f"  {v}_invok(width, height, d_in, d_out);\n")
        return ("// KFORECAST entry point (ours): main.cc's call for this version on device buffers.\n"
                "extern \"C\" void kf_run(float *d_in, float *d_out, float *d_filter, unsigned width,"
                " unsigned height) {\n" + call + "}\n")
    return tk_family(repo, "p22-tk-conv2d", "kernels/Convolution", "convolution.hh",
                     ["convolution_v0", "convolution_v1", "convolution_v2"], entry,
                     lambda v: f"Version {v} of the 2-D convolution (radius 3).",
                     "bench_p22_conv2d.py",
                     "2-D convolution, 8192 x 8192 floats, 7 x 7 filter, zero padding: v0 filter "
                     "in global memory, v1 filter in __constant__ memory, v2 + shared-memory input "
                     "tiles. The source's main.cc never copies the filter to __constant__ F; the "
                     "KFORECAST entry does (cudaMemcpyToSymbol) so every version computes the same")


def tk_conway(mirror, out):
    """tkob-vh's answers to a 3-D Game of Life exercise: main() less its file reading and
    timing; its own grid lines and step loop become kf_run (N steps, the result back in
    the first buffer as in main())."""
    repo = setkit.Repo(mirror, "tkob-vh/CUDA_kernels")
    fam = "p22-tk-conway3d"
    files = []
    for v in (0, 1, 2):
        path = f"exercises/Conway_3D/answer_v{v}.cu"
        src = repo.show(path)
        main_fn = cut_function(src, "main", with_comment=False).rstrip("\n")
        m = re.search(r"^[ \t]*(size_t width|dim3 blockDim)", main_fn, re.M)
        loop = re.search(r"^[ \t]*for\s*\(int i = 0;", main_fn, re.M)
        if m is None or loop is None:
            raise SystemExit(f"pub22.py: no launch lines in {path}")
        from cpp_cut import match_brace
        end = match_brace(main_fn, main_fn.index("{", loop.start()))
        lines = [ln for ln in main_fn[m.start():end].split("\n") if "chrono::" not in ln]
        cell = "uint32_t" if v == 2 else "uint8_t"
        entry = ("// KFORECAST entry point (ours): main()'s grid lines and step loop on device\n"
                 "// buffers (main() reads M and the cells from a file and N from argv).\n"
                 f"extern \"C\" void kf_run(void *curr, void *next, size_t M, int N) {{\n"
                 f"  {cell} *curr_space_d = ({cell} *)curr, *next_space_d = ({cell} *)next;\n"
                 + "\n".join(lines) + "\n}\n")
        text = src.replace(main_fn, "// KFORECAST: the source's main() is cut here (see kf_run below).")
        rel = f"{fam}/answer_v{v}.cu"
        setkit.write(os.path.join(out, rel), TEXT.header(repo, [path], f"Answer v{v} of the 3-D Game "
                     "of Life exercise.") + text.rstrip() + "\n\n" + entry)
        files.append(rel)
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter("bench_p22_conway3d.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes="3-D Game of Life on a 512^3 torus of 0/1 cells, 2 steps per call "
                      "(26 neighbours, survive 5-7, born at 6): v0 one thread per cell, v1 "
                      "shared-memory tiles with z iteration, v2 four cells per 32-bit word with "
                      "shared memory. The program steps in place: the result lands in the first "
                      "buffer, which the harness gives a fresh copy of for every check")


def at_softmax(mirror, out):
    """afanasyev-ilya/cuda_torch_tune: the attention extension's row softmax as it was
    optimised commit by commit (torch-extension .cu with its pybind binding). A version is
    the commit's includes, the softmax kernel with the helpers it calls and its host
    function, and the binding line of the commit's custom_attention.cpp."""
    repo = setkit.Repo(mirror, "afanasyev-ilya/cuda_torch_tune")
    fam = "p22-at-softmax"
    cu, cpp = "attention/custom_attention_kernels.cu", "attention/custom_attention.cpp"
    commits = {c[:7]: c for c in repo.commits([cu])}
    versions = [("custom_softmax", "72481ed", ["custom_softmax_forward_kernel", "custom_softmax_forward"]),
                ("opt_softmax_72481ed", "72481ed", ["warp_reduce_max", "warp_reduce_sum",
                                                     "opt_softmax_forward_kernel", "opt_softmax_forward"]),
                ("opt_softmax_e8511da", "e8511da", ["warp_reduce_max", "warp_reduce_sum",
                                                     "opt_softmax_forward_kernel", "opt_softmax_forward"]),
                ("opt_softmax_118a84c", "118a84c", ["warp_reduce_max", "warp_reduce_sum",
                                                     "opt_softmax_forward_kernel", "opt_softmax_forward"])]
    files = []
    for name, short, funcs in versions:
        commit = commits[short]
        src = repo.show(cu, commit)
        binding = repo.show(cpp, commit)
        includes = src[:src.index("template")].rstrip() + "\n"
        parts = [includes]
        kept = [cut_function(src, f, with_comment=True) for f in funcs]
        defines = [m.group(0) for m in re.finditer(r"^#define (\w+)[^\n]*$", src, re.M)
                   if any(re.search(r"\b%s\b" % m.group(1), k) for k in kept)]
        if defines:
            parts.append("\n".join(defines) + "\n")
        parts += kept
        host = funcs[-1]
        line = re.search(r'^\s*m\.def\("%s".*$' % host, binding, re.M).group(0)
        parts.append("// KFORECAST: the binding of this function, from the commit's custom_attention.cpp:\n"
                     "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n" + line + "\n}\n")
        rel = f"{fam}/{name}.cu"
        header = setkit.SetText.header(TEXT, _AtCommit(repo, commit), [cu, cpp],
                                       f"{host} at commit {short}: one version of the row softmax.",
                                       note=setkit.VERBATIM + "\nOnly this function, the kernel and "
                                       "helpers it uses and the includes are kept.")
        setkit.write(os.path.join(out, rel), header + "\n".join(parts))
        files.append(rel)
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter("bench_p22_at_softmax.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="torch-extension",
                notes="softmax over the last axis of a (4, 4096, 4096) float tensor (attention "
                      "scores, the source's llama2-like 4096 sequence), built with "
                      "torch.utils.cpp_extension.load: custom_softmax (one thread per row), "
                      "opt_softmax at 72481ed (warp shuffles, 512 threads a row), at e8511da "
                      "(cleaned), at 118a84c (in place: the adapter returns the input it overwrote)")


def hz_softmax(mirror, out):
    """HamzaElshafie/CUDA_Kernels: the online softmax, one thread a row, and its shared-memory
    version, one block a row (whole programs with main(); main()'s kernel configuration and
    launch lines become kf_run)."""
    repo = setkit.Repo(mirror, "HamzaElshafie/CUDA_Kernels")
    fam = "p22-hz-softmax"
    utils = repo.show("utils.h")
    files = []
    for stem, kernel in (("online_softmax", "online_softmax"), ("smem_online_softmax", "smem_online_softmax")):
        path = f"activations/{stem}.cu"
        src = repo.show(path)
        main_fn = cut_function(src, "main", with_comment=False).rstrip("\n")
        start = main_fn.index("    int threads_per_block")
        cfg_end = main_fn.index("\n", main_fn.index("dim3 gridDim", start))
        cfg = [ln for ln in main_fn[start:cfg_end].split("\n") if "std::cout" not in ln]
        launch = re.search(r"^[ \t]*%s<<<[^;]*;" % kernel, main_fn, re.M).group(0)
        entry = ("// KFORECAST entry point (ours): main()'s kernel configuration and launch on device\n"
                 "// buffers (main() uses 1024 x 1024; the adapter gives the size).\n"
                 "extern \"C\" void kf_run(const float *A_device, float *C_device, int num_rows, int num_columns) {\n"
                 + "\n".join(cfg) + "\n" + launch + "\n}\n")
        text = src.replace(main_fn, "// KFORECAST: the source's main() is cut here (see kf_run below).")
        text = inline_headers(text, {"utils.h": utils})
        rel = f"{fam}/{stem}.cu"
        setkit.write(os.path.join(out, rel), TEXT.header(repo, [path, "utils.h"], f"{stem}: one version "
                     "of the row softmax.") + text.rstrip() + "\n\n" + entry)
        files.append(rel)
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter("bench_p22_hz_softmax.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes="row softmax of a 16384 x 4096 float matrix with values in [-100, 100] "
                      "(the source's range; its main() uses 1024 x 1024): online_softmax one "
                      "thread a row (256-thread blocks), smem_online_softmax one 1024-thread "
                      "block a row with shared-memory reductions")


class _AtCommit:
    """A repository seen at one commit (for the provenance header)."""

    def __init__(self, repo, commit):
        self.name, self.commit = repo.name, commit


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public22")
    out_dir[0] = args.out
    setkit.clear_set(args.out)
    fams = [gx_reduce(args.mirror, args.out), gx_rmsnorm(args.mirror, args.out), tk_histogram(args.mirror, args.out),
            tk_conv(args.mirror, args.out), tk_conway(args.mirror, args.out),
            at_softmax(args.mirror, args.out), hz_softmax(args.mirror, args.out)]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
