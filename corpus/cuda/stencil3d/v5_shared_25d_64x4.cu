// 3-D 7-point stencil, 2.5-D blocking as the 32 x 8 version with 64 x 4 blocks:
// wider rows (two warps per row), a shorter y halo.
// (7-point stencil on an nz x ny x nx grid, x fastest: interior points get
// C0 * centre + C1 * (sum of the 6 face neighbours), boundary points are copied.)
#include <cuda_runtime.h>

#define BX 64
#define BY 4
#define ZCHUNK 64
#define C0 0.4f
#define C1 0.1f

// kforecast: nx = 512; ny = 512; nz = 256; in: f32[nz, ny, nx] randn; out: f32[nz, ny, nx]; rtol = 1e-5; atol = 1e-5
__global__ void __launch_bounds__(BX * BY)
stencil3d(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz)
{
    __shared__ float t[BY + 2][BX + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * BX + tx;
    const int y = blockIdx.y * BY + ty;
    const int z0 = blockIdx.z * ZCHUNK;
    const int z1 = min(z0 + ZCHUNK, nz);
    const bool inside = x < nx && y < ny;
    const bool edge = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
    const size_t plane = (size_t)nx * ny;
    size_t i = (size_t)z0 * plane + (size_t)y * nx + x;
    float below = inside && z0 > 0 ? in[i - plane] : 0.0f;
    float cur = inside ? in[i] : 0.0f;
    for (int z = z0; z < z1; ++z, i += plane) {
        const float above = inside && z + 1 < nz ? in[i + plane] : 0.0f;
        __syncthreads();
        t[ty + 1][tx + 1] = cur;
        if (tx == 0 && x > 0 && y < ny) t[ty + 1][0] = in[i - 1];
        if (tx == BX - 1 && x + 1 < nx && y < ny) t[ty + 1][BX + 1] = in[i + 1];
        if (ty == 0 && y > 0 && x < nx) t[0][tx + 1] = in[i - nx];
        if (ty == BY - 1 && y + 1 < ny && x < nx) t[BY + 1][tx + 1] = in[i + nx];
        __syncthreads();
        if (inside) {
            if (edge || z == 0 || z == nz - 1)
                out[i] = cur;
            else
                out[i] = C0 * cur + C1 * ((t[ty + 1][tx] + t[ty + 1][tx + 2]) + (t[ty][tx + 1] + t[ty + 2][tx + 1]) +
                                          (below + above));
        }
        below = cur;
        cur = above;
    }
}

extern "C" void launch_stencil3d(const float* in, float* out, int nx, int ny, int nz, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY, (nz + ZCHUNK - 1) / ZCHUNK);
    stencil3d<<<grid, block, 0, stream>>>(in, out, nx, ny, nz);
}
