"""ema_multi_tensor: exponential moving average of a model's parameters, in place over a list of
61 tensors of mixed sizes (a 6-layer transformer: 84M parameters), KernelBench-style modules that
call Triton: ModelNew(decay)(ema_list, param_list) -> the updated ema tensors (a tuple)."""
import torch
from progbuild import load_program

DIM, FF, VOCAB, LAYERS = 1024, 4096, 8192, 6
DECAY = 0.999
TOL = {"rtol": 1e-5, "atol": 1e-6}


def shapes():
    out = [(VOCAB, DIM)]
    for _ in range(LAYERS):
        out += [(3 * DIM, DIM), (DIM, DIM), (FF, DIM), (FF,), (DIM, FF), (DIM,),
                (DIM,), (DIM,), (DIM,), (DIM,)]
    return out  # 61 tensors, 84M floats: 336 MB per list


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    ema = [torch.randn(s, device="cuda", generator=g) for s in shapes()]
    params = [e + 0.1 * torch.randn(s, device="cuda", generator=g) for e, s in zip(ema, shapes())]
    return tuple(ema) + tuple(params)


def build(path):
    prog = load_program(path)
    model = prog.ModelNew(*prog.get_init_inputs()).cuda().eval()

    def fn(*tensors):
        k = len(tensors) // 2
        with torch.no_grad():
            return tuple(model(list(tensors[:k]), list(tensors[k:])))

    return fn


def reference(*tensors):
    k = len(tensors) // 2
    return tuple(DECAY * e.double() + (1 - DECAY) * p.double() for e, p in zip(tensors[:k], tensors[k:]))
