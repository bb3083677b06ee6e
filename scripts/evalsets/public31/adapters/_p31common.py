"""Helpers shared by the adapters of evaluation set public31 (kforecast's own code, copied
into the set's root by scripts/evalsets/public31/pub31.py).

- `load(path)`: progbuild's `load_program` (each version imported as a fresh module);
- `gen(seed)`: a CUDA torch.Generator seeded with `seed`;
- `sage_inputs(seed, d)`: q, k INT8 (b=2, 32 heads, 4096 tokens, head dim d) with per-block float32 scales, v fp16, quantised from
  standard-normal fp16 q, k the way SageAttention's per_block_int8 does (q blocks of 128 rows
  with head_dim^-0.5 * log2(e) folded in, k blocks of 64 rows; scales contiguous (b, h, blocks));
- `sage_reference(q, k, v, qs, ks, causal)`: the attention in float64 on the dequantised q, k.
"""

import math

import torch

B, H, N, D = 2, 32, 4096, 128
BLKQ, BLKK = 128, 64


def load(path):
    from progbuild import load_program

    return load_program(path)


def gen(seed):
    return torch.Generator(device="cuda").manual_seed(int(seed) % (1 << 62))


def _quant(x, blk, sm):
    b, h, n, d = x.shape
    xb = x.float().reshape(b, h, n // blk, blk * d) * sm
    scale = xb.abs().amax(dim=-1) / 127.0
    xi = xb / scale[..., None]
    xi = (xi + 0.5 * torch.where(xi >= 0, 1.0, -1.0)).to(torch.int8)
    return xi.reshape(b, h, n, d).contiguous(), scale.contiguous()


def sage_inputs(seed, d=D):
    g = gen(seed)
    q = torch.randn(B, H, N, d, device="cuda", generator=g).half()
    k = torch.randn(B, H, N, d, device="cuda", generator=g).half()
    v = torch.randn(B, H, N, d, device="cuda", generator=g).half()
    qi, qs = _quant(q, BLKQ, d ** -0.5 * 1.44269504)
    ki, ks = _quant(k, BLKK, 1.0)
    return qi, ki, v, qs, ks


def sage_reference(qi, ki, v, qs, ks, causal):
    b, h, n, d = qi.shape
    out = torch.empty(b, h, n, d, dtype=torch.float64, device=qi.device)
    qd = qi.double() * qs.double().repeat_interleave(BLKQ, dim=-1)[..., None]
    kd = ki.double() * ks.double().repeat_interleave(BLKK, dim=-1)[..., None]
    mask = torch.ones(n, n, dtype=torch.bool, device=qi.device).tril() if causal else None
    for z in range(b):
        for y in range(h):
            s = qd[z, y] @ kd[z, y].T  # log2 units (log2(e) folded into q's scale)
            if mask is not None:
                s = s.masked_fill(~mask, -math.inf)
            p = torch.exp2(s - s.amax(dim=-1, keepdim=True))
            out[z, y] = (p @ v[z, y].double()) / p.sum(dim=-1, keepdim=True)
    return out


# ---- the two SageAttention adapter kinds and the GPU MODE one, parametrised by each family's bench

QUANT_TOL = {"rtol": 2e-3, "atol": 0.0}
ATTN_TOL = {"rtol": 1e-2, "atol": 1e-2}


def _ref_quant(x, blk, sm):
    b, h, n, d = x.shape
    xb = x.double().reshape(b, h, n // blk, blk * d) * sm
    scale = xb.abs().amax(dim=-1) / 127.0
    xi = xb / scale[..., None]
    xi = torch.trunc(xi + 0.5 * torch.where(xi >= 0, 1.0, -1.0)).to(torch.int8)
    return xi.reshape(b, h, n, d), scale


def quant_adapter(d):
    """(make_inputs, reference, build) of a per_block_int8 family at head dim d: integer-valued
    fp16 q, k in [-127, 127]; outputs (q_int8, q_scale, k_int8, k_scale)."""

    def make_inputs(seed):
        g = gen(seed)
        q = torch.randint(-127, 128, (B, H, N, d), device="cuda", generator=g).half()
        k = torch.randint(-127, 128, (B, H, N, d), device="cuda", generator=g).half()
        return q, k

    def reference(q, k):
        qi, qs = _ref_quant(q, BLKQ, d ** -0.5 * 1.44269504)
        ki, ks = _ref_quant(k, BLKK, 1.0)
        return qi, qs, ki, ks

    def build(path):
        f = load(path).kf_entry

        def fn(q, k):
            qi, qs, ki, ks = f(q, k)
            return qi, qs, ki, ks
        return fn
    return make_inputs, reference, build


def attn_adapter(d, causal):
    """(make_inputs, reference, build) of a forward(q, k, v, q_scale, k_scale) family at head
    dim d; a version returning (o, lse) gives o."""

    def make_inputs(seed):
        return sage_inputs(seed, d)

    def reference(qi, ki, v, qs, ks):
        return sage_reference(qi, ki, v, qs, ks, causal)

    def build(path):
        f = load(path).kf_entry

        def fn(qi, ki, v, qs, ks):
            o = f(qi, ki, v, qs, ks)
            if isinstance(o, tuple):
                o = o[0]
            return o
        return fn
    return make_inputs, reference, build


def gm_adapter(here, gen_input, reference):
    """(make_inputs, reference, build) of a GPU MODE family in folder `here` (its task.py and
    utils.py first on sys.path): inputs from the reference version's generate_input through
    `gen_input(module, seed)`, each version's custom_kernel (the reference's ref_kernel)."""
    import os
    import sys

    cache = {}

    def load_here(path):
        if sys.path[0] != here:
            sys.path.insert(0, here)
        for m in ("task", "utils", "reference"):
            mod = sys.modules.get(m)
            if mod is not None and os.path.dirname(os.path.abspath(getattr(mod, "__file__", "") or "")) != here:
                del sys.modules[m]
        return load(path)

    def make_inputs(seed):
        if "mod" not in cache:
            cache["mod"] = load_here(os.path.join(here, "v1_reference.py"))
        return (gen_input(cache["mod"], int(seed)),)

    def build(path):
        mod = load_here(path)
        f = getattr(mod, "custom_kernel", None) or mod.ref_kernel

        def fn(data):
            return f(data)
        return fn
    return make_inputs, reference, build
