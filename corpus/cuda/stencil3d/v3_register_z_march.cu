// 3-D 7-point stencil, register streaming along z: a 32 x 8 block walks a chunk
// of 64 planes, each thread keeping its z-1, z and z+1 values in registers, so
// only the 4 in-plane neighbours are reloaded (mostly from L1).
// (7-point stencil on an nz x ny x nx grid, x fastest: interior points get
// C0 * centre + C1 * (sum of the 6 face neighbours), boundary points are copied.)
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define ZCHUNK 64
#define C0 0.4f
#define C1 0.1f

// kforecast: nx = 512; ny = 512; nz = 256; in: f32[nz, ny, nx] randn; out: f32[nz, ny, nx]; rtol = 1e-5; atol = 1e-5
__global__ void __launch_bounds__(BX * BY)
stencil3d(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz)
{
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    if (x >= nx || y >= ny) return;
    const int z0 = blockIdx.z * ZCHUNK;
    const int z1 = min(z0 + ZCHUNK, nz);
    const size_t plane = (size_t)nx * ny;
    const bool edge = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
    size_t i = (size_t)z0 * plane + (size_t)y * nx + x;
    float below = z0 > 0 ? in[i - plane] : 0.0f;
    float cur = in[i];
    for (int z = z0; z < z1; ++z, i += plane) {
        const float above = z + 1 < nz ? in[i + plane] : 0.0f;
        if (edge || z == 0 || z == nz - 1)
            out[i] = cur;
        else
            out[i] = C0 * cur + C1 * ((in[i - 1] + in[i + 1]) + (in[i - nx] + in[i + nx]) + (below + above));
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
