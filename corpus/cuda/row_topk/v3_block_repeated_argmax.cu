// Top-8 values of each row (descending): one block of 256 threads per row, 4 values per
// thread from one float4 load (cols <= 1024, cols % 4 == 0); 8 rounds of block argmax
// (warp shuffles, then 8 warp results through shared memory), the winner removed each round.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define TOPK      8
#define FULL_MASK 0xffffffffu

// kforecast: rows = 16384; cols = 1024; x: f32[rows, cols] randn; out: f32[rows, 8]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
row_topk(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float wmax[WARPS];
    __shared__ int widx[WARPS];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const float* xr = x + (size_t)blockIdx.x * cols;
    float v[4];
    if (4 * tid < cols) {
        const float4 q = reinterpret_cast<const float4*>(xr)[tid];
        v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
    } else {
        v[0] = v[1] = v[2] = v[3] = -INFINITY;
    }
    for (int round = 0; round < TOPK; ++round) {
        float m = v[0];
        int mi = 4 * tid;
#pragma unroll
        for (int k = 1; k < 4; ++k)
            if (v[k] > m) { m = v[k]; mi = 4 * tid + k; }
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) {
            const float om = __shfl_xor_sync(FULL_MASK, m, o);
            const int oi = __shfl_xor_sync(FULL_MASK, mi, o);
            if (om > m || (om == m && oi < mi)) { m = om; mi = oi; }
        }
        if (lane == 0) { wmax[warp] = m; widx[warp] = mi; }
        __syncthreads();
        float bm = wmax[0];
        int bi = widx[0];
#pragma unroll
        for (int w = 1; w < WARPS; ++w)
            if (wmax[w] > bm || (wmax[w] == bm && widx[w] < bi)) { bm = wmax[w]; bi = widx[w]; }
        if (tid == 0) out[(size_t)blockIdx.x * TOPK + round] = bm;
#pragma unroll
        for (int k = 0; k < 4; ++k)
            if (4 * tid + k == bi) v[k] = -INFINITY;
        __syncthreads();
    }
}

extern "C" void launch_row_topk(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    row_topk<<<rows, THREADS, 0, stream>>>(x, out, rows, cols);
}
