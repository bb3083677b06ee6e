// Sum into out[0]: classic shared-memory tree with interleaved addressing
// (tid % (2*s) == 0: divergent warps and bank conflicts), one atomic per block.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 22; in: f32[n] rand; out: f32[1] zeros; rtol = 1e-3; atol = 1.0
__global__ void reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float sdata[THREADS];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, sdata[0]);
}

extern "C" void launch_reduce_sum(const float* in, float* out, int n, cudaStream_t stream)
{
    int blocks = (n + THREADS - 1) / THREADS;
    reduce_sum<<<blocks, THREADS, 0, stream>>>(in, out, n);
}
