"""Builds public evaluation set 52 ("p52-" families, split "public52", kept unseen) from a
local copy of a public repository no other set uses, outside kforecast's repository.

    python3 scripts/evalsets/public52/pub52.py --mirror /work/.mirror \
        --out /work/main/target/evalsets/public52

Source (fetched with the session's `fetch` tool first), all Triton:
- priyammaz/MyTorch: one author's autograd library on CuPy arrays whose fused ops are Triton
  kernels (`mytorch/nn/fused_ops/`, moved to `mytorch/nn/functional/fused_ops/` at 728643e),
  each rewritten over the commits (commit messages name each step): the fused cross-entropy
  (forward + backward), LayerNorm (training forward + backward), the fused linear forward,
  the grouped GEMM, the embedding (forward + backward) and flash attention (causal, forward +
  backward).

A version is the op's module at one commit, verbatim, with its package imports
(`from .utils import calc_num_warps`, `from .flags import ...`) replaced by the text of those
modules at the same commit (marked KFORECAST), plus a `kf_run` entry point marked KFORECAST
that hands the adapter's torch tensors to the file's own wrappers as CuPy arrays (zero-copy
DLPack views, as the author's Tensor class holds them) and returns torch views of their
outputs. Steps are the author's own commits, never chosen by speed. Adapters
(`adapters/bench_p52_*.py`) are ours. The builder replaces the whole set folder but
`measurements/`.
"""

import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "public"))

import setkit  # noqa: E402

TEXT = setkit.SetText("Evaluation set public52", "scripts/evalsets/public52/pub52.py",
                      os.path.join(HERE, "adapters"))
SPLIT = "public52"

# Versions that failed on the H100 (measurement of MEASURED_DAY): path -> why.
FAILING = {}
MEASURED_DAY = "2026-11-27"

MT = "priyammaz/MyTorch"
OLD = "mytorch/nn/fused_ops/"
NEW = "mytorch/nn/functional/fused_ops/"

PRELUDE = (
    "import torch as _kf_torch\n"
    "import cupy as _kf_cp\n\n\n"
    "def _kf_cupy(t):\n"
    "    return _kf_cp.from_dlpack(t)\n\n\n"
    "def _kf_t(a):\n"
    "    return a if isinstance(a, _kf_torch.Tensor) else _kf_torch.from_dlpack(a)\n\n\n")


def folder(repo, commit, op):
    for d in (OLD, NEW):
        if repo.has(commit, d + op + ".py"):
            return d
    raise SystemExit(f"pub52.py: no {op}.py at {commit}")


def inline_imports(repo, commit, d, src):
    """The package's own relative imports replaced by those modules' text at `commit`."""
    def repl(m):
        mod = m.group(1)
        at, why = commit, "at the same commit"
        if not repo.has(commit, d + mod + ".py"):
            # the commit imports a module it does not hold (added by a later commit): take the
            # module from the first commit that adds it
            at = repo.git("log", "--reverse", "--format=%H", "--diff-filter=A", repo.commit, "--",
                          d + mod + ".py").split()[0]
            why = f"at {at[:7]}, the commit that adds it (absent at this commit)"
        text = repo.show(d + mod + ".py", at).rstrip()
        if re.search(r"^from \.", text, re.M):
            raise SystemExit(f"pub52.py: {mod}.py at {commit} has relative imports itself")
        return (f"# KFORECAST: `{m.group(0).strip()}` replaced by {d}{mod}.py {why}\n"
                + text + f"\n# KFORECAST: end of {mod}.py\n")
    return re.sub(r"^from \.(\w+) import [^\n]+\n", repl, src, flags=re.M)


def version(out, fam, repo, op, short, what, body, how):
    full = repo.git("rev-parse", short).strip()
    d = folder(repo, full, op)
    path = d + op + ".py"
    src = inline_imports(repo, full, d, repo.show(path, full))
    rel = f"{fam}/{op}_{short}.py"
    text = (TEXT.py_line_header(repo.name, full, path, what)
            + "# " + setkit.VERBATIM + "\n\n" + src.rstrip() + "\n\n\n"
            + "# KFORECAST entry point (ours): " + how + "\n" + PRELUDE + body)
    setkit.write(os.path.join(out, rel), text)
    return rel


