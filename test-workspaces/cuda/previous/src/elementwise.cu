// Elementwise kernels: saxpy, scale, relu.
// All pointers are device pointers from cudaMalloc.
#include <cuda_runtime.h>

#define ELEMWISE_THREADS 256

// y[i] = a * x[i] + y[i], one element per thread.
// kforecast: n = 1 << 24; a = 2.0
__global__ void __launch_bounds__(ELEMWISE_THREADS)
saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}

// out[i] = alpha * in[i]
// kforecast: n = 1 << 24; alpha = 0.5
__global__ void __launch_bounds__(ELEMWISE_THREADS)
scale(int n, float alpha, const float* __restrict__ in, float* __restrict__ out)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n)
        out[idx] = alpha * in[idx];
}

__device__ __forceinline__ float relu_op(float v)
{
    return v > 0.0f ? v : 0.0f;
}

// kforecast: n = 1 << 24
__global__ void __launch_bounds__(ELEMWISE_THREADS)
relu(int n, const float* __restrict__ in, float* __restrict__ out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = relu_op(in[i]);
}

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

extern "C" void launch_saxpy(int n, float a, const float* x, float* y, cudaStream_t stream)
{
    if (n <= 0) return;
    dim3 block(ELEMWISE_THREADS);
    dim3 grid(ceil_div(n, ELEMWISE_THREADS));
    saxpy<<<grid, block, 0, stream>>>(n, a, x, y);
}

extern "C" void launch_scale(int n, float alpha, const float* in, float* out, cudaStream_t stream)
{
    if (n <= 0) return;
    dim3 block(ELEMWISE_THREADS);
    dim3 grid(ceil_div(n, ELEMWISE_THREADS));
    scale<<<grid, block, 0, stream>>>(n, alpha, in, out);
}

extern "C" void launch_relu(int n, const float* in, float* out, cudaStream_t stream)
{
    if (n <= 0) return;
    dim3 block(ELEMWISE_THREADS);
    dim3 grid(ceil_div(n, ELEMWISE_THREADS));
    relu<<<grid, block, 0, stream>>>(n, in, out);
}
