"""Builds public evaluation set 74 ("p74-" families, split "public74", kept unseen) from local
copies of two public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public74/pub74.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public74

Sources (fetched with the session's `fetch` tool first), two authors' submissions to one GPU MODE
leaderboard problem, qr_v2 (batched square compact-Householder QR, fp32, `custom_kernel(A) ->
(H, tau)` in torch.geqrf's convention; the problem's reference.py `ref_kernel` is torch.geqrf):
- binga/gpumode-qrv2: one team's numbered solutions (`solutions/v*/submission.py`, V0 -> V43): pure
  torch blocked Householder (WY) steps, then CUDA in `load_inline` strings (C++ block loops over ATen
  geqrf / bmm, fused CUDA panels in double then fp32, CUDA V/T builders, a fully fused persistent
  kernel), then Triton panels found by an automated search; and the problem's reference.py as the
  repository keeps it;
- fishmingyu/qrv2-gpu-mode: another author's shape-specialised Householder "megakernels" (CUDA
  source strings compiled with NVRTC at run time, launched through the driver API), adapted from
  gau.nernst's QR2 leaf kernels, at its first commit and at its megakernel update.

Each family is the problem at one of its ranked benchmark shapes (batch 40 x 176^2 and 40 x 352^2,
dense, cond 0, the seeds of binga's bench_grader.py); its versions are the problem's reference and
both authors' submissions. A version is the source file verbatim plus a `kf_run(data)` entry point
marked KFORECAST making the leaderboard's call (`custom_kernel(data)`; `ref_kernel(data)` for the
reference). All versions live in one folder of the set, `_p74qr/`, beside the problem's task.py
(copied as a marked helper; the submissions `from task import input_t, output_t`), so that a version
used by both families is one file whose torch extensions are built once. Left out (by what the
programs do, never by speed): V0 and V4 (torch.geqrf again), V2/V5/V8 (the blocked steps V3/V6
already make), V7 (torch.compile), V10/V33-tf32 (TF32 trailing updates the author found failing),
V11-cusolverdx, V16-V19 (CuTe DSL / cuSOLVERDx probes; at these shapes the other paths of V17-V19
are V13's and V22's), V12, V14, V15, V20, V21, V23-V31, V34-V40 (intermediate steps; V22, V32 and
V43 stand for them), binga's root submission.py and submissions_exp0054_submittable.py (V43 again,
and its sibling), fishmingyu's 16a5d71 (a reformatting of 9a62e7e's CUDA strings).
Adapters (`adapters/`, ours; `_p74qr.py` holds what both families share) are copied in by the
builder, which replaces the whole set folder but `measurements/`.
"""

import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public74", "scripts/evalsets/public74/pub74.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public74"
SHARED = "_p74qr"

# Versions that failed on the H200 (measurement of MEASURED_DAY): path -> why. Kept in the set as
# failing lines, not fixed.
_LAST = ("R's last diagonal entry H[n-1, n-1] (the only entries off, one a matrix in 19-25 of the 40) has the "
         "opposite sign to torch.geqrf's, as when the final 1 x 1 column is reflected too (beta = "
         "-sign(alpha)|alpha|), which LAPACK's dlarfg leaves as it is (tau = 0); a sign convention of the source's "
         "own panel kernel (the author's log has these versions passing the problem's residual / orthogonality "
         "check on B200) that the entrywise check against torch.geqrf in float64 rejects (tau not inspected)")
FAILING = {
    "_p74qr/bq_v13_fused_persistent.py": _LAST + " (n176: 22 of 1239040 entries, rel L2 8.4e-3; n352: 25 of "
                                         "4956160, 5.4e-3)",
    "_p74qr/bq_v22_hybrid_t_builder.py": _LAST + " (n176: 20 entries, rel L2 1.0e-2; n352: 22, 4.0e-3)",
    "_p74qr/bq_v32_fused_persistent.py": _LAST + " (n176: 19 entries, rel L2 1.1e-2)",
    "_p74qr/bq_v43_final.py": "time limit: its import builds two load_inline modules (and Triton kernels) and was "
                              "still running after the measurement's 100 s per version",
    "_p74qr/fm_9a62e7e_megakernel.py": "does not build for sm_90a: ptxas rejects its NVRTC-compiled CUDA (Feature "
                                       "'fma.f32x2' requires .target sm_100 or higher; Blackwell-only code)",
    "_p74qr/fm_977258e_megakernel.py": "does not build for sm_90a: ptxas rejects its NVRTC-compiled CUDA ("
                                       "'fma.f32x2' and '256 bit wide load/store' require .target sm_100 or higher)",
}
MEASURED_DAY = "2026-11-28"

