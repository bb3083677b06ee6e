"""Adapter of p33-fastllm-xent (kforecast's own code): Fast-LLM's fused Triton cross-entropy
forward+backward from integer labels on bf16 logits (2048, 32000) (2^26 elements, standard
normal), int64 labels in [0, 32000), grad_output 1.0. Outputs: the mean loss and grad_logits
(bf16). Float64 reference: log-softmax cross-entropy and (softmax - onehot) / rows."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p33common as kf  # noqa: E402

TOL = kf.LOSS_TOL
build = kf.loss_build


def make_inputs(seed):
    g = kf.gen(seed)
    logits = torch.randn(kf.LOSS_ROWS, kf.LOSS_VOCAB, device="cuda", generator=g).to(torch.bfloat16)
    return logits, torch.randint(0, kf.LOSS_VOCAB, (kf.LOSS_ROWS,), device="cuda", generator=g)


def reference(logits, labels):
    lp = torch.log_softmax(logits.double(), dim=-1)
    grad = lp.exp()
    grad[torch.arange(kf.LOSS_ROWS, device=grad.device), labels] -= 1.0
    return -lp.gather(1, labels[:, None]).mean(), grad / kf.LOSS_ROWS
