// Softmax backward dx = y * (dy - sum(dy * y)) per row. One 256-thread block per row: strided
// coalesced partial dots, shared-memory tree reduction, then a second pass that re-reads y and dy.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 32768; cols = 1024; y: f32[rows, cols] rand; dy: f32[rows, cols] randn; dx: f32[rows, cols]; rtol = 1e-3; atol = 1e-3
__global__ void softmax_backward(const float* __restrict__ y, const float* __restrict__ dy, float* __restrict__ dx,
                                 int rows, int cols)
{
    __shared__ float red[THREADS];
    const int r = blockIdx.x;
    const float* yr = y + (size_t)r * cols;
    const float* gr = dy + (size_t)r * cols;
    float* out = dx + (size_t)r * cols;
    float part = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS) part += yr[c] * gr[c];
    red[threadIdx.x] = part;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    const float dot = red[0];
    for (int c = threadIdx.x; c < cols; c += THREADS) out[c] = yr[c] * (gr[c] - dot);
}

extern "C" void launch_softmax_backward(const float* y, const float* dy, float* dx, int rows, int cols,
                                        cudaStream_t stream)
{
    softmax_backward<<<rows, THREADS, 0, stream>>>(y, dy, dx, rows, cols);
}
