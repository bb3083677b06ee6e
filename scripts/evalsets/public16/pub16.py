#!/usr/bin/env python3
"""Builds public evaluation set 16 ("p16-" families), the unseen public set of issue 20 1(b).

    pub16.py --mirror /work/.mirror --out /work/main/target/evalsets/public16

Reads local bare copies of public repositories no other set uses (fetched with the session's
`fetch` tool: MIRROR/<owner>+<name>/repo) and writes, OUTSIDE the repository, a set in the
layout of /work/HELPERS.md's evaluation-set contract: families.json, SOURCES.json (a dict keyed
by family), one folder per family with one program file per version (reference first) and its
bench.py adapter (ours, from adapters/), and `_vendor/` (headers the CUDA programs include).

Sources and how a version is made from them:
- b0nes164/GPUPrefixSums (`GPUPrefixSumsCUDA/`): device-wide inclusive scans, each a
  dispatcher class (host code) with its kernels; a version is the dispatcher header verbatim
  with its kernel header inlined verbatim where it is included, plus a KFORECAST `kf_run`
  entry point that runs the dispatcher's own DispatchKernelsInclusive lines once on the
  caller's buffer (scratch buffers allocated once). The shared headers (Utils.cuh,
  ScanCommon.cuh, UtilityKernels.cuh) are vendored under `_vendor/gpuprefixsums/`.
- b0nes164/GPUSorting (`GPUSortingCUDA/Sort/`): device-wide LSD radix sorts of 32-bit keys
  (DeviceRadixSort, OneSweep, CUB), made the same way (kernels of the .cu/.cuh inlined).
- isaac9000/trimul-openevolve: an OpenEvolve search (LLM-written candidates) on the GPU MODE
  TriMul problem; the starting point and the best program at the searches' checkpoints,
  verbatim `custom_kernel(data)` submissions.
- ianbarber/kernelbench-agents-vs-compile: LLM coding agents (Claude, Codex, Kimi) asked to
  beat torch.compile's kernels for Qwen3-1.7B ops; a task's eager reference and the agents'
  Triton candidates (`run(...)` modules), verbatim.
Everything is report-only: split "public16", never tuned on, never run through kforecast by
its builder.
"""

import os
import re
import sys
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "public"))
from cpp_cut import match_brace  # noqa: E402
from setkit import Repo, SetText, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = SetText("Evaluation set public16", "scripts/evalsets/public16/pub16.py", os.path.join(HERE, "adapters"))
SPLIT = "public16"
PREFIX = "p16-"

REPOS = {
    "scan": "b0nes164/GPUPrefixSums",
    "sort": "b0nes164/GPUSorting",
    "trimul": "isaac9000/trimul-openevolve",
    "agents": "ianbarber/kernelbench-agents-vs-compile",
}


def fail(msg):
    raise SystemExit(f"pub16.py: {msg}")


# ---------------------------------------------------------------- GPUPrefixSums (CUDA + host code)

SCAN_DIR = "GPUPrefixSumsCUDA"
SCAN_SHARED = ("Utils.cuh", "ScanCommon.cuh", "UtilityKernels.cuh")

# the chained-scan dispatchers' DispatchKernelsInclusive up to the launch (both variants' own lines)
CSDL_SETUP = '''
    const uint32_t k_csdlThreads = CSDL_WARPS * LANE_COUNT;
    const uint32_t k_partitionSize = k_csdlThreads * UINT4_PER_THREAD * 4;
    uint32_t alignedSize = kf_align16(size);
    uint32_t vectorizedSize = alignedSize / 4;
    const uint32_t threadBlocks = kf_divRoundUp(alignedSize, k_partitionSize);
    uint32_t* m_threadBlockReduction = kf_scratch(threadBlocks + 1);
    uint32_t* m_index = m_threadBlockReduction + threadBlocks;
    // ClearMemory(threadBlocks)
    cudaMemset(m_index, 0, sizeof(uint32_t));
    cudaMemset(m_threadBlockReduction, 0, threadBlocks * sizeof(uint32_t));
'''

