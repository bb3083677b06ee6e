"""Builds public evaluation set 31 ("p31-" families, split "public31", kept unseen) from
local copies of public repositories no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public31/pub31.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public31

Sources (fetched with the session's `fetch` tool first):
- thu-ml/SageAttention: the Triton kernels of SageAttention (INT8 QK^T attention with
  per-block quantised Q and K, fp16 PV), rewritten over the library's history: the per-block
  INT8 quantisation of Q and K (`quant_per_block.py`), the non-causal attention forward
  (`attn_qk_int8_per_block_hd128.py` in the first commit, `attn_qk_int8_per_block.py` after)
  and the causal one. A version is the kernel module at one commit, verbatim, plus one
  KFORECAST entry line binding the module's host function (`per_block_int8` / `forward`) to
  `kf_entry`. Versions: every commit whose diff changed the module's code (chosen by message
  and diff, never by speed); pure moves (the file's move into sageattention/triton/ with a
  licence header, and commits leaving the code as it was) are left out.
- yechenzhi/reference-kernels: one author's GPU MODE PMPP `custom_kernel` submissions, CUDA in
  `load_inline` strings: the grayscale ladder (naive 2-D, coarsened, 1-D coarsened "v2",
  shared-memory tile, which the author's commit message calls not working) and the histogram
  ladder of PMPP chapter 9 (naive atomics, privatisation, coarsening, aggregation), each
  after the problem's own reference.py `ref_kernel`. The problem files the versions import
  (task.py, utils.py) are copied beside them (marked).

A version is the source's text verbatim but for the lines marked KFORECAST. Adapters
(`adapters/bench_p31_*.py`, each with a float64 `reference`) are ours. The builder replaces
the whole set folder but `measurements/`.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public31", "scripts/evalsets/public31/pub31.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public31"

SAGE = "thu-ml/SageAttention"
GM = "yechenzhi/reference-kernels"
S = "sageattention/"
T = "sageattention/triton/"

# (commit, path, tag, what the repository says of the commit: its subject line)
QUANT = [
    ("4eb7d14", S + "quant_per_block.py", "first commit"),
    ("44b17d4", S + "quant_per_block.py",
     "[update] support non-contiguous input, HDN and HND layout, different kv_len and qo_len, GQA"),
    ("974c7a7", S + "quant_per_block.py", "convert x to float32 inside quant kernel"),
    ("ec342db", S + "quant_per_block.py", "fuse sub k mean into quant kernel"),
    ("5ace8e2", S + "quant_per_block.py", "better support for hd96"),
    ("942850a", S + "quant_per_block.py", "add sageattn_varlen support (#36)"),
    ("d847a8f", T + "quant_per_block.py", "add qk int8 pv fp8/fp16 kernel"),
    ("e1cac2f", T + "quant_per_block.py", "fix bugs caused by inplace sub mean"),
]
ATTN = [
    ("4eb7d14", S + "attn_qk_int8_per_block_hd128.py", "first commit"),
    ("873a32c", S + "attn_qk_int8_per_block.py",
     "add kernel for different qo_len, kv_len, GQA and non contiguous input"),
    ("942850a", S + "attn_qk_int8_per_block.py", "add sageattn_varlen support (#36)"),
    ("f427854", T + "attn_qk_int8_per_block.py", "add return lse for triton kernel"),
    ("3917283", T + "attn_qk_int8_per_block.py", "fix mask computation for better precision"),
    ("499828b", T + "attn_qk_int8_per_block.py", "add attn_mask to sageattn_qk_int8_pv_fp16_triton"),
    ("f78d412", T + "attn_qk_int8_per_block.py", "fix qk_mask when mask_dtype=float"),
    ("34ea987", T + "attn_qk_int8_per_block.py", "fix bug: no skip when mask_dtype is float"),
]
CAUSAL = [
    ("4eb7d14", S + "attn_qk_int8_per_block_hd128_causal.py", "first commit"),
    ("873a32c", S + "attn_qk_int8_per_block_causal.py",
     "add kernel for different qo_len, kv_len, GQA and non contiguous input"),
    ("942850a", S + "attn_qk_int8_per_block_causal.py", "add sageattn_varlen support (#36)"),
    ("f427854", T + "attn_qk_int8_per_block_causal.py", "add return lse for triton kernel"),
    ("3917283", T + "attn_qk_int8_per_block_causal.py", "fix mask computation for better precision"),
]
QUANT96 = [
    ("0ed50ad", S + "quant_per_block_hd96.py", "support bf16 and headdim=96"),
    ("5ace8e2", S + "quant_per_block_hd96.py", "better support for hd96"),
    ("942850a", S + "quant_per_block_hd96.py", "add sageattn_varlen support (#36)"),
    ("d847a8f", T + "quant_per_block_hd96.py", "add qk int8 pv fp8/fp16 kernel"),
    ("e1cac2f", T + "quant_per_block_hd96.py", "fix bugs caused by inplace sub mean"),
]
ATTN96 = [
    ("0ed50ad", S + "attn_qk_int8_per_block_h96.py", "support bf16 and headdim=96"),
    ("5ace8e2", S + "attn_qk_int8_per_block_h96.py", "better support for hd96"),
    ("f427854", T + "attn_qk_int8_per_block_h96.py", "add return lse for triton kernel"),
]


def sage_family(repo, out, fam, versions, entry_name, adapter, notes):
    files, srcs = [], []
    for i, (short, path, subject) in enumerate(versions, 1):
        commit = repo.git("rev-parse", short).strip()
        text = (TEXT.built_by("#") + f"\n# {repo.name} at commit {commit}:\n#   {path}\n"
                f"# ({subject})\n# Code below is the source's, verbatim, except the lines marked KFORECAST.\n"
                + repo.show(path, commit).rstrip("\n") + "\n\n\n"
                f"# KFORECAST entry (ours): the module's own host function\nkf_entry = {entry_name}\n")
        name = f"v{i}_{short}.py"
        setkit.write(os.path.join(out, fam, name), text)
        files.append(f"{fam}/{name}")
        srcs.append({"file": f"{fam}/{name}", "commit": commit, "path": path, "subject": subject})
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    f = {"family": fam, "files": files, "split": SPLIT,
         "source": f"{repo.at()} {S} (versions from the git history)",
         "style": "triton-library-history", "notes": notes}
    return f, {fam: {"repo": repo.name, "head": repo.commit, "versions": srcs}}


def sage_families(repo, out):
    fams, sources = [], {}
    for args in (
        ("p31-sage-quant", QUANT, "per_block_int8", "bench_p31_sage_quant.py",
         "SageAttention's per-block INT8 quantisation of Q and K (Triton), per_block_int8(q, k) -> "
         "(q_int8, q_scale, k_int8, k_scale), q blocks of 128 rows with the softmax scale and log2(e) "
         "folded in, k blocks of 64 rows, HND layout (the default), at every commit that changed "
         "quant_per_block.py's code, by message: the first commit (a view-based kernel pair, fp16 "
         "arithmetic); strided HND/NHD support; 'convert x to float32 inside quant kernel'; 'fuse sub k "
         "mean into quant kernel' (a second kernel, unused without km); 'better support for hd96' (km "
         "argument dropped); the varlen commit (sm_scale a runtime argument); the move into triton/ "
         "(scales (b, h, blocks), km subtracted by torch); 'fix bugs caused by inplace sub mean'. "
         "q, k fp16 (2, 32, 4096, 128) each (2^25 elements). Inputs are integer-valued in [-127, 127] "
         "(ours) so that fp16 and fp32 arithmetic give the same INT8 codes (compared exactly); scales "
         "compared with rtol 2e-3 (the first versions compute them in fp16)."),
        ("p31-sage-attn", ATTN, "forward", "bench_p31_sage_attn.py",
         "SageAttention's non-causal attention forward in Triton: INT8 Q and K with per-block float32 "
         "scales (QK^T in int8, softmax in exp2 with the log2(e) folded into q's scale), fp16 V and "
         "output, forward(q, k, v, q_scale, k_scale) (later versions return (o, lse); o is compared), "
         "at every commit that changed the kernel's code, by message: the first commit's "
         "attn_qk_int8_per_block_hd128.py; the generic kernel for different qo_len/kv_len, GQA and "
         "strides; the varlen commit; 'add return lse'; 'fix mask computation for better precision'; "
         "'add attn_mask'; 'fix qk_mask when mask_dtype=float'; 'fix bug: no skip when mask_dtype is "
         "float' (no mask passed). Left out: the move into triton/ (d847a8f, a licence header only) "
         "and 0ed50ad (the hd128 file unchanged). b=2, 32 heads, 4096 tokens, head dim 128 (HND); "
         "q, k quantised from standard-normal fp16 by the adapter the way the library's per_block_int8 "
         "does (q blocks 128, k blocks 64); float64 reference on the dequantised q, k."),
        ("p31-sage-attn-causal", CAUSAL, "forward", "bench_p31_sage_attn_causal.py",
         "SageAttention's causal attention forward in Triton (INT8 QK^T with per-block scales, fp16 PV; "
         "two stages: off-diagonal blocks, then the diagonal with the mask), forward(q, k, v, q_scale, "
         "k_scale), at every commit that changed the kernel's code, by message: the first commit's "
         "attn_qk_int8_per_block_hd128_causal.py; the generic kernel for different qo_len/kv_len, GQA "
         "and strides; the varlen commit; 'add return lse'; 'fix mask computation for better precision'. "
         "Left out: the move into triton/ (d847a8f, a licence header only). Sizes and inputs as "
         "p31-sage-attn (b=2, 32 heads, 4096 tokens, head dim 128)."),
        ("p31-sage-quant-hd96", QUANT96, "per_block_int8_hd96", "bench_p31_sage_quant_hd96.py",
         "SageAttention's per-block INT8 quantisation of Q and K for head dim 96 (Triton; the kernels "
         "load a 128-wide tile masked to 96 columns), per_block_int8_hd96(q, k) -> (q_int8, q_scale, "
         "k_int8, k_scale), HND layout, at every commit that changed quant_per_block_hd96.py's code, by "
         "message: 'support bf16 and headdim=96' (its first version, view-based kernels, fp16 "
         "arithmetic); 'better support for hd96' (strided kernels, fp32); the varlen commit; the move "
         "into triton/ (km argument, scales (b, h, blocks)); 'fix bugs caused by inplace sub mean'. The "
         "2.0.1 release deleted the file (head dim 96 padded instead). q, k fp16 (2, 32, 4096, 96); "
         "integer-valued inputs and comparison as p31-sage-quant."),
        ("p31-sage-attn-h96", ATTN96, "forward", "bench_p31_sage_attn_h96.py",
         "SageAttention's non-causal attention forward for head dim 96 in Triton (a 128-wide head tile "
         "masked to 96), forward(q, k, v, q_scale, k_scale), at every commit that changed "
         "attn_qk_int8_per_block_h96.py's code, by message: 'support bf16 and headdim=96' (its first "
         "version); 'better support for hd96' (strides, layouts, GQA); 'add return lse for triton "
         "kernel'. Left out: the move into triton/ (d847a8f, a licence header only); the 2.0.1 release "
         "deleted the file. b=2, 32 heads, 4096 tokens, head dim 96; inputs and reference as "
         "p31-sage-attn."),
    ):
        f, s = sage_family(repo, out, *args)
        fams.append(f)
        sources.update(s)
    return fams, sources


# ---------------------------------------------------------------- GPU MODE PMPP (one author)
GM_DIR = "problems/pmpp/"
GRAY = [
    ("v1_reference.py", "grayscale_py/reference.py", None,
     "the problem's reference ref_kernel (torch: weighted sum over the channel axis)"),
    ("v2_cuda_inline.py", "grayscale_py/submission_cuda_inline.py", None,
     "one thread a pixel, 32 x 32 blocks (commits 'gray', 'fix gray typo', 'fix gray memory layout bug')"),
    ("v3_cuda_coarse.py", "grayscale_py/submission_cuda_coarse.py", None,
     "'gray coarse but very slow': 8 x 8 pixels a thread"),
    ("v4_cuda_v2.py", "grayscale_py/submission_cuda_v2.py", None,
     "'coarse v2 (a little)': 1024-thread rows, 4 pixels a thread"),
    ("v5_cuda_tile.py", "grayscale_py/submission_cuda_tile.py", None,
     "'add tile (not working)': a shared-memory tile"),
]
HIST = [
    ("v1_reference.py", "histogram_py/reference.py", None, "the problem's reference ref_kernel (torch.bincount)"),
    ("v2_cuda_naive.py", "histogram_py/submission.py", None, "global atomics, one element a thread"),
    ("v3_cuda_privatization.py", "histogram_py/submission_cuda_privatization.py", None,
     "a privatised shared-memory histogram a block"),
    ("v4_cuda_coarse.py", "histogram_py/submission_cuda_coarse.py", None,
     "privatisation with thread coarsening (4 elements a thread)"),
    ("v5_cuda_aggregate.py", "histogram_py/submission_cuda_aggregate.py", None,
     "coarsening with aggregation of runs of equal values (16 elements a thread)"),
]


def gm_family(repo, out, fam, versions, problem, adapter, notes):
    files, srcs = [], []
    for name, rel, _, what in versions:
        path = GM_DIR + rel
        commit = repo.git("log", "-1", "--format=%H", repo.commit, "--", path).strip()
        text = (TEXT.built_by("#") + f"\n# {repo.name} at commit {commit}:\n#   {path}\n"
                f"# GPU MODE PMPP {problem}: {what}.\n# Code below is the source's, verbatim.\n"
                + repo.show(path, commit))
        setkit.write(os.path.join(out, fam, name), text)
        files.append(f"{fam}/{name}")
        srcs.append({"file": f"{fam}/{name}", "commit": commit, "path": path, "subject": what})
    comp = [("task.py", GM_DIR + problem + "_py/task.py"), ("utils.py", GM_DIR + "utils.py")]
    for name, path in comp:
        hdr = (f"# KFORECAST: copied verbatim from {repo.name}@{repo.commit}:{path} (a problem file the "
               "versions import, not a version).\n")
        setkit.write(os.path.join(out, fam, name), hdr + repo.show(path))
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    f = {"family": fam, "files": files, "split": SPLIT,
         "source": f"{repo.at()} {GM_DIR}{problem}_py/ (one author's submissions), reference.py",
         "style": "gpumode-custom_kernel", "notes": notes}
    return f, {fam: {"versions": srcs, "companions": {n: f"{repo.name}@{repo.commit}:{p}" for n, p in comp}}}


def gm_families(repo, out):
    fams, sources = [], {}
    for args in (
        ("p31-gm-grayscale", GRAY, "grayscale", "bench_p31_gm_grayscale.py",
         "GPU MODE PMPP grayscale (RGB (H, W, 3) float32 -> (H, W), Y = 0.2989 R + 0.5870 G + 0.1140 B): "
         "the problem's reference ref_kernel (reference) and the author's four CUDA load_inline "
         "submissions, each file at its last commit, in the order the commits added them: one thread a "
         "pixel; coarsened 8 x 8 ('gray coarse but very slow'); 1024-thread rows with 4 pixels a thread "
         "('coarse v2 (a little)'); a shared-memory tile, which the commit message calls not working. "
         "Input: the problem's generate_input at its 8192 benchmark (2^26 pixels, seed 6252 + the "
         "harness's draw). Float64 reference: the weighted sum in float64."),
        ("p31-gm-histogram", HIST, "histogram", "bench_p31_gm_histogram.py",
         "GPU MODE PMPP histogram (uint8 values -> 256 bin counts, exact): the problem's reference "
         "ref_kernel (torch.bincount; reference) and the author's PMPP chapter-9 ladder of CUDA "
         "load_inline submissions (the commit 'histogram' and, for the coarse one, 'others'): global "
         "atomics; a privatised shared-memory histogram; privatisation with coarsening (COARSE_FACTOR "
         "4); coarsening with aggregation of equal runs (COARSE_FACTOR 16). Input: the problem's "
         "generate_input at its largest benchmark {size 10485760, contention 10} (seed 8841 + the "
         "harness's draw). Exact comparison."),
    ):
        f, s = gm_family(repo, out, *args)
        fams.append(f)
        sources.update(s)
    return fams, sources


# The H100 measurement of 2026-11-27 (one call, both groups): every version passed its checks.
MEASURED_NOTE = " H100 measurement of 2026-11-27: every version passed."


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public31")
    sage = setkit.Repo(args.mirror, SAGE)
    gm = setkit.Repo(args.mirror, GM)
    setkit.clear_set(args.out)
    families, sources = [], {}
    for fams, srcs in (sage_families(sage, args.out), gm_families(gm, args.out)):
        families += [dict(f, notes=f["notes"] + MEASURED_NOTE) for f in fams]
        sources.update(srcs)
    setkit.write(os.path.join(args.out, "_p31common.py"), TEXT.adapter("_p31common.py"))
    setkit.write_index(args.out, families, sources)
    n_files, n_pairs = setkit.pair_counts(families)
    print(f"pub31.py: {len(families)} families, {n_files} programs, {n_pairs} ordered pairs -> {args.out}")


if __name__ == "__main__":
    main()
