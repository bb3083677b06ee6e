// Sum of x^2 into out[0]: grid-stride loop with a per-thread partial sum, then one atomicAdd per thread.
#include <cuda_runtime.h>

#define THREADS 256
#define NUM_SMS 132

// kforecast: rows = 3584; cols = 4096; x: f32[rows, cols] randint(-1,2); out: f32[1] zeros; rtol = 1e-3; atol = 1.0
__global__ void frobenius_norm(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int n = rows * cols;
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const float v = x[i];
        acc += v * v;
    }
    atomicAdd(out, acc);
}

extern "C" void launch_frobenius_norm(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int n = rows * cols;
    const int blocks = min((n + THREADS - 1) / THREADS, NUM_SMS * 8);
    frobenius_norm<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
