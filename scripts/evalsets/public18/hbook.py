"""The p18-hbook-* families of evaluation set public18 (see pub18.py), from a local copy of
ArchaeaSoftware/cudahandbook (The CUDA Handbook's sample code).

A version is one CUDA program: the prelude (the #include lines) of the source's test
driver (histogram.cu, nbody.cu, timeScan.cu, reduction.cu), one of the source's algorithm
headers verbatim (its kernels and its own host launcher: cudaMalloc/cudaMemset/events,
launch configuration computed at run time), and an `extern "C" kf_run` entry point,
marked KFORECAST, that does what the driver's main() does for that algorithm once, at the
driver's own launch parameters (sizes from the driver's command-line options). The
headers that the programs include (chLib/, scanWarp.cuh, ...) are vendored under
`_vendor/cudahandbook/` and found with -I.
"""

from p18kit import header, kf

REPO = "ArchaeaSoftware/cudahandbook"


def prelude(repo, driver, skip, keep=()):
    """The driver's #include lines, less the `skip` ones (its own algorithm headers) but for
    the `keep` ones (headers whose helpers the version's header uses; vendored)."""
    lines = []
    for line in repo.show(driver).splitlines():
        s = line.strip()
        if s.startswith("#include") and (not any(k in s for k in skip) or any(f'"{k}.cuh"' in s for k in keep)):
            lines.append(line)
    return "\n".join(lines) + "\n\n"


# -- histogram: histogram/histogram.cu's TestHistogram (dHist cleared, then the
#    GPUhistogram* launcher), threads (32,8) for PerGrid and (16,4) for the rest.
# headers whose helpers a version's header uses: the driver includes them before it
HIST_DEPS = {"histogramPerBlockReduce": ["histogramPerBlockOffset"],
             "histogramPerThread4x64": ["histogramPerThread64"]}
HIST = [  # (file, header, launcher)
    ("histogramPerGrid", "GPUhistogramPerGrid", (32, 8)),
    ("histogramPerBlock", "GPUhistogramPerBlock", (16, 4)),
    ("histogramPerBlockReduce", "GPUhistogramPerBlockReduce", (16, 4)),
    ("histogramPerThread64", "GPUhistogramPerThread64", (16, 4)),
    ("histogramPerThread4x64", "GPUhistogramPerThread4x64", (16, 4)),
    ("histogramPerThread4x32", "GPUhistogramPerThread4x32", (16, 4)),
]


def hist_program(repo, cuh, fn, threads):
    path = f"histogram/{cuh}.cuh"
    text = header(repo, ["histogram/histogram.cu", path], f"{fn}: 8-bit histogram of a w x h image.")
    deps = HIST_DEPS.get(cuh, [])
    text += prelude(repo, "histogram/histogram.cu", ("pgm.h", "histogram"), keep=deps)
    text += repo.show(path)
    text += kf(f'''
extern "C" int kf_run(unsigned int *dHist, const unsigned char *didata, int w, int h)
{{
    float ms;
    dim3 threads = dim3( {threads[0]}, {threads[1]}, 1 );
    cudaMemset( dHist, 0, 256*sizeof(int) );
    {fn}( &ms, dHist, didata, w, 0, 0, w, h, threads );
    cudaError_t e = cudaDeviceSynchronize();
    return e != cudaSuccess ? (int) e : (int) cudaGetLastError();
}}''')
    return text


# -- n-body: nbody/nbody.cu's ComputeGravitation() cases for the GPU algorithms.
NBODY = [  # (file, launcher, the driver clears the forces first)
    ("nbody_GPU_AOS", "ComputeGravitation_GPU_AOS", False),
    ("nbody_GPU_shared", "ComputeGravitation_GPU_Shared", True),
    ("nbody_GPU_AOS_const", "ComputeNBodyGravitation_GPU_AOS_const", True),
    ("nbody_GPU_AOS_tiled", "ComputeGravitation_GPU_AOS_tiled", False),
    ("nbody_GPU_Shuffle", "ComputeGravitation_GPU_Shuffle", True),
    ("nbody_GPU_Atomic", "ComputeGravitation_GPU_Atomic", True),
]


