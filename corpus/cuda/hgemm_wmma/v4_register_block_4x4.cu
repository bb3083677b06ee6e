// C = A @ B (half in, float out), register blocking: a 64x64 block tile on 16x16 threads, each
// thread computes 4x4 outputs (rows ty + 16r, columns tx + 16c) from 16-deep shared tiles.
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#define BM 64
#define BN 64
#define BK 16
#define TD 16
#define RM (BM / TD)
#define RN (BN / TD)

// kforecast: M = 2048; N = 2048; K = 2048; A: f16[M, K] randn; B: f16[K, N] randn; C: f32[M, N] zeros; rtol = 1e-2; atol = 1e-1
__global__ void hgemm(int M, int N, int K, const __half* __restrict__ A, const __half* __restrict__ B,
                      float* __restrict__ C)
{
    __shared__ float As[BM][BK + 1];
    __shared__ float Bs[BK][BN];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int t = ty * TD + tx;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    float acc[RM][RN];
#pragma unroll
    for (int r = 0; r < RM; ++r)
#pragma unroll
        for (int c = 0; c < RN; ++c) acc[r][c] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int l = t; l < BM * BK; l += TD * TD) {
            const int r = l / BK, c = l % BK;
            As[r][c] = (m0 + r < M && k0 + c < K) ? __half2float(A[(size_t)(m0 + r) * K + k0 + c]) : 0.0f;
        }
        for (int l = t; l < BK * BN; l += TD * TD) {
            const int r = l / BN, c = l % BN;
            Bs[r][c] = (k0 + r < K && n0 + c < N) ? __half2float(B[(size_t)(k0 + r) * N + n0 + c]) : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[RM], b[RN];
#pragma unroll
            for (int r = 0; r < RM; ++r) a[r] = As[ty + TD * r][k];
#pragma unroll
            for (int c = 0; c < RN; ++c) b[c] = Bs[k][tx + TD * c];
#pragma unroll
            for (int r = 0; r < RM; ++r)
#pragma unroll
                for (int c = 0; c < RN; ++c) acc[r][c] += a[r] * b[c];
        }
        __syncthreads();
    }
#pragma unroll
    for (int r = 0; r < RM; ++r)
#pragma unroll
        for (int c = 0; c < RN; ++c) {
            const int row = m0 + ty + TD * r, col = n0 + tx + TD * c;
            if (row < M && col < N) C[(size_t)row * N + col] = acc[r][c];
        }
}

extern "C" void launch_hgemm(int M, int N, int K, const __half* A, const __half* B, float* C, cudaStream_t stream)
{
    dim3 block(TD, TD);
    dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
    hgemm<<<grid, block, 0, stream>>>(M, N, K, A, B, C);
}
