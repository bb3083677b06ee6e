#!/usr/bin/env python3
"""Builds evaluation set public14 ("p14-" families, CUDA programs with host code) outside the
repository, from local copies (the session's `fetch` tool) of public repositories no other
set uses: chongchen1999/cuda-kernels, Superjomn/cuda-from-scratch (CUDA programs with host
code) and arrzhev/cuda-kernels (torch extensions, one per upstream commit: arrzhev.py).

A version is one program file: the source's prelude (includes, constants, helpers; headers of
the source's own folder inlined), one kernel verbatim, the source's own host launcher for it,
and an `extern "C" kf_run` entry point marked KFORECAST that runs main()'s own size, grid and
launch lines for that kernel once. Where a size is changed to fill an H100 the marked line
says so. Adapters (adapters/, ours) are copied in as `<family>/bench.py`; `p14common.py` as
`_p14common.py`. Split "public14": report-only, never tuned on, never run through kforecast
by its builder.

    python3 scripts/evalsets/public14/p14.py --mirror /work/.mirror --out /work/main/target/evalsets/public14
"""

import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "public"))
import setkit  # noqa: E402
import arrzhev  # noqa: E402

ADAPTERS = os.path.join(HERE, "adapters")
TEXT = setkit.SetText("Evaluation set public14", "scripts/evalsets/public14/p14.py", ADAPTERS)
MARK = "// KFORECAST:"


def main_span(src):
    """(start, end) of `int main(...) { ... }` in src (end after the closing brace)."""
    m = re.search(r"^int\s+main\s*\([^)]*\)\s*\{", src, re.M)
    if not m:
        raise SystemExit("p14: no main() found")
    depth, i = 0, m.end() - 1
    while i < len(src):
        if src[i] == "{":
            depth += 1
        elif src[i] == "}":
            depth -= 1
            if depth == 0:
                return m.start(), i + 1
        i += 1
    raise SystemExit("p14: unbalanced main()")


def without_main(src):
    a, b = main_span(src)
    return src[:a].rstrip() + "\n\n" + f"{MARK} main() cut here; kf_run below runs its launch lines once.\n" + src[b:].lstrip()


def main_lines(src, keep):
    """main()'s lines that match any regex of `keep` (sizes, grid/block, the launch), verbatim."""
    a, b = main_span(src)
    body = src[a:b].split("\n")[1:-1]
    return [ln for ln in body if any(re.search(k, ln) for k in keep)]


def kf_run(signature, lines, ret=None, note=None):
    out = [f"{MARK} entry point written by the set's builder: main()'s own size, grid and",
           f"{MARK} launch lines for this kernel, run once (timing loops, host buffers cut)."]
    if note:
        out.append(f"{MARK} {note}")
    out.append(f'extern "C" {signature} {{')
    out += lines
    if ret:
        out.append(f"    return {ret};")
    out.append("}")
    return "\n".join(out) + "\n"


def version(repo, paths, what, body, note=setkit.VERBATIM):
    return TEXT.header(repo, paths, what, note=note) + body


