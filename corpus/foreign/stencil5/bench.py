"""stencil5: one Jacobi sweep of the 2D 5-point Laplace stencil (cupy programs),
jacobi_step(u [ny, nx] f32) -> v (interior: mean of the 4 neighbours; border copied)."""
import cupy as cp
import torch
from progbuild import load_program

NY, NX = 8192, 8192
TOL = {"rtol": 1e-5, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(NY, NX, device="cuda", generator=g),)


def build(path):
    prog = load_program(path)
    return lambda u: torch.from_dlpack(prog.jacobi_step(cp.from_dlpack(u)))


def reference(u):
    u = u.double()
    v = u.clone()
    v[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return v