SCAN_ENTRY = {
    "ReduceThenScan": ("RTS_WARPS", '''
    const uint32_t k_rtsThreads = RTS_WARPS * LANE_COUNT;
    const uint32_t k_partitionSize = k_rtsThreads * UINT4_PER_THREAD * 4;
    const uint32_t alignedSize = kf_align16(size);
    const uint32_t vectorizedSize = alignedSize / 4;
    const uint32_t threadBlocks = kf_divRoundUp(alignedSize, k_partitionSize);
    uint32_t* m_threadBlockReduction = kf_scratch(threadBlocks);
    // DispatchKernelsAgnostic + PropagateInclusive, as DispatchKernelsInclusive runs them
    ReduceThenScan::Reduce<RTS_WARPS, UINT4_PER_THREAD>
        <<<threadBlocks, k_rtsThreads>>>(m_scan, m_threadBlockReduction, vectorizedSize);
    ReduceThenScan::SpineScan<32, 4><<<1, 1024>>>(m_threadBlockReduction, threadBlocks);
    ReduceThenScan::PropagateInclusive<RTS_WARPS, UINT4_PER_THREAD>
        <<<threadBlocks, k_rtsThreads>>>(m_scan, m_threadBlockReduction, vectorizedSize);
'''),
    "ChainedScanDecoupledLookback": ("CSDL_WARPS", CSDL_SETUP + '''    ChainedScanDecoupledLookback::CSDLInclusive<CSDL_WARPS, UINT4_PER_THREAD>
        <<<threadBlocks, k_csdlThreads>>>(m_scan, m_threadBlockReduction, m_index,
                                          vectorizedSize);
'''),
    "EmulatedDeadlocking": ("CSDL_WARPS", CSDL_SETUP + '''    EmulatedDeadlocking::EmulatedDeadlock<CSDL_WARPS, UINT4_PER_THREAD><<<threadBlocks, k_csdlThreads>>>(
        m_scan, m_threadBlockReduction, m_index, vectorizedSize);
'''),
    "Cub": (None, '''
    // BatchTimingCubChainedScan's query and call (temp storage allocated once)
    static void* d_temp_storage = NULL;
    static size_t temp_storage_bytes = 0;
    size_t need = 0;
    cub::DeviceScan::InclusiveSum((void*)NULL, need, m_scan, size);
    if (need > temp_storage_bytes) {
        if (d_temp_storage) cudaFree(d_temp_storage);
        cudaMalloc(&d_temp_storage, need);
        temp_storage_bytes = need;
    }
    cub::DeviceScan::InclusiveSum(d_temp_storage, temp_storage_bytes, m_scan, size);
'''),
}

KF_HELPERS = '''
// KFORECAST: helpers of the evaluation entry point below (the dispatcher's private
// divRoundUp/align16, and its scratch buffer allocated once instead of per object).
static inline uint32_t kf_divRoundUp(uint32_t x, uint32_t y) { return (x + y - 1) / y; }
static inline uint32_t kf_align16(uint32_t x) { return kf_divRoundUp(x, 4) * 4; }
static uint32_t* kf_scratch(uint32_t words) {
    static uint32_t* buf = nullptr;
    static uint32_t cap = 0;
    if (words > cap) {
        if (buf) cudaFree(buf);
        cudaMalloc(&buf, words * sizeof(uint32_t));
        cap = words;
    }
    return buf;
}
'''


def inline_include(text, header, body, repo_path):
    line = f'#include "{header}"'
    if line not in text:
        fail(f"{repo_path} no longer includes {header}; update the builder")
    note = f"// KFORECAST: {header} inlined here verbatim\n"
    return text.replace(line, note + body.rstrip() + "\n// KFORECAST: end of " + header, 1)


