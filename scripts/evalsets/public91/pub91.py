"""Builds public evaluation set 91 ("p91-" families, split "public91", kept unseen) from a local
copy of one public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public91/pub91.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public91

Source (fetched with the session's `fetch` tool first), PyTorch CUDA extensions:
- mystery5820/edge-llm-kernelbench: "EdgeLLM-KernelBench", one author's step-by-step CUDA
  kernels for LLM operators on a Jetson Orin (written with a coding agent, per its
  docs/current_progress_codex_handoff.md), each operator a PyTorch reference
  (python/edge_kernelbench/<op>.py) and a ladder of CUDA kernel files (kernels/<op>/*.cu, one
  kernel and its torch launcher a file, all bound by kernels/<op>/<op>.cpp and built with
  torch.utils.cpp_extension.load, -O3). A family is one operator at one size: the reference,
  then the kernel files in the order the author added them (commit order). RMSNorm: naive
  shared-memory tree, warp shuffle, float4; INT8 dequant-GEMV: naive (a block an output),
  warp (a warp an output), tiled (x tile in shared memory), vec4 (char4 / float4 loads),
  half2 (fp16 activations only), wide (16 warps a block). The RoPE ladder (two kernels) is
  left out: fewer than three versions beside the reference.

A version is the file verbatim: the reference plus a `kf_run` entry point marked KFORECAST,
a kernel file plus a KFORECAST PYBIND11_MODULE binding its launcher as `kf_run` (the source's
<op>.cpp binds it after input checks that the adapters' inputs always pass). Adapters
(`adapters/bench_p91_*.py`, `_p91common.py`, `_p91gemv.py`, ours) build a kernel file alone
with torch's load and the source's flags, call every version as kf_run(*inputs), fail a CUDA
version none of whose own kernels runs, and check against a float64 reference. The builder
replaces the whole set folder but `measurements/`.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public91", "scripts/evalsets/public91/pub91.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public91"
REPO = "mystery5820/edge-llm-kernelbench"

# Versions that failed on the NVIDIA H200 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-28"

K = "kernels/int8_dequant_gemv/"
GEMV_CPP = K + "int8_dequant_gemv.cpp"
GEMV_KERNELS = [  # stem, file, launcher, the source's Python name, what
    ("naive", "int8_dequant_gemv_kernel.cu", "int8_dequant_gemv_cuda_launcher", "forward",
     "naive kernel: a block of 256 threads an output, shared-memory tree over in_features"),
    ("warp", "int8_dequant_gemv_warp_kernel.cu", "int8_dequant_gemv_warp_cuda_launcher",
     "forward_warp", "warp kernel: a warp an output, 8 warps a block, shuffle reduce"),
    ("tiled", "int8_dequant_gemv_tiled_kernel.cu", "int8_dequant_gemv_tiled_cuda_launcher",
     "forward_tiled", "tiled kernel: the warp kernel with x staged in 256-element shared tiles"),
    ("vec4", "int8_dequant_gemv_vec4_kernel.cu", "int8_dequant_gemv_vec4_cuda_launcher",
     "forward_vec4", "vec4 kernel: the warp kernel with char4 weight and float4 x loads (fp32 x; fp16 x takes "
     "its scalar path)"),
    ("half2", "int8_dequant_gemv_half2_kernel.cu", "int8_dequant_gemv_half2_cuda_launcher",
     "forward_half2", "half2 kernel: fp16 x read as half2, weight as char2 (fp16 x only)"),
    ("wide", "int8_dequant_gemv_wide_kernel.cu", "int8_dequant_gemv_wide_cuda_launcher",
     "forward_wide", "wide kernel: the warp kernel with 16 warps a block"),
]

R = "kernels/rmsnorm/"
RMS_KERNELS = [
    ("naive", "rmsnorm_kernel.cu", "rmsnorm_cuda_launcher", "forward",
     "naive kernel: a block of 256 threads a row, shared-memory tree reduce of x^2"),
    ("warp", "rmsnorm_warp_kernel.cu", "rmsnorm_warp_cuda_launcher", "forward_warp",
     "warp kernel: a block a row, __shfl_down_sync warp sums then one warp over the warp sums"),
    ("float4", "rmsnorm_float4_kernel.cu", "rmsnorm_float4_cuda_launcher", "forward_float4",
     "float4 kernel: the warp kernel with float4 loads and stores (scalar path when unaligned)"),
]

# family, reference module, reference call, kernel folder, binding .cpp, kernels, adapter, notes
FAMILIES = [
    ("p91-rmsnorm", "python/edge_kernelbench/rmsnorm.py",
     "def kf_run(x, weight, eps):\n    return rmsnorm_reference(x, weight, eps=eps)\n",
     R, R + "rmsnorm.cpp", RMS_KERNELS, "bench_p91_rmsnorm.py",
     "RMSNorm over the last dimension, fp32 x (32768, 4096) normal, weight (4096,) normal, eps 1e-6 "
     "(the source's largest case 128 x 4096 on a Jetson Orin; rows raised to fill the GPU)."),
    ("p91-gemv-fp16", "python/edge_kernelbench/int8_dequant_gemv.py",
     "def kf_run(x, weight_int8, scale, bias):\n"
     "    return int8_dequant_gemv_reference(x, weight_int8, scale, bias)\n",
     K, GEMV_CPP, GEMV_KERNELS, "bench_p91_gemv_fp16.py",
     "INT8 dequant-GEMV x @ (weight_int8 * scale[:, None]).T + bias, fp16 x (4, 16384) normal, "
     "int8 weight (16384, 16384) in [-8, 8), fp32 scale uniform and bias normal (16384,), fp16 "
     "output (the source's largest case rows 4, 2048 x 2048; features raised to fill the GPU)."),
    ("p91-gemv-fp32", "python/edge_kernelbench/int8_dequant_gemv.py",
     "def kf_run(x, weight_int8, scale, bias):\n"
     "    return int8_dequant_gemv_reference(x, weight_int8, scale, bias)\n",
     K, GEMV_CPP, [k for k in GEMV_KERNELS if k[0] != "half2"], "bench_p91_gemv_fp32.py",
     "INT8 dequant-GEMV x @ (weight_int8 * scale[:, None]).T + bias, fp32 x (1, 16384) normal, "
     "int8 weight (16384, 16384) in [-8, 8), fp32 scale uniform and bias normal (16384,), fp32 "
     "output (the source's rows-1 GEMV case, up to 2048 x 2048; features raised to fill the GPU). "
     "The half2 kernel takes fp16 x only and is not in this family."),
]


def reference_version(out, fam, repo, path, call):
    rel = f"{fam}/v0_reference.py"
    text = (TEXT.py_line_header(repo.name, repo.commit, path,
                                "the source's PyTorch reference of the operator (the family's reference)")
            + "# " + setkit.VERBATIM + "\n\n" + repo.show(path).rstrip() + "\n\n\n"
            + "# KFORECAST entry point (ours): the harness calls kf_run(*inputs)\n" + call)
    setkit.write(os.path.join(out, rel), text)
    return rel


def kernel_version(out, fam, repo, i, stem, path, cpp, launcher, pyname, what):
    rel = f"{fam}/v{i}_{stem}.cu"
    text = (TEXT.header(repo, [path], f"The {what}.") + "\n" + repo.show(path).rstrip() + "\n\n\n"
            + f"// KFORECAST entry point (ours): the file's launcher bound as kf_run for the harness (the\n"
            + f"// source binds it as {pyname} in {cpp}, after input checks the family's inputs pass)\n"
            + "PYBIND11_MODULE(TORCH_EXTENSION_NAME, kf_module) {\n"
            + f"    kf_module.def(\"kf_run\", &{launcher}, \"KFORECAST entry point\");\n"
            + "}\n")
    setkit.write(os.path.join(out, rel), text)
    return rel


def family(repo, out, fam, ref_path, call, kdir, cpp, kernels, adapter, notes):
    files = [reference_version(out, fam, repo, ref_path, call)]
    said = [f"v0_reference ({ref_path})"]
    for i, (stem, name, launcher, pyname, what) in enumerate(kernels, start=1):
        path = kdir + name
        if not repo.has(repo.commit, path) or launcher not in repo.show(path):
            raise SystemExit(f"pub91.py: {path} or its {launcher} is missing")
        if launcher not in repo.show(cpp):
            raise SystemExit(f"pub91.py: {cpp} does not bind {launcher}")
        files.append(kernel_version(out, fam, repo, i, stem, path, cpp, launcher, pyname, what))
        said.append(f"v{i}_{stem} ({path}, bound as {pyname})")
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="torch-extension",
                 notes=notes + " Versions, in the order the author added them: " + "; ".join(said) + ".")
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING.items() if f in entry["files"]]
    entry["notes"] += (f" NVIDIA H200 measurement of {MEASURED_DAY}, failing: " + "; ".join(bad)
                       + "; every other version passed." if bad else
                       f" NVIDIA H200 measurement of {MEASURED_DAY}: every version passed.")
    return entry


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public91",
                               more=lambda ap: ap.add_argument("--dry-run", action="store_true",
                                                               help="build, then compile every "
                                                               "Python version and adapter (no GPU)"))
    setkit.clear_set(args.out)
    repo = setkit.Repo(args.mirror, REPO)
    fams = [family(repo, args.out, *f) for f in FAMILIES]
    for name in ("_p91common.py", "_p91gemv.py"):
        setkit.write(os.path.join(args.out, name), TEXT.adapter(name))
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))
    if args.dry_run:
        paths = [os.path.join(args.out, r) for f in fams for r in f["files"] if r.endswith(".py")]
        paths += [os.path.join(args.out, f["family"], "bench.py") for f in fams]
        for q in paths + [os.path.join(args.out, n) for n in ("_p91common.py", "_p91gemv.py")]:
            with open(q, encoding="utf-8") as fh:
                compile(fh.read(), q, "exec")
        print("dry run: every Python version and adapter compiles")


if __name__ == "__main__":
    main()
