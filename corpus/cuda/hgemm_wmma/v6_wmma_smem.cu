// C = A @ B (half in, float out) on tensor cores: a 64x64 block tile staged through padded
// shared memory in 32-deep K slices with 16-byte loads (M, N multiples of 64, K of 32), 4 warps
// (2x2) each computing a 32x32 C tile as 2x2 WMMA 16x16x16 fragments.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

#define BM 64
#define BN 64
#define BK 32
#define PAD 8
#define THREADS 128
#define FRAG 16

// kforecast: M = 2048; N = 2048; K = 2048; A: f16[M, K] randn; B: f16[K, N] randn; C: f32[M, N] zeros; rtol = 1e-2; atol = 1e-1
__global__ void hgemm(int M, int N, int K, const __half* __restrict__ A, const __half* __restrict__ B,
                      float* __restrict__ C)
{
    using namespace nvcuda;
    __shared__ __align__(32) __half As[BM][BK + PAD];
    __shared__ __align__(32) __half Bs[BK][BN + PAD];
    const int t = threadIdx.x;
    const int warp = t / 32;
    const int wm = warp / 2, wn = warp % 2;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;

    wmma::fragment<wmma::matrix_a, FRAG, FRAG, FRAG, __half, wmma::row_major> af[2];
    wmma::fragment<wmma::matrix_b, FRAG, FRAG, FRAG, __half, wmma::row_major> bf[2];
    wmma::fragment<wmma::accumulator, FRAG, FRAG, FRAG, float> acc[2][2];
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

    for (int k0 = 0; k0 < K; k0 += BK) {
        // 64 x 32 halves of A and 32 x 64 halves of B: 256 uint4 each, 2 per thread.
#pragma unroll
        for (int l = t; l < BM * BK / 8; l += THREADS) {
            const int r = l / (BK / 8), c = (l % (BK / 8)) * 8;
            *reinterpret_cast<uint4*>(&As[r][c]) =
                *reinterpret_cast<const uint4*>(A + (size_t)(m0 + r) * K + k0 + c);
        }
#pragma unroll
        for (int l = t; l < BK * BN / 8; l += THREADS) {
            const int r = l / (BN / 8), c = (l % (BN / 8)) * 8;
            *reinterpret_cast<uint4*>(&Bs[r][c]) =
                *reinterpret_cast<const uint4*>(B + (size_t)(k0 + r) * N + n0 + c);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < BK; kk += FRAG) {
#pragma unroll
            for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(af[i], &As[wm * 32 + i * FRAG][kk], BK + PAD);
#pragma unroll
            for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(bf[j], &Bs[kk][wn * 32 + j * FRAG], BN + PAD);
#pragma unroll
            for (int i = 0; i < 2; ++i)
#pragma unroll
                for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], af[i], bf[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 2; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
            wmma::store_matrix_sync(C + (size_t)(m0 + wm * 32 + i * FRAG) * N + n0 + wn * 32 + j * FRAG, acc[i][j], N,
                                    wmma::mem_row_major);
}

extern "C" void launch_hgemm(int M, int N, int K, const __half* A, const __half* B, float* C, cudaStream_t stream)
{
    dim3 grid(N / BN, M / BM);
    hgemm<<<grid, THREADS, 0, stream>>>(M, N, K, A, B, C);
}
