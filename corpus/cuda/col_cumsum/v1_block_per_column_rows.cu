// Inclusive cumulative sum down every column: one block of 256 threads per column, threads
// along rows; chunks of 256 rows are scanned with warp shuffles and a carried running sum
// (every load and store of a warp touches 32 different rows: uncoalesced).
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 8192; cols = 8192; x: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(THREADS)
col_cumsum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float warp_total[WARPS];
    const int c = blockIdx.x;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    float carry = 0.0f;
    for (int r0 = 0; r0 < rows; r0 += THREADS) {
        const int r = r0 + t;
        float v = r < rows ? x[(size_t)r * cols + c] : 0.0f;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const float n = __shfl_up_sync(FULL_MASK, v, o);
            if (lane >= o) v += n;
        }
        if (lane == 31) warp_total[warp] = v;
        __syncthreads();
        float before = carry, chunk = 0.0f;
#pragma unroll
        for (int w = 0; w < WARPS; ++w) {
            if (w < warp) before += warp_total[w];
            chunk += warp_total[w];
        }
        if (r < rows) out[(size_t)r * cols + c] = v + before;
        carry += chunk;
        __syncthreads();
    }
}

extern "C" void launch_col_cumsum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    col_cumsum<<<cols, THREADS, 0, stream>>>(x, out, rows, cols);
}
