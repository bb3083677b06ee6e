// Sum reduction of a float32 vector into a single float.
#include <cuda_runtime.h>

#define REDUCE_THREADS 256

// Every thread adds its element straight into the global result.
// *out must be zeroed before the launch (the wrapper does it).
// kforecast: n = 1 << 24; in: f32[n]; out: f32[1] zeros; rtol = 1e-3; atol = 0.5
__global__ void __launch_bounds__(REDUCE_THREADS)
reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(out, in[i]);
    }
}

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// out: device pointer to one float; receives sum(in[0..n)).
extern "C" void launch_reduce_sum(const float* in, float* out, int n, cudaStream_t stream)
{
    cudaMemsetAsync(out, 0, sizeof(float), stream);
    if (n <= 0) return;
    dim3 block(REDUCE_THREADS);
    dim3 grid(ceil_div(n, REDUCE_THREADS));
    reduce_sum<<<grid, block, 0, stream>>>(in, out, n);
}
