"""Builds evaluation set public56 ("p56-" families, unseen) from local copies of public
repositories no other set uses, outside the repository:

    python3 scripts/evalsets/public56/pub56.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public56

Sources (fetch them first with the session's `fetch` tool):
- T-prog123/reference-kernels, branch `custom-kernels` (4d96994), a fork of GPU MODE's
  reference-kernels where one author works on the linear-algebra problem `qr_v2` (batched
  square compact-Householder QR, `custom_kernel(A) -> (H, tau)` in torch.geqrf's convention):
  * `custom/qr_v2/submissions/`: the author's GPU MODE submissions, Python files with CUDA in
    `load_inline` strings or Triton kernels: submission_cuda_baseline.py (cuSOLVER geqrf a
    matrix at a time), submission_cuda_v8.py (blocked WY QR: tiny / small / blocked paths,
    panel factorisation kernels, cuBLAS strided-batched GEMMs for the trailing update),
    submission_cuda_v9.py (v8 without the row/column-major transpositions) and
    submission_triton.py (the blocked algorithm in Triton), against the problem's own
    `problems/linalg/qr_v2/reference.py` (`ref_kernel`: torch.geqrf). Three families, one per
    benchmark shape of the problem's task.yml (n = 32, 176, 352: the tiny, small and blocked
    paths);
  * the CUDA ladder the submissions came from, `.cu` files each with the host entry
    `qr_custom_kernel_cuda(A, H, tau, batch, n, stream)` (qr_kernel.h) that the author's bench.cu
    calls: problems/linalg/qr_v2_cuda/kernels/ at 687a656 (cublas_geqrf_batched.cu, the
    reference; blocked_v1, v3, v4, v5 (fp16 trailing update), v7, v8) and
    custom/qr_v2/cuda/kernels/blocked_v9.cu at 20059ce and at 4d96994;
- Prathmesh234/MultiTurnKernel-SFT (HEAD fe4f1e8): a multi-turn loop in which an LLM (Qwen3-235B)
  turns KernelBench / KernelBook PyTorch modules into Triton, with the loop's feedback each turn
  (reasoning_traces_qwen3_multiturn.json: per problem `pytorch_code` and `turns[i].triton_code`
  with the loop's H100 result). One family: KernelBook sample 558 (BiasLayer, `net + bias`), the
  module (reference) and the four turns' code, all of which the loop judged correct.

A version is the source's text verbatim (Python files and JSON-held code as they are), plus only
glue marked KFORECAST: for a ladder `.cu`, its `#include "../qr_kernel.h"` inlined in place and an
`extern "C" kf_run` calling `qr_custom_kernel_cuda` as bench.cu does (default stream); for a loop
turn, a `kf_run(net, bias)` calling `triton_kernel_wrapper(net, bias)` as the loop's evaluator
(modal_app.py, `_call_wrapper`) does, the model's parameters filling the wrapper's required
arguments. The GPU MODE problem's task.py and reference.py are copied beside the versions (the
submissions import `task`; the adapters draw inputs with the problem's generate_input). Nothing is
chosen by speed. Adapters (adapters/, ours) are copied in as `<family>/bench.py`. The builder
replaces the whole folder but `measurements/`. Split "public56": report-only, never tuned on,
never run through kforecast by its builder.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "public"))

import setkit  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = setkit.SetText("Evaluation set public56", "scripts/evalsets/public56/pub56.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public56"
TQ = "T-prog123/reference-kernels"
TQ_BRANCH = "custom-kernels"
TQ_HEAD = "4d969943bd9adee0ba3ec838a505c710ed782b34"    # custom-kernels
TQ_LADDER = "687a656a2433628710fb31683af763fc32d6899f"  # "Add custom QR kernels without generated artifacts"
TQ_V9A = "20059ce4b32823817d087e9cd4e9b9310af5d6f7"     # "v9 kernel with no explicit tranposition ..."
MT = "Prathmesh234/MultiTurnKernel-SFT"
MT_COMMIT = "fe4f1e80e6909a1f02ade2f07b633ff2b56ac519"   # HEAD, "reasoning traces - new"
MT_TRACES = "reasoning_traces_qwen3_multiturn.json"

# What the H100 measurement of 2026-11-27 found (one device call, two groups: the ladder and the
# BiasLayer family, then the three Python QR families).
_FLIP = ("R's diagonal entry, same magnitude, opposite sign: an error at the 1e-3 level flips the sign of "
         "the reflector where the pivot alpha is near zero, and the entrywise check against torch.geqrf's "
         "float64 (H, tau) fails; the problem's own property check (factor residual within 20 n eps32) was "
         "not run here")
FAILING_H100 = {
    "p56-tq-qrcu-n352/v4_blocked_v5.cu":
        "wrong at fp16 precision: 15810 of 4956160 entries of H off the float64 reference (rel L2 3.3e-2; e.g. "
        "5.0719 vs -5.07171, " + _FLIP + "); its trailing update runs cublasGemmEx on fp16 copies of the "
        "reflectors and the trailing matrix (the author's v7 returns to fp32)",
    "p56-tq-qr-n176/v4_triton.py":
        "wrong at TF32 precision: 4653 of 1239040 entries of H off the float64 reference (rel L2 3.2e-2; e.g. "
        "4.67338 vs -4.67327, " + _FLIP + "); the submission sets UPDATE_PRECISION = \"tf32\" for its tl.dot "
        "calls (the n = 32 family, whose tiny path has no tl.dot, passes)",
    "p56-tq-qr-n352/v4_triton.py":
        "wrong at TF32 precision: 84894 of 4956160 entries of H off the float64 reference (rel L2 7.8e-2; e.g. "
        "-12.3343 vs 12.337, the same sign flips); UPDATE_PRECISION = \"tf32\" as above",
}
STATUS_H100 = {
    "p56-tq-qr-n32": "every version passed, 20 ordered pairs",
    "p56-tq-qr-n176": "4 of 5 versions passed (v4_triton failing), 12 ordered pairs",
    "p56-tq-qr-n352": "4 of 5 versions passed (v4_triton failing), 12 ordered pairs",
    "p56-tq-qrcu-n352": "8 of 9 versions passed (v4_blocked_v5 failing), 56 ordered pairs",
    "p56-mt-biaslayer": "every version passed, 20 ordered pairs",
}
MEASURED_DAY = "2026-11-27"

QR_SUBMISSIONS = [
    ("v1_cuda_baseline.py", "custom/qr_v2/submissions/submission_cuda_baseline.py",
     "The author's cuSOLVER baseline submission: cusolverDnSgeqrf one matrix at a time on a "
     "column-major copy (load_inline, -lcusolver)."),
    ("v2_cuda_v8.py", "custom/qr_v2/submissions/submission_cuda_v8.py",
     "The author's blocked v8 submission (load_inline): tiny single-panel kernel (n <= 32), small "
     "path without T (n <= 256), blocked WY path with cuBLAS strided-batched GEMMs; transposes to "
     "column-major and back."),
    ("v3_cuda_v9.py", "custom/qr_v2/submissions/submission_cuda_v9.py",
     "The author's v9 submission (load_inline): v8's paths without the explicit transpositions."),
    ("v4_triton.py", "custom/qr_v2/submissions/submission_triton.py",
     "The author's Triton submission: the blocked algorithm's kernels in Triton (tiny, panel, "
     "gram/T, fused WY update)."),
]

# (family, adapter, batch, n, what the shape exercises)
QR_FAMILIES = [
    ("p56-tq-qr-n32", "bench_p56_tq_qr_n32.py", 20, 32,
     "the problem's first benchmark shape, batch 20 x 32 x 32 (the tiny single-panel path)"),
    ("p56-tq-qr-n176", "bench_p56_tq_qr_n176.py", 40, 176,
     "the problem's second benchmark shape, batch 40 x 176 x 176 (the small path without T)"),
    ("p56-tq-qr-n352", "bench_p56_tq_qr_n352.py", 40, 352,
     "the problem's third benchmark shape, batch 40 x 352 x 352 (the blocked WY path)"),
]

LADDER_DIR = "problems/linalg/qr_v2_cuda/kernels"
# (file name, commit, path, what)
LADDER = [
    ("v0_cublas_geqrf_batched.cu", TQ_LADDER, f"{LADDER_DIR}/cublas_geqrf_batched.cu",
     "The author's library baseline: cublasSgeqrfBatched on column-major copies (reference)."),
    ("v1_blocked_v1.cu", TQ_LADDER, f"{LADDER_DIR}/blocked_v1.cu",
     "Blocked v1: panel factorisation kernel, T built per panel, three cuBLAS strided-batched "
     "GEMMs for the trailing update."),
    ("v2_blocked_v3.cu", TQ_LADDER, f"{LADDER_DIR}/blocked_v3.cu",
     "Blocked v3: a second T builder, from a Gram matrix of the panel's reflectors (an extra GEMM), "
     "beside v1's column-by-column one."),
    ("v3_blocked_v4.cu", TQ_LADDER, f"{LADDER_DIR}/blocked_v4.cu",
     "Blocked v4: only the Gram-matrix T builder kept; a 512-thread panel factorisation kernel."),
    ("v4_blocked_v5.cu", TQ_LADDER, f"{LADDER_DIR}/blocked_v5.cu",
     "Blocked v5: the trailing matrix and the panel's reflectors converted to fp16 for the update GEMMs."),
    ("v5_blocked_v7.cu", TQ_LADDER, f"{LADDER_DIR}/blocked_v7.cu",
     "Blocked v7: back to fp32; tiny single-panel kernel and a direct reflector update for small n."),
    ("v6_blocked_v8.cu", TQ_LADDER, f"{LADDER_DIR}/blocked_v8.cu",
     "Blocked v8: v7 plus a multi-block panel factorisation for large n (cooperative groups)."),
    ("v7_blocked_v9_20059ce.cu", TQ_V9A, "custom/qr_v2/cuda/kernels/blocked_v9.cu",
     "Blocked v9 as first committed: no explicit transposition of the matrix in memory."),
    ("v8_blocked_v9_4d96994.cu", TQ_HEAD, "custom/qr_v2/cuda/kernels/blocked_v9.cu",
     "Blocked v9 at the branch head: 'updated v9 for better data locality'."),
]

BIAS_KEY = "kernelbook_558"


def write_version(out, family, name, text):
    setkit.write(os.path.join(out, family, name), text)
    return f"{family}/{name}"


def family_entry(out, family, files, source, style, adapter, notes):
    setkit.write(os.path.join(out, family, "bench.py"), TEXT.adapter(adapter))
    fam = dict(family=family, files=files, split=SPLIT, source=source, style=style, notes=notes)
    if family in STATUS_H100:
        fam["notes"] += f" H100 measurement of {MEASURED_DAY}: {STATUS_H100[family]}."
    bad = [f"{f.split('/', 1)[1]} ({why})" for f, why in FAILING_H100.items() if f in files]
    if bad:
        fam["notes"] += " Failing: " + "; ".join(bad) + "."
    return fam


def helper_files(out, family, tq):
    """The GPU MODE problem's task.py and reference.py beside the versions (marked)."""
    for name in ("task.py", "reference.py"):
        path = f"problems/linalg/qr_v2/{name}"
        hdr = TEXT.header(tq, [path], f"The problem's {name}, copied beside the versions (KFORECAST: "
                          "not a version; the submissions import `task`, the adapter draws inputs "
                          "with reference.generate_input).", comment="#", note=setkit.VERBATIM)
        setkit.write(os.path.join(out, family, "_" + name if name == "reference.py" else name),
                     hdr + tq.show(path, TQ_HEAD))


