// y += A x for a COO matrix: warp-level segmented reduction; lanes holding the same row as their
// neighbours (runs of equal row indices) are summed with shuffles and only each run's first lane
// issues an atomic. Pays off for row-sorted COO; correct for any order (runs here are mostly 1 long).
#include <cuda_runtime.h>

#define THREADS   256
#define FULL_MASK 0xffffffffu

// kforecast: nnz = 1 << 24; rows = 1 << 20; cols = 1 << 20; row: i32[nnz] randint(0, 1048576); col: i32[nnz] randint(0, 1048576); val: f32[nnz] randn; x: f32[cols] randn; y: f32[rows] zeros; outputs = y; rtol = 1e-3; atol = 1e-3
__global__ void spmv_coo(const int* __restrict__ row, const int* __restrict__ col, const float* __restrict__ val,
                         const float* __restrict__ x, float* __restrict__ y, int nnz)
{
    const int i = blockIdx.x * THREADS + threadIdx.x;
    const int lane = threadIdx.x & 31;
    const bool active = i < nnz;
    const int r = active ? row[i] : -1;
    float p = active ? val[i] * x[col[i]] : 0.0f;

    // A lane starts a run if it is lane 0 or its row differs from the previous lane's.
    const int prev = __shfl_up_sync(FULL_MASK, r, 1);
    const bool head = lane == 0 || prev != r;
    const unsigned heads = __ballot_sync(FULL_MASK, head);
    // First lane after this lane's run: the next head above this lane, or 32.
    const unsigned above = heads & ~((2u << lane) - 1u);
    const int run_end = above ? __ffs(above) - 1 : 32;

    // Segmented suffix sum: after the loop a head lane holds the sum of its whole run.
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const float t = __shfl_down_sync(FULL_MASK, p, d);
        if (lane + d < run_end) p += t;
    }
    if (head && r >= 0) atomicAdd(&y[r], p);
}

extern "C" void launch_spmv_coo(const int* row, const int* col, const float* val, const float* x, float* y, int nnz,
                                cudaStream_t stream)
{
    spmv_coo<<<(nnz + THREADS - 1) / THREADS, THREADS, 0, stream>>>(row, col, val, x, y, nnz);
}