def family(mirror, out, fam, op, steps, adapter, notes, how):
    repo = setkit.Repo(mirror, MT)
    files = [version(out, fam, repo, op, s, w, b, how) for s, w, b in steps]
    setkit.write(os.path.join(out, fam, "bench.py"), TEXT.adapter(adapter))
    entry = dict(family=fam, files=files, split=SPLIT, source=repo.at(), style="triton",
                 notes=notes + " The file at the commits that change its kernels or their launch, "
                 "in commit order: " + "; ".join(f"{s} {w}" for s, w, _b in steps) + ".")
    return setkit.measured_note(entry, FAILING, MEASURED_DAY)


# ---------------------------------------------------------------- cross-entropy
CE_V1 = ("def kf_run(logits, labels):\n"
         "    lg, lb = _kf_cupy(logits), _kf_cupy(labels)\n"
         "    loss, logsumexp = fused_cross_entropy_forward(lg, lb)\n"
         "    grad = fused_cross_entropy_backward(lg, lb, logsumexp)\n"
         "    return _kf_t(loss), _kf_t(grad)\n")
CE_I32 = ("def kf_run(logits, labels):\n"
          "    # KFORECAST: this commit's kernels read int32 labels\n"
          "    lg, lb = _kf_cupy(logits), _kf_cupy(labels.to(_kf_torch.int32))\n"
          "    loss, logsumexp = fused_cross_entropy_forward(lg, lb)\n"
          "    grad = fused_cross_entropy_backward(lg, lb, logsumexp{extra})\n"
          "    return _kf_t(loss), _kf_t(grad)\n")
CE_STEPS = [
    ("23c1286", "'pushing up v1 of mytorch': forward one program a row (whole row, num_warps by "
     "block size), backward a 2-D grid of 128-wide column blocks into a fresh zeroed gradient, "
     "CuPy pointers", CE_V1),
    ("a48a683", "'made dlpack the default method': the wrappers launch on torch views of the "
     "CuPy arrays", CE_V1),
    ("64e1035", "'fixed bug in cross entropy, and added autotuning to the backward pass': "
     "backward under triton.autotune (one config, BLOCK_SIZE 128, 4 warps, unless "
     "TRITON_AUTOTUNE_MODE=max)", CE_V1),
    ("84f019d", "'removed preallocation of grads for 2x speedup in cross entropy backward': the "
     "backward overwrites the logits with the gradient in place, BLOCK_SIZE 4096 with 8 warps, "
     "int32 labels, fp16/fp32 flag", CE_I32.format(extra="")),
    ("c476dc3", "'moved grad scaling into kernel': a scale argument multiplied in the backward "
     "kernel (1.0 here)", CE_I32.format(extra=", 1.0")),
    ("e9a85cb", "'added softcapping to fused cross entropy': tanh softcap branches (off here, "
     "softcap=None)", CE_I32.format(extra=", softcap=None, scale=1.0")),
]

# ---------------------------------------------------------------- layernorm
LN_V1 = ("def kf_run(x, gamma, beta, dy):\n"
         "    x, gamma, beta, dy = (_kf_cupy(t) for t in (x, gamma, beta, dy))\n"
         "    y, x_hat, inv_var = fused_layernorm_forward(x, gamma, beta, training=True)\n"
         "    dx, dgamma, dbeta = fused_layernorm_backward(x_hat, inv_var, dy, gamma, bias=True)\n"
         "    return _kf_t(y), _kf_t(dx), _kf_t(dgamma), _kf_t(dbeta)\n")
LN_V2 = ("def kf_run(x, gamma, beta, dy):\n"
         "    x, gamma, beta, dy = (_kf_cupy(t) for t in (x, gamma, beta, dy))\n"
         "    y, mean, inv_var = fused_layernorm_forward(x, gamma, beta, training=True)\n"
         "    dx, dgamma, dbeta = fused_layernorm_backward(x, mean, inv_var, dy, gamma, beta)\n"
         "    return _kf_t(y), _kf_t(dx), _kf_t(dgamma), _kf_t(dbeta)\n")
