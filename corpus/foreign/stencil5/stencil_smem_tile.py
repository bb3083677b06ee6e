# Jacobi sweep through a shared-memory tile with a one-cell halo.
import cupy as cp

BX, BY = 32, 8

module = cp.RawModule(code=r'''
#define BX 32
#define BY 8
extern "C" __global__ void jacobi_smem(const float* __restrict__ u, float* __restrict__ v, int ny, int nx)
{
    __shared__ float t[BY + 2][BX + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int j = blockIdx.x * BX + tx, i = blockIdx.y * BY + ty;
    const bool in = (i < ny) && (j < nx);
    const size_t c = (size_t)i * nx + j;
    if (in) t[ty + 1][tx + 1] = u[c];
    if (tx == 0 && j > 0 && i < ny) t[ty + 1][0] = u[c - 1];
    if (tx == BX - 1 && j + 1 < nx && i < ny) t[ty + 1][BX + 1] = u[c + 1];
    if (ty == 0 && i > 0 && j < nx) t[0][tx + 1] = u[c - nx];
    if (ty == BY - 1 && i + 1 < ny && j < nx) t[BY + 1][tx + 1] = u[c + nx];
    __syncthreads();
    if (!in) return;
    if (i == 0 || j == 0 || i == ny - 1 || j == nx - 1) { v[c] = t[ty + 1][tx + 1]; return; }
    v[c] = 0.25f * (t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2]);
}
''')
jacobi = module.get_function("jacobi_smem")


def jacobi_step(u):
    ny, nx = u.shape
    v = cp.empty_like(u)
    jacobi(((nx + BX - 1) // BX, (ny + BY - 1) // BY), (BX, BY), (u, v, cp.int32(ny), cp.int32(nx)))
    return v
