# Jacobi relaxation for the Laplace equation, one sweep.
import cupy as cp

src = r'''
extern "C" __global__ void jacobi_step(const float* u, float* v, int ny, int nx)
{
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ny || j >= nx) return;
    size_t c = (size_t)i * nx + j;
    if (i == 0 || j == 0 || i == ny - 1 || j == nx - 1) {
        v[c] = u[c];
        return;
    }
    v[c] = 0.25f * (u[c - nx] + u[c + nx] + u[c - 1] + u[c + 1]);
}
'''
step = cp.RawKernel(src, "jacobi_step")


def jacobi_step(u):
    ny, nx = u.shape
    v = cp.empty_like(u)
    block = (16, 16)
    grid = ((nx + 15) // 16, (ny + 15) // 16)
    step(grid, block, (u, v, cp.int32(ny), cp.int32(nx)))
    return v