def nbody_program(repo, name, fn, clear):
    path = f"nbody/{name}.cu" if name == "nbody_GPU_shared" else f"nbody/{name}.cuh"
    text = header(repo, ["nbody/nbody.cu", path], f"{fn}: all-pairs gravitational forces.")
    if not path.endswith(".cu"):  # nbody_GPU_shared.cu carries its own includes
        text += prelude(repo, "nbody/nbody.cu", ("nbody_", "kahan.h", "ch_conio.h", "nbody.h"))
    text += repo.show(path)
    memset = "    cudaMemset( force, 0, 3*N*sizeof(float) );\n" if clear else ""
    text += kf(f'''
extern "C" int kf_run(float *force, float *posMass, float softening, size_t N)
{{
{memset}    {fn}( force, posMass, softening*softening, N );
    cudaError_t e = cudaDeviceSynchronize();
    return e != cudaSuccess ? (int) e : (int) cudaGetLastError();
}}''')
    return text


# -- scan: scan/int/timeScan.cu's TimeScan(pfn, 64M, threads) for its three algorithms.
SCAN = [  # (header, template, threads per block)
    ("scanFan", "scanFan", 128), ("scanFan", "scanFan", 512),
    ("scanReduceThenScan", "scanReduceThenScan", 128), ("scanReduceThenScan", "scanReduceThenScan", 512),
    ("scan2Level", "scan2Level", 128), ("scan2Level", "scan2Level", 512),
]


def scan_program(repo, cuh, fn, b):
    path = f"scan/int/{cuh}.cuh"
    text = header(repo, ["scan/int/timeScan.cu", path], f"{fn}<int> at {b} threads per block: inclusive scan.")
    text += prelude(repo, "scan/int/timeScan.cu", ("scanFan", "scanReduceThenScan", "scan2Level", "scanThrust"))
    text += "int *g_hostIn, *g_hostOut;\n\n"
    if cuh == "scan2Level":
        text += ('// KFORECAST: the driver includes scanReduceThenScan.cuh before this header, which brings in\n'
                 '// the reduceBlock() this one calls.\n#include "reduceBlock.cuh"\n\n')
    text += repo.show(path)
    text += kf(f'''
extern "C" int kf_run(int *outGPU, const int *inGPU, size_t N)
{{
    {fn}<int>( outGPU, inGPU, N, {b} );
    cudaError_t e = cudaDeviceSynchronize();
    return e != cudaSuccess ? (int) e : (int) cudaGetLastError();
}}''')
    return text


# -- reduction: reduction/reduction.cu's TimedReduction (answer and partial sums
#    allocated per call) at its 1800 blocks, 256 threads.
RED = [
    ("reduction1ExplicitLoop", "Reduction1"), ("reduction3WarpSynchronousTemplated", "Reduction3"),
    ("reduction4SinglePass", "Reduction4"), ("reduction5Atomics", "Reduction5"),
    ("reductionWarpShuffleCG", "ReductionCG"),
]


def red_program(repo, cuh, fn):
    path = f"reduction/{cuh}.cuh"
    text = header(repo, ["reduction/reduction.cu", path], f"{fn}: sum of N ints, 1800 blocks of 256 threads.")
    text += prelude(repo, "reduction/reduction.cu", ("reduction",))
    text += repo.show(path)
    text += kf(f'''
extern "C" int kf_run(int *answer, const int *deviceIn, size_t N)
{{
    int cBlocks = 1800, cThreads = 256;
    int *deviceAnswer = 0;
    int *partialSums = 0;
    cudaMalloc( &deviceAnswer, sizeof(int) );
    cudaMalloc( &partialSums, cBlocks*sizeof(int) );
    {fn}( deviceAnswer, partialSums, deviceIn, N, cBlocks, cThreads );
    cudaMemcpy( answer, deviceAnswer, sizeof(int), cudaMemcpyDeviceToDevice );
    cudaFree( deviceAnswer );
    cudaFree( partialSums );
    cudaError_t e = cudaDeviceSynchronize();
    return e != cudaSuccess ? (int) e : (int) cudaGetLastError();
}}''')
    return text


