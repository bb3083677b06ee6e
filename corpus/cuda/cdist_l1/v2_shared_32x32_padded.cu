// out[i][j] = sum_d |X[i][d] - Y[j][d]|, tiled like a GEMM: a 32x32 block walks D in chunks
// of 32, staging a 32x32 tile of X and of Y in shared memory (rows padded to 33 floats).
#include <cuda_runtime.h>

#define D  64
#define T  32

// kforecast: M = 4096; N = 4096; X: f32[M, 64] randn; Y: f32[N, 64] randn; out: f32[M, N]; rtol = 1e-4; atol = 1e-3
__global__ void __launch_bounds__(T * T)
cdist_l1(const float* __restrict__ X, const float* __restrict__ Y, float* __restrict__ out, int M, int N)
{
    __shared__ float sX[T][T + 1];
    __shared__ float sY[T][T + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i0 = blockIdx.y * T, j0 = blockIdx.x * T;
    float acc = 0.0f;
    for (int k0 = 0; k0 < D; k0 += T) {
        sX[ty][tx] = (i0 + ty < M) ? X[(size_t)(i0 + ty) * D + k0 + tx] : 0.0f;
        sY[ty][tx] = (j0 + ty < N) ? Y[(size_t)(j0 + ty) * D + k0 + tx] : 0.0f;
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < T; ++k)
            acc += fabsf(sX[ty][k] - sY[tx][k]);
        __syncthreads();
    }
    const int i = i0 + ty, j = j0 + tx;
    if (i < M && j < N) out[(size_t)i * N + j] = acc;
}

extern "C" void launch_cdist_l1(const float* X, const float* Y, float* out, int M, int N, cudaStream_t stream)
{
    dim3 block(T, T);
    dim3 grid((N + T - 1) / T, (M + T - 1) / T);
    cdist_l1<<<grid, block, 0, stream>>>(X, Y, out, M, N);
}
