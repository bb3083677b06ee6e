// Inclusive prefix sum of a large int array in one pass, thread-coarsened (v3 rewritten:
// renamed variables, int4 views of the tile, lane/warp by % and /, statements reordered);
// 8 elements per thread, tiles of 2048, warp-shuffle scan, decoupled look-back by thread 0.
// tile_status and counters are scratch: tiles are numbered in the order blocks start
// (atomicAdd on counters[0]) and the last block to finish resets them.
#include <cuda_runtime.h>

#define THREADS 256
#define ITEMS   8
#define TILE    (THREADS * ITEMS)
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
    __shared__ int warp_sums[WARPS];
    __shared__ int s_tile, s_prefix, s_last;
    const int t = threadIdx.x;
    if (t == 0) s_tile = (int)atomicAdd(&counters[0], 1u);
    __syncthreads();
    const int tile_id = s_tile;
    const int lane = t % 32, warp = t / 32;
    const int first = tile_id * TILE + t * ITEMS;
    const bool full = first + ITEMS <= n;

    int items[ITEMS];
    if (full) {
        const int4* src = reinterpret_cast<const int4*>(in) + first / 4;
        const int4 p = src[0], q = src[1];
        items[0] = p.x; items[1] = p.y; items[2] = p.z; items[3] = p.w;
        items[4] = q.x; items[5] = q.y; items[6] = q.z; items[7] = q.w;
    } else {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) items[k] = first + k < n ? in[first + k] : 0;
    }
    int running = 0;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        running += items[k];
        items[k] = running;
    }
    const int thread_sum = running;

    int thread_incl = thread_sum;
#pragma unroll
    for (int d = 1; d <= 16; d *= 2) {
        const int up = __shfl_up_sync(FULL_MASK, thread_incl, d);
        thread_incl += lane >= d ? up : 0;
    }
    if (lane == 31) warp_sums[warp] = thread_incl;
    __syncthreads();
    if (warp == 0) {
        int w = lane < WARPS ? warp_sums[lane] : 0;
#pragma unroll
        for (int d = 1; d <= 16; d *= 2) {
            const int up = __shfl_up_sync(FULL_MASK, w, d);
            w += lane >= d ? up : 0;
        }
        if (lane < WARPS) warp_sums[lane] = w;
    }
    __syncthreads();
    if (t == 0) {
        const int tile_sum = warp_sums[WARPS - 1];
        int before = 0;
        if (tile_id != 0) {
            publish(tile_status, tile_id, FLAG_AGGREGATE, tile_sum);
            before = look_back(tile_status, tile_id);
        }
        publish(tile_status, tile_id, FLAG_PREFIX, before + tile_sum);
        s_prefix = before;
    }
    __syncthreads();
    const int offset = (warp == 0 ? 0 : warp_sums[warp - 1]) + (thread_incl - thread_sum) + s_prefix;
    if (full) {
        int4* dst = reinterpret_cast<int4*>(out) + first / 4;
        dst[0] = make_int4(items[0] + offset, items[1] + offset, items[2] + offset, items[3] + offset);
        dst[1] = make_int4(items[4] + offset, items[5] + offset, items[6] + offset, items[7] + offset);
    } else {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k)
            if (first + k < n) out[first + k] = items[k] + offset;
    }
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
