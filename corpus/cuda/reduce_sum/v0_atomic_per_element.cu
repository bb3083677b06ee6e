// Sum of a float vector into out[0]: every thread adds its element with one atomic.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 22; in: f32[n] rand; out: f32[1] zeros; rtol = 1e-3; atol = 1.0
__global__ void reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(out, in[i]);
}

extern "C" void launch_reduce_sum(const float* in, float* out, int n, cudaStream_t stream)
{
    int blocks = (n + THREADS - 1) / THREADS;
    reduce_sum<<<blocks, THREADS, 0, stream>>>(in, out, n);
}
