"""kmeans_assign: nearest centroid (squared Euclidean distance, first index on ties) of every point,
KernelBench-style load_inline modules: ModelNew()(points f32 [N, D], centroids f32 [K, D]) -> int64 [N].
Every version sums (p - c)^2 over d in the same order with fmaf, so labels match exactly; no float64
reference (a near-tie would flip the argmin)."""
import torch
from progbuild import load_program

N, D, K = 1 << 22, 32, 64  # 537 MB of points, 8 KB of centroids, 8.6 G multiply-adds
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    points = torch.randn(N, D, device="cuda", generator=g)
    centroids = torch.randn(K, D, device="cuda", generator=g)
    return points, centroids


def build(path):
    prog = load_program(path)
    model = prog.ModelNew(*prog.get_init_inputs()).cuda().eval()

    def fn(points, centroids):
        with torch.no_grad():
            return model(points, centroids)

    return fn
