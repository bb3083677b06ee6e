// Batched 32x32 GEMM: one 16x16 block per matrix, A (padded) and B in shared
// memory, each thread computes a 2x2 group of outputs (rows ty, ty+16; columns
// tx, tx+16): per k two A and two B loads feed 4 FMAs.
#include <cuda_runtime.h>

#define D 32
#define H 16

// kforecast: batch = 8192; A: f32[batch, 32, 32] randn; B: f32[batch, 32, 32] randn; C: f32[batch, 32, 32]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(H * H)
batched_gemm(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int batch)
{
    __shared__ float As[D][D + 1];
    __shared__ float Bs[D][D];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * H + tx;
    const size_t base = (size_t)blockIdx.x * D * D;
#pragma unroll
    for (int e = tid; e < D * D; e += H * H) {
        As[e / D][e % D] = A[base + e];
        Bs[e / D][e % D] = B[base + e];
    }
    __syncthreads();
    float c00 = 0.0f, c01 = 0.0f, c10 = 0.0f, c11 = 0.0f;
#pragma unroll
    for (int k = 0; k < D; ++k) {
        const float a0 = As[ty][k], a1 = As[ty + H][k];
        const float b0 = Bs[k][tx], b1 = Bs[k][tx + H];
        c00 += a0 * b0;
        c01 += a0 * b1;
        c10 += a1 * b0;
        c11 += a1 * b1;
    }
    C[base + ty * D + tx] = c00;
    C[base + ty * D + tx + H] = c01;
    C[base + (ty + H) * D + tx] = c10;
    C[base + (ty + H) * D + tx + H] = c11;
}

extern "C" void launch_batched_gemm(const float* A, const float* B, float* C, int batch, cudaStream_t stream)
{
    dim3 block(H, H);
    batched_gemm<<<batch, block, 0, stream>>>(A, B, C, batch);
}
