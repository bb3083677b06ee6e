"""Builds public evaluation set 51 ("p51-" families, split "public51", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public51/pub51.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public51

Sources (fetched with the session's `fetch` tool first), all CUDA with host code:
- kaixih/gpu_unified_cache: one author's stencil study (2-D 9-point, 3-D 7-point and 3-D
  27-point stencils with per-point coefficients), each a single macro-heavy program whose
  main() allocates, runs a ladder of kernels (plain, 2.5-D sweep, shared memory with branches
  or cyclic loads, register shuffles over 2-D or 1-D warps, 1 to 4 points a thread) ITER = 100
  times each, times them with cudaEvent and verifies them against a host stencil;
- ekarpp/cuda_snippets: a radix sort (Satish, Harris and Garland: 4-bit block splits with warp
  scans, block histograms, a multi-level global scan, reordering) at the commits whose
  messages change its kernels.

A stencil version is the program (`cuda/main_coef_glb_halo.cu`) with its metrics.h (the
Makefile's -I../../include) inlined, less main(), plus KFORECAST glue: DATA_TYPE float (the
Makefile's -DDATA_TYPE=float), `__shfl` as `__shfl_sync` with a full mask (the pre-CUDA 9
shuffle the source uses exists no more for sm_70 and later; every call is made by whole
warps), and an `extern "C" kf_run` holding main()'s size lines and one kernel's section of
main(): its grid lines and its ITER-launch loop with the pointer swaps (timing, copies and
prints left out). A radix-sort version is radix_sort.cu at one commit with its own headers
inlined, plus a KFORECAST `kf_run`: the commit's radix_sort() host function with its two
host copies made device-to-device (it sorts a device buffer in place). Steps are the
authors' own, never chosen by speed. Adapters (`adapters/bench_p51_*.py`) are ours. The
builder replaces the whole set folder but `measurements/`.
"""

import json
import os
import re
import sys
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402
from cpp_cut import cut_function  # noqa: E402

