// Squared Frobenius norm (sum of x^2) of a rows x cols matrix into out[0]: one thread per element, one atomicAdd each.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 3584; cols = 4096; x: f32[rows, cols] randint(-1,2); out: f32[1] zeros; rtol = 1e-3; atol = 1.0
__global__ void frobenius_norm(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int n = rows * cols;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = x[i];
        atomicAdd(out, v * v);
    }
}

extern "C" void launch_frobenius_norm(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int n = rows * cols;
    frobenius_norm<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, rows, cols);
}
