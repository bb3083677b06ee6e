// Per-row argmax (maximum value and its first column) of a row-major matrix.
// One block of 256 threads per row with the textbook interleaved shared-memory
// reduction (tid % (2*s) == 0): divergent warps and strided, conflicting
// shared-memory accesses in every step.
#include <cuda_runtime.h>

#define THREADS 256

// (v, i) <- (ov, oi) if ov is larger, or equal with a smaller index (ties go to the first column).
__device__ __forceinline__ void take_better(float& v, int& i, float ov, int oi)
{
    if (ov > v || (ov == v && oi < i)) {
        v = ov;
        i = oi;
    }
}

// kforecast: rows = 8192; cols = 4096; x: f32[rows, cols] randn; out_val: f32[rows]; out_idx: i32[rows]; rtol = 0; atol = 0
__global__ void argmax_rows(const float* __restrict__ x, float* __restrict__ out_val, int* __restrict__ out_idx, int rows, int cols)
{
    __shared__ float sv[THREADS];
    __shared__ int si[THREADS];
    const unsigned int tid = threadIdx.x;
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
    sv[tid] = v;
    si[tid] = i;
    __syncthreads();
    for (unsigned int s = 1; s < THREADS; s *= 2) {
        if (tid % (2 * s) == 0) {
            float a = sv[tid];
            int ai = si[tid];
            take_better(a, ai, sv[tid + s], si[tid + s]);
            sv[tid] = a;
            si[tid] = ai;
        }
        __syncthreads();
    }
    if (tid == 0) {
        out_val[blockIdx.x] = sv[0];
        out_idx[blockIdx.x] = si[0];
    }
}

extern "C" void launch_argmax_rows(const float* x, float* out_val, int* out_idx, int rows, int cols, cudaStream_t stream)
{
    argmax_rows<<<rows, THREADS, 0, stream>>>(x, out_val, out_idx, rows, cols);
}
