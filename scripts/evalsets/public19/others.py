"""Set public19's families from opus24/skills-for-triton-kernel and hpcaitech/ColossalAI.

- opus24/skills-for-triton-kernel (at the commit that still holds its generated kernels,
  0e752e5; a later commit removed them): an agent's four Triton versions of each op
  (v1_baseline, v2_tiling, v3_coalesced, v4_optimized), each module verbatim; eager torch
  (ours, marked) as a fifth version.
- hpcaitech/ColossalAI: the inference engine's Triton rotary embeddings (the unpadded
  rotary_embedding kernel with its host, cut to the no-cache branch; the older
  fused_rotary_embedding module verbatim) against the torch reference of its own test.
"""

import pycut
from setkit import Repo

OPUS = "opus24/skills-for-triton-kernel"
OPUS_COMMIT = "0e752e5"  # "build skills structure and generate easy/medium/hard triton kernels"
CAI = "hpcaitech/ColossalAI"
VERSIONS = ("v1_baseline", "v2_tiling", "v3_coalesced", "v4_optimized")

TORCH = {
    "add": ("x + alpha * y in eager torch (torch.add).", '''import torch


def kf_entry(x, y):
    return torch.add(x, y, alpha=1.0)
'''),
    "softmax": ("torch.softmax over the last dim.", '''import torch


def kf_entry(x):
    return torch.softmax(x, dim=-1)
'''),
    "mha": ("F.scaled_dot_product_attention (non-causal).", '''import torch
import torch.nn.functional as F


def kf_entry(q, k, v):
    return F.scaled_dot_product_attention(q, k, v)
'''),
}

ENTRY = '''

# KFORECAST: entry point (ours): the module's own wrapper, called as the adapter calls it.
def kf_entry(*args):
    return {call}(*args)
'''

ROT_ENTRY = '''

# KFORECAST: entry point (ours). Tokens of equal-length sequences, packed; cos/sin per
# token (cos_tok) for the per-token kernels, per position (cos_cache) with the sequence
# lengths for the position-finding one. The Triton versions rotate q and k in place.
def kf_entry(q, k, cos_tok, sin_tok, cos_cache, sin_cache, lengths):
{body}
'''


def add(mirror, family, SET):
    op = Repo(mirror, OPUS)
    op.commit = op.git("rev-parse", OPUS_COMMIT).strip()
    wrapper = {"add": "triton_add", "softmax": "triton_softmax", "mha": "triton_mha"}
    notes = {
        "add": "x + alpha*y (alpha 1), fp32, 2^26 elements.",
        "softmax": "row softmax, fp32, 16384 x 4096 (the v1/v3 kernels take rows of at most 4096).",
        "mha": "non-causal attention softmax(QK^T/sqrt(d))V, fp16, batch 8, 16 heads, 2048 tokens, "
               "head dim 64 (the baseline's BLOCK_K = min(64, d) covers d <= 64).",
    }
    for name in ("add", "softmax", "mha"):
        files = []
        for v in VERSIONS:
            path = f"kernels/{name}/{v}.py"
            hdr = SET.py_header(op, path, "Verbatim, plus a marked entry point.")
            files.append((f"{v}.py", hdr + "\n" + op.show(path) + ENTRY.format(call=wrapper[name])))
        what, body = TORCH[name]
        files.append((f"torch_{name}.py", SET.ours_py(what, body)))
        family(f"opus-{name}", files, [op], "agent-triton-ladder",
               f"An agent's (Claude skills) Triton ladder for {name}: v1_baseline (reference), v2_tiling, "
               f"v3_coalesced, v4_optimized, each the module verbatim (some hold an unused alternative kernel); "
               f"eager torch (ours) last. {notes[name]}", f"bench_p19_opus_{name}.py")

    cai = Repo(mirror, CAI)
    npath = "colossalai/kernel/triton/no_pad_rotary_embedding.py"
    fpath = "colossalai/kernel/triton/fused_rotary_embedding.py"
    tpath = "tests/test_infer/test_kernels/triton/test_rotary_embdding_unpad.py"
    nsrc, tsrc = cai.show(npath), cai.show(tpath)
    ref = (SET.header(cai, [f"{tpath}: torch_rotary_emb"], "The test's torch reference of the rotary kernels.",
                      comment="#")
           + "import torch\n\n\n" + pycut.node_text(tsrc, pycut.top(tsrc, "torch_rotary_emb"))
           + ROT_ENTRY.format(body="    return torch_rotary_emb(q, cos_tok, sin_tok), torch_rotary_emb(k, cos_tok, sin_tok)"))
    nopad = (SET.header(cai, [f"{npath}: rotary_embedding_kernel, rotary_embedding"],
                        "The unpadded rotary kernel with its host function.", comment="#")
             + pycut.prelude(nsrc) + "\n\n" + pycut.node_text(nsrc, pycut.top(nsrc, "rotary_embedding_kernel"))
             + "\n\n" + pycut.cut_branch(nsrc, "rotary_embedding", "k_cache == None", True)
             + ROT_ENTRY.format(body="    rotary_embedding(q, k, cos_tok, sin_tok)\n    return q, k"))
    fused = (SET.py_header(cai, fpath, "Verbatim, plus a marked entry point.") + "\n" + cai.show(fpath)
             + ROT_ENTRY.format(body="    fused_rotary_embedding(q, k, cos_cache, sin_cache, lengths)\n    return q, k"))
    family("cai-rotary", [("torch_rotary_emb.py", ref), ("no_pad_rotary_embedding.py", nopad),
                          ("fused_rotary_embedding.py", fused)], [cai], "engine-triton",
           "ColossalAI's inference rotary embedding (rotate-half, cos/sin of half the head dim) on packed "
           "q and k, fp16, 2 sequences x 4096 tokens, 32 heads (k as many), head dim 128: its test's torch "
           "reference, the unpadded per-token kernel (in place) and the older position-finding fused kernel "
           "(in place, from per-sequence lengths).", "bench_p19_cai_rotary.py")
