"""Adapter of p9-flashattn-cross-entropy (kforecast's own code): flash-attention's
`cross_entropy_loss(logits, labels)` forward, per-token losses of float32 logits over
Llama-2's 32000-token vocabulary, 8192 tokens (logits not requiring grad)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p9common as kf  # noqa: E402

TOKENS, VOCAB = 8192, 32000
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = kf.gen(seed)
    logits = 2 * torch.randn(TOKENS, VOCAB, device="cuda", generator=g)
    labels = torch.randint(0, VOCAB, (TOKENS,), device="cuda", generator=g)
    return (logits, labels)


def reference(logits, labels):
    x = logits.double()
    return torch.logsumexp(x, -1) - x.gather(1, labels[:, None])[:, 0]


def build(path):
    f = kf.load(path).cross_entropy_loss
    return lambda logits, labels: kf.first(f(logits, labels))
