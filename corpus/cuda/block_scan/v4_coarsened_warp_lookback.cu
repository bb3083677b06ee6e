// Inclusive prefix sum of a large int array in one pass, thread-coarsened as in v3 (8
// elements per thread, tiles of 2048, warp-shuffle scan), with the decoupled look-back done
// by the whole first warp: 32 predecessor tiles inspected per step, ballot and shuffle sum.
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

__device__ __forceinline__ int warp_reduce_sum(int v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
    return v;
}

// Decoupled look-back by a whole warp: lane k inspects tile p - k, so 32 predecessors are
// read at once; their values are summed up to the nearest tile with an inclusive prefix.
__device__ int warp_look_back(const unsigned long long* status, int tile, int lane)
{
    int prefix = 0;
    for (int p = tile - 1;; p -= 32) {
        const int q = p - lane;
        unsigned long long s = q >= 0 ? peek(status, q) : FLAG_PREFIX;  // before tile 0: prefix 0
        while (__any_sync(FULL_MASK, (s >> 32) == 0))
            if ((s >> 32) == 0) s = peek(status, q);
        const unsigned done = __ballot_sync(FULL_MASK, (s >> 32) == 2);
        int v = (int)(unsigned int)s;
        if (done) {
            if (lane > __ffs(done) - 1) v = 0;
            return prefix + warp_reduce_sum(v);
        }
        prefix += warp_reduce_sum(v);
    }
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
    const int base = tile * TILE + t * ITEMS;
    int v[ITEMS];
    if (base + ITEMS <= n) {
        const int4 lo = *reinterpret_cast<const int4*>(in + base);
        const int4 hi = *reinterpret_cast<const int4*>(in + base + 4);
        v[0] = lo.x; v[1] = lo.y; v[2] = lo.z; v[3] = lo.w;
        v[4] = hi.x; v[5] = hi.y; v[6] = hi.z; v[7] = hi.w;
    } else {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) v[k] = base + k < n ? in[base + k] : 0;
    }
#pragma unroll
    for (int k = 1; k < ITEMS; ++k) v[k] += v[k - 1];  // sequential scan of the thread's items
    const int total = v[ITEMS - 1];
    int inc = total;
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
    if (warp == 0) {
        const int aggregate = warp_total[WARPS - 1];
        int prefix = 0;
        if (tile == 0) {
            if (lane == 0) publish(tile_status, 0, FLAG_PREFIX, aggregate);
        } else {
            if (lane == 0) publish(tile_status, tile, FLAG_AGGREGATE, aggregate);
            prefix = warp_look_back(tile_status, tile, lane);
            if (lane == 0) publish(tile_status, tile, FLAG_PREFIX, prefix + aggregate);
        }
        if (lane == 0) s_prefix = prefix;
    }
    __syncthreads();
    const int add = s_prefix + (warp > 0 ? warp_total[warp - 1] : 0) + inc - total;
    if (base + ITEMS <= n) {
        *reinterpret_cast<int4*>(out + base) = make_int4(v[0] + add, v[1] + add, v[2] + add, v[3] + add);
        *reinterpret_cast<int4*>(out + base + 4) = make_int4(v[4] + add, v[5] + add, v[6] + add, v[7] + add);
    } else {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k)
            if (base + k < n) out[base + k] = v[k] + add;
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