LN_STEPS = [
    ("23c1286", "'pushing up v1 of mytorch': four forward kernels (training/inference, with/"
     "without bias) storing y, x_hat and 1/std; backward: a dx kernel on dy*gamma (a CuPy "
     "product) and a 64 x 64 tiled partial-dgamma kernel summed by CuPy, dbeta by CuPy", LN_V1),
    ("a48a683", "'made dlpack the default method': the same kernels launched on torch views",
     LN_V1),
    ("6e2ef1d", "'merged all the branches so we dont have so many conditionals!': one forward "
     "kernel for every case", LN_V1),
    ("4dc4b51", "'updated layernorm to have single backward pass rather than separate dX and "
     "dGamma kernels': the forward stores mean and 1/std only, one backward kernel recomputes "
     "x_hat and gives dx with dgamma/dbeta accumulated atomically", LN_V2),
]

# ---------------------------------------------------------------- linear
LIN = ("def kf_run(a, w, b):\n"
       "    y = fused_linear_forward(_kf_cupy(a), _kf_cupy(w), _kf_cupy(b))\n"
       "    return _kf_t(y)\n")
LIN_STEPS = [
    ("9e787a3", "'added a fused linear forward pass': the grouped tile GEMM with bias in the "
     "epilogue, autotuned over eight configs (32-128 x 32-256 tiles, BK 32)", LIN),
    ("e97ddde", "'cleanup': the autotune list behind TRITON_AUTOTUNE_MODE, by default the one "
     "32 x 32 x 32 config with 8 warps and 3 stages", LIN),
    ("d64726b", "'fused activation into linear layer forward/backward pass': the kernel stores "
     "the pre-activation and, when an activation is named, the post-activation (none here: "
     "act_func=None)",
     "def kf_run(a, w, b):\n"
     "    y, _post = fused_linear_forward(_kf_cupy(a), _kf_cupy(w), _kf_cupy(b), act_func=None)\n"
     "    return _kf_t(y)\n"),
]

# ---------------------------------------------------------------- matmul
MM = ("def kf_run(a, b):\n"
      "    return _kf_t(fused_grouped_matmul(_kf_cupy(a), _kf_cupy(b)))\n")
MM_STEPS = [
    ("a998c43", "'added in fused matmul (for future linear layer)': the grouped-ordering tile "
     "GEMM autotuned over eight configs (up to 128 x 256 x 64)", MM),
    ("fd6c937", "'moved it into avail ops for fused operations': the autotune list behind "
     "TRITON_AUTOTUNE_MODE, by default one 64 x 64 x 32 config with 8 warps and 2 stages", MM),
]

# ---------------------------------------------------------------- embedding
EMB = ("def kf_run(weight, indices, grad_out):\n"
       "    w, idx, g = _kf_cupy(weight), _kf_cupy(indices), _kf_cupy(grad_out)\n"
       "    out = fused_embedding_forward(w, idx)\n"
       "    grad_w = fused_embedding_backward(g, w, idx)\n"
       "    return _kf_t(out), _kf_t(grad_w)\n")
EMB_STEPS = [
    ("c8b317a", "'added in fused embeddings': a 2-D grid of 128-token x 128-column tiles "
     "gathering rows, the backward scattering with atomic adds into a zeroed gradient", EMB),
    ("a8d684a", "'incorrect masking breaking fused inference for non divisible sequence "
     "lengths, this should fix it!': per-token row masks, and bounds asserts on the indices "
     "(`(indices >= 0).all()`, `(indices < vocab).all()`) before each launch", EMB),
]

# ---------------------------------------------------------------- flash attention
FA_OLD = ("def kf_run(q, k, v, do):\n"
          "    q, k, v, do = (_kf_cupy(t) for t in (q, k, v, do))\n"
          "    Q, K, V, O, M = fused_sdpa_forward(q, k, v, True)\n"
          "    dQ, dK, dV = fused_sdpa_backward(do, Q, K, V, O, M, True)\n"
          "    return _kf_t(O), _kf_t(dQ), _kf_t(dK), _kf_t(dV)\n")
FA_NEW = ("def kf_run(q, k, v, do):\n"
          "    q, k, v, do = (_kf_cupy(t) for t in (q, k, v, do))\n"
          "    Q, K, V, O, M = fused_sdpa_forward(q, k, v, causal=True)\n"
          "    dQ, dK, dV = fused_sdpa_backward(do, Q, K, V, O, M, causal=True)\n"
          "    return _kf_t(O), _kf_t(dQ), _kf_t(dK), _kf_t(dV)\n")
