// SwiGLU out = silu(a) * b where a and b are the two halves of each row of x [rows, 2d]. Naive: one
// thread per output on a flat grid, row and column by division and modulo, expf and a true division.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: rows = 8192; d = 4096; x: f32[rows, 2 * d] randn; out: f32[rows, d]; rtol = 1e-4; atol = 1e-5
__global__ void swiglu(const float* __restrict__ x, float* __restrict__ out, int rows, int d)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows * d) return;
    const int r = i / d;
    const int c = i % d;
    const float a = x[r * 2 * d + c];
    const float b = x[r * 2 * d + d + c];
    out[i] = a / (1.0f + expf(-a)) * b;
}

extern "C" void launch_swiglu(const float* x, float* out, int rows, int d, cudaStream_t stream)
{
    const int n = rows * d;
    swiglu<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, rows, d);
}
