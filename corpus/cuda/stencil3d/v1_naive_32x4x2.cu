// 3-D 7-point stencil, naive with 32 x 4 x 2 blocks: a warp covers 32 consecutive
// x, so every row access is one full 128-byte line.
// (7-point stencil on an nz x ny x nx grid, x fastest: interior points get
// C0 * centre + C1 * (sum of the 6 face neighbours), boundary points are copied.)
#include <cuda_runtime.h>

#define BX 32
#define BY 4
#define BZ 2
#define C0 0.4f
#define C1 0.1f

// kforecast: nx = 512; ny = 512; nz = 256; in: f32[nz, ny, nx] randn; out: f32[nz, ny, nx]; rtol = 1e-5; atol = 1e-5
__global__ void stencil3d(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz)
{
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    const int z = blockIdx.z * BZ + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    const size_t i = ((size_t)z * ny + y) * nx + x;
    if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
        out[i] = in[i];
        return;
    }
    const size_t plane = (size_t)nx * ny;
    out[i] = C0 * in[i] + C1 * ((in[i - 1] + in[i + 1]) + (in[i - nx] + in[i + nx]) + (in[i - plane] + in[i + plane]));
}

extern "C" void launch_stencil3d(const float* in, float* out, int nx, int ny, int nz, cudaStream_t stream)
{
    dim3 block(BX, BY, BZ);
    dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY, (nz + BZ - 1) / BZ);
    stencil3d<<<grid, block, 0, stream>>>(in, out, nx, ny, nz);
}
