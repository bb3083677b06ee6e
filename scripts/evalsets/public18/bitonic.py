"""The p18-bitonic-sort family of evaluation set public18 (see pub18.py), from a local copy
of georrous6/bitonic-sort-cuda.

The source's six GPU bitonic sorts (src/bitonic_sort_v0.cu .. v5.cu) each export a host
function `vK::bitonic_sort(int *host_data, int n, int descending)` that copies the data to
the device (cudaMalloc + cudaMemcpy), launches its kernels step by step (a barrier and an
error check after every launch) and copies the result back. A version is the source's
src/util.cu (the copy and barrier helpers the sorts call), the kernel a version reuses from
another file of the source (v0's compare-and-swap for v1-v3, v4's for v5: that function in
its namespace, cut verbatim from its file, which the source links in), the version's own
file, verbatim, and an `extern "C" kf_run` entry point, marked KFORECAST, that calls the sort
as tests/test.cpp does (ascending). Headers (include/) are vendored under
`_vendor/bitonic/include` and found with -I.
"""

from p18kit import header, kf

REPO = "georrous6/bitonic-sort-cuda"
USES = {0: None, 1: 0, 2: 0, 3: 0, 4: None, 5: 4}


def reused_kernel(repo, j):
    """`namespace vJ { <its __global__ kernel_compare_and_swap definition> }`, cut from
    src/bitonic_sort_vJ.cu (the brace-matched function, verbatim)."""
    path = f"src/bitonic_sort_v{j}.cu"
    src = repo.show(path)
    ns = src.index(f"namespace v{j} {{")
    start = src.index("__global__", ns)
    if "kernel_compare_and_swap" not in src[start:src.index("{", start)]:
        raise SystemExit(f"bitonic.py: {path}: the first kernel of namespace v{j} is not kernel_compare_and_swap")
    i, depth = src.index("{", start), 0
    while True:
        depth += {"{": 1, "}": -1}.get(src[i], 0)
        i += 1
        if depth == 0:
            break
    return (f"// ---- {path} (v{j}::kernel_compare_and_swap only, as linked from that file)\n"
            f"namespace v{j} {{\n\n" + src[start:i] + "\n\n}\n\n")


def program(repo, k):
    paths = ["src/util.cu"] + ([f"src/bitonic_sort_v{USES[k]}.cu"] if USES[k] is not None else []) \
        + [f"src/bitonic_sort_v{k}.cu"]
    text = header(repo, ["tests/test.cpp"] + paths,
                  f"v{k}::bitonic_sort: in-place bitonic sort of n ints held on the host.")
    text += "// ---- src/util.cu\n" + repo.show("src/util.cu") + "\n\n"
    if USES[k] is not None:
        text += reused_kernel(repo, USES[k])
    text += f"// ---- src/bitonic_sort_v{k}.cu\n" + repo.show(f"src/bitonic_sort_v{k}.cu") + "\n\n"
    text += kf(f'''
extern "C" int kf_run(int *host_data, int n)
{{
    if (v{k}::bitonic_sort(host_data, n, 0) != EXIT_SUCCESS)
        return 1;
    return (int) cudaGetLastError();
}}''', "what tests/test.cpp does for this version once (ascending)")
    return text, paths


def families(repo, family):
    """Writes p18-bitonic-sort; returns the folder to vendor."""
    files, used = [], set()
    for k in range(6):
        text, paths = program(repo, k)
        files.append((f"bitonic_sort_v{k}.cu", text))
        used.update(paths)
    family("p18-bitonic-sort", files, ["tests/test.cpp"] + sorted(used), "host-code",
           "A course project's bitonic sort ladder on 2^24 ints (the source benchmarks 2^10..2^29): v0 one "
           "global compare-and-swap kernel per step (reference); v1-v3 sort and merge inside blocks in "
           "shared memory, v3 with __shfl_xor_sync; v4 a thread per compare-exchange pair with fewer idle "
           "threads; v5 v4 plus larger shared-memory chunks. Every version takes host data: the copies to "
           "and from the device are the source's and are timed; the adapter's device-to-host copy of the "
           "input into a pinned buffer (ours, the same for every version) is timed too.", "bench_bitonic.py")
    return ["include"]
