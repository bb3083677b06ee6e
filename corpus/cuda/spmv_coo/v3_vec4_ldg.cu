// y += A x for a COO matrix: each thread takes 4 consecutive nonzeros with one int4/int4/float4
// load each, gathers x through the read-only cache (__ldg), then 4 atomics; scalar tail.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: nnz = 1 << 24; rows = 1 << 20; cols = 1 << 20; row: i32[nnz] randint(0, 1048576); col: i32[nnz] randint(0, 1048576); val: f32[nnz] randn; x: f32[cols] randn; y: f32[rows] zeros; outputs = y; rtol = 1e-3; atol = 1e-3
__global__ void spmv_coo(const int* __restrict__ row, const int* __restrict__ col, const float* __restrict__ val,
                         const float* __restrict__ x, float* __restrict__ y, int nnz)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    const int n4 = nnz >> 2;
    if (t < n4) {
        const int4 r = reinterpret_cast<const int4*>(row)[t];
        const int4 c = reinterpret_cast<const int4*>(col)[t];
        const float4 v = reinterpret_cast<const float4*>(val)[t];
        const float p0 = v.x * __ldg(&x[c.x]);
        const float p1 = v.y * __ldg(&x[c.y]);
        const float p2 = v.z * __ldg(&x[c.z]);
        const float p3 = v.w * __ldg(&x[c.w]);
        atomicAdd(&y[r.x], p0);
        atomicAdd(&y[r.y], p1);
        atomicAdd(&y[r.z], p2);
        atomicAdd(&y[r.w], p3);
    }
    const int i = (n4 << 2) + t;
    if (i < nnz) atomicAdd(&y[row[i]], val[i] * __ldg(&x[col[i]]));
}

extern "C" void launch_spmv_coo(const int* row, const int* col, const float* val, const float* x, float* y, int nnz,
                                cudaStream_t stream)
{
    // nnz / 4 vector threads; the (at most 3) tail elements go to threads 0..2.
    spmv_coo<<<(nnz + 4 * THREADS - 1) / (4 * THREADS), THREADS, 0, stream>>>(row, col, val, x, y, nnz);
}