def qr_families(out, tq):
    fams, srcs = [], {}
    ref_path = "problems/linalg/qr_v2/reference.py"
    for family, adapter, batch, n, shape in QR_FAMILIES:
        files, vers = [], []
        hdr = TEXT.header(tq, [ref_path], "The reference version: the GPU MODE problem qr_v2's reference.py "
                          "(`ref_kernel`: torch.geqrf).", comment="#", note=setkit.VERBATIM)
        files.append(write_version(out, family, "v0_reference.py", hdr + tq.show(ref_path, TQ_HEAD)))
        vers.append({"file": files[-1], "path": ref_path, "commit": TQ_HEAD})
        for name, path, what in QR_SUBMISSIONS:
            hdr = TEXT.header(tq, [path], what, comment="#", note=setkit.VERBATIM)
            files.append(write_version(out, family, name, hdr + tq.show(path, TQ_HEAD)))
            vers.append({"file": files[-1], "path": path, "commit": TQ_HEAD})
        helper_files(out, family, tq)
        notes = (f"GPU MODE linear-algebra problem qr_v2 (batched square compact-Householder QR, fp32, "
                 f"torch.geqrf's (H, tau)) at {shape}, cond 1 (dense, columns scaled by logspace(0, -1, n)), "
                 "inputs from the problem's generate_input. Versions: the problem's reference (torch.geqrf) "
                 "and one author's four submissions in the order of their names (cuSOLVER baseline, blocked "
                 "v8, v9, Triton). Left out: submission_pytorch_baseline.py (torch.geqrf, the reference "
                 "again), submission_cuda_v85.py (v8's kernels verbatim, only the load_inline packaging "
                 "changed), submission_MAGMA.py (needs the MAGMA library). Output checked as (H, tau) "
                 "against torch.geqrf in float64 (all versions follow LAPACK's sign convention, beta = "
                 "-sign(alpha) * norm).")
        fam = family_entry(out, family, files, f"{TQ}@{TQ_HEAD[:12]} (branch {TQ_BRANCH}) custom/qr_v2/submissions, "
                           f"{ref_path}", "gpumode-load_inline+triton", adapter, notes)
        fams.append(fam)
        srcs[family] = {"repo": TQ, "branch": TQ_BRANCH, "commit": TQ_HEAD, "batch": batch, "n": n,
                        "versions": vers}
    return fams, srcs


