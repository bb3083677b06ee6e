// Sum of x^2 into out[0]: one element per thread, shared-memory tree reduction (sequential addressing), one atomicAdd per block.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 3584; cols = 4096; x: f32[rows, cols] randint(-1,2); out: f32[1] zeros; rtol = 1e-3; atol = 1.0
__global__ void frobenius_norm(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float sdata[THREADS];
    const int n = rows * cols;
    const int tid = threadIdx.x;
    const int i = blockIdx.x * THREADS + tid;
    float v = 0.0f;
    if (i < n) {
        v = x[i];
        v = v * v;
    }
    sdata[tid] = v;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, sdata[0]);
}

extern "C" void launch_frobenius_norm(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int n = rows * cols;
    frobenius_norm<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, rows, cols);
}
