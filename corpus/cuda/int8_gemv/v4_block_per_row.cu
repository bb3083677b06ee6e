// y = (W_int8 @ x) * scale, one block of 256 threads per row: char4 loads, then a
// shared-memory tree reduction with a __syncthreads per level.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: M = 16384; K = 4096; W: i8[M, K] randint(-127,128); x: f32[K] randn; scale: f32[M] rand; y: f32[M]; rtol = 1e-3; atol = 0.1
__global__ void __launch_bounds__(THREADS)
int8_gemv(const signed char* __restrict__ W, const float* __restrict__ x, const float* __restrict__ scale,
          float* __restrict__ y, int M, int K)
{
    __shared__ float partial[THREADS];
    const int r = blockIdx.x;
    const int tid = threadIdx.x;
    const char4* w4 = reinterpret_cast<const char4*>(W + (size_t)r * K);
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const int n4 = K >> 2;
    float acc = 0.0f;
    for (int c = tid; c < n4; c += THREADS) {
        const char4 a = w4[c];
        const float4 b = __ldg(&x4[c]);
        acc = fmaf((float)a.x, b.x, acc);
        acc = fmaf((float)a.y, b.y, acc);
        acc = fmaf((float)a.z, b.z, acc);
        acc = fmaf((float)a.w, b.w, acc);
    }
    partial[tid] = acc;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0) y[r] = partial[0] * scale[r];
}

extern "C" void launch_int8_gemv(const signed char* W, const float* x, const float* scale, float* y, int M, int K,
                                 cudaStream_t stream)
{
    int8_gemv<<<M, THREADS, 0, stream>>>(W, x, scale, y, M, K);
}
