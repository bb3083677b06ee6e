// Per-row population variance: one thread per row, a first pass for the mean and a second for the squared deviations (each warp load touches 32 different rows: uncoalesced).
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: rows = 16384; cols = 4096; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void welford_var_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += xr[c];
    const float mean = s / cols;
    float q = 0.0f;
    for (int c = 0; c < cols; ++c) {
        const float d = xr[c] - mean;
        q += d * d;
    }
    out[r] = q / cols;
}

extern "C" void launch_welford_var_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    welford_var_rows<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, out, rows, cols);
}
