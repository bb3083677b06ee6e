// Inclusive cumulative sum down every column: a 32x32 block owns 32 columns and walks down
// in 32-row tiles: coalesced tile load into padded shared memory, warp w scans column w
// (transposed read, shuffles) and adds its carried running sum, coalesced store.
#include <cuda_runtime.h>

#define TS        32
#define FULL_MASK 0xffffffffu

// kforecast: rows = 8192; cols = 8192; x: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-2
__global__ void __launch_bounds__(TS * TS)
col_cumsum(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[TS][TS + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c = blockIdx.x * TS + tx;
    float carry = 0.0f;  // running sum of column blockIdx.x * TS + ty (warp ty's column)
    for (int r0 = 0; r0 < rows; r0 += TS) {
        const int r = r0 + ty;
        tile[ty][tx] = (r < rows && c < cols) ? x[(size_t)r * cols + c] : 0.0f;
        __syncthreads();
        float v = tile[tx][ty];
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const float n = __shfl_up_sync(FULL_MASK, v, o);
            if (tx >= o) v += n;
        }
        v += carry;
        carry = __shfl_sync(FULL_MASK, v, 31);
        tile[tx][ty] = v;
        __syncthreads();
        if (r < rows && c < cols) out[(size_t)r * cols + c] = tile[ty][tx];
        __syncthreads();
    }
}

extern "C" void launch_col_cumsum(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    dim3 block(TS, TS);
    col_cumsum<<<(cols + TS - 1) / TS, block, 0, stream>>>(x, out, rows, cols);
}