def scan_program(sc, variant):
    disp_path = f"{SCAN_DIR}/{variant}Dispatcher.cuh"
    disp = sc.show(disp_path)
    paths = [disp_path]
    if variant != "Cub":
        kern_path = f"{SCAN_DIR}/{variant}.cuh"
        disp = inline_include(disp, f"{variant}.cuh", sc.show(kern_path), disp_path)
        paths.insert(0, kern_path)
    guard, body = SCAN_ENTRY[variant]
    entry = ((KF_HELPERS if guard is not None else "") + "\n// KFORECAST: entry point for the evaluation adapter. One inclusive scan of `size`\n"
             "// 32-bit words in place, as the dispatcher's BatchTimingInclusive runs it (its\n"
             "// DispatchKernelsInclusive lines; m_scan is the caller's buffer).\n"
             "extern \"C\" int kf_run(uint32_t* m_scan, uint32_t size)\n{" + body +
             "    return (int)cudaGetLastError();\n}\n")
    if guard is not None:
        undef = f"#undef {guard}"
        if undef not in disp:
            fail(f"{disp_path} no longer ends with {undef}; update the builder")
        i = disp.rindex(undef)
        disp = disp[:i] + entry.lstrip("\n") + "\n" + disp[i:]
    else:
        disp = disp.rstrip() + "\n" + entry
    hdr = TEXT.header(sc, paths, f"Version: the {variant} inclusive scan with its dispatcher (host code).")
    return hdr + disp


def scan_family(sc, out):
    for h in SCAN_SHARED:
        write(os.path.join(out, "_vendor", "gpuprefixsums", h), sc.show(f"{SCAN_DIR}/{h}"))
    # ReduceThenScan is left out: it fails the correctness check (H100, 2026-11-27: 65 M of 67 M
    # words wrong at 2^26). Its SpineScan adds s_red[WARPS - 1] (the whole pass's total) where the
    # warps before it are meant (s_red[WARP_INDEX - 1]), so only scans of up to 128 partitions come
    # out right; the source's own large-size tests initialise and validate 26..28 words only.
    variants = ["Cub", "ChainedScanDecoupledLookback", "EmulatedDeadlocking"]
    files = [(f"{v}.cu", scan_program(sc, v)) for v in variants]
    name = "p16-scan"
    fam = family_entry(out, name, files, sc.at(), "host-code",
                       "Device-wide inclusive prefix sum of 2^26 32-bit words in place (the source tests "
                       "and times 2^28; values 0..3): CUB's DeviceScan::InclusiveSum (reference, the source's "
                       "baseline), chained scan with decoupled lookback (one kernel) and its emulated-"
                       "deadlocking variant; each with its dispatcher class as the source has it and a "
                       "KFORECAST kf_run running the dispatcher's launch lines. Left out: the reduce-then-scan "
                       "version, which fails the correctness check (its spine scan is wrong past 128 "
                       "partitions). NOT MEASURED YET: the one H100 run of 2026-11-27 had reduce-then-scan "
                       "as this family's reference, so none of its versions was checked.",
                       "bench_p16_scan.py")
    return [fam], {name: {"repository": sc.name, "commit": sc.commit,
                          "paths": [f"{SCAN_DIR}/{v}Dispatcher.cuh" for v in variants]}}


# ---------------------------------------------------------------- GPUSorting (CUDA + host code)

SORT_DIR = "GPUSortingCUDA"
SORT_SHARED = ("Utils.cuh", "UtilityKernels.cuh")


def class_body(text, cls, path):
    m = re.search(r"^class " + re.escape(cls) + r"\s*\{", text, re.M)
    if not m:
        fail(f"{path} has no class {cls}; update the builder")
    return text[m.end() - 1:match_brace(text, m.end() - 1)]


def method_body(body, name, path):
    m = re.search(r"^\s*(?:void|bool)\s+" + re.escape(name) + r"\s*\([^)]*\)\s*\{", body, re.M)
    if not m:
        fail(f"{path} has no method {name}; update the builder")
    inner = body[m.end():match_brace(body, m.end() - 1) - 1]
    return textwrap.dedent(inner.strip("\n")).rstrip()