def ladder_version(tq, commit, path):
    text = tq.show(path, commit)
    inc = '#include "../qr_kernel.h"\n'
    if inc not in text:
        raise SystemExit(f"pub56.py: {path}@{commit[:7]}: no {inc.strip()}")
    header = tq.show("custom/qr_v2/cuda/qr_kernel.h", TQ_HEAD).rstrip("\n")
    text = text.replace(inc, "// KFORECAST: qr_kernel.h (the source's custom/qr_v2/cuda/qr_kernel.h) "
                        "follows in place of its #include\n" + header + "\n// KFORECAST: end of qr_kernel.h\n", 1)
    text += ("\n\n// KFORECAST entry point (ours): the author's bench.cu calls qr_custom_kernel_cuda(A, H, tau, "
             "batch, n, stream) on device buffers; here on the default stream.\n"
             "extern \"C\" void kf_run(const float* A, float* H, float* tau, int batch, int n) {\n"
             "    qr_custom_kernel_cuda(A, H, tau, batch, n, 0);\n"
             "}\n")
    return text


def ladder_family(out, tq):
    family = "p56-tq-qrcu-n352"
    files, vers = [], []
    for name, commit, path, what in LADDER:
        hdr = TEXT.header(tq, [f"{path} @ {commit}"], what,
                          note=setkit.VERBATIM + "\nBuilt as the author's Makefile does: nvcc -O3 -std=c++17 "
                          "--use_fast_math, linked with -lcublas.")
        files.append(write_version(out, family, name, hdr + ladder_version(tq, commit, path)))
        vers.append({"file": files[-1], "path": path, "commit": commit})
    helper_files(out, family, tq)
    notes = ("GPU MODE qr_v2 (batched square compact-Householder QR, fp32) as one author's CUDA ladder with "
             "host code: each .cu defines qr_custom_kernel_cuda(A, H, tau, batch, n, stream), which the "
             "author's bench.cu calls on device buffers (row-major A and H, tau batch x n). Batch 40 x 352 x "
             "352, cond 1, inputs from the problem's generate_input (its third benchmark shape; the blocked "
             "path of every version). Versions in the author's order: cublasSgeqrfBatched (reference), blocked "
             "v1, v3, v4, v5, v7, v8 (687a656), v9 (20059ce) and v9 (4d96994). Left out: blocked_v2_profile, "
             "*_profile and *_aggressive variants, blocked_v6 (v5 with bf16), cusolver_geqrf.cu and "
             "magma_geqrf_batched.cu (cuSOLVER / MAGMA linking), copy_stub.cu (no QR), v9 at d28d4ee (the "
             "file kept as old_blocked_v9.cu). Output (H, tau) checked against torch.geqrf in float64.")
    fam = family_entry(out, family, files, f"{TQ}@{TQ_HEAD[:12]} (branch {TQ_BRANCH}) {LADDER_DIR} @ "
                       f"{TQ_LADDER[:7]}, custom/qr_v2/cuda/kernels/blocked_v9.cu", "cuda-host-ladder",
                       "bench_p56_tq_qrcu.py", notes)
    return fam, {"repo": TQ, "branch": TQ_BRANCH, "head": TQ_HEAD, "versions": vers}


