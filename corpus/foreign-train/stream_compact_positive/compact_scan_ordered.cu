// Stream compaction of the positive values that keeps the input order: count the kept
// elements of every tile, exclusive-scan the tile counts in one block, then every tile
// writes its elements from its scanned offset. Tile counts live in a cudaMalloc'd workspace.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                 \
    do {                                                                                 \
        cudaError_t err_ = (call);                                                       \
        if (err_ != cudaSuccess) {                                                       \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), __FILE__, __LINE__); \
            return (int)err_;                                                            \
        }                                                                                \
    } while (0)

constexpr int kThreads = 256;
constexpr int kItems = 8;
constexpr int kWarps = kThreads / 32;
constexpr int kTile = kThreads * kItems;
constexpr int kScanThreads = 1024;

__global__ void __launch_bounds__(kThreads)
count_positive_tiles(const float* __restrict__ in, int* __restrict__ tile_count, long long n) {
    __shared__ int warp_sum[kWarps];
    const long long base = (long long)blockIdx.x * kTile;
    int c = 0;
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const long long i = base + k * kThreads + threadIdx.x;
        c += (i < n && in[i] > 0.0f) ? 1 : 0;
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) c += __shfl_down_sync(0xffffffffu, c, off);
    if ((threadIdx.x & 31) == 0) warp_sum[threadIdx.x >> 5] = c;
    __syncthreads();
    if (threadIdx.x == 0) {
        int total = 0;
        for (int w = 0; w < kWarps; ++w) total += warp_sum[w];
        tile_count[blockIdx.x] = total;
    }
}

// one block: exclusive scan of tile_count in place, total to *d_count
__global__ void __launch_bounds__(kScanThreads)
scan_tile_counts(int* __restrict__ tile_count, int n_tiles, int* __restrict__ d_count) {
    __shared__ int warp_tot[32];
    const int per = (n_tiles + kScanThreads - 1) / kScanThreads;
    const int lo = threadIdx.x * per;
    const int hi = min(lo + per, n_tiles);
    int local = 0;
    for (int i = lo; i < hi; ++i) local += tile_count[i];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    int inc = local;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        const int y = __shfl_up_sync(0xffffffffu, inc, off);
        if (lane >= off) inc += y;
    }
    if (lane == 31) warp_tot[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        int t = warp_tot[lane];
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            const int y = __shfl_up_sync(0xffffffffu, t, off);
            if (lane >= off) t += y;
        }
        warp_tot[lane] = t;  // inclusive over warps
    }
    __syncthreads();
    int running = inc - local + (warp > 0 ? warp_tot[warp - 1] : 0);
    for (int i = lo; i < hi; ++i) {
        const int c = tile_count[i];
        tile_count[i] = running;
        running += c;
    }
    if (threadIdx.x == kScanThreads - 1) *d_count = warp_tot[31];
}

__global__ void __launch_bounds__(kThreads)
scatter_positive_tiles(const float* __restrict__ in, const int* __restrict__ tile_offset,
                       float* __restrict__ out, long long n) {
    __shared__ int rank_base[kItems][kWarps];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long base = (long long)blockIdx.x * kTile;
    float v[kItems];
    unsigned ballot[kItems];
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const long long i = base + k * kThreads + threadIdx.x;
        v[k] = (i < n) ? in[i] : 0.0f;
        ballot[k] = __ballot_sync(0xffffffffu, v[k] > 0.0f);
        if (lane == 0) rank_base[k][warp] = __popc(ballot[k]);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int run = tile_offset[blockIdx.x];
        for (int k = 0; k < kItems; ++k)
            for (int w = 0; w < kWarps; ++w) {
                const int c = rank_base[k][w];
                rank_base[k][w] = run;
                run += c;
            }
    }
    __syncthreads();
    const unsigned lower = (1u << lane) - 1u;
#pragma unroll
    for (int k = 0; k < kItems; ++k)
        if (v[k] > 0.0f) out[rank_base[k][warp] + __popc(ballot[k] & lower)] = v[k];
}

static int* g_tile_ws = nullptr;
static size_t g_tile_ws_len = 0;

extern "C" int compact_positive(const float* in, float* out, int* d_count, long long n) {
    if (n <= 0) {
        CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(int)));
        return 0;
    }
    const long long n_tiles = (n + kTile - 1) / kTile;
    if ((size_t)n_tiles > g_tile_ws_len) {
        if (g_tile_ws) CUDA_CHECK(cudaFree(g_tile_ws));
        g_tile_ws = nullptr;
        g_tile_ws_len = 0;
        CUDA_CHECK(cudaMalloc(&g_tile_ws, (size_t)n_tiles * sizeof(int)));
        g_tile_ws_len = (size_t)n_tiles;
    }
    count_positive_tiles<<<(unsigned)n_tiles, kThreads>>>(in, g_tile_ws, n);
    CUDA_CHECK(cudaGetLastError());
    scan_tile_counts<<<1, kScanThreads>>>(g_tile_ws, (int)n_tiles, d_count);
    CUDA_CHECK(cudaGetLastError());
    scatter_positive_tiles<<<(unsigned)n_tiles, kThreads>>>(in, g_tile_ws, out, n);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
