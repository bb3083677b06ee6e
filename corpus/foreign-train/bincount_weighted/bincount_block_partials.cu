/* Weighted bincount in two kernels and no global atomics: each block fills its bins in
 * shared memory and writes all of them to its row of a cudaMalloc'd [blocks][nbins]
 * workspace; a merge kernel (one thread per bin) adds the rows up into out. */
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(stmt)                                                          \
    do {                                                                          \
        cudaError_t e__ = (stmt);                                                 \
        if (e__ != cudaSuccess) {                                                 \
            fprintf(stderr, "[bincount] %s failed: %s\n", #stmt, cudaGetErrorString(e__)); \
            return (int)e__;                                                      \
        }                                                                         \
    } while (0)
#define DIV_UP(a, b) (((a) + (b) - 1) / (b))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define FOR_GRID_STRIDE(i, n)                                                    \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
         i += (long long)gridDim.x * blockDim.x)
#define FOR_BLOCK_STRIDE(b, nb) for (int b = threadIdx.x; b < (nb); b += blockDim.x)
#define PARTIAL(ws, blk, b, nb) ((ws)[(size_t)(blk) * (nb) + (b)])
#define HIST_THREADS 512
#define MERGE_THREADS 128
#define BLOCKS_PER_SM 2
#define MAX_SMEM_BINS (48 * 1024 / 4)

__global__ void partial_bins(const int* __restrict__ idx, const float* __restrict__ w,
                             float* __restrict__ partials, long long n, int nbins) {
    extern __shared__ float s_bins[];
    FOR_BLOCK_STRIDE(b, nbins) s_bins[b] = 0.f;
    __syncthreads();
    FOR_GRID_STRIDE(i, n) atomicAdd(&s_bins[idx[i]], w[i]);
    __syncthreads();
    FOR_BLOCK_STRIDE(b, nbins) PARTIAL(partials, blockIdx.x, b, nbins) = s_bins[b];
}

__global__ void merge_bins(const float* __restrict__ partials, int nblocks, int nbins,
                           float* __restrict__ out) {
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= nbins) return;
    float s = 0.f;
    for (int blk = 0; blk < nblocks; ++blk) s += PARTIAL(partials, blk, b, nbins);
    out[b] = s;
}

static float* g_partials = NULL;
static size_t g_partials_bytes = 0;
static int g_sms = 0;

extern "C" int bincount_weighted(const int* idx, const float* w, float* out, long long n,
                                 int nbins) {
    if (nbins <= 0 || nbins > MAX_SMEM_BINS) return (int)cudaErrorInvalidValue;
    if (!g_sms) {
        int dev;
        CUDA_CHECK(cudaGetDevice(&dev));
        CUDA_CHECK(cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, dev));
    }
    long long blocks = MIN(DIV_UP(n, HIST_THREADS), (long long)g_sms * BLOCKS_PER_SM);
    if (blocks < 1) blocks = 1;  // n == 0: one block of zeros
    size_t need = (size_t)blocks * nbins * sizeof(float);
    if (need > g_partials_bytes) {
        if (g_partials) CUDA_CHECK(cudaFree(g_partials));
        g_partials = NULL;
        g_partials_bytes = 0;
        CUDA_CHECK(cudaMalloc(&g_partials, need));
        g_partials_bytes = need;
    }
    partial_bins<<<(unsigned)blocks, HIST_THREADS, nbins * sizeof(float)>>>(idx, w, g_partials,
                                                                            n, nbins);
    CUDA_CHECK(cudaGetLastError());
    merge_bins<<<DIV_UP(nbins, MERGE_THREADS), MERGE_THREADS>>>(g_partials, (int)blocks, nbins,
                                                                 out);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
