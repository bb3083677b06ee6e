"""Builds public evaluation set 22 ("p22-" families, split "public22", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public22/pub22.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public22

Sources (fetched with the session's `fetch` tool first):
- GaoXiangYa/KernelPractice: src/cuda/reduce/reduce_v1..v5.cu (a float sum ladder);
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
    # reduce_v0 sums in place (input[i] += input[i + stride]): it destroys its input, so a
    # second call on the same input gives another result; it is left out for that reason.
    for v in (1, 2, 3, 4, 5):
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
                      "them; the adapter sums them in torch). reduce_v0 left out: it reduces in "
                      "place and destroys its input. " + "; ".join(notes))


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
                      "shared memory. The adapter copies the start state into the first buffer "
                      "before each call (the same 128 MiB copy for every version)")


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public22")
    out_dir[0] = args.out
    setkit.clear_set(args.out)
    fams = [gx_reduce(args.mirror, args.out), tk_histogram(args.mirror, args.out),
            tk_conv(args.mirror, args.out), tk_conway(args.mirror, args.out)]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
