// Row softmax, one warp per row (a 32-thread tile of cooperative groups), online
// max/sum in one read of the row, then a second read to write.
#include <cmath>
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define WARPS_PER_BLOCK 4

__global__ void softmax_online_warp(const float* __restrict__ x, float* __restrict__ y, int rows, int cols)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const int row = blockIdx.x * WARPS_PER_BLOCK + warp.meta_group_rank();
    if (row >= rows) return;
    const float* xr = x + (size_t)row * cols;
    float* yr = y + (size_t)row * cols;
    float m = -INFINITY, s = 0.f;
    for (int i = warp.thread_rank(); i < cols; i += 32) {
        const float v = xr[i];
        if (v > m) {
            s = s * expf(m - v) + 1.f;
            m = v;
        } else {
            s += expf(v - m);
        }
    }
    const float gm = cg::reduce(warp, m, cg::greater<float>());
    s = (m == -INFINITY) ? 0.f : s * expf(m - gm);
    s = cg::reduce(warp, s, cg::plus<float>());
    const float inv = 1.f / s;
    for (int i = warp.thread_rank(); i < cols; i += 32) yr[i] = expf(xr[i] - gm) * inv;
}

extern "C" int softmax_rows(const float* x, float* y, int rows, int cols)
{
    const int blocks = (rows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    softmax_online_warp<<<blocks, WARPS_PER_BLOCK * 32>>>(x, y, rows, cols);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "softmax_rows: %s\n", cudaGetErrorString(err));
        return (int)err;
    }
    return 0;
}
