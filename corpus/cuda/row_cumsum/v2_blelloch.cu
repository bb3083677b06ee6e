// Inclusive prefix sum of every row (cols <= 1024): one block of 512 threads per
// row, work-efficient Blelloch scan (up-sweep, down-sweep) of 1024 elements in
// shared memory, two elements per thread; exclusive result + input = inclusive.
#include <cuda_runtime.h>

#define THREADS 512
#define N       (2 * THREADS)

// kforecast: rows = 16384; cols = 1024; in: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
row_cumsum(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float s[N];
    const int t = threadIdx.x;
    const float* x = in + (size_t)blockIdx.x * cols;
    float* y = out + (size_t)blockIdx.x * cols;
    const float a = t < cols ? x[t] : 0.0f;
    const float b = t + THREADS < cols ? x[t + THREADS] : 0.0f;
    s[t] = a;
    s[t + THREADS] = b;
    int offset = 1;
    for (int d = N >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            const int ai = offset * (2 * t + 1) - 1;
            const int bi = offset * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        offset <<= 1;
    }
    if (t == 0) s[N - 1] = 0.0f;
    for (int d = 1; d < N; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            const int ai = offset * (2 * t + 1) - 1;
            const int bi = offset * (2 * t + 2) - 1;
            const float tmp = s[ai];
            s[ai] = s[bi];
            s[bi] += tmp;
        }
    }
    __syncthreads();
    if (t < cols) y[t] = s[t] + a;
    if (t + THREADS < cols) y[t + THREADS] = s[t + THREADS] + b;
}

extern "C" void launch_row_cumsum(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    row_cumsum<<<rows, THREADS, 0, stream>>>(in, out, rows, cols);
}
