// Softmax backward dx = y * (dy - sum(dy * y)) per row. One 256-thread block per row, each thread
// holding one float4 of y and dy in registers (cols <= 1024, single read); warp shuffles then 8 warp
// sums through shared memory and one barrier pair.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 32768; cols = 1024; y: f32[rows, cols] rand; dy: f32[rows, cols] randn; dx: f32[rows, cols]; rtol = 1e-3; atol = 1e-3
__global__ void softmax_backward(const float* __restrict__ y, const float* __restrict__ dy, float* __restrict__ dx,
                                 int rows, int cols)
{
    __shared__ float warp_sum[WARPS];
    __shared__ float total;
    const int r = blockIdx.x;
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x / 32;
    const int c = threadIdx.x;
    const bool active = c < cols / 4;
    const float4* yr = reinterpret_cast<const float4*>(y + (size_t)r * cols);
    const float4* gr = reinterpret_cast<const float4*>(dy + (size_t)r * cols);
    float4 a = make_float4(0.0f, 0.0f, 0.0f, 0.0f), g = a;
    if (active) {
        a = yr[c];
        g = gr[c];
    }
    float dot = a.x * g.x + a.y * g.y + a.z * g.z + a.w * g.w;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) dot += __shfl_xor_sync(FULL_MASK, dot, o);
    if (lane == 0) warp_sum[warp] = dot;
    __syncthreads();
    if (warp == 0) {
        float s = lane < WARPS ? warp_sum[lane] : 0.0f;
#pragma unroll
        for (int o = WARPS / 2; o > 0; o >>= 1) s += __shfl_xor_sync(FULL_MASK, s, o);
        if (lane == 0) total = s;
    }
    __syncthreads();
    const float d = total;
    if (active)
        reinterpret_cast<float4*>(dx + (size_t)r * cols)[c] =
            make_float4(a.x * (g.x - d), a.y * (g.y - d), a.z * (g.z - d), a.w * (g.w - d));
}

extern "C" void launch_softmax_backward(const float* y, const float* dy, float* dx, int rows, int cols,
                                        cudaStream_t stream)
{
    softmax_backward<<<rows, THREADS, 0, stream>>>(y, dy, dx, rows, cols);
}
