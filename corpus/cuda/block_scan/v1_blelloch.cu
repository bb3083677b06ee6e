// Inclusive prefix sum of a large int array in one pass: tiles of 1024 elements, two per
// thread, scanned by a work-efficient Blelloch up-sweep/down-sweep in shared memory (no
// padding: bank conflicts at the larger strides); the tile aggregate is published after the
// up-sweep and thread 0 does a decoupled look-back after the down-sweep.
// tile_status and counters are scratch: tiles are numbered in the order blocks start
// (atomicAdd on counters[0]) and the last block to finish resets them.
#include <cuda_runtime.h>

#define THREADS 512
#define TILE    (2 * THREADS)
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
    __shared__ int temp[TILE];
    __shared__ int s_tile, s_prefix, s_last;
    const int t = threadIdx.x;
    if (t == 0) s_tile = (int)atomicAdd(&counters[0], 1u);
    __syncthreads();
    const int tile = s_tile;
    const int a = tile * TILE + t, b = a + THREADS;
    const int va = a < n ? in[a] : 0;
    const int vb = b < n ? in[b] : 0;
    temp[t] = va;
    temp[t + THREADS] = vb;

    int offset = 1;
    for (int d = TILE >> 1; d > 0; d >>= 1) {  // up-sweep
        __syncthreads();
        if (t < d) {
            const int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset <<= 1;
    }
    __syncthreads();
    int aggregate = 0;
    if (t == 0) {
        aggregate = temp[TILE - 1];
        temp[TILE - 1] = 0;
        publish(tile_status, tile, tile == 0 ? FLAG_PREFIX : FLAG_AGGREGATE, aggregate);
    }
    for (int d = 1; d < TILE; d <<= 1) {  // down-sweep: exclusive scan
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            const int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            const int tmp = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += tmp;
        }
    }
    if (t == 0) {
        int prefix = 0;
        if (tile > 0) {
            prefix = look_back(tile_status, tile);
            publish(tile_status, tile, FLAG_PREFIX, prefix + aggregate);
        }
        s_prefix = prefix;
    }
    __syncthreads();
    if (a < n) out[a] = s_prefix + temp[t] + va;
    if (b < n) out[b] = s_prefix + temp[t + THREADS] + vb;
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
