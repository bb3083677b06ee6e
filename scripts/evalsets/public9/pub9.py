#!/usr/bin/env python3
"""Builds evaluation set public9 (issue 20, 1(b)): Triton kernels of LLM inference and
training libraries, each followed through its own upstream history.

    pub9.py --mirror /work/.mirror --out /work/main/target/evalsets/public9

Reads local bare copies of public repositories (made with the session's `fetch` tool:
MIRROR/<owner>+<name>/repo) and writes, OUTSIDE the repository, a set in the layout of
/work/HELPERS.md's evaluation-set contract. A family is one library module (a Triton
kernel with its torch launcher) as its authors changed it commit after commit: the
oldest kept revision is the reference, each later revision a version (history.py says
which commits are kept). Every version is the module verbatim; helper modules it imports
from its own package are vendored at the same commit (the import line is the one change,
marked KFORECAST). Adapters (adapters/, ours) call each revision's entry point at an
LLM's real sizes. Split "public9": report-only, never tuned on, never run through
kforecast by its builder.
"""

import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

from history import History  # noqa: E402
from setkit import Repo, SetText, builder_args, clear_set, pair_counts, write, write_index  # noqa: E402

ST = SetText("Evaluation set public9", "scripts/evalsets/public9/pub9.py", os.path.join(HERE, "adapters"))
SPLIT = "public9"

# (family, repository, module path, most versions kept, adapter, notes)
FAMILIES = [
    ("p9-lightllm-rmsnorm", "ModelTC/lightllm", "lightllm/models/llama/triton_kernel/rmsnorm.py", 6,
     "bench_p9_rmsnorm.py",
     "lightllm's Llama RMSNorm (`rmsnorm_forward`), one program per commit that changed it; the first "
     "revision's kernel is adapted from the Triton tutorial's layer norm (mean removed), the later ones "
     "are lightllm's own (block sizes, out= buffers, a row-blocked kernel). bf16 16384 x 4096, eps 1e-6."),
    ("p9-lightllm-silu-mul", "ModelTC/lightllm", "lightllm/models/llama/triton_kernel/silu_and_mul.py", 6,
     "bench_p9_silu_mul.py",
     "lightllm's fused SwiGLU gate `silu_and_mul_fwd`, per commit (the first revisions write the result "
     "into the input's first half and return that view; later ones take an output). bf16 4096 x 2*14336."),
    ("p9-lightllm-rotary", "ModelTC/lightllm", "lightllm/models/llama/triton_kernel/rotary_emb.py", 5,
     "bench_p9_rotary_lightllm.py",
     "lightllm's in-place rotary embedding `rotary_emb_fwd`, per commit: q alone (called for q and k) "
     "then q and k in one launch, partial rotary. 16384 tokens, 32 q / 8 k heads of 128, bf16."),
    ("p9-lmdeploy-rms-norm", "InternLM/lmdeploy", "lmdeploy/pytorch/kernels/cuda/rms_norm.py", 6,
     "bench_p9_rmsnorm.py",
     "lmdeploy's PyTorch-engine RMSNorm `rms_norm`, per commit (out= buffers, fused residual variant, "
     "persistent grid from the device's properties, 3-D head-wise layout). bf16 16384 x 4096, eps 1e-6."),
    ("p9-lmdeploy-silu-mul", "InternLM/lmdeploy", "lmdeploy/pytorch/kernels/cuda/activation.py", 6,
     "bench_p9_silu_mul.py",
     "lmdeploy's fused SwiGLU gate `silu_and_mul`, per commit (unaligned widths, grid limits, "
     "device-dependent launch). bf16 4096 x 2*14336."),
    ("p9-lmdeploy-rotary", "InternLM/lmdeploy", "lmdeploy/pytorch/kernels/cuda/apply_rotary_pos_emb.py", 5,
     "bench_p9_rotary_lmdeploy.py",
     "lmdeploy's `apply_rotary_pos_emb` on q and k, per commit (position-id gather, then per-token tables, "
     "head-blocked grids). 16384 tokens, 32 q / 8 k heads of 128, bf16."),
    ("p9-flashattn-rotary", "Dao-AILab/flash-attention", "flash_attn/ops/triton/rotary.py", 6,
     "bench_p9_rotary_flashattn.py",
     "flash-attention's Triton rotary `apply_rotary`, per commit (varlen support, GQA layouts, "
     "warps by rotary dim, blocking over sequence and heads). 4 x 4096 tokens x 32 heads x 128, bf16."),
    ("p9-flashattn-cross-entropy", "Dao-AILab/flash-attention", "flash_attn/ops/triton/cross_entropy.py", 7,
     "bench_p9_cross_entropy.py",
     "flash-attention's Triton cross-entropy `cross_entropy_loss` forward, per commit (large-vocab splits, "
     "logit scale, z-loss, online softmax, precomputed LSE). float32 8192 x 32000 logits."),
]

SHARED = ("p9common.py", "p9rotary.py")


def main():
    args = builder_args(__doc__, "target/evalsets/public9")
    out = args.out
    clear_set(out)
    repos, families, sources = {}, [], {}
    for name, full, path, cap, bench, notes in FAMILIES:
        repo = repos.get(full) or repos.setdefault(full, Repo(args.mirror, full))
        short = full.split("/")[1].lower().replace("-", "_")
        files, revs = History(ST, repo, path, out, short).versions(cap)
        if len(files) < 3:
            raise SystemExit(f"pub9.py: {name}: only {len(files)} distinct revisions of {path}")
        for rel, text in files:
            write(os.path.join(out, name, rel), text)
        write(os.path.join(out, name, "bench.py"), ST.adapter(bench))
        families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": SPLIT,
                         "source": f"{repo.ref(path)}", "style": "library-triton-history", "notes": notes})
        sources[name] = {"repository": full, "head": repo.commit, "path": path,
                         "commits": [c for c, _ in revs]}
    for shared in SHARED:
        shutil.copyfile(os.path.join(HERE, "adapters", shared), os.path.join(out, shared))
    write_index(out, families, sources, sort_keys=True)
    n_files, n_pairs = pair_counts(families)
    print(f"pub9.py: {len(families)} families, {n_files} program files, {n_pairs} ordered pairs -> {out}")
    for f in families:
        print(f"  {f['family']}: {len(f['files'])} versions")
    for r in repos.values():
        print(f"  {r.name} @ {r.commit}")


if __name__ == "__main__":
    sys.exit(main())