VENDOR = ["chLib", "histogram/histogramPerBlockOffset.cuh", "histogram/histogramPerThread64.cuh",
          "nbody/bodybodyInteraction.cuh", "scan/scanWarpPolicy.cuh",
          "scan/int/scanWarp.cuh", "scan/int/scanBlock.cuh", "scan/int/reduceBlock.cuh"]


def families(repo, family):
    """Writes the p18-hbook-* families through `family(name, files, paths, style, notes, bench)`
    and returns the headers to vendor (paths in the repository)."""
    family("p18-hbook-histogram",
           [(f"{fn}.cu", hist_program(repo, cuh, fn, t)) for cuh, fn, t in HIST],
           ["histogram/histogram.cu"] + sorted({f"histogram/{c}.cuh" for c, _, _ in HIST}), "host-code",
           "The CUDA Handbook's 8-bit histogram ladder: one global atomic per pixel (reference), per-block "
           "shared-memory histograms, per-block histograms reduced by a second kernel, per-thread 8-bit "
           "counters in shared memory (64 per thread, 4x64, 4x32 with warp merges). Each launcher computes "
           "its grid from w*h at run time; 4096x4096 random bytes (the driver's --random 256 --padWidth 4096 "
           "--padHeight 4096). One version per header (the 4x-unrolled, Offset and PeriodicMerge template "
           "variants are left out to keep the set measurable in its device budget; NPP is a library call).", "bench_hist.py")
    family("p18-hbook-nbody",
           [(f"{name}.cu", nbody_program(repo, name, fn, c)) for name, fn, c in NBODY],
           ["nbody/nbody.cu"] + [f"nbody/{n}.cu" if n == "nbody_GPU_shared" else f"nbody/{n}.cuh"
                                 for n, _, _ in NBODY], "templated",
           "The CUDA Handbook's all-pairs n-body force kernels (AOS naive reference, shared-memory tiles, "
           "constant-memory passes with cudaMemcpyToSymbolAsync, templated 128-body tiles with warp "
           "reductions, warp-shuffle broadcast, atomic accumulation); 16384 bodies (the driver's "
           "--numbodies 16), softening 0.1. SOA_tiled is left out (the driver does not include it), and "
           "tiled_const (the tiled kernel reading constant memory) for the device budget.", "bench_nbody.py")
    family("p18-hbook-scan",
           [(f"{cuh}_{b}.cu", scan_program(repo, cuh, fn, b)) for cuh, fn, b in SCAN],
           ["scan/int/timeScan.cu"] + sorted({f"scan/int/{c}.cuh" for c, _, _ in SCAN}), "runtime-sizes",
           "The CUDA Handbook's inclusive int scans as timeScan.cu times them (64M ints): scan-then-fan "
           "(recursive, cudaMallocAsync'd partials), reduce-then-scan, two-level scan with a __device__ "
           "partials array, each at 128 and 512 threads per block (two of the driver's four block sizes). "
           "Values in [0,16) so the sums stay in int range.", "bench_scan.py")
    family("p18-hbook-reduction",
           [(f"{fn}.cu", red_program(repo, cuh, fn)) for cuh, fn in RED],
           ["reduction/reduction.cu"] + [f"reduction/{c}.cuh" for c, _ in RED], "cooperative-groups",
           "The CUDA Handbook's int sum reductions as reduction.cu runs them (32M ints of 0/1, 1800 blocks "
           "of 256 threads): explicit loop two-pass (reference), templated warp-synchronous, single pass "
           "with a retirement counter, global atomics, cooperative_groups::reduce. Reduction2 (the "
           "untemplated form of 3), Reduction6 (any block size), Reduction7 (__syncthreads_count) and the "
           "vectorized one are left out to keep this op a small share of the pairs.", "bench_reduce.py")


    return VENDOR
