// Embedding bag sum: the v2 warp-per-bag float4 kernel with 4 warps per block instead
// of 8, renamed variables and the row pointer formed once per index.
#include <cuda_runtime.h>

#define BLOCK_THREADS   128
#define WARPS_PER_BLOCK (BLOCK_THREADS / 32)

// kforecast: rows = 262144; dim = 128; num_bags = 16384; bag = 32; W: f32[rows, dim] randn; idx: i32[num_bags * bag] randint(0,262144); out: f32[num_bags, dim]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(BLOCK_THREADS)
embedding_bag(const float* __restrict__ W, const int* __restrict__ idx, float* __restrict__ out, int num_bags, int bag, int dim)
{
    const int lane = threadIdx.x % 32;
    const int bag_id = blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
    if (bag_id >= num_bags) return;
    const int vec_cols = dim / 4;
    const int* bag_rows = idx + (size_t)bag_id * bag;
    float4* dst = reinterpret_cast<float4*>(out + (size_t)bag_id * dim);
    for (int col = lane; col < vec_cols; col += 32) {
        float sx = 0.0f, sy = 0.0f, sz = 0.0f, sw = 0.0f;
        for (int j = 0; j < bag; ++j) {
            const float4* row = reinterpret_cast<const float4*>(W + (size_t)bag_rows[j] * dim);
            const float4 v = row[col];
            sx += v.x;
            sy += v.y;
            sz += v.z;
            sw += v.w;
        }
        dst[col] = make_float4(sx, sy, sz, sw);
    }
}

extern "C" void launch_embedding_bag(const float* W, const int* idx, float* out, int num_bags, int bag, int dim,
                                     cudaStream_t stream)
{
    const int blocks = (num_bags + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    embedding_bag<<<blocks, BLOCK_THREADS, 0, stream>>>(W, idx, out, num_bags, bag, dim);
}