def expand_pragma_macros(text, path):
    """`#pragma unroll NAME` with NAME a macro of the file: nvcc does not expand macros in the
    pragma (it reports NAME undefined), so NAME is replaced by its value, marked KFORECAST."""
    defines = dict(re.findall(r"^#define\s+(\w+)\s+(\d+)\b", text, re.M))

    def repl(m):
        name = m.group(2)
        if name not in defines:
            fail(f"{path}: #pragma unroll {name} with no numeric #define; update the builder")
        return f"{m.group(1)}#pragma unroll {defines[name]}  // KFORECAST: was `#pragma unroll {name}` (not expanded by nvcc)"
    return re.sub(r"^(\s*)#pragma unroll ([A-Z_][A-Z0-9_]*)\s*$", repl, text, flags=re.M)


def sort_entry(disp, cls, path):
    """kf_run for a GPUSorting keys-only dispatcher: the class's constants, its buffers as its
    constructor allocates them (once), ClearMemory and DispatchKernelsKeysOnly verbatim."""
    body = class_body(disp, cls, path)
    consts = [ln.strip() for ln in body.split("\n") if re.match(r"\s*const uint32_t k_\w+\s*=\s*\d+;", ln)]
    members = [m for m in re.findall(r"^\s*uint32_t\*\s*(m_\w+);", body, re.M) if m != "m_sort"]
    m = re.search(r"^\s*" + cls + r"\(", body, re.M)  # the constructor (its body: the first brace after it)
    if not m:
        fail(f"{path} has no constructor of {cls}; update the builder")
    open_i = body.index("{", m.end())
    ctor = body[open_i + 1:match_brace(body, open_i) - 1]
    ctor = re.sub(r"\n\s*if \(!k_keysOnly\)\s*\{[^}]*\}", "", ctor)
    alloc = [ln.strip() for ln in ctor.split("\n")
             if ln.strip().startswith("const uint32_t") or
             (ln.strip().startswith("cudaMalloc(&m_") and not ln.strip().startswith("cudaMalloc(&m_sort,"))]
    clear = method_body(body, "ClearMemory", path) if "void ClearMemory(" in body else None
    dispatch = method_body(body, "DispatchKernelsKeysOnly", path)
    ind = lambda text, n: "\n".join((" " * n + ln) if ln.strip() else "" for ln in text.split("\n"))  # noqa: E731
    lines = [
        "// KFORECAST: entry point for the evaluation adapter. One keys-only sort of `size` 32-bit",
        f"// keys in place, as {cls}::BatchTimingKeysOnly runs it: the class's constants and",
        "// ClearMemory/DispatchKernelsKeysOnly verbatim, its buffers allocated once as its",
        "// constructor allocates them (m_sort is the caller's buffer).",
        'extern "C" int kf_run(uint32_t* m_sort, uint32_t size)', "{"]
    lines += ["    " + c for c in consts]
    lines += ["    auto divRoundUp = [](uint32_t x, uint32_t y) { return (x + y - 1) / y; };"]
    lines += [f"    static uint32_t* {m} = nullptr;" for m in members]
    lines += ["    static uint32_t kf_allocated = 0;", "    if (size > kf_allocated) {",
              "        const uint32_t k_maxSize = size;"]
    lines += ["        " + a for a in alloc]
    lines += ["        kf_allocated = size;", "    }"]
    if clear is not None:
        lines += ["    auto ClearMemory = [&](uint32_t binningThreadBlocks) {", ind(clear, 8), "    };"]
    lines += [ind(dispatch, 4), "    return (int)cudaGetLastError();", "}", ""]
    return "\n".join(lines)


