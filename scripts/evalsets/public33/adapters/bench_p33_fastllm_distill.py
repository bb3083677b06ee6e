"""Adapter of p33-fastllm-distill (kforecast's own code): Fast-LLM's fused Triton cross-entropy
forward+backward against a teacher's logits (target_format logits: soft targets
softmax(teacher)), bf16 logits and teacher logits (2048, 32000) (2^26 elements each, standard
normal), grad_output 1.0. Outputs: the mean loss and grad_logits (bf16). Float64 reference:
-sum softmax(teacher) * log_softmax(logits), averaged over rows, and
(softmax(logits) - softmax(teacher)) / rows."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p33common as kf  # noqa: E402

TOL = kf.LOSS_TOL
build = kf.loss_build


def make_inputs(seed):
    g = kf.gen(seed)
    shape = (kf.LOSS_ROWS, kf.LOSS_VOCAB)
    return tuple(torch.randn(shape, device="cuda", generator=g).to(torch.bfloat16) for _ in range(2))


def reference(logits, teacher):
    lp = torch.log_softmax(logits.double(), dim=-1)
    pt = torch.softmax(teacher.double(), dim=-1)
    return -(pt * lp).sum(dim=-1).mean(), (lp.exp() - pt) / kf.LOSS_ROWS
