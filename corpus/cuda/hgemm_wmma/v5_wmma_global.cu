// C = A @ B (half in, float out) on tensor cores with WMMA 16x16x16 fragments (M, N, K multiples
// of 16): 4 warps per block (2x2), each warp owns one 16x16 C tile and loads its A and B
// fragments straight from global memory.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

#define WM 16
#define WN 16
#define WK 16
#define WARPS_X 2
#define WARPS_Y 2

// kforecast: M = 2048; N = 2048; K = 2048; A: f16[M, K] randn; B: f16[K, N] randn; C: f32[M, N] zeros; rtol = 1e-2; atol = 1e-1
__global__ void hgemm(int M, int N, int K, const __half* __restrict__ A, const __half* __restrict__ B,
                      float* __restrict__ C)
{
    using namespace nvcuda;
    const int warp = threadIdx.x / 32;
    const int row0 = (blockIdx.y * WARPS_Y + warp / WARPS_X) * WM;
    const int col0 = (blockIdx.x * WARPS_X + warp % WARPS_X) * WN;
    if (row0 >= M || col0 >= N) return;
    wmma::fragment<wmma::matrix_a, WM, WN, WK, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, WM, WN, WK, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, WM, WN, WK, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += WK) {
        wmma::load_matrix_sync(a, A + (size_t)row0 * K + k0, K);
        wmma::load_matrix_sync(b, B + (size_t)k0 * N + col0, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    wmma::store_matrix_sync(C + (size_t)row0 * N + col0, acc, N, wmma::mem_row_major);
}

extern "C" void launch_hgemm(int M, int N, int K, const __half* A, const __half* B, float* C, cudaStream_t stream)
{
    dim3 grid(N / (WN * WARPS_X), M / (WM * WARPS_Y));
    hgemm<<<grid, 32 * WARPS_X * WARPS_Y, 0, stream>>>(M, N, K, A, B, C);
}
