#!/usr/bin/env python3
"""Builds evaluation set public9 (issue 20, 1(b)): Triton kernels of LLM inference and
training libraries, each followed through its own upstream history, and one author's GPU
MODE submissions for one problem.

    pub9.py --mirror /work/.mirror --out /work/main/target/evalsets/public9

Reads local bare copies of public repositories (made with the session's `fetch` tool:
MIRROR/<owner>+<name>/repo) and writes, OUTSIDE the repository, a set in the layout of
/work/HELPERS.md's evaluation-set contract. A family is one library module (a Triton
kernel with its torch launcher) as its authors changed it commit after commit: the
oldest kept revision is the reference, each later revision a version (history.py says
which commits are kept). Every version is the module verbatim; helper modules it imports
from its own package are vendored at the same commit (the import line is the one change,
marked KFORECAST). Adapters (adapters/, ours) call each revision's entry point at an
LLM's real sizes. The GPU MODE family (p9-gm-grayscale) holds one author's
leaderboard submissions (`custom_kernel(data)`: eager torch, CuPy, load_inline CUDA,
Triton) verbatim, with a stand-in task.py of ours for the type names they import. Split "public9": report-only, never tuned on, never run through
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
     "then q and k in one launch, partial rotary. 16384 tokens, 32 q / 8 k heads of 128, bf16. The revision "
     "76e0145943 (q and k merged, reverted upstream the same day) masks k by the query head count and fails "
     "the check at these GQA sizes (H100, 2026-11-26)."),
    ("p9-lightllm-context-attention", "ModelTC/lightllm",
     "lightllm/models/llama/triton_kernel/context_flashattention_nopad.py", 7, "bench_p9_context_attention.py",
     "lightllm's prefill attention over packed sequences (`context_attention_fwd`), per commit: V100 block "
     "sizes, GQA, prompt-cache (paged) addressing, a rewritten prefill kernel. Causal, fp16, 8 x 2048 tokens, "
     "32 heads of 128."),
    ("p9-lightllm-destindex-copy-kv", "ModelTC/lightllm", "lightllm/common/basemodel/triton_kernel/destindex_copy_kv.py",
     5, "bench_p9_destindex_copy.py",
     "lightllm's KV-cache scatter `destindex_copy_kv`, per commit (K and V in one launch, bf16 support, "
     "64-bit slot offsets). 16384 new tokens x 8 KV heads x 128, bf16, into a 65536-slot cache."),
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

# GPU MODE leaderboard submissions of one author for the grayscale problem, in the order
# the author wrote them (day folders); only files that define `custom_kernel` (what the
# leaderboard runs). Left out before measuring, by reading them: day31/grayscale_lb3.py
# and day32/grayscale_lb4.py return the image on the host (`.to('cpu')`), the problem
# asks for a device tensor; day34/grayscale_lb6.py calls `torch.cuda.compile_raw_kernel`,
# which torch does not have; day50-53/grayscale2_lb..lb4.py call `load_inline` with
# `sources=` or with no bound functions and launch the kernel through the extension with
# grid=/block= keywords, which a torch extension does not take (none builds a callable).
GM_REPO = "Utkarsh736/Cuda"
GM_GRAYSCALE = ["day33/grayscale_lb5.py", "day35/grayscale_lb7.py", "day54/grayscale2_lb5.py",
                "day55/grayscale2_lb6.py", "day56/grayscale3_lb.py", "day70/grayscale9_lb.py",
                "day71/grayscaleG_lb1.py"]
TASK_PY = """# Evaluation set public9 of kforecast: a stand-in for a GPU MODE problem's task.py, written by
# scripts/evalsets/public9/pub9.py (KFORECAST's own code, not a public source). The
# submissions import only the two type names.
from typing import TypeVar

import torch

input_t = TypeVar("input_t", bound=torch.Tensor)
output_t = TypeVar("output_t", bound=torch.Tensor)
"""


def gm_family(repo, out):
    files = []
    for i, path in enumerate(GM_GRAYSCALE):
        text = repo.show(path)
        if "def custom_kernel" not in text:
            raise SystemExit(f"pub9.py: {repo.name}:{path} has no custom_kernel; update the builder")
        hdr = ST.py_line_header(repo.name, repo.commit, path, "A GPU MODE leaderboard submission. Verbatim.")
        files.append((f"v{i}_{path.split('/')[0]}_{os.path.basename(path)}", hdr + "\n" + text))
    write(os.path.join(out, "_vendor", "task.py"), TASK_PY)
    return files


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
    gm = repos.setdefault(GM_REPO, Repo(args.mirror, GM_REPO))
    name = "p9-gm-grayscale"
    files = gm_family(gm, out)
    for rel, text in files:
        write(os.path.join(out, name, rel), text)
    write(os.path.join(out, name, "bench.py"), ST.adapter("bench_p9_grayscale.py"))
    families.append({"family": name, "files": [f"{name}/{rel}" for rel, _ in files], "split": SPLIT,
                     "source": f"{gm.at()}: " + ", ".join(GM_GRAYSCALE), "style": "gpumode-custom_kernel",
                     "notes": "One author's GPU MODE submissions for RGB -> grayscale, in the order written: eager "
                              "torch (the baseline), a CuPy RawKernel, load_inline CUDA extensions (16x16 "
                              "blocks; one falls back to eager torch when its extension does not build), two "
                              "Triton kernels (1-D and 2-D tiles). 8192 x 8192 x 3 float32. Submissions left "
                              "out unrun, and why: see pub9.py's GM_GRAYSCALE comment. Measured failing "
                              "(H100, 2026-11-26): the three load_inline versions (their `functions=[\"forward\"]` "
                              "names no declared function: the extension does not compile, and the program's "
                              "eager fallback is refused by the adapter) and day70's Triton kernel (passes "
                              "data_ptr() ints as pointers; does not compile)."})
    sources[name] = {"repository": GM_REPO, "head": gm.commit, "paths": GM_GRAYSCALE}
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
