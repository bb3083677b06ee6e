// One Jacobi sweep of the 5-point Laplace stencil on an ny x nx grid (row-major):
// interior points get the average of themselves and their 4 neighbours, boundary
// points are copied. Naive, with 32 x 8 blocks: a warp covers a full 128-byte row segment.
#include <cuda_runtime.h>

#define BX 32
#define BY 8

// kforecast: nx = 4096; ny = 4096; in: f32[ny, nx] randn; out: f32[ny, nx]; rtol = 1e-5; atol = 1e-5
__global__ void jacobi2d(const float* __restrict__ in, float* __restrict__ out, int nx, int ny)
{
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    if (x >= nx || y >= ny) return;
    const size_t i = (size_t)y * nx + x;
    if (x == 0 || y == 0 || x == nx - 1 || y == ny - 1) {
        out[i] = in[i];
        return;
    }
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}

extern "C" void launch_jacobi2d(const float* in, float* out, int nx, int ny, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY);
    jacobi2d<<<grid, block, 0, stream>>>(in, out, nx, ny);
}
