// SwiGLU out = silu(a) * b (a, b the two halves of each row of x [rows, 2d]). Grid-stride loop over
// the flat outputs on a grid sized to fill the GPU once (132 SMs x 8 blocks of 256).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS       256
#define NUM_SMS       132   // H100 SXM
#define BLOCKS_PER_SM 8

// kforecast: rows = 8192; d = 4096; x: f32[rows, 2 * d] randn; out: f32[rows, d]; rtol = 1e-4; atol = 1e-5
__global__ void swiglu(const float* __restrict__ x, float* __restrict__ out, int rows, int d)
{
    const int n = rows * d;
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const int r = i / d;
        const int c = i - r * d;
        const float a = x[r * 2 * d + c];
        const float b = x[r * 2 * d + d + c];
        out[i] = a / (1.0f + expf(-a)) * b;
    }
}

extern "C" void launch_swiglu(const float* x, float* out, int rows, int d, cudaStream_t stream)
{
    const int n = rows * d;
    const int needed = (n + THREADS - 1) / THREADS;
    const int blocks = needed < NUM_SMS * BLOCKS_PER_SM ? needed : NUM_SMS * BLOCKS_PER_SM;
    swiglu<<<blocks, THREADS, 0, stream>>>(x, out, rows, d);
}
