// max |x| into out[0]: one element per thread, shared-memory tree with interleaved addressing
// (tid % (2*s) == 0: divergent warps, bank conflicts), one atomicMax on the float's bits per block.
// |x| >= 0, so comparing the bits as ints orders the floats; partial and counter are unused scratch.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: n = 1 << 25; x: f32[n] randn; out: f32[1] zeros; partial: f32[1024] zeros; counter: u32[1] zeros; outputs = out; rtol = 0; atol = 0
__global__ void amax_abs(const float* __restrict__ x, float* __restrict__ out, float* __restrict__ partial,
                         unsigned int* __restrict__ counter, int n)
{
    __shared__ float sdata[THREADS];
    const unsigned tid = threadIdx.x;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    sdata[tid] = (i < (unsigned)n) ? fabsf(x[i]) : 0.0f;
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] = fmaxf(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0) atomicMax(reinterpret_cast<int*>(out), __float_as_int(sdata[0]));
}

extern "C" void launch_amax_abs(const float* x, float* out, float* partial, unsigned int* counter, int n,
                                  cudaStream_t stream)
{
    const int blocks = (n + THREADS - 1) / THREADS;
    amax_abs<<<blocks, THREADS, 0, stream>>>(x, out, partial, counter, n);
}
