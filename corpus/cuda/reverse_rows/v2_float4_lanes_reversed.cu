// Reverse every row of a matrix: out[r, c] = x[r, cols - 1 - c] (cols % 4 == 0). One
// block row per matrix row, each thread moves one float4: it loads the mirrored group
// and stores it with its four lanes reversed in registers.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 8192; cols = 8192; x: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
reverse_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int groups = cols / 4;
    const int g = blockIdx.x * THREADS + threadIdx.x;
    if (g >= groups) return;
    const size_t row = (size_t)blockIdx.y * groups;
    const float4 v = reinterpret_cast<const float4*>(x)[row + (groups - 1 - g)];
    reinterpret_cast<float4*>(out)[row + g] = make_float4(v.w, v.z, v.y, v.x);
}

extern "C" void launch_reverse_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 grid((cols / 4 + THREADS - 1) / THREADS, rows);
    reverse_rows<<<grid, THREADS, 0, stream>>>(x, out, rows, cols);
}