TEXT = setkit.SetText("Evaluation set public51", "scripts/evalsets/public51/pub51.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public51"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-27"

KU = "kaixih/gpu_unified_cache"
EK = "ekarpp/cuda_snippets"

SHFL = ("// KFORECAST: the source's pre-CUDA 9 __shfl(v, lane) exists no more for sm_70 and later;\n"
        "// every call in this program is made by whole warps, so it is __shfl_sync with a full mask.\n"
        "#define __shfl(v, lane) __shfl_sync(0xffffffffu, (v), (lane))\n")

DROP = ("cudaEventRecord", "cudaMemcpy", "Show_Me", "cout", "printf", "time_wo_pci",
        "cudaEventSynchronize", "cudaEventElapsedTime", "Init_Input", "Clear_Output")


def main_sections(main_fn):
    """main()'s kernel sections: {kernel name: launch lines} (grid lines to the last swap)."""
    marks = [m.start() for m in re.finditer(r"^[ \t]*// Cuda", main_fn, re.M)] + [len(main_fn)]
    out = {}
    for a, b in zip(marks, marks[1:]):
        sec = main_fn[a:b]
        k = re.search(r"(Stencil_\w+)<<<", sec)
        if k is None:
            continue
        lines = sec.split("\n")
        first = next(i for i, ln in enumerate(lines) if re.search(r"\bdim(Grid|Block|3)", ln))
        last = max(i for i, ln in enumerate(lines) if "swap(in_d, out_d);" in ln)
        keep = [ln for ln in lines[first:last + 1] if not any(d in ln for d in DROP)]
        out.setdefault(k.group(1), "\n".join(keep))
    return out


def ku_family(mirror, out, fam, folder, kernels, what, adapter, notes):
    repo = setkit.Repo(mirror, KU)
    path = f"{folder}/cuda/main_coef_glb_halo.cu"
    src = repo.show(path)
    metrics = repo.show("include/metrics.h")
    main_fn = cut_function(src, "main", with_comment=False).rstrip("\n")
    if main_fn not in src:
        raise SystemExit(f"pub51.py: main() of {path} not found verbatim")
    sizes = re.search(r"#else\n(.*?)#endif\n\s*(int halo = 1;)", main_fn, re.S)
    size_lines = sizes.group(1).rstrip() + "\n    " + sizes.group(2)
    secs = main_sections(main_fn)
    text = src.replace(main_fn, "// KFORECAST: the source's main() is cut here (see kf_run below).")
    text = text.replace("#include <metrics.h>\n",
                        "// KFORECAST: include/metrics.h (the Makefile's -I../../include) inlined below\n"
                        + metrics.rstrip() + "\n" + SHFL, 1)
    pre = "// KFORECAST: the Makefile's -DDATA_TYPE=float\n#define DATA_TYPE float\n"
    files = []
    for k in kernels:
        if k not in secs:
            raise SystemExit(f"pub51.py: no section of main() launches {k} in {path}")
        entry = ("\n// KFORECAST entry point (ours): main()'s sizes and its section for " + k + "\n"
                 "// (grid lines and the ITER-launch loop with its swaps) on device buffers; the\n"
                 "// result lands in the buffer passed as in_d (ITER is even).\n"
                 "extern \"C\" void kf_run(DATA_TYPE *in_d, DATA_TYPE *out_d, DATA_TYPE *args_d) {\n"
                 + size_lines + "\n    dim3 dimGrid;\n    dim3 dimBlock;\n" + secs[k] + "\n}\n")
        rel = f"{fam}/{k}.cu"
        setkit.write(os.path.join(out, rel),
                     TEXT.header(repo, [path, "include/metrics.h"], f"{what}: kernel {k}.")
                     + pre + text.rstrip() + "\n" + entry)
        files.append(rel)
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    setkit.write(os.path.join(out, "_p51stencil.py"), TEXT.adapter("_p51stencil.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code", notes=notes)


def ku_2d9(mirror, out):
    ks = ["Stencil_Cuda", "Stencil_Cuda_Sm_Branch", "Stencil_Cuda_Sm_Cyclic", "Stencil_Cuda_Shfl_2DWarp",
          "Stencil_Cuda_Shfl_1DWarp", "Stencil_Cuda_Shfl2_1DWarp", "Stencil_Cuda_Shfl4_1DWarp"]
    return ku_family(mirror, out, "p51-ku-stencil2d9", "2d_9_stencil", ks,
                     "2-D 9-point stencil with per-point coefficients, 4096 x 4096 + halo 1, ITER 100",
                     "bench_p51_stencil2d9.py",
                     "2-D 9-point stencil, out[j][i] = sum of 9 per-point coefficients times the 3 x 3 "
                     "neighbourhood, 4096 x 4096 floats with a halo of 1, applied ITER = 100 times with "
                     "pointer swaps (main()'s sizes). The seven kernels main() runs (its other sections are "
                     "commented out), in main()'s order: plain (32 x 8 blocks), shared memory with branches, "
                     "shared memory with cyclic loads, register shuffles over an 8 x 4 warp, shuffles over a "
                     "1-D warp with 1, 2 and 4 points a thread. Coefficients: the source's, 0.11 at every "
                     "point and neighbour (its shuffle kernels pair coefficient l with the transposed "
                     "neighbour of the plain kernel's, so with coefficients drawn per point they compute "
                     "another stencil: rel L2 1.3e-3 off the float64 reference after 100 steps in a first "
                     "H100 call, which used [0.95, 1.05] x 0.11 per point)")


def ku_3d(mirror, out, fam, folder, pts, adapter, coef):
    ks = ["Stencil_Cuda", "Stencil_Cuda_Sweep", "Stencil_Cuda_Sm_Cyclic", "Stencil_Cuda_Sweep_Sm_Cyclic",
          "Stencil_Cuda_Shfl_2DWarp", "Stencil_Cuda_Shfl4_2DWarp"]
    return ku_family(mirror, out, fam, folder, ks,
                     f"3-D {pts}-point stencil with per-point coefficients, 256^3 + halo 1, ITER 100",
                     adapter,
                     f"3-D {pts}-point stencil with per-point coefficients, 256^3 floats with a halo of 1, "
                     "applied ITER = 100 times with pointer swaps (main()'s sizes). Six of the kernels main() "
                     "runs, chosen before measuring to span its ladder: plain 8 x 4 x 8 blocks, 2.5-D sweep "
                     "(32 x 8 blocks marching in z), 3-D blocks with shared memory and cyclic loads, the sweep "
                     "with shared memory and cyclic loads, register shuffles over 2-D warps with 1 and with 4 "
                     f"points a thread. Coefficients: the source's {coef} each, drawn in [0.95, 1.05] x {coef} "
                     "per point")


# ---------------------------------------------------------------- ekarpp radix sort
RADIX = [("04539f1", "\"use 32 bit uints\" (the first commit with 32-bit keys: earlier ones sort 64-bit "
                     "keys); each thread splits, loads and stores 4 consecutive keys (uint4)"),
         ("96e7cfa", "\"fix bank conflicts\": the 1-bit split and the block sort index shared memory and "
                     "global memory with a stride of THREADS (key lidx + i * THREADS) instead of 4 "
                     "consecutive keys a thread"),
         ("ceaf82f", "\"fix bank conflicts in scan\": the global histogram scan's kernel likewise strided")]


def inline_all(src, headers):
    """Inlines the source's own headers, recursively (each at most once)."""
    done = set()

    def repl(m):
        name = m.group(1)
        if name not in headers:
            return m.group(0)
        if name in done:
            return f"// KFORECAST: {name} already inlined above"
        done.add(name)
        body = re.sub(r'^#include\s*"([\w./]+)"[^\n]*$', repl, headers[name], flags=re.M)
        return f"// KFORECAST: {name} (the source's header) inlined below\n{body.rstrip()}\n"
    return re.sub(r'^#include\s*"([\w./]+)"[^\n]*$', repl, src, flags=re.M)


def ek_radix(mirror, out):
    repo = setkit.Repo(mirror, EK)
    fam = "p51-ek-radixsort"
    files, notes = [], []
    for short, what in RADIX:
        commit = repo.git("rev-parse", short).strip()
        src = repo.show("radix_sort.cu", commit)
        names = [h for h in ("radix_sort.h", "constants.h", "scan.h", "reduce.h") if repo.has(commit, h)]
        headers = {h: repo.show(h, commit) for h in names}
        host = cut_function(src, "radix_sort", with_comment=False)
        if host not in src or host.count("cudaMemcpyHostToDevice") != 1 or host.count("cudaMemcpyDeviceToHost") != 1:
            raise SystemExit(f"pub51.py: radix_sort() at {short} not as expected")
        entry = host.replace("int radix_sort(int n, u32* input)", "extern \"C\" int kf_run(int n, u32* input)", 1)
        entry = entry.replace("cudaMemcpyHostToDevice", "cudaMemcpyDeviceToDevice")
        entry = entry.replace("cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice")
        if "kf_run" not in entry:
            raise SystemExit(f"pub51.py: radix_sort() signature changed at {short}")
        text = inline_all(src, headers)
        if re.search(r'^#include\s*"', text, re.M):
            raise SystemExit(f"pub51.py: a local include left in radix_sort.cu at {short}")
        rel = f"{fam}/radix_sort_{short}.cu"
        setkit.write(os.path.join(out, rel),
                     TEXT.header(SimpleNamespace(name=repo.name, commit=commit),
                                           ["radix_sort.cu"] + names,
                                           f"radix_sort.cu at commit {short}: {what}.")
                     + text.rstrip() + "\n\n"
                     "// KFORECAST entry point (ours): the commit's radix_sort() above, its host-to-device\n"
                     "// and device-to-host copies made device-to-device (`input` is a device buffer).\n"
                     + entry)
        files.append(rel)
        notes.append(f"{short}: {what}")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter("bench_p51_radixsort.py"))
    return dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="host-code",
                notes="LSD radix sort of 2^24 random 32-bit unsigned keys, in place (4-bit digits, "
                      "256-thread blocks of 1024 keys; each call allocates and frees its temporaries, "
                      "as the source's radix_sort() does). Versions: " + "; ".join(notes) + ". Left out: "
                      "aa78903 (drops an unused include) and 5def1ff (\"cleanup\": an inclusive-scan branch in the block "
                      "sum, which the sort's exclusive scan does not take, and an empty block deleted)")


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public51")
    setkit.clear_set(args.out)
    fams = [ku_2d9(args.mirror, args.out),
            ku_3d(args.mirror, args.out, "p51-ku-stencil3d7", "3d_7_stencil", 7, "bench_p51_stencil3d7.py", "0.14"),
            ku_3d(args.mirror, args.out, "p51-ku-stencil3d27", "3d_27_stencil", 27, "bench_p51_stencil3d27.py", "0.037"),
            ek_radix(args.mirror, args.out)]
    fams = [setkit.measured_note(f, FAILING, MEASURED_DAY) for f in fams]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