def sort_program(so, variant):
    disp_path = f"{SORT_DIR}/Sort/{variant}Dispatcher.cuh"
    disp = so.show(disp_path)
    paths = [disp_path]
    if variant == "Cub":
        # the OneSweep policy hub and the methods that use it (cub's internal dispatch API) are cut
        hub = re.search(r"template <typename KeyT, typename ValueT, typename OffsetT>\nstruct policy_hub_t\n\{", disp)
        if not hub:
            fail(f"{disp_path} changed upstream; update the builder")
        end = match_brace(disp, hub.end() - 1) + 1  # the struct's closing "};"
        disp = disp[:hub.start()] + "// KFORECAST: policy_hub_t (the OneSweep policy of the cut methods) cut here\n" + disp[end:]
        agent = '#include "cub/agent/agent_radix_sort_onesweep.cuh"\n'
        if agent not in disp:
            fail(f"{disp_path} changed upstream; update the builder")
        disp = disp.replace(agent, "// KFORECAST: cub/agent/agent_radix_sort_onesweep.cuh (for policy_hub_t) not included\n", 1)
        for meth in ("BatchTimingCubDeviceRadixSortPairs", "BatchTimingCubOneSweepKeys",
                     "BatchTimingCubOneSweepPairs", "Dispatch"):
            m = re.search(r"\n    void " + meth + r"\([^)]*\)\s*\{", disp)
            if not m:
                fail(f"{disp_path} has no {meth}; update the builder")
            e = match_brace(disp, m.end() - 1)
            disp = disp[:m.start()] + f"\n    // KFORECAST: {meth} cut (pairs or cub's internal OneSweep dispatch)" + disp[e:]
        entry = ("// KFORECAST: entry point for the evaluation adapter. One keys-only sort of `size`\n"
                 "// 32-bit keys in place, as BatchTimingCubDeviceRadixSortKeys runs it (temp storage\n"
                 "// allocated once).\n"
                 'extern "C" int kf_run(uint32_t* m_sort, uint32_t size)\n{\n'
                 "    static void* d_temp_storage = NULL;\n"
                 "    static size_t temp_storage_bytes = 0;\n"
                 "    size_t need = 0;\n"
                 "    cub::DeviceRadixSort::SortKeys((void*)NULL, need, m_sort, m_sort, size);\n"
                 "    if (need > temp_storage_bytes) {\n"
                 "        if (d_temp_storage) cudaFree(d_temp_storage);\n"
                 "        cudaMalloc(&d_temp_storage, need);\n"
                 "        temp_storage_bytes = need;\n"
                 "    }\n"
                 "    cub::DeviceRadixSort::SortKeys(d_temp_storage, temp_storage_bytes,\n"
                 "        m_sort, m_sort, size);\n"
                 "    return (int)cudaGetLastError();\n}\n")
        text = disp.rstrip() + "\n\n" + entry
    else:
        h_path, c_path = f"{SORT_DIR}/Sort/{variant}.cuh", f"{SORT_DIR}/Sort/{variant}.cu"
        paths = [h_path, c_path, disp_path]
        entry = sort_entry(disp, f"{variant}Dispatcher", disp_path)
        disp = inline_include(disp, f"{variant}.cuh", so.show(h_path), disp_path)
        kern = so.show(c_path)
        inc = f'#include "{variant}.cuh"'
        if inc not in kern:
            fail(f"{c_path} no longer includes {variant}.cuh; update the builder")
        kern = kern.replace(inc, f"// KFORECAST: {variant}.cuh is inlined above", 1)
        kern = expand_pragma_macros(kern, c_path)
        text = (disp.rstrip() + f"\n\n// KFORECAST: {c_path} (the kernels' definitions) inlined here verbatim\n"
                + kern.rstrip() + "\n\n" + entry)
    hdr = TEXT.header(so, paths, f"Version: the {variant} keys-only radix sort with its dispatcher (host code).")
    return hdr + text


