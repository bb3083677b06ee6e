// Row-wise argmax with cooperative groups: one block per row, each 32-thread tile
// reduces its (value, index) pairs with tile shuffles, tile leaders meet in shared memory.
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

constexpr int kBlock = 256;
constexpr int kTiles = kBlock / 32;

struct ArgMax {
    float v;
    int j;
};

__device__ __forceinline__ ArgMax pick(ArgMax a, ArgMax b) {
    return (b.v > a.v || (b.v == a.v && b.j < a.j)) ? b : a;
}

template <typename Tile>
__device__ __forceinline__ ArgMax tile_argmax(const Tile& tile, ArgMax a) {
    for (int off = tile.size() / 2; off > 0; off /= 2) {
        ArgMax o;
        o.v = tile.shfl_down(a.v, off);
        o.j = tile.shfl_down(a.j, off);
        a = pick(a, o);
    }
    return a;
}

__global__ void row_argmax_cg(const float* __restrict__ x, int* __restrict__ out, int cols) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ ArgMax partial[kTiles];

    const float* row = x + (size_t)blockIdx.x * cols;
    ArgMax mine{-FLT_MAX, 0x7fffffff};
    for (int j = block.thread_rank(); j < cols; j += kBlock) mine = pick(mine, ArgMax{row[j], j});

    mine = tile_argmax(tile, mine);
    if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = mine;
    block.sync();

    if (tile.meta_group_rank() == 0) {
        ArgMax a = tile.thread_rank() < kTiles ? partial[tile.thread_rank()]
                                               : ArgMax{-FLT_MAX, 0x7fffffff};
        a = tile_argmax(tile, a);
        if (tile.thread_rank() == 0) out[blockIdx.x] = a.j;
    }
}

extern "C" int row_argmax(const float* x, int* out, int rows, int cols) {
    if (rows <= 0 || cols <= 0) return 0;
    row_argmax_cg<<<rows, kBlock>>>(x, out, cols);
    CUDA_TRY(cudaGetLastError());
    return 0;
}
