// c = a * b for n interleaved complex numbers: each thread owns a contiguous chunk of 16 complex
// numbers and walks it with float2 accesses, so the lanes of a warp are 128 bytes apart
// (uncoalesced: every warp access touches 32 cache lines).
#include <cuda_runtime.h>

#define THREADS 256
#define CHUNK   16

// kforecast: n = 1 << 24; a: f32[n, 2] randn; b: f32[n, 2] randn; c: f32[n, 2]; rtol = 1e-5; atol = 1e-5
__global__ void complex_mul(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const float2* a2 = reinterpret_cast<const float2*>(a);
    const float2* b2 = reinterpret_cast<const float2*>(b);
    float2* c2 = reinterpret_cast<float2*>(c);
    const int begin = t * CHUNK;
    const int end = min(begin + CHUNK, n);
    for (int i = begin; i < end; ++i) {
        const float2 x = a2[i], y = b2[i];
        c2[i] = make_float2(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);
    }
}

extern "C" void launch_complex_mul(const float* a, const float* b, float* c, int n, cudaStream_t stream)
{
    const int threads_needed = (n + CHUNK - 1) / CHUNK;
    const int blocks = (threads_needed + THREADS - 1) / THREADS;
    complex_mul<<<blocks, THREADS, 0, stream>>>(a, b, c, n);
}
