// y = (W_int8 @ x) * scale, one thread per row: a warp reads 32 different rows byte by byte (uncoalesced).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: M = 16384; K = 4096; W: i8[M, K] randint(-127,128); x: f32[K] randn; scale: f32[M] rand; y: f32[M]; rtol = 1e-3; atol = 0.1
__global__ void int8_gemv(const signed char* __restrict__ W, const float* __restrict__ x, const float* __restrict__ scale,
          float* __restrict__ y, int M, int K)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= M) return;
    const signed char* w = W + (size_t)r * K;
    float acc = 0.0f;
    for (int c = 0; c < K; ++c) acc = fmaf((float)w[c], x[c], acc);
    y[r] = acc * scale[r];
}

extern "C" void launch_int8_gemv(const signed char* W, const float* x, const float* scale, float* y, int M, int K,
                                 cudaStream_t stream)
{
    int8_gemv<<<(M + THREADS - 1) / THREADS, THREADS, 0, stream>>>(W, x, scale, y, M, K);
}
