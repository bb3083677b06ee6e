// Orthonormal 8x8 DCT-II of every 8x8 block, separable: a 32x8 block loads an 8x32 strip (four DCT
// blocks, coalesced) into shared memory, does the row DCT (8 multiply-adds per output) into a second
// shared buffer, then the column DCT (8 more) and a coalesced store; cosine table in shared memory.
#include <cuda_runtime.h>
#include <math.h>

#define BX 32
#define BY 8
#define PI_F 3.14159265358979f

// kforecast: H = 4096; W = 4096; in: f32[H, W] randn; out: f32[H, W]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(BX * BY)
dct8x8(const float* __restrict__ in, float* __restrict__ out, int H, int W)
{
    __shared__ float ctab[8][8];  // ctab[x][k] = c(k) cos((2x+1) k pi / 16), k fastest
    __shared__ float src[BY][BX];
    __shared__ float tmp[BY][BX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * BX + tx;
    if (tid < 64) {
        const int x = tid >> 3, k = tid & 7;
        ctab[x][k] = (k == 0 ? 0.35355339f : 0.5f) * cosf((2 * x + 1) * k * PI_F / 16.0f);
    }
    const int gx = blockIdx.x * BX + tx;
    const int gy = blockIdx.y * BY + ty;
    const bool ok = gx < W && gy < H;
    src[ty][tx] = ok ? in[(size_t)gy * W + gx] : 0.0f;
    __syncthreads();
    // Row pass: coefficient v of row ty of the DCT block starting at column b.
    const int v = tx & 7, b = tx - v;
    float s = 0.0f;
#pragma unroll
    for (int x = 0; x < 8; ++x) s += ctab[x][v] * src[ty][b + x];
    tmp[ty][tx] = s;
    __syncthreads();
    // Column pass: coefficient u = ty of column tx.
    float acc = 0.0f;
#pragma unroll
    for (int y = 0; y < 8; ++y) acc += ctab[y][ty] * tmp[y][tx];
    if (ok) out[(size_t)gy * W + gx] = acc;
}

extern "C" void launch_dct8x8(const float* in, float* out, int H, int W, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY);
    dct8x8<<<grid, block, 0, stream>>>(in, out, H, W);
}
