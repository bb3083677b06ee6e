// Sum into out[0]: each thread first adds two elements (blockDim apart), then a
// shared-memory tree with sequential addressing (no divergence within active
// warps, no bank conflicts), one atomic per block.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 22; in: f32[n] rand; out: f32[1] zeros; rtol = 1e-3; atol = 1.0
__global__ void reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float sdata[THREADS];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    if (i + blockDim.x < n) v += in[i + blockDim.x];
    sdata[tid] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, sdata[0]);
}

extern "C" void launch_reduce_sum(const float* in, float* out, int n, cudaStream_t stream)
{
    int blocks = (n + THREADS * 2 - 1) / (THREADS * 2);
    reduce_sum<<<blocks, THREADS, 0, stream>>>(in, out, n);
}
