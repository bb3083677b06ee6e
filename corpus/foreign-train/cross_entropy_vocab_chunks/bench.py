"""cross_entropy_vocab_chunks: per-token cross-entropy of an LLM head over a 128k vocabulary,
bf16 logits: cross_entropy(logits [T, V] bf16, labels [T] int64 (-100 = ignored)) -> [T] f32
loss (reduction none, 0 for ignored tokens). Some versions also overwrite the logits with the
gradient of the summed loss, as fused training kernels do; only the loss is compared."""
import torch
from progbuild import load_program

T, V = 2048, 128256  # logits 525 MB
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
    out = []
    for i in range(0, logits.shape[0], 256):  # float64 in row chunks: bounded memory
        x = logits[i:i + 256].double()
        lse = torch.logsumexp(x, dim=-1)
        lab = labels[i:i + 256]
        picked = x.gather(1, lab.clamp(min=0)[:, None])[:, 0]
        out.append(torch.where(lab != -100, lse - picked, torch.zeros_like(lse)))
    return torch.cat(out)