def sort_family(so, out):
    for h in SORT_SHARED:
        write(os.path.join(out, "_vendor", "gpusorting", h), so.show(f"{SORT_DIR}/{h}"))
    # the programs include "../Utils.cuh" and "../UtilityKernels.cuh" from Sort/: -I _vendor/gpusorting/Sort
    write(os.path.join(out, "_vendor", "gpusorting", "Sort", "README"),
          "KFORECAST: include root of the GPUSorting programs (their \"../X.cuh\" includes resolve to the parent).\n")
    variants = ["DeviceRadixSort", "OneSweep", "EmulatedDeadlocking", "Cub"]
    files = [(f"{v}.cu", sort_program(so, v)) for v in variants]
    name = "p16-radix-sort"
    fam = family_entry(out, name, files, so.at(), "host-code",
                       "Keys-only LSD radix sort (8-bit digits, 4 passes) of 2^26 32-bit keys in place (the "
                       "source tests and times 2^28; uniform random keys below 2^31): reduce-then-scan DeviceRadixSort "
                       "(reference: upsweep, scan, downsweep per pass), OneSweep (global histogram + chained-scan "
                       "digit binning), its emulated-deadlocking variant, and CUB's DeviceRadixSort::SortKeys; "
                       "each with its dispatcher class (the CUB one less its OneSweep-policy methods) and a "
                       "KFORECAST kf_run running the dispatcher's launch lines.", "bench_p16_sort.py")
    return [fam], {name: {"repository": so.name, "commit": so.commit,
                          "paths": [f"{SORT_DIR}/Sort/{v}Dispatcher.cuh" for v in variants]}}


# ---------------------------------------------------------------- trimul-openevolve (GPU MODE)

TRIMUL_VERSIONS = [
    ("starting_point.py", "trimul_kernel/starting_point.py", "the search's starting point (PyTorch "
     "baseline with a dummy Triton kernel)"),
    ("run1_checkpoint5.py", "trimul_kernel/openevolve_runs/run1/checkpoints/checkpoint_5/best_program.py",
     "run 1, best program at checkpoint 5"),
    ("run1_best.py", "trimul_kernel/openevolve_runs/run1/best/best_program.py", "run 1, best program"),
    ("run2_checkpoint5.py", "trimul_kernel/openevolve_runs/run2/checkpoints/checkpoint_5/best_program.py",
     "run 2, best program at checkpoint 5"),
    ("run2_best.py", "trimul_kernel/openevolve_runs/run2/best/best_program.py", "run 2, best program"),
]


def trimul_family(tm, out):
    files = []
    seen = set()
    for rel, path, what in TRIMUL_VERSIONS:
        text = tm.show(path)
        if text in seen:
            fail(f"{path} is a duplicate of an earlier version; update the builder")
        seen.add(text)
        files.append((rel, TEXT.py_header(tm, path, f"Version: {what}. Verbatim.") + "\n" + text))
    name = "p16-trimul-evolve"
    fam = family_entry(out, name, files, tm.at(), "gpumode-custom_kernel",
                       "GPU MODE TriMul (AlphaFold triangle multiplicative update: LayerNorm, five gated "
                       "projections, a masked pairwise contraction, LayerNorm, output gate) as OpenEvolve "
                       "(LLM-written candidates) evolved it on an H100: custom_kernel(data) at the problem's "
                       "largest benchmark shape (bs 1, seqlen 1024, dim 384, hidden 128, with mask). The "
                       "starting point (reference) and each run's best program at checkpoint 5 and at the end "
                       "(the intermediate checkpoints repeat these texts). Measured 2026-11-27 (H100): run1_best fails the "
                       "check (21 of 403 M outputs off the reference by more than 2e-2, bf16 contraction).",
                       "bench_p16_trimul.py")
    return [fam], {name: {"repository": tm.name, "commit": tm.commit, "paths": [p for _, p, _ in TRIMUL_VERSIONS]}}


# ---------------------------------------------------------------- agents vs compile (Triton)

