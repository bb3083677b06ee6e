"""Adapter of p9-lightllm-destindex-copy-kv (kforecast's own code): lightllm's
`destindex_copy_kv`, which scatters a prefill's new K and V rows (16384 tokens, 8 KV heads
of 128, bf16) into the KV cache (65536 slots) at the slots the memory manager gave them
(distinct, in random order). Called once for K and once for V as lightllm's layer did,
or once with both where a revision takes (K, V, DestLoc, OutK, OutV). The caches are
inputs; the output is both caches."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p9common as kf  # noqa: E402

TOKENS, SLOTS, HK, DIM = 16384, 65536, 8, 128
TOL = {"rtol": 0.0, "atol": 0.0}  # a copy


def make_inputs(seed):
    g = kf.gen(seed)
    k, v = (torch.randn(TOKENS, HK, DIM, device="cuda", generator=g).to(torch.bfloat16) for _ in range(2))
    loc = torch.randperm(SLOTS, device="cuda", generator=g)[:TOKENS].to(torch.int32)
    ck, cv = (torch.randn(SLOTS, HK, DIM, device="cuda", generator=g).to(torch.bfloat16) for _ in range(2))
    return (k, v, loc, ck, cv)


def reference(k, v, loc, ck, cv):
    ck, cv = ck.double(), cv.double()
    ck[loc.long()] = k.double()
    cv[loc.long()] = v.double()
    return ck, cv


def build(path):
    f = kf.load(path).destindex_copy_kv
    if len(kf.params(f)) == 5:
        def run(k, v, loc, ck, cv):
            f(k, v, loc, ck, cv)
            return ck, cv
    else:
        def run(k, v, loc, ck, cv):
            f(k, loc, ck)
            f(v, loc, cv)
            return ck, cv
    return run