class Builder:
    def __init__(self, args):
        self.out = args.out
        self.mirror = args.mirror
        self.families = []
        self.sources = {}
        self.repos = {}

    def repo(self, name):
        if name not in self.repos:
            self.repos[name] = setkit.Repo(self.mirror, name)
        return self.repos[name]

    def family(self, name, files, repo, style, notes, adapter, paths):
        d = os.path.join(self.out, name)
        rel = []
        for fname, text in files:
            setkit.write(os.path.join(d, fname), text)
            rel.append(f"{name}/{fname}")
        setkit.write(os.path.join(d, "bench.py"), TEXT.adapter(adapter))
        self.families.append({"family": name, "files": rel, "split": "public14",
                              "source": repo.at(), "style": style, "notes": notes})
        self.sources[name] = {"repo": repo.name, "commit": repo.commit, "paths": paths}

    # ---------------------------------------------------------------- chongchen1999/cuda-kernels
    def cc_reduce(self):
        r = self.repo("chongchen1999/cuda-kernels")
        files, paths = [], []
        keep = [r"constexpr int (grid_size|block_size)", r"^\s*dim3 ", r"<<<"]
        for i in range(6):
            p = f"reduction/reduce_sum_v{i}.cu"
            src = r.show(p)
            body = without_main(src) + "\n" + kf_run(
                "int kf_run(int *device_data, int *device_partial_sums)",
                main_lines(src, keep), ret="grid_size",
                note="returns grid_size: the adapter sums the partial sums, as main() does on the host.")
            files.append((f"reduce_sum_v{i}.cu", version(r, [p], f"Integer sum reduction v{i} (2^25 ints, the source's size).", body)))
            paths.append(p)
        self.family("p14-cc-reduce", files, r, "host-code",
                    "chongchen1999's integer sum-reduction ladder v0-v5 (one program each, same main(): 2^25 ints, "
                    "one launch writing per-block partial sums; grid 131072 or 2048 as each main() says). v0 interleaved "
                    "modulo, v1 strided index, v2 sequential addressing, v3 sequential with a 2048-block grid-stride "
                    "loop, v4 + volatile warp unroll, v5 + full unroll. The adapter sums the partial sums on the GPU "
                    "(main() does it on the host). v6-v9 are float or differently shaped programs (v7 8192 elements) "
                    "and are left out by content.", "bench_cc_reduce.py", paths)

    def cc_add(self):
        r = self.repo("chongchen1999/cuda-kernels")
        files, paths = [], []
        keep = [r"^\s*int (grid_size|block_size)", r"^\s*dim3 ", r"<<<"]
        for i in range(1, 5):
            p = f"elementwise/elementwise_add_v{i}.cu"
            src = r.show(p)
            body = without_main(src) + "\n" + kf_run(
                "void kf_run(float *device_a, float *device_b, float *device_result)", main_lines(src, keep))
            files.append((f"elementwise_add_v{i}.cu", version(r, [p], f"Float vector add v{i} (2^25 floats, the source's size).", body)))
            paths.append(p)
        self.family("p14-cc-add", files, r, "host-code",
                    "chongchen1999's float vector add v1-v4 (2^25 elements, the source's size): scalar, float2, float4, "
                    "float4 with a brace-initialised store and its own grid formula.", "bench_cc_add.py", paths)

    def cc_transpose(self):
        r = self.repo("chongchen1999/cuda-kernels")
        main_p = "matrix_transpose/matrix_transpose_main.cu"
        msrc = r.show(main_p)
        sizes = [ln for ln in msrc.split("\n") if re.match(r"static const int (M|seq_len) =", ln)]
        calls = {}
        for ln in main_lines(msrc, [r"launchTranspose<float>\(device_A, device_AT"]):
            ns = ln.strip().split("::")[0]
            calls.setdefault(ns, ln.replace("iters);", "1);  " + MARK + " one call (main() passes iters = 1000)"))
        files, paths = [], []
        for i in range(1, 6):
            p = f"matrix_transpose/includes/matrix_transpose_v{i}.cuh"
            src = r.show(p)
            ns = re.search(r"namespace (\w+)", src).group(1)
            body = src.rstrip() + "\n\n" + f"{MARK} main()'s sizes, from {main_p}:\n" + "\n".join(sizes) + "\n\n" + kf_run(
                "void kf_run(float *device_A, float *device_AT)", [calls[ns]])
            files.append((f"matrix_transpose_v{i}.cu", version(r, [p, main_p], f"Float transpose v{i} ({ns}), 4096 x 5000 (the source's size).", body)))
            paths.append(p)
        self.family("p14-cc-transpose", files, r, "templated",
                    "chongchen1999's templated float transpose headers v1-v5, each with its own launcher "
                    "(launchTranspose, timing events and printf included), run once on main()'s 4096 x 5000 "
                    "matrix: v1 naive, v2 naive with swapped indexing, v3 shared tile, v4 padded tile, v5 XOR-swizzled tile. "
                    "Measured 2026-11-27 (H100): v2-v5 fail the check at main()'s own non-square size (their bounds "
                    "tests swap M and N, leaving 904 output rows unwritten); only v1 passes, so no pair.",
                    "bench_cc_transpose.py", paths + [main_p])

    def cc_softmax(self):
        r = self.repo("chongchen1999/cuda-kernels")
        main_p = "softmax/softmax_main.cu"
        msrc = r.show(main_p)
        calls = {}
        for ln in main_lines(msrc, [r"::launchSoftmax\(device_data"]):
            ns = ln.strip().split("::")[0]
            calls[ns] = ln.replace("times);", "1);  " + MARK + " one call (main() passes times = 1000)")
        sizes = ["    const int M = 8192;  " + MARK + " raised from main()'s 3000 rows to fill an H100 (2^24 elements)",
                 [ln for ln in msrc.split("\n") if re.match(r"\s*const int N = ", ln)][0]]
        files, paths = [], []
        for i in range(1, 4):
            p = f"softmax/includes/softmax_v{i}.cuh"
            src = r.show(p)
            ns = re.search(r"namespace (\w+)", src).group(1)
            body = src.rstrip() + "\n\n" + kf_run(
                "void kf_run(float *device_data, float *device_output)",
                sizes + [calls[ns].replace("device_output_block_based", "device_output").replace("device_output_warp_based", "device_output")])
            files.append((f"softmax_v{i}.cu", version(r, [p, main_p], f"Row softmax v{i} ({ns}), 8192 x 2048 floats.", body,
                                                       note=setkit.VERBATIM + "\nThe output pointer of main()'s call is named device_output here.")))
            paths.append(p)
        self.family("p14-cc-softmax", files, r, "templated",
                    "chongchen1999's templated row softmax headers with their own launchers (launchSoftmax, timing "
                    "and printing included): v1 a block per row staging the row in dynamic shared memory, v2 a warp "
                    "per row in registers, v3 a block per row in registers, its kernel chosen from a std::map of "
                    "template instances. main()'s 2048 columns; rows raised from 3000 to 8192 (marked). The cuDNN "
                    "launcher of main() is left out (needs cuDNN headers and linking).", "bench_cc_softmax.py", paths + [main_p])

    # ---------------------------------------------------------------- Superjomn/cuda-from-scratch
    def sj_prelude(self, r, src, flags):
        common = r.show("common.cuh")
        src = src.replace('#include "./common.cuh"', f'{MARK} common.cuh of the same folder inlined below\n' + common)
        src = src.replace("#include <gflags/gflags.h>", f"{MARK} gflags dropped: the DEFINE_* flags are constants below")
        src = re.sub(r"DEFINE_\w+\(\s*(\w+),[^;]*\);\n", "", src)
        consts = [f"static const int FLAGS_{k} = {v};  {MARK} {why}" for k, v, why in flags]
        return src, consts

    def sj_transpose(self):
        r = self.repo("Superjomn/cuda-from-scratch")
        p = "1-matrix-transpose-coalesce.cu"
        src = r.show(p)
        kernels = ["transpose_read_coalesce", "transpose_write_coalesce", "transpose_tiled_coalesce0",
                   "transpose_tiled_coalesce1", "transpose_read_coalesce_unroll", "transpose_write_coalesce_unroll"]
        a, b = main_span(src)
        mainsrc = src[a:b]
        head = [ln for ln in mainsrc.split("\n")]
        # blockSize / gridSize lines (dim3 blockSize ... gridSize(...); spanning 3 lines)
        m = re.search(r"  dim3 blockSize\(.*?\);\n  dim3 gridSize\(.*?\);\n", mainsrc, re.S)
        grid_lines = m.group(0).rstrip("\n").split("\n")
        cases = re.findall(r"(      case (\d):.*?break;)", mainsrc, re.S)
        pre, consts = self.sj_prelude(r, src, [
            ("m", 4096, "raised from the flag's default 1024 to fill an H100 (2^24 uint64)"),
            ("n", 4096, "raised from the flag's default 1024"),
            ("blockDim", 32, "the flag's default")])
        files = []
        for idx, kname in enumerate(kernels):
            # keep only this kernel: drop the other __global__ templates
            text = pre
            for other in kernels:
                if other == kname:
                    continue
                text = cut_kernel(text, other)
            text = without_main(text)
            case = dict((int(n), body) for body, n in cases)[idx]
            launch = [ln.replace("input.data", "input").replace("output.data", "output") for ln in case.split("\n")]
            body = text.rstrip() + "\n\n" + "\n".join(consts) + "\n\n" + kf_run(
                "void kf_run(const uint64_t *input, uint64_t *output, cudaStream_t stream)",
                grid_lines + ["    switch (" + str(idx) + ") {  " + MARK + " main()'s switch on FLAGS_kernel, this case only"]
                + launch + ["    }"],
                note="Matrix<uint64_t> input/output of main() passed in as device pointers.")
            files.append((f"{idx}-{kname}.cu", version(r, [p, "common.cuh"], f"uint64 transpose, main()'s case {idx}: {kname}.", body)))
        self.family("p14-sj-transpose", files, r, "macro-heavy",
                    "Superjomn's transpose study (one file, a kernel per FLAGS_kernel case): read-coalesced, "
                    "write-coalesced, padded shared tile (static), padded shared tile (dynamic), and the read/write "
                    "versions unrolled 4 tasks per thread. uint64 elements, 4096 x 4096 (flags' default 1024 raised, "
                    "marked); gflags replaced by constants; common.cuh inlined. Measured 2026-11-27 (H100): case 3 "
                    "(tiled_coalesce1) faults (its dynamic shared memory is sized TILE*TILE, the kernel indexes "
                    "TILE*(TILE+1)) and is a failing line.", "bench_sj_transpose.py", [p, "common.cuh"])

    def sj_vecadd(self):
        r = self.repo("Superjomn/cuda-from-scratch")
        p = "0-vecadd-memory-coalesce.cu"
        src = r.show(p)
        kernels = ["add_coalesced0", "add_coalesced1", "add_uncoalesced"]
        a, b = main_span(src)
        mainsrc = src[a:b]
        grid = [ln for ln in mainsrc.split("\n") if re.match(r"\s*dim3 (block|grid)\(", ln)]
        cases = re.findall(r"case (\d): (.*?<<<.*?;) break;", mainsrc)
        pre, consts = self.sj_prelude(r, src, [
            ("block_size", 256, "the flag's default"), ("num_tasks", 1, "the flag's default")])
        files = []
        for idx, kname in enumerate(kernels):
            text = pre
            for other in kernels:
                if other != kname:
                    text = cut_kernel(text, other)
            text = without_main(text)
            launch = dict((int(n), l) for n, l in cases)[idx].replace("A.data", "A").replace("B.data", "B").replace("C.data", "C")
            body = text.rstrip() + "\n\n" + "\n".join(consts) + "\n\n" + kf_run(
                "void kf_run(const double *A, const double *B, double *C, cudaStream_t stream)",
                ["    const int M = 1 << 24;  " + MARK + " raised from main()'s 1024 * 1024 to fill an H100"]
                + grid + ["    " + launch],
                note="Vector<double> A, B, C of main() passed in as device pointers.")
            files.append((f"{idx}-{kname}.cu", version(r, [p, "common.cuh"], f"double vector add, main()'s case {idx}: {kname}.", body)))
        self.family("p14-sj-vecadd", files, r, "templated",
                    "Superjomn's coalescing study: templated double vector adds (one thread per element, grid-stride "
                    "loop, contiguous chunk per thread) at the flags' defaults (block 256, num_tasks 1), 2^24 elements "
                    "(main()'s 2^20 raised, marked); gflags replaced by constants; common.cuh inlined.",
                    "bench_sj_vecadd.py", [p, "common.cuh"])

    # ---------------------------------------------------------------- arrzhev/cuda-kernels
    def ar_family(self, name, api, kern, bind, globs, what, notes, adapter, torch_ref=None):
        r = self.repo("arrzhev/cuda-kernels")
        files, paths = [], []
        if torch_ref is not None:
            ref_path, func = torch_ref
            src = r.show(ref_path)
            m = re.search(r"^def " + func + r"\(.*?(?=^\S)", src, re.M | re.S)
            imports = [ln for ln in src.split("\n") if re.match(r"import torch\b|import torch\.nn\.functional", ln)]
            body = "\n".join(imports) + "\n\n\n" + m.group(0).rstrip() + "\n"
            files.append((f"{func}_torch.py", TEXT.py_header(r, ref_path, f"The source's own torch {func} (its sample's reference), cut verbatim with its imports.") + body))
            paths.append(ref_path)
        for c, text, src_paths in arrzhev.history(r, api, kern, bind, globs):
            hdr = setkit.SetText.header(TEXT, _AtCommit(r, c), src_paths, what.format(commit=c[:7]),
                                        note=setkit.VERBATIM + "\nHeaders of the project inlined where included, the kernel file appended, the binding line wrapped.")
            files.append((f"{api.split('.')[0]}_{c[:7]}.cu", hdr + text))
            paths += [f"{p}@{c[:12]}" for p in src_paths]
        self.family(name, files, r, "torch-extension", notes, adapter, paths)

    def ar_meanblur(self):
        self.ar_family("p14-ar-meanblur", "meanBlurTorch.cu", "meanBlur.cu", "mean_blur", ["*meanBlur*"],
                       "Mean-blur torch extension at commit {commit}.",
                       "arrzhev's mean-blur torch extension (planar CHW uint8, 7x7 window clipped at the borders), one "
                       "version per upstream commit that changed its files (oldest first), after the source's own torch "
                       "reference (python_samples/meanBlur.py: avg_pool2d with count_include_pad=False, then .byte()). "
                       "A 3 x 4096 x 4096 image (the sample's 512 x 512 astronaut raised), kernel size 7 as the sample.",
                       "bench_ar_meanblur.py", torch_ref=("python_samples/meanBlur.py", "mean_blur"))

    def ar_grayscale(self):
        self.ar_family("p14-ar-grayscale", "grayscaleTorch.cu", "grayscale.cu", "rgb2gray", ["*grayscale*"],
                       "RGB-to-gray torch extension at commit {commit}.",
                       "arrzhev's rgb2gray torch extension, one version per upstream commit that changed its files "
                       "(oldest first; uchar4 planar kernel from 4a1a02b on), on a contiguous planar 3 x 8192 x 8192 uint8 "
                       "image. The sample's torchvision reference rounds differently and is not used.",
                       "bench_ar_grayscale.py")

    def run(self):
        setkit.clear_set(self.out)
        shutil.copy(os.path.join(ADAPTERS, "p14common.py"), os.path.join(self.out, "_p14common.py"))
        for step in (self.cc_reduce, self.cc_add, self.cc_transpose, self.cc_softmax, self.sj_transpose, self.sj_vecadd,
                     self.ar_meanblur, self.ar_grayscale):
            step()
        setkit.write_index(self.out, self.families, self.sources)
        progs, pairs = setkit.pair_counts(self.families)
        print(f"p14: {len(self.families)} families, {progs} programs, {pairs} ordered pairs -> {self.out}")


class _AtCommit:
    """A Repo seen at another commit, for provenance headers."""

    def __init__(self, repo, commit):
        self.name = repo.name
        self.commit = commit


def cut_kernel(src, name):
    """Removes the template<...> __global__ void NAME(...) { ... } definition from src."""
    m = re.search(r"(template\s*<[^>]*>\s*\n)?__global__ void " + re.escape(name) + r"\s*\(", src)
    if not m:
        raise SystemExit(f"p14: kernel {name} not found")
    i = src.index("{", m.end())
    depth = 0
    while True:
        if src[i] == "{":
            depth += 1
        elif src[i] == "}":
            depth -= 1
            if depth == 0:
                break
        i += 1
    start = m.start()
    # also drop a comment line right above it
    prev = src.rfind("\n", 0, max(start - 1, 0))
    if src[prev + 1:start].strip().startswith("//") and not src[prev + 1:start].strip().startswith(MARK):
        start = prev + 1
    return src[:start] + f"{MARK} kernel {name} (another version) cut here\n" + src[i + 1:].lstrip("\n")


if __name__ == "__main__":
    Builder(setkit.builder_args(__doc__, "/work/main/target/evalsets/public14")).run()