AGENT_TASKS = {
    "p16-agent-swiglu-smoke": ("swiglu", ["claude_smoke", "codex_smoke", "kimi_smoke"], "bench_p16_agent_swiglu.py",
                               "SwiGLU gate silu(x) * y on bf16 (1, 512, 6144) (the task's own canonical shape, "
                               "3.1 M elements, about 16 us in eager torch on an H100): the task's eager reference and the Triton kernels that three LLM "
                               "coding agents (Claude, Codex, Kimi) wrote for it in the smoke runs (the first, "
                               "looser harness). Measured 2026-11-27 (H100): codex_smoke fails the check (about a "
                               "fifth of the outputs wrong)."),
    "p16-agent-swiglu-strict": ("swiglu", ["claude_strict", "codex_strict", "kimi_strict"], "bench_p16_agent_swiglu.py",
                                "SwiGLU gate silu(x) * y on bf16 (1, 512, 6144) (the task's canonical shape): the "
                                "task's eager reference and the three agents' Triton kernels from the strict-harness "
                                "runs (strict tolerance, no input mutation, determinism)."),
    "p16-agent-rmsnorm": ("rmsnorm", ["claude_v1", "codex_v1", "kimi_v1"], "bench_p16_agent_rmsnorm.py",
                          "Residual add + RMSNorm (fp32 math, bf16 out) over rows of 2048 (Qwen3-1.7B's hidden "
                          "size): the task's eager reference and the three agents' Triton kernels, at 8192 "
                          "rows (2^24 elements; the task's canonical 512 rows are 2^20). Measured 2026-11-27 "
                          "(H100): codex_v1 fails the check (it hardcodes 128 blocks of 4 rows, the "
                          "canonical 512)."),
}


def agent_families(ag, out):
    fams, sources = [], {}
    for name, (task, runs, bench, notes) in AGENT_TASKS.items():
        ref_path = f"agent_loop/tasks/{task}/reference.py"
        files = [("reference.py", TEXT.py_header(ag, ref_path, "Version: the task's eager-torch reference. "
                                                 "Verbatim.") + "\n" + ag.show(ref_path))]
        paths = [ref_path]
        seen = set()
        for run in runs:
            path = f"agent_loop/sandbox/{task}_{run}/candidate.py"
            text = ag.show(path)
            if text in seen:
                fail(f"{path} repeats an earlier candidate; update the builder")
            seen.add(text)
            agent = run.split("_")[0]
            files.append((f"{agent}_{run.split('_', 1)[1]}.py",
                          TEXT.py_header(ag, path, f"Version: the {agent} agent's candidate ({run}). Verbatim.")
                          + "\n" + text))
            paths.append(path)
        fams.append(family_entry(out, name, files, ag.at(), "agent-triton", notes, bench))
        sources[name] = {"repository": ag.name, "commit": ag.commit, "paths": paths}
    return fams, sources


# ---------------------------------------------------------------- set assembly

def family_entry(out, name, files, source, style, notes, bench):
    for rel, text in files:
        write(os.path.join(out, name, rel), text)
    write(os.path.join(out, name, "bench.py"), TEXT.adapter(bench))
    return {"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": SPLIT,
            "source": source, "style": style, "notes": notes}


def main():
    args = builder_args(__doc__, "/work/main/target/evalsets/public16")
    out = args.out
    clear_set(out)
    write(os.path.join(out, "p16common.py"), TEXT.adapter("p16common.py"))
    families, sources = [], {}
    for build, key in ((scan_family, "scan"), (sort_family, "sort"), (trimul_family, "trimul"),
                      (agent_families, "agents")):
        repo = Repo(args.mirror, REPOS[key])
        fams, srcs = build(repo, out)
        families += fams
        sources.update(srcs)
    for f in families:
        if not f["family"].startswith(PREFIX):
            fail(f"family {f['family']} lacks the {PREFIX} prefix")
    write_index(out, families, sources, sort_keys=True)
    n_files, n_pairs = pair_counts(families)
    print(f"pub16.py: {len(families)} families, {n_files} program files, {n_pairs} ordered pairs -> {out}")
    for name, s in sorted(sources.items()):
        print(f"  {name}: {s['repository']} @ {s['commit']}")


if __name__ == "__main__":
    sys.exit(main())
