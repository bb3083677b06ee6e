// Row-wise argmax, one 32-thread cooperative-groups tile per row, float4 loads when the
// row length allows it (scalar loop otherwise and for the last cols % 4).
#include <cfloat>
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CUDA_TRY(expr)                                                               \
    do {                                                                             \
        cudaError_t status_ = (expr);                                                \
        if (status_ != cudaSuccess) {                                                \
            fprintf(stderr, "row_argmax: %s: %s\n", #expr, cudaGetErrorString(status_)); \
            return (int)status_;                                                     \
        }                                                                            \
    } while (0)

constexpr int kRowsPerBlock = 4;

__device__ __forceinline__ void keep(float v, int j, float& bv, int& bj) {
    if (v > bv || (v == bv && j < bj)) {
        bv = v;
        bj = j;
    }
}

__global__ void argmax_tile_vec4(const float* __restrict__ x, int* __restrict__ out, int rows,
                                 int cols, bool vec) {
    auto block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    int r = blockIdx.x * kRowsPerBlock + tile.meta_group_rank();
    if (r >= rows) return;
    const float* row = x + (size_t)r * cols;
    int lane = tile.thread_rank();

    float bv = -FLT_MAX;
    int bj = 0x7fffffff;
    int scalar_from = 0;
    if (vec) {
        const float4* row4 = reinterpret_cast<const float4*>(row);
        int n4 = cols >> 2;
        for (int q = lane; q < n4; q += 32) {
            float4 v = row4[q];
            int j = q << 2;
            keep(v.x, j, bv, bj);
            keep(v.y, j + 1, bv, bj);
            keep(v.z, j + 2, bv, bj);
            keep(v.w, j + 3, bv, bj);
        }
        scalar_from = n4 << 2;
    }
    for (int j = scalar_from + lane; j < cols; j += 32) keep(row[j], j, bv, bj);

    for (int off = 16; off > 0; off >>= 1) {
        float ov = tile.shfl_xor(bv, off);
        int oj = tile.shfl_xor(bj, off);
        keep(ov, oj, bv, bj);
    }
    if (lane == 0) out[r] = bj;
}

extern "C" int row_argmax(const float* x, int* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return 0;
    bool vec = (cols % 4 == 0) && (((size_t)x & 15) == 0);
    int blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
    argmax_tile_vec4<<<blocks, kRowsPerBlock * 32>>>(x, out, rows, cols, vec);
    CUDA_TRY(cudaGetLastError());
    return 0;
}
