// y += A x for a COO matrix: each block sums its 2048 nonzeros into a shared-memory hash table of
// row partial sums (open addressing, atomicCAS on the keys, shared atomicAdd on the sums), then
// flushes every occupied slot with one global atomicAdd (privatisation; few rows repeat here).
#include <cuda_runtime.h>

#define THREADS    256
#define PER_THREAD 8
#define TILE       (THREADS * PER_THREAD)
#define TABLE_BITS 12
#define TABLE      (1 << TABLE_BITS)
#define EMPTY      (-1)

// kforecast: nnz = 1 << 24; rows = 1 << 20; cols = 1 << 20; row: i32[nnz] randint(0, 1048576); col: i32[nnz] randint(0, 1048576); val: f32[nnz] randn; x: f32[cols] randn; y: f32[rows] zeros; outputs = y; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
spmv_coo(const int* __restrict__ row, const int* __restrict__ col, const float* __restrict__ val,
         const float* __restrict__ x, float* __restrict__ y, int nnz)
{
    __shared__ int keys[TABLE];
    __shared__ float sums[TABLE];
    for (int s = threadIdx.x; s < TABLE; s += THREADS) {
        keys[s] = EMPTY;
        sums[s] = 0.0f;
    }
    __syncthreads();

    const int begin = blockIdx.x * TILE;
#pragma unroll 2
    for (int k = 0; k < PER_THREAD; ++k) {
        const int i = begin + k * THREADS + threadIdx.x;
        if (i >= nnz) break;
        const int r = row[i];
        const float p = val[i] * x[col[i]];
        unsigned h = ((unsigned)r * 2654435761u) >> (32 - TABLE_BITS);
        while (true) {
            const int owner = atomicCAS(&keys[h], EMPTY, r);
            if (owner == EMPTY || owner == r) {
                atomicAdd(&sums[h], p);
                break;
            }
            h = (h + 1) & (TABLE - 1);
        }
    }
    __syncthreads();

    for (int s = threadIdx.x; s < TABLE; s += THREADS) {
        const int r = keys[s];
        if (r != EMPTY) atomicAdd(&y[r], sums[s]);
    }
}

extern "C" void launch_spmv_coo(const int* row, const int* col, const float* val, const float* x, float* y, int nnz,
                                cudaStream_t stream)
{
    spmv_coo<<<(nnz + TILE - 1) / TILE, THREADS, 0, stream>>>(row, col, val, x, y, nnz);
}
