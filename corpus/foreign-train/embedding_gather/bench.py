"""embedding_gather: out[t, :] = weight[indices[t], :], KernelBench-style load_inline modules,
ModelNew()(indices int64 [tokens], weight f32 [vocab, dim]) -> [tokens, dim]."""
import torch
from progbuild import load_program

VOCAB, DIM, TOKENS = 65536, 1024, 65536  # 256 MB table, 256 MB gathered, 256 MB written
TOL = {"rtol": 0.0, "atol": 0.0}  # a copy: exact


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    weight = torch.randn(VOCAB, DIM, device="cuda", generator=g)
    indices = torch.randint(0, VOCAB, (TOKENS,), device="cuda", generator=g)
    return indices, weight


def build(path):
    prog = load_program(path)
    model = prog.ModelNew(*prog.get_init_inputs()).cuda().eval()

    def fn(indices, weight):
        with torch.no_grad():
            return model(indices, weight)

    return fn


def reference(indices, weight):
    return weight.double()[indices]
