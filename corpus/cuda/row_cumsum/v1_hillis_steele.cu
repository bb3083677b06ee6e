// Inclusive prefix sum of every row (cols <= 1024): one block of 1024 threads per
// row, Hillis-Steele scan in shared memory with double buffering
// (log2(1024) = 10 steps, O(n log n) additions).
#include <cuda_runtime.h>

#define THREADS 1024

// kforecast: rows = 16384; cols = 1024; in: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
row_cumsum(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float buf[2][THREADS];
    const int t = threadIdx.x;
    const float* x = in + (size_t)blockIdx.x * cols;
    float* y = out + (size_t)blockIdx.x * cols;
    int cur = 0;
    buf[cur][t] = t < cols ? x[t] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < THREADS; offset <<= 1) {
        const int nxt = cur ^ 1;
        buf[nxt][t] = t >= offset ? buf[cur][t] + buf[cur][t - offset] : buf[cur][t];
        __syncthreads();
        cur = nxt;
    }
    if (t < cols) y[t] = buf[cur][t];
}

extern "C" void launch_row_cumsum(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    row_cumsum<<<rows, THREADS, 0, stream>>>(in, out, rows, cols);
}
