// Row-wise argmax, one block of 256 threads per row: strided partial maxima, then a
// tree reduction of (value, index) pairs in shared memory.
#include <cfloat>
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_TRY(expr)                                                               \
    do {                                                                             \
        cudaError_t status_ = (expr);                                                \
        if (status_ != cudaSuccess) {                                                \
            fprintf(stderr, "row_argmax: %s: %s\n", #expr, cudaGetErrorString(status_)); \
            return (int)status_;                                                     \
        }                                                                            \
    } while (0)

#define THREADS 256

__device__ __forceinline__ bool better(float v, int j, float bv, int bj) {
    return v > bv || (v == bv && j < bj);
}

__global__ void argmax_block_reduce(const float* __restrict__ x, int* __restrict__ out,
                                    int cols) {
    __shared__ float s_val[THREADS];
    __shared__ int s_idx[THREADS];
    const float* row = x + (size_t)blockIdx.x * cols;
    int tid = threadIdx.x;

    float bv = -FLT_MAX;
    int bj = 0x7fffffff;
    for (int j = tid; j < cols; j += THREADS) {
        float v = row[j];
        if (better(v, j, bv, bj)) {
            bv = v;
            bj = j;
        }
    }
    s_val[tid] = bv;
    s_idx[tid] = bj;
    __syncthreads();

    for (int half = THREADS / 2; half > 0; half >>= 1) {
        if (tid < half) {
            float ov = s_val[tid + half];
            int oj = s_idx[tid + half];
            if (better(ov, oj, s_val[tid], s_idx[tid])) {
                s_val[tid] = ov;
                s_idx[tid] = oj;
            }
        }
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = s_idx[0];
}

extern "C" int row_argmax(const float* x, int* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return 0;
    argmax_block_reduce<<<rows, THREADS>>>(x, out, cols);
    CUDA_TRY(cudaGetLastError());
    return 0;
}
