// Sum of x^2 into out[0]: grid-stride partial sums, warp-shuffle reduction, per-warp partials in shared memory, one atomicAdd per block.
#include <cuda_runtime.h>

#define THREADS   256
#define NUM_SMS   132
#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, offset);
    return v;
}

// kforecast: rows = 3584; cols = 4096; x: f32[rows, cols] randint(-1,2); out: f32[1] zeros; rtol = 1e-3; atol = 1.0
__global__ void __launch_bounds__(THREADS)
frobenius_norm(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float warp_sums[THREADS / WARP_SIZE];
    const int n = rows * cols;
    float acc = 0.0f;
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
        const float v = x[i];
        acc = fmaf(v, v, acc);
    }
    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    acc = warp_sum(acc);
    if (lane == 0) warp_sums[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < THREADS / WARP_SIZE ? warp_sums[lane] : 0.0f;
        acc = warp_sum(acc);
        if (lane == 0) atomicAdd(out, acc);
    }
}

extern "C" void launch_frobenius_norm(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int n = rows * cols;
    const int blocks = min((n + THREADS - 1) / THREADS, NUM_SMS * 8);
    frobenius_norm<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
