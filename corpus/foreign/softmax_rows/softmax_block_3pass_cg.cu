// Row softmax, one 256-thread block per row, three passes over the row (max, sum of
// exponentials, write), block-wide reductions built from cooperative-groups tiles.
#include <cmath>
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

template <typename Op>
__device__ float block_allreduce(const cg::thread_block& block, float v, Op op, float identity, float* smem)
{
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    v = cg::reduce(warp, v, op);
    if (warp.thread_rank() == 0) smem[warp.meta_group_rank()] = v;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        float w = warp.thread_rank() < warp.meta_group_size() ? smem[warp.thread_rank()] : identity;
        w = cg::reduce(warp, w, op);
        if (warp.thread_rank() == 0) smem[32] = w;
    }
    block.sync();
    return smem[32];
}

__global__ void softmax_block_3pass(const float* __restrict__ x, float* __restrict__ y, int cols)
{
    __shared__ float smem[33];
    cg::thread_block block = cg::this_thread_block();
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    float m = -INFINITY;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) m = fmaxf(m, xr[i]);
    m = block_allreduce(block, m, cg::greater<float>(), -INFINITY, smem);
    float s = 0.f;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) s += expf(xr[i] - m);
    s = block_allreduce(block, s, cg::plus<float>(), 0.f, smem);
    const float inv = 1.f / s;
    for (int i = threadIdx.x; i < cols; i += blockDim.x) yr[i] = expf(xr[i] - m) * inv;
}

extern "C" int softmax_rows(const float* x, float* y, int rows, int cols)
{
    softmax_block_3pass<<<rows, 256>>>(x, y, cols);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "softmax_rows: %s\n", cudaGetErrorString(err));
        return (int)err;
    }
    return 0;
}
