// 3-D 7-point stencil, naive with 32 x 4 x 2 blocks as the 32 x 4 x 2 version,
// written with a centre pointer and precomputed strides, boundary test reordered.
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
    const int gx = blockIdx.x * blockDim.x + threadIdx.x;
    const int gy = blockIdx.y * blockDim.y + threadIdx.y;
    const int gz = blockIdx.z * blockDim.z + threadIdx.z;
    if (gz >= nz || gy >= ny || gx >= nx) return;
    const long long sy = nx;
    const long long sz = sy * ny;
    const long long idx = gz * sz + gy * sy + gx;
    const float* p = in + idx;
    const bool interior = gx > 0 && gx < nx - 1 && gy > 0 && gy < ny - 1 && gz > 0 && gz < nz - 1;
    if (!interior) {
        out[idx] = p[0];
        return;
    }
    out[idx] = C0 * p[0] + C1 * ((p[-1] + p[1]) + (p[-sy] + p[sy]) + (p[-sz] + p[sz]));
}

extern "C" void launch_stencil3d(const float* in, float* out, int nx, int ny, int nz, cudaStream_t stream)
{
    dim3 block(BX, BY, BZ);
    dim3 grid((nx + BX - 1) / BX, (ny + BY - 1) / BY, (nz + BZ - 1) / BZ);
    stencil3d<<<grid, block, 0, stream>>>(in, out, nx, ny, nz);
}