FA_STEPS = [
    ("23c1286", "'pushing up v1 of mytorch': the FlashAttention-2 style forward (Q blocks, "
     "online softmax over K/V blocks, causal in two stages) and backward (preprocess D, then "
     "dK/dV and dQ loops), CuPy pointers", FA_OLD),
    ("a48a683", "'made dlpack the default method': the same kernels launched on torch views",
     FA_OLD),
    ("9969e7c", "'added in support for custom attn mask in flash attention': mask loads and "
     "-inf fills in the forward and backward inner loops (no mask here)", FA_NEW),
    ("dcffa8a", "'updated mask indexing so head dim is broadcasted ...': after 1a622cb's "
     "custom masks and 80c5002's cross attention (separate query and key lengths)", FA_NEW),
    ("9d85fff", "'added in group query attention': key/value heads indexed per query-head "
     "group, dK/dV accumulated with atomic adds when heads are shared (here as many key/value "
     "as query heads)", FA_NEW),
]


def main():
    args = setkit.builder_args(__doc__, "/work/main/target/evalsets/public52")
    setkit.clear_set(args.out)
    fams = [
        family(args.mirror, args.out, "p52-mt-cross-entropy", "cross_entropy", CE_STEPS,
               "bench_p52_mt_cross_entropy.py",
               "MyTorch's fused cross-entropy: fp32 logits (2048, 50257) (GPT-2's vocabulary: the "
               "library trains GPT-2), int64 labels; forward (loss, logsumexp), then backward "
               "(softmax minus one-hot, unscaled). From 84f019d on the backward overwrites the "
               "logits in place, as the author's wrapper does (timing calls reuse the overwritten "
               "buffer, whose values stay finite).",
               "forward then backward wrappers"),
        family(args.mirror, args.out, "p52-mt-layernorm", "layernorm", LN_STEPS,
               "bench_p52_mt_layernorm.py",
               "MyTorch's fused LayerNorm, training forward then backward: fp32 x (8192, 4096), "
               "gamma, beta (4096,), upstream dy (8192, 4096); outputs y, dx, dgamma, dbeta.",
               "training forward then backward wrappers"),
        family(args.mirror, args.out, "p52-mt-linear", "linear", LIN_STEPS,
               "bench_p52_mt_linear.py",
               "MyTorch's fused linear forward y = a @ w + b: fp16 a (4096, 4096), w (4096, "
               "4096), b (4096,).",
               "the forward wrapper"),
        family(args.mirror, args.out, "p52-mt-matmul", "matmul", MM_STEPS,
               "bench_p52_mt_matmul.py",
               "MyTorch's grouped tile GEMM (`fused_grouped_matmul`, the kernel its linear layer "
               "grew from): fp16 a (4096, 4096) @ b (4096, 4096).",
               "the GEMM wrapper"),
        family(args.mirror, args.out, "p52-mt-embedding", "embedding", EMB_STEPS,
               "bench_p52_mt_embedding.py",
               "MyTorch's fused embedding, forward then backward: fp32 weight (50257, 768) "
               "(GPT-2's), int64 token ids (16, 1024), upstream gradient (16, 1024, 768); outputs "
               "the gathered rows and the weight gradient. Left out: d3d3b9b (`astype(..., "
               "copy=False)`, the same work for int64 ids).",
               "forward then backward wrappers"),
        family(args.mirror, args.out, "p52-mt-flash-attention", "flash_attention", FA_STEPS,
               "bench_p52_mt_flash_attention.py",
               "MyTorch's fused scaled-dot-product attention, causal, forward then backward: fp16 "
               "q, k, v, dO (2, 8, 2048, 64); outputs O, dQ, dK, dV. Left out: 1394b32 ('code "
               "cleanup'), ce701d1 ('fixed autotuner': the mode read from flags, the same "
               "default config), 1a622cb, d66b884, 80c5002, 04db6bc (masks and cross attention "
               "completed, docstrings; dcffa8a stands for them).",
               "forward then backward wrappers"),
    ]
    sources = {f["family"]: {"source": f["source"], "files": f["files"]} for f in fams}
    setkit.write_index(args.out, fams, sources)
    n, pairs = setkit.pair_counts(fams)
    print(json.dumps({"families": len(fams), "programs": n, "ordered_pairs": pairs}))


if __name__ == "__main__":
    main()
