// y = A @ x: a block of 8 warps handles 8 rows; x is staged in shared memory in
// chunks of 1024 floats shared by the 8 rows; one warp per row, float4 loads of A.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define CHUNK     1024
#define FULL_MASK 0xffffffffu

// kforecast: rows = 8192; cols = 4096; A: f32[rows, cols] randn; x: f32[cols] randn; y: f32[rows]; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(THREADS)
sgemv(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int rows, int cols)
{
    __shared__ float4 xs[CHUNK / 4];
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    const float4* a4 = reinterpret_cast<const float4*>(A + (size_t)(r < rows ? r : 0) * cols);
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const int n4 = cols >> 2;
    float acc = 0.0f;
    for (int c0 = 0; c0 < n4; c0 += CHUNK / 4) {
        for (int i = threadIdx.x; i < CHUNK / 4; i += THREADS)
            xs[i] = c0 + i < n4 ? x4[c0 + i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        __syncthreads();
        if (r < rows) {
            for (int i = lane; i < CHUNK / 4 && c0 + i < n4; i += 32) {
                const float4 a = a4[c0 + i], b = xs[i];
                acc += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(FULL_MASK, acc, o);
    if (lane == 0 && r < rows) y[r] = acc;
}

extern "C" void launch_sgemv(const float* A, const float* x, float* y, int rows, int cols, cudaStream_t stream)
{
    sgemv<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(A, x, y, rows, cols);
}
