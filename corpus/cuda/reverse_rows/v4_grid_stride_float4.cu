// Reverse every row of a matrix: out[r, c] = x[r, cols - 1 - c] (cols % 4 == 0). A fixed
// grid sized to fill the GPU once walks all float4 groups with a grid-stride loop,
// each group loaded from its mirror and stored with its lanes reversed.
#include <cuda_runtime.h>

#define THREADS 256
#define NUM_SMS 132  // H100 SXM
#define BLOCKS_PER_SM 8

// kforecast: rows = 8192; cols = 8192; x: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
reverse_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int groups = cols / 4;
    const size_t total = (size_t)rows * groups;
    const float4* src = reinterpret_cast<const float4*>(x);
    float4* dst = reinterpret_cast<float4*>(out);
    for (size_t i = (size_t)blockIdx.x * THREADS + threadIdx.x; i < total; i += (size_t)gridDim.x * THREADS) {
        const size_t r = i / groups;
        const int g = (int)(i - r * groups);
        const float4 v = src[r * groups + (groups - 1 - g)];
        dst[i] = make_float4(v.w, v.z, v.y, v.x);
    }
}

extern "C" void launch_reverse_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int needed = (rows * (cols / 4) + THREADS - 1) / THREADS;
    const int blocks = needed < NUM_SMS * BLOCKS_PER_SM ? needed : NUM_SMS * BLOCKS_PER_SM;
    reverse_rows<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
