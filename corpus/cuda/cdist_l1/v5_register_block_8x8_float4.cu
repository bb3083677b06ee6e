// out[i][j] = sum_d |X[i][d] - Y[j][d]|: a 16x16 block computes a 128x128 tile, each thread
// 8x8 outputs; D chunks of 8 are loaded from global memory as float4 and stored transposed in
// shared memory (sXt[k][row]), so a thread reads its 8 rows and 8 columns as 2 float4 each,
// and stores its outputs as float4.
#include <cuda_runtime.h>

#define D    64
#define BS   16
#define TM   8
#define TILE (BS * TM)
#define KT   8
#define PAD  4

// kforecast: M = 4096; N = 4096; X: f32[M, 64] randn; Y: f32[N, 64] randn; out: f32[M, N]; rtol = 1e-4; atol = 1e-3
__global__ void __launch_bounds__(BS * BS)
cdist_l1(const float* __restrict__ X, const float* __restrict__ Y, float* __restrict__ out, int M, int N)
{
    alignas(16) __shared__ float sXt[KT][TILE + PAD];
    alignas(16) __shared__ float sYt[KT][TILE + PAD];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * BS + tx;
    const int i0 = blockIdx.y * TILE, j0 = blockIdx.x * TILE;
    const int lr = tid >> 1;          // tile row this thread loads (0..127)
    const int lk = (tid & 1) * 4;     // first of its 4 k values
    float acc[TM][TM];
#pragma unroll
    for (int r = 0; r < TM; ++r)
#pragma unroll
        for (int c = 0; c < TM; ++c) acc[r][c] = 0.0f;
    for (int k0 = 0; k0 < D; k0 += KT) {
        const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        const float4 xv = (i0 + lr < M) ? *reinterpret_cast<const float4*>(X + (size_t)(i0 + lr) * D + k0 + lk) : zero;
        const float4 yv = (j0 + lr < N) ? *reinterpret_cast<const float4*>(Y + (size_t)(j0 + lr) * D + k0 + lk) : zero;
        sXt[lk + 0][lr] = xv.x;
        sXt[lk + 1][lr] = xv.y;
        sXt[lk + 2][lr] = xv.z;
        sXt[lk + 3][lr] = xv.w;
        sYt[lk + 0][lr] = yv.x;
        sYt[lk + 1][lr] = yv.y;
        sYt[lk + 2][lr] = yv.z;
        sYt[lk + 3][lr] = yv.w;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < KT; ++k) {
            const float4 a0 = *reinterpret_cast<const float4*>(&sXt[k][ty * 4]);
            const float4 a1 = *reinterpret_cast<const float4*>(&sXt[k][TILE / 2 + ty * 4]);
            const float4 b0 = *reinterpret_cast<const float4*>(&sYt[k][tx * 4]);
            const float4 b1 = *reinterpret_cast<const float4*>(&sYt[k][TILE / 2 + tx * 4]);
            const float a[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float b[TM] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int r = 0; r < TM; ++r)
#pragma unroll
                for (int c = 0; c < TM; ++c) acc[r][c] += fabsf(a[r] - b[c]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < TM; ++r) {
        const int i = i0 + (r < 4 ? ty * 4 + r : TILE / 2 + ty * 4 + (r - 4));
        if (i >= M) continue;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int jb = j0 + h * (TILE / 2) + tx * 4;
            float* dst = out + (size_t)i * N + jb;
            if ((N & 3) == 0 && jb + 4 <= N) {
                *reinterpret_cast<float4*>(dst) =
                    make_float4(acc[r][h * 4 + 0], acc[r][h * 4 + 1], acc[r][h * 4 + 2], acc[r][h * 4 + 3]);
            } else {
#pragma unroll
                for (int c = 0; c < 4; ++c)
                    if (jb + c < N) dst[c] = acc[r][h * 4 + c];
            }
        }
    }
}

extern "C" void launch_cdist_l1(const float* X, const float* Y, float* out, int M, int N, cudaStream_t stream)
{
    dim3 block(BS, BS);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    cdist_l1<<<grid, block, 0, stream>>>(X, Y, out, M, N);
}
