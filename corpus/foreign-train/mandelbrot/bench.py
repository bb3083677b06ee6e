"""mandelbrot: KernelBench-style load_inline modules; ModelNew(x_min, x_max, y_min, y_max)
(height, width, max_iter) -> int32 [height, width] escape counts of z <- z^2 + c from z = 0
(|z|^2 > 4 escapes). Compute-bound and divergent. Every version spells the iteration with
round-to-nearest intrinsics (no fused multiply-add), so the counts agree exactly."""
from progbuild import load_program

H, W, MAX_ITER = 4096, 4096, 512


def make_inputs(seed):
    return (H, W, MAX_ITER)


def build(path):
    prog = load_program(path)
    model = prog.ModelNew(*prog.get_init_inputs()).cuda().eval()
    return lambda height, width, max_iter: model(height, width, max_iter)
