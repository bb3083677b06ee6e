// max |x| into out[0]: one element per thread, warp-shuffle max, then lane 0 of every warp
// issues its own atomicMax (n/32 atomics on one address). partial and counter are unused scratch.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS   256
#define FULL_MASK 0xffffffffu

// kforecast: n = 1 << 25; x: f32[n] randn; out: f32[1] zeros; partial: f32[1024] zeros; counter: u32[1] zeros; outputs = out; rtol = 0; atol = 0
__global__ void amax_abs(const float* __restrict__ x, float* __restrict__ out, float* __restrict__ partial,
                         unsigned int* __restrict__ counter, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float m = (i < n) ? fabsf(x[i]) : 0.0f;
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1)
        m = fmaxf(m, __shfl_down_sync(FULL_MASK, m, offset));
    if ((threadIdx.x & 31) == 0) atomicMax(reinterpret_cast<int*>(out), __float_as_int(m));
}

extern "C" void launch_amax_abs(const float* x, float* out, float* partial, unsigned int* counter, int n,
                                  cudaStream_t stream)
{
    const int blocks = (n + THREADS - 1) / THREADS;
    amax_abs<<<blocks, THREADS, 0, stream>>>(x, out, partial, counter, n);
}
