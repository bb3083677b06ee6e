// Per-row argmax (maximum value and its first column) of a row-major matrix.
// One block of 256 threads per row: strided coalesced scan, warp-shuffle
// reduction of (value, index) pairs, the 8 warp results combined by warp 0.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// (v, i) <- (ov, oi) if ov is larger, or equal with a smaller index (ties go to the first column).
__device__ __forceinline__ void take_better(float& v, int& i, float ov, int oi)
{
    if (ov > v || (ov == v && oi < i)) {
        v = ov;
        i = oi;
    }
}

__device__ __forceinline__ void warp_argmax(float& v, int& i)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float ov = __shfl_down_sync(FULL_MASK, v, o);
        const int oi = __shfl_down_sync(FULL_MASK, i, o);
        take_better(v, i, ov, oi);
    }
}

// kforecast: rows = 8192; cols = 4096; x: f32[rows, cols] randn; out_val: f32[rows]; out_idx: i32[rows]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
argmax_rows(const float* __restrict__ x, float* __restrict__ out_val, int* __restrict__ out_idx, int rows, int cols)
{
    __shared__ float wv[WARPS];
    __shared__ int wi[WARPS];
    const int tid = threadIdx.x;
    const int lane = tid & 31, warp = tid >> 5;
    const float* p = x + (size_t)blockIdx.x * cols;
    float v = -INFINITY;
    int i = INT_MAX;
    for (int c = tid; c < cols; c += THREADS) {
        const float e = p[c];
        if (e > v) {
            v = e;
            i = c;
        }
    }
    warp_argmax(v, i);
    if (lane == 0) {
        wv[warp] = v;
        wi[warp] = i;
    }
    __syncthreads();
    if (warp == 0) {
        v = lane < WARPS ? wv[lane] : -INFINITY;
        i = lane < WARPS ? wi[lane] : INT_MAX;
        warp_argmax(v, i);
        if (lane == 0) {
            out_val[blockIdx.x] = v;
            out_idx[blockIdx.x] = i;
        }
    }
}

extern "C" void launch_argmax_rows(const float* x, float* out_val, int* out_idx, int rows, int cols, cudaStream_t stream)
{
    argmax_rows<<<rows, THREADS, 0, stream>>>(x, out_val, out_idx, rows, cols);
}
