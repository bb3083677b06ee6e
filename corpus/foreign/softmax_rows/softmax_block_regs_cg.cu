// Row softmax, one 512-thread block per row, the row held in registers (VPT values
// per thread, a template parameter chosen from cols on the host): one read, one write.
#include <cmath>
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

constexpr int kThreads = 512;

template <typename Op>
__device__ __forceinline__ float reduce_block(cg::thread_block& block, float v, Op op, float identity)
{
    __shared__ float part[kThreads / 32 + 1];
    auto tile = cg::tiled_partition<32>(block);
    v = cg::reduce(tile, v, op);
    if (tile.thread_rank() == 0) part[tile.meta_group_rank()] = v;
    block.sync();
    if (tile.meta_group_rank() == 0) {
        float w = tile.thread_rank() < kThreads / 32 ? part[tile.thread_rank()] : identity;
        w = cg::reduce(tile, w, op);
        if (tile.thread_rank() == 0) part[kThreads / 32] = w;
    }
    block.sync();
    float r = part[kThreads / 32];
    block.sync();  // part is reused by the next call
    return r;
}

template <int VPT>
__global__ void __launch_bounds__(kThreads) softmax_rows_in_registers(const float* __restrict__ x, float* __restrict__ y, int cols)
{
    cg::thread_block block = cg::this_thread_block();
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    float v[VPT];
    float m = -INFINITY;
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        const int i = threadIdx.x + k * kThreads;
        v[k] = i < cols ? xr[i] : -INFINITY;
        m = fmaxf(m, v[k]);
    }
    m = reduce_block(block, m, cg::greater<float>(), -INFINITY);
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        v[k] = expf(v[k] - m);
        s += v[k];
    }
    s = reduce_block(block, s, cg::plus<float>(), 0.f);
    const float inv = 1.f / s;
#pragma unroll
    for (int k = 0; k < VPT; ++k) {
        const int i = threadIdx.x + k * kThreads;
        if (i < cols) yr[i] = v[k] * inv;
    }
}

template <int VPT>
static cudaError_t launch(const float* x, float* y, int rows, int cols)
{
    softmax_rows_in_registers<VPT><<<rows, kThreads>>>(x, y, cols);
    return cudaGetLastError();
}

extern "C" int softmax_rows(const float* x, float* y, int rows, int cols)
{
    const int need = (cols + kThreads - 1) / kThreads;
    cudaError_t err;
    if (need <= 1) err = launch<1>(x, y, rows, cols);
    else if (need <= 2) err = launch<2>(x, y, rows, cols);
    else if (need <= 4) err = launch<4>(x, y, rows, cols);
    else if (need <= 8) err = launch<8>(x, y, rows, cols);
    else if (need <= 16) err = launch<16>(x, y, rows, cols);
    else {
        fprintf(stderr, "softmax_rows: rows longer than %d values are not supported\n", 16 * kThreads);
        return (int)cudaErrorInvalidValue;
    }
    if (err != cudaSuccess) {
        fprintf(stderr, "softmax_rows: %s\n", cudaGetErrorString(err));
        return (int)err;
    }
    return 0;
}
