// Inclusive prefix sum of a large int array in one pass: one element per thread, tiles of
// 1024 scanned with warp shuffles (__shfl_up_sync) and a second shuffle scan of the 32 warp
// totals; tile prefixes by a decoupled look-back done by thread 0.
// tile_status and counters are scratch: tiles are numbered in the order blocks start
// (atomicAdd on counters[0]) and the last block to finish resets them.
#include <cuda_runtime.h>

#define THREADS 1024
#define TILE    THREADS
#define WARPS   (THREADS / 32)
#define FLAG_AGGREGATE (1ull << 32)
#define FLAG_PREFIX    (2ull << 32)
#define FULL_MASK      0xffffffffu

// Tile status word: flag in the high 32 bits (0 = not ready), value in the low 32 bits.
__device__ __forceinline__ void publish(unsigned long long* status, int tile, unsigned long long flag, int value)
{
    atomicExch(status + tile, flag | (unsigned int)value);
}

__device__ __forceinline__ unsigned long long peek(const unsigned long long* status, int tile)
{
    return *((const volatile unsigned long long*)status + tile);
}

// Decoupled look-back by one thread: adds the aggregates of the preceding tiles until
// one with an inclusive prefix is found (spinning while a tile has published nothing).
__device__ int look_back(const unsigned long long* status, int tile)
{
    int prefix = 0;
    for (int p = tile - 1; p >= 0; --p) {
        unsigned long long s;
        do {
            s = peek(status, p);
        } while ((s >> 32) == 0);
        prefix += (int)(unsigned int)s;
        if ((s >> 32) == 2) break;
    }
    return prefix;
}

// kforecast: n = 1 << 24; in: i32[n] randint(0,100); out: i32[n]; tile_status: u64[65536] zeros; counters: u32[2] zeros; outputs = out; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
block_scan(const int* __restrict__ in, int* __restrict__ out, unsigned long long* tile_status,
           unsigned int* counters, int n)
{
    __shared__ int warp_total[WARPS];
    __shared__ int s_tile, s_prefix, s_last;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    if (t == 0) s_tile = (int)atomicAdd(&counters[0], 1u);
    __syncthreads();
    const int tile = s_tile;
    const int i = tile * TILE + t;
    const int v = i < n ? in[i] : 0;
    int inc = v;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const int y = __shfl_up_sync(FULL_MASK, inc, o);
        if (lane >= o) inc += y;
    }
    if (lane == 31) warp_total[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        int s = lane < WARPS ? warp_total[lane] : 0;
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const int y = __shfl_up_sync(FULL_MASK, s, o);
            if (lane >= o) s += y;
        }
        if (lane < WARPS) warp_total[lane] = s;
    }
    __syncthreads();
    if (t == 0) {
        const int aggregate = warp_total[WARPS - 1];
        int prefix = 0;
        if (tile == 0) {
            publish(tile_status, 0, FLAG_PREFIX, aggregate);
        } else {
            publish(tile_status, tile, FLAG_AGGREGATE, aggregate);
            prefix = look_back(tile_status, tile);
            publish(tile_status, tile, FLAG_PREFIX, prefix + aggregate);
        }
        s_prefix = prefix;
    }
    __syncthreads();
    if (i < n) out[i] = s_prefix + (warp > 0 ? warp_total[warp - 1] : 0) + inc;
    // The last block to finish clears the tile states and counters for the next launch.
    if (t == 0) {
        __threadfence();
        s_last = atomicAdd(&counters[1], 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (s_last) {
        for (int k = t; k < gridDim.x; k += THREADS) tile_status[k] = 0ull;
        if (t == 0) {
            counters[0] = 0u;
            counters[1] = 0u;
        }
    }
}

extern "C" void launch_block_scan(const int* in, int* out, unsigned long long* tile_status, unsigned int* counters,
                                  int n, cudaStream_t stream)
{
    block_scan<<<(n + TILE - 1) / TILE, THREADS, 0, stream>>>(in, out, tile_status, counters, n);
}
