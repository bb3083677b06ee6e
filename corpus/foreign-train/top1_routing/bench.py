"""top1_routing: top-1 mixture-of-experts routing, GPU MODE-style Triton programs:
custom_kernel((router_logits f32 [tokens, experts], expert_scale f32 [experts])) ->
(expert index int32 [tokens], gate f32 [tokens] = sigmoid(max logit) * expert_scale[index],
tokens per expert int32 [experts])."""
import torch
from progbuild import load_program

TOKENS, EXPERTS = (1 << 20) + 37, 64  # 268 MB of logits; the token count is not a multiple of a block
TOL = {"rtol": 1e-5, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    logits = torch.randn(TOKENS, EXPERTS, device="cuda", generator=g)
    logits[:, 5] += 0.5  # an uneven load: one expert is chosen more often
    scale = 0.5 + torch.rand(EXPERTS, device="cuda", generator=g)
    return logits, scale


def build(path):
    prog = load_program(path)
    return lambda logits, scale: prog.custom_kernel((logits, scale))


def reference(logits, scale):
    top, idx = logits.max(dim=1)  # ties: the first index, as tl.argmax
    gate = torch.sigmoid(top.double()) * scale.double()[idx]
    counts = torch.bincount(idx, minlength=logits.shape[1]).to(torch.int32)
    return idx.to(torch.int32), gate, counts
