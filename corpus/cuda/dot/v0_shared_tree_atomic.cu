// Dot product out[0] = sum(x * y). One element per thread, a shared-memory tree
// per block and one atomicAdd per block. partial and counter are scratch space
// (used by the single-pass versions of this kernel).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 24; x: f32[n] randn; y: f32[n] randn; partial: f32[4096] zeros; counter: u32[1] zeros; out: f32[1] zeros; outputs = out; rtol = 1e-3; atol = 1.0
__global__ void dot(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ partial,
                    unsigned int* __restrict__ counter, float* __restrict__ out, int n)
{
    __shared__ float cache[THREADS];
    const int tid = threadIdx.x;
    const int i = blockIdx.x * THREADS + tid;
    cache[tid] = i < n ? x[i] * y[i] : 0.0f;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) cache[tid] += cache[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, cache[0]);
}

extern "C" void launch_dot(const float* x, const float* y, float* partial, unsigned int* counter, float* out,
                           int n, cudaStream_t stream)
{
    const int blocks = (n + THREADS - 1) / THREADS;
    dot<<<blocks, THREADS, 0, stream>>>(x, y, partial, counter, out, n);
}
