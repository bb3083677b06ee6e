// Dot product in one launch, two passes: a fixed grid accumulates grid-stride
// partial sums (shared-memory tree) into partial[blockIdx.x]; the last block to
// finish (atomicInc on counter after a __threadfence) adds the partials and
// writes out[0]. No atomics on floats, deterministic result.
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS  1024   // <= the size of partial

// kforecast: n = 1 << 24; x: f32[n] randn; y: f32[n] randn; partial: f32[4096] zeros; counter: u32[1] zeros; out: f32[1] zeros; outputs = out; rtol = 1e-3; atol = 1.0
__global__ void dot(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ partial,
                    unsigned int* __restrict__ counter, float* __restrict__ out, int n)
{
    __shared__ float cache[THREADS];
    __shared__ bool is_last;
    const int tid = threadIdx.x;
    float acc = 0.0f;
    for (int i = blockIdx.x * THREADS + tid; i < n; i += gridDim.x * THREADS)
        acc += x[i] * y[i];
    cache[tid] = acc;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) cache[tid] += cache[tid + s];
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = cache[0];
        __threadfence();
        const unsigned ticket = atomicInc(counter, gridDim.x);
        is_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (!is_last) return;
    // Second pass, by the last block only.
    acc = 0.0f;
    for (int b = tid; b < gridDim.x; b += THREADS)
        acc += ((volatile float*)partial)[b];
    cache[tid] = acc;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) cache[tid] += cache[tid + s];
        __syncthreads();
    }
    if (tid == 0) {
        out[0] = cache[0];
        *counter = 0;  // ready for the next launch
    }
}

extern "C" void launch_dot(const float* x, const float* y, float* partial, unsigned int* counter, float* out,
                           int n, cudaStream_t stream)
{
    dot<<<BLOCKS, THREADS, 0, stream>>>(x, y, partial, counter, out, n);
}