BQ = "binga/gpumode-qrv2"
BQ_HEAD = "4e0c0c5e9160dfe038935f02f497461928fcc450"
FM = "fishmingyu/qrv2-gpu-mode"
FM_HEAD = "527ec55"

# name -> (repo, commit (None: HEAD), path, entry, what)
VERSIONS = {
    "v00_reference.py": (BQ, None, "reference.py", "ref_kernel",
                         "The reference version: the GPU MODE problem qr_v2's reference.py as the author's "
                         "repository keeps it (`ref_kernel`: torch.geqrf; `generate_input`, used by the adapter)."),
    "bq_v01_blocked_wy.py": (BQ, None, "solutions/v1_blocked_wy/submission.py", "custom_kernel",
                             "binga V1: blocked Householder with torch.geqrf panels of 32 columns and the block "
                             "reflector applied by batched matmuls (TF32 allowed at import) for n >= 256; "
                             "torch.geqrf below."),
    "bq_v03_blocked_wy_proper.py": (BQ, None, "solutions/v3_blocked_wy_proper/submission.py", "custom_kernel",
                                    "binga V3: blocked Householder QR in torch, geqrf panels of 32 columns, WY "
                                    "compact form (V, T) and two batched GEMMs for the trailing update."),
    "bq_v09_cpp_blocked.py": (BQ, None, "solutions/v9_cpp_blocked/submission.py", "custom_kernel",
                              "binga V9: the blocked QR's block loop in C++ (load_inline): ATen geqrf panels, "
                              "V/T construction and bmm trailing updates without Python in the loop."),
    "bq_v11_fused.py": (BQ, None, "solutions/v11_fused/submission.py", "custom_kernel",
                        "binga V11: a fused shared-memory CUDA kernel for n <= 32 and the C++ blocked QR (ATen "
                        "geqrf panel + bmm trailing) for medium n, one load_inline module."),
    "bq_v13_fused_persistent.py": (BQ, None, "solutions/v13_fused_persistent/submission.py", "custom_kernel",
                                   "binga V13: its own fused CUDA panel kernel (double-precision norm and dot "
                                   "reductions in shared memory) replaces cuSOLVER's panel; ATen trailing update."),
    "bq_v22_hybrid_t_builder.py": (BQ, None, "solutions/v22_hybrid_t_builder/submission.py", "custom_kernel",
                                   "binga V22: fp32 fused CUDA panel for n <= 352, preallocated workspaces, a CUDA "
                                   "V-builder and a parallel CUDA T-builder for medium shapes, cuBLAS trailing "
                                   "(ATen T for n = 512); a lazily imported CuTe DSL kernel for n = 32 only."),
    "bq_v32_fused_persistent.py": (BQ, None, "solutions/v32_fused_persistent/submission.py", "custom_kernel",
                                   "binga V32: one thread block per matrix does the whole blocked QR (panel, T and "
                                   "a register-blocked trailing GEMM in shared memory) in one persistent kernel."),
    "bq_v43_final.py": (BQ, None, "solutions/v43_cholqr2048_medium_fusion_merge/submission.py", "custom_kernel",
                        "binga V43 (the repository's best): V22's CUDA medium path with the automated search's "
                        "trailing fusion (strided at::matmul, baddbmm_), Triton fp32 panels for n = 512 / 1024, "
                        "CholeskyQR2 with Householder reconstruction for n = 2048; two load_inline modules."),
    "fm_9a62e7e_megakernel.py": (FM, "9a62e7e", "submission.py", "custom_kernel",
                                 "fishmingyu, first commit: shape-specialised Householder megakernels (CUDA "
                                 "strings compiled by NVRTC for the device, sm_XYa; driver-API launches): n = 176 "
                                 "one full-matrix kernel on a two-CTA cluster, n = 352 blocked / recursive fused "
                                 "panels with compact-WY updates; leaf kernels adapted from gau.nernst's QR2."),
    "fm_977258e_megakernel.py": (FM, "977258e", "submission.py", "custom_kernel",
                                 "fishmingyu, megakernel update: batched-handoff leaf kernels for n = 176 / 352, "
                                 "a tail-224 kernel for n = 352, compact-WY cross terms; the same routes."),
}