def bias_family(out, mt):
    family = "p56-mt-biaslayer"
    entries = json.loads(mt.show(MT_TRACES, MT_COMMIT))
    e = [x for x in entries if x.get("sample_key") == BIAS_KEY]
    if len(e) != 1:
        raise SystemExit(f"pub56.py: {BIAS_KEY} found {len(e)} times in {MT_TRACES}")
    e = e[0]
    where = f"{MT_TRACES} @ {MT_COMMIT}, sample_key {BIAS_KEY}"
    files, vers = [], []
    hdr = TEXT.header(mt, [where + ": pytorch_code"], "The reference version: the problem's PyTorch module "
                      "(KernelBook BiasLayer) as the loop gave it to the model.", comment="#", note=setkit.VERBATIM)
    files.append(write_version(out, family, "v0_module.py", hdr + e["pytorch_code"].rstrip("\n") + "\n"))
    vers.append({"file": files[-1], "turn": 0})
    for t in e["turns"]:
        r = t.get("result") or {}
        if not (r.get("correctness") and t.get("triton_code")):
            raise SystemExit(f"pub56.py: {BIAS_KEY} turn {t['turn']} did not pass the loop's check")
        what = (f"Turn {t['turn']} of the loop's conversation (Qwen3-235B): its Triton code (the loop's check on its "
                f"H100: correct, speedup {r.get('speedup'):.3f} at the module's 4 x 4 x 4 x 4 input).")
        hdr = TEXT.header(mt, [where + f": turns[{t['turn'] - 1}].triton_code"], what, comment="#",
                          note=setkit.VERBATIM)
        body = t["triton_code"].rstrip("\n") + "\n"
        body += ("\n\n# KFORECAST entry point (ours): the loop's evaluator (modal_app.py, _call_wrapper) calls "
                 "triton_kernel_wrapper\n# with the module's inputs, then its parameters (here the bias) while "
                 "required arguments remain.\ndef kf_run(net, bias):\n    return triton_kernel_wrapper(net, bias)\n")
        files.append(write_version(out, family, f"v{t['turn']}_turn{t['turn']}.py", hdr + body))
        vers.append({"file": files[-1], "turn": t["turn"], "loop_result": {k: r.get(k) for k in
                                                                            ("correctness", "speedup")}})
    notes = ("KernelBook sample 558, BiasLayer (`net + bias`, bias of shape (channels, 1, 1), initialised to "
             "zeros by the module), channels 4, net 64 x 4 x 512 x 512 fp32 (the sample's 4 x 4 x 4 x 4 "
             "enlarged so that the GPU, not the launch, is timed). Versions: the module (reference) and the four "
             "turns of one multi-turn conversation, each judged correct by the loop: turn 1 a 2-D grid over "
             "(batch, H*W tiles of 16, channels) with strided NCHW addressing; turns 2-4 a flat 1-D grid "
             "(blocks of 4096, 1024, 1024) that reads the bias at `offset % channels` (turn 4: `offset & 3`), "
             "a channels-last index that the zero bias of the module's own initialisation cannot tell from "
             "NCHW's; the adapter keeps that initialisation, as the loop's check did. The loop's own "
             "speedups at 4 x 4 x 4 x 4: 0.36, 0.49, 0.43, 0.44.")
    fam = family_entry(out, family, files, f"{MT}@{MT_COMMIT[:12]} {MT_TRACES} ({BIAS_KEY})",
                       "llm-multiturn-triton", "bench_p56_mt_biaslayer.py", notes)
    return fam, {"repo": MT, "commit": MT_COMMIT, "traces": MT_TRACES, "sample_key": BIAS_KEY,
                 "versions": vers}


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public56")
    tq = setkit.Repo(args.mirror, TQ)
    tq.commit = tq.git("rev-parse", TQ_BRANCH).strip()
    if tq.commit != TQ_HEAD:
        raise SystemExit(f"pub56.py: {TQ} branch {TQ_BRANCH} is at {tq.commit}, not {TQ_HEAD}")
    mt = setkit.Repo(args.mirror, MT)
    setkit.clear_set(args.out)
    families, sources = [], {}
    fams, srcs = qr_families(args.out, tq)
    families += fams
    sources.update(srcs)
    for fam, src in [ladder_family(args.out, tq), bias_family(args.out, mt)]:
        families.append(fam)
        sources[fam["family"]] = src
    setkit.write(os.path.join(args.out, "_p56qr.py"), TEXT.adapter("_p56qr.py"))
    setkit.write_index(args.out, families, sources)
    n, pairs = setkit.pair_counts(families)
    print(json.dumps({"families": len(families), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
