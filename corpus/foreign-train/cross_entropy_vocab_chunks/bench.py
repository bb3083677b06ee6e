"""cross_entropy_vocab_chunks: per-token cross-entropy of an LLM head over a 128k vocabulary,
bf16 logits: cross_entropy(logits [T, V] bf16, labels [T] int64 (-100 = ignored)) -> [T] f32
loss (reduction none, 0 for ignored tokens). Some versions also overwrite the logits with the
gradient of the summed loss, as fused training kernels do; only the loss is compared."""
import torch
from progbuild import load_program

T, V = 4096, 128256  # logits 1.05 GB
TOL = {"rtol": 1e-4, "atol": 1e-3}  # float32 sums over 128k terms in different orders


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    logits = (3.0 * torch.randn(T, V, device="cuda", generator=g)
              + 10.0 * torch.rand(T, 1, device="cuda", generator=g)).bfloat16()
    labels = torch.randint(0, V, (T,), device="cuda", generator=g)
    labels[torch.rand(T, device="cuda", generator=g) < 0.05] = -100
    return logits, labels


def build(path):
    prog = load_program(path)
    return prog.cross_entropy


def reference(logits, labels):
    x = logits.double()
    lse = torch.logsumexp(x, dim=-1)
    valid = labels != -100
    picked = x.gather(1, labels.clamp(min=0)[:, None])[:, 0]
    return torch.where(valid, lse - picked, torch.zeros_like(lse))
