"""int4_dequant: cupy RawModule programs with templated kernels (name_expressions);
dequant_int4(packed [rows, cols/2] uint8, scales [rows, cols/G] f32, G) -> [rows, cols] f32,
out[r, c] = (nibble(r, c) - 8) * scales[r, c // G], the low nibble of a byte first."""
import cupy as cp
import torch
from progbuild import load_program

ROWS, COLS, GROUP = 8192, 8192, 128  # 33.5 MB packed + 2 MB scales in, 268 MB out
TOL = {"rtol": 1e-6, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    packed = torch.randint(0, 256, (ROWS, COLS // 2), device="cuda", dtype=torch.uint8, generator=g)
    scales = torch.rand(ROWS, COLS // GROUP, device="cuda", generator=g) * 0.02 + 0.001
    return (packed, scales, GROUP)


def build(path):
    prog = load_program(path)

    def fn(packed, scales, group):
        return torch.from_dlpack(prog.dequant_int4(cp.from_dlpack(packed), cp.from_dlpack(scales), group))

    return fn


def reference(packed, scales, group):
    p = packed.to(torch.int64)
    q = torch.stack([p & 15, p >> 4], dim=-1).flatten(1)          # [rows, cols], low nibble first
    s = scales.double().repeat_interleave(group, dim=1)
    return (q - 8).double() * s