FAMILIES = [
    # family, adapter, batch, n, seed, versions (the reference first)
    ("p74-qr-n176", "bench_p74_qr_n176.py", 40, 176, 101,
     ["v00_reference.py", "bq_v03_blocked_wy_proper.py", "bq_v09_cpp_blocked.py", "bq_v11_fused.py",
      "bq_v13_fused_persistent.py", "bq_v22_hybrid_t_builder.py", "bq_v32_fused_persistent.py", "bq_v43_final.py",
      "fm_9a62e7e_megakernel.py", "fm_977258e_megakernel.py"]),
    ("p74-qr-n352", "bench_p74_qr_n352.py", 40, 352, 102,
     ["v00_reference.py", "bq_v01_blocked_wy.py", "bq_v09_cpp_blocked.py", "bq_v13_fused_persistent.py",
      "bq_v22_hybrid_t_builder.py", "bq_v43_final.py", "fm_977258e_megakernel.py"]),
]


def version(out, repos, name):
    rname, commit, path, entry, what = VERSIONS[name]
    repo = repos[rname]
    full = repo.git("rev-parse", commit).strip() if commit else repo.commit
    src = repo.show(path, full)
    text = (TEXT.py_line_header(repo.name, full, path, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            + "# KFORECAST entry point (ours): the leaderboard's call of this file, "
            + f"{entry}(data).\n"
            + f"def kf_run(data):\n    return {entry}(data)\n")
    setkit.write(os.path.join(out, SHARED, name), text)
    return {"file": f"{SHARED}/{name}", "repo": rname, "commit": full, "path": path, "entry": entry,
            "sha256": hashlib.sha256(src.encode()).hexdigest()}


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public74")
    setkit.clear_set(args.out)
    repos = {BQ: setkit.Repo(args.mirror, BQ), FM: setkit.Repo(args.mirror, FM)}
    if repos[BQ].commit != BQ_HEAD:
        raise SystemExit(f"pub74.py: {BQ} is at {repos[BQ].commit}, not {BQ_HEAD}")
    if not repos[FM].commit.startswith(FM_HEAD):
        raise SystemExit(f"pub74.py: {FM} is at {repos[FM].commit}, not {FM_HEAD}")
    setkit.write(os.path.join(args.out, "_p74qr.py"), TEXT.adapter("_p74qr.py"))
    hdr = TEXT.header(repos[BQ], ["task.py"], "Helper, not a version (KFORECAST: copied beside the versions): "
                      "the problem's task.py (input_t, output_t), which every submission imports.",
                      comment="#", note=setkit.VERBATIM)
    setkit.write(os.path.join(args.out, SHARED, "task.py"), hdr + repos[BQ].show("task.py"))
    made, seen = {}, {}
    for name in VERSIONS:
        made[name] = version(args.out, repos, name)
        h = made[name]["sha256"]
        if h in seen:
            raise SystemExit(f"pub74.py: {name} repeats {seen[h]}")
        seen[h] = name
    fams, sources = [], {}
    for fam, adapter, batch, n, seed, names in FAMILIES:
        setkit.write(os.path.join(args.out, fam, "bench.py"), TEXT.adapter(adapter))
        files = [made[v]["file"] for v in names]
        notes = (f"GPU MODE linear-algebra problem qr_v2 (batched square compact-Householder QR, fp32, torch.geqrf's "
                 f"(H, tau)) at its ranked benchmark shape batch {batch} x {n} x {n}, dense, cond 0 (unscaled randn), "
                 f"seed {seed} + draw, inputs from the problem's generate_input. Versions: the problem's reference "
                 "(torch.geqrf), then two authors' submissions, each entered through its KFORECAST kf_run(data), the "
                 "leaderboard's custom_kernel(data): " + "; ".join(
                     f"{v} ({VERSIONS[v][0]}:{VERSIONS[v][2]}) {VERSIONS[v][4]}" for v in names[1:])
                 + ". The versions are shared with the other p74- family in the set's _p74qr/ folder (beside the "
                 "problem's task.py); the adapter confines the matmul precision settings a version makes (TF32 at "
                 "import, set_float32_matmul_precision inside calls) to that version's calls. Output (H, tau) checked "
                 "entrywise against torch.geqrf in float64 (LAPACK's sign convention), not by the problem's own "
                 "residual / orthogonality check.")
        entry = dict(family=fam, files=files, split=SPLIT,
                     source=f"{BQ}@{repos[BQ].commit[:12]} solutions/, reference.py; {FM}@{FM_HEAD} submission.py "
                            "(9a62e7e, 977258e)",
                     style="gpumode-submissions-load_inline+nvrtc", notes=notes)
        if MEASURED_DAY:
            entry = setkit.measured_note(entry, FAILING, MEASURED_DAY)
            entry["notes"] = entry["notes"].replace("H100 measurement", "H200 measurement")
        fams.append(entry)
        sources[fam] = {"batch": batch, "n": n, "cond": 0, "seed": seed,
                        "versions": [made[v] for v in names],
                        "helpers": {"task.py": f"{BQ}@{repos[BQ].commit}:task.py"}}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
