// LSD radix sort of 32-bit keys, 8 bits per pass, host-driven passes of count / one-block scan /
// stable scatter. The scatter stages each round's digits in shared memory and every thread
// ranks its key by counting the equal digits of the threads before it (a loop over the round),
// and 256 threads each recount one digit to advance the tile's running offsets.
#include <cstdio>
#include <cuda_runtime.h>

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
#define getLastCudaError(msg) check(cudaGetLastError(), msg, __FILE__, __LINE__)
static int g_lastError = 0;
static void check(cudaError_t result, const char* what, const char* file, int line) {
    if (result != cudaSuccess) {
        fprintf(stderr, "%s(%d): CUDA error %d (%s) in %s\n", file, line, (int)result,
                cudaGetErrorString(result), what);
        g_lastError = (int)result;
    }
}

#define RADIX_BITS 8
#define SORT_THREADS 256
#define SORT_ITEMS 16
#define SCAN_THREADS 1024

template <int BITS, int THREADS, int ITEMS>
__global__ void digitCount(const unsigned int* __restrict__ src, unsigned int* __restrict__ counts,
                           int n, int shift, int numTiles) {
    constexpr int RADIX = 1 << BITS;
    __shared__ unsigned int hist[RADIX];
    for (int d = threadIdx.x; d < RADIX; d += THREADS) hist[d] = 0;
    __syncthreads();
    size_t tileStart = (size_t)blockIdx.x * THREADS * ITEMS;
    for (int r = 0; r < ITEMS; ++r) {
        size_t i = tileStart + (size_t)r * THREADS + threadIdx.x;
        if (i < (size_t)n) atomicAdd(&hist[(src[i] >> shift) & (RADIX - 1)], 1u);
    }
    __syncthreads();
    for (int d = threadIdx.x; d < RADIX; d += THREADS) counts[(size_t)d * numTiles + blockIdx.x] = hist[d];
}

// exclusive scan of `total` counts in place, by one block: each thread owns a contiguous chunk
__global__ void scanDigitOffsets(unsigned int* counts, int total) {
    __shared__ unsigned int sums[SCAN_THREADS];
    int chunk = (total + SCAN_THREADS - 1) / SCAN_THREADS;
    int start = threadIdx.x * chunk;
    int end = min(start + chunk, total);
    unsigned int s = 0;
    for (int i = start; i < end; ++i) s += counts[i];
    sums[threadIdx.x] = s;
    __syncthreads();
    for (int off = 1; off < SCAN_THREADS; off <<= 1) {
        unsigned int v = threadIdx.x >= off ? sums[threadIdx.x - off] : 0u;
        __syncthreads();
        sums[threadIdx.x] += v;
        __syncthreads();
    }
    unsigned int running = sums[threadIdx.x] - s;
    for (int i = start; i < end; ++i) {
        unsigned int c = counts[i];
        counts[i] = running;
        running += c;
    }
}

template <int BITS, int THREADS, int ITEMS>
__global__ void digitScatterNaiveRank(const unsigned int* __restrict__ src, unsigned int* __restrict__ dst,
                                      const unsigned int* __restrict__ offsets, int n, int shift,
                                      int numTiles) {
    constexpr int RADIX = 1 << BITS;
    __shared__ unsigned int base[RADIX];
    __shared__ int digits[THREADS];
    const int tid = threadIdx.x;
    for (int d = tid; d < RADIX; d += THREADS) base[d] = offsets[(size_t)d * numTiles + blockIdx.x];
    size_t tileStart = (size_t)blockIdx.x * THREADS * ITEMS;

    for (int r = 0; r < ITEMS; ++r) {
        size_t i = tileStart + (size_t)r * THREADS + tid;
        bool valid = i < (size_t)n;
        unsigned int key = valid ? src[i] : 0u;
        int d = valid ? (int)((key >> shift) & (RADIX - 1)) : RADIX;
        digits[tid] = d;
        __syncthreads();
        if (valid) {
            unsigned int rank = 0;
            for (int j = 0; j < tid; ++j) rank += digits[j] == d;
            dst[base[d] + rank] = key;
        }
        __syncthreads();
        for (int dd = tid; dd < RADIX; dd += THREADS) {
            unsigned int t = 0;
            for (int j = 0; j < THREADS; ++j) t += digits[j] == dd;
            base[dd] += t;
        }
        __syncthreads();
    }
}

static unsigned int* d_tmp[2] = {nullptr, nullptr};
static unsigned int* d_counts = nullptr;
static size_t d_capacity = 0;
static size_t d_countCapacity = 0;

extern "C" int radix_sort_keys(const unsigned int* d_in, unsigned int* d_out, int n) {
    const int radix = 1 << RADIX_BITS;
    const int tile = SORT_THREADS * SORT_ITEMS;
    const int passes = 32 / RADIX_BITS;
    g_lastError = 0;
    if (n <= 0) return 0;
    int numTiles = (n + tile - 1) / tile;
    if ((size_t)n > d_capacity) {
        for (int b = 0; b < 2; ++b) {
            if (d_tmp[b]) checkCudaErrors(cudaFree(d_tmp[b]));
            checkCudaErrors(cudaMalloc((void**)&d_tmp[b], (size_t)n * sizeof(unsigned int)));
        }
        d_capacity = n;
    }
    if ((size_t)radix * numTiles > d_countCapacity) {
        if (d_counts) checkCudaErrors(cudaFree(d_counts));
        checkCudaErrors(cudaMalloc((void**)&d_counts, (size_t)radix * numTiles * sizeof(unsigned int)));
        d_countCapacity = (size_t)radix * numTiles;
    }
    if (g_lastError) return g_lastError;

    for (int pass = 0; pass < passes; ++pass) {
        const unsigned int* src = pass == 0 ? d_in : d_tmp[(pass - 1) & 1];
        unsigned int* dst = pass == passes - 1 ? d_out : d_tmp[pass & 1];
        int shift = pass * RADIX_BITS;
        digitCount<RADIX_BITS, SORT_THREADS, SORT_ITEMS><<<numTiles, SORT_THREADS>>>(src, d_counts, n, shift, numTiles);
        getLastCudaError("digitCount");
        scanDigitOffsets<<<1, SCAN_THREADS>>>(d_counts, radix * numTiles);
        getLastCudaError("scanDigitOffsets");
        digitScatterNaiveRank<RADIX_BITS, SORT_THREADS, SORT_ITEMS><<<numTiles, SORT_THREADS>>>(src, dst, d_counts, n, shift, numTiles);
        getLastCudaError("digitScatterNaiveRank");
    }
    return g_lastError;
}
