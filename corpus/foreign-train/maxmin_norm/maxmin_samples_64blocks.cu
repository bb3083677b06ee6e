// Per-image max-min normalisation, y = (x - min) / (max - min), CUDA-samples style: the
// templated reduction picked by a switch over the thread count, but with at most 64 blocks of
// 512 threads per image (each thread strides over the image), so the host loop runs two
// passes and the partial buffers stay tiny.
#include <cstdio>
#include <cuda_runtime.h>

#define checkCudaErrors(val) check((val), #val, __FILE__, __LINE__)
static int g_lastError = 0;
static void check(cudaError_t result, const char* func, const char* file, int line) {
    if (result) {
        fprintf(stderr, "CUDA error at %s:%d code=%d(%s) \"%s\"\n", file, line, (int)result,
                cudaGetErrorString(result), func);
        g_lastError = (int)result;
    }
}

static unsigned int nextPow2(unsigned int x) {
    --x;
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    return ++x;
}

static void getNumBlocksAndThreads(int n, int maxBlocks, int maxThreads, int& blocks, int& threads) {
    threads = (n < maxThreads * 2) ? nextPow2((n + 1) / 2) : maxThreads;
    blocks = (n + (threads * 2 - 1)) / (threads * 2);
    if (blocks > maxBlocks) blocks = maxBlocks;
}

// blockIdx.y is the image; each image's input starts at blockIdx.y * n, its output at
// blockIdx.y * gridDim.x.
template <unsigned int blockSize>
__global__ void reduceMinMax(const float* g_imin, const float* g_imax, float* g_omin,
                             float* g_omax, unsigned int n) {
    extern __shared__ float sdata[];
    float* smin = sdata;
    float* smax = sdata + blockSize;
    unsigned int tid = threadIdx.x;
    const float* imin = g_imin + (size_t)blockIdx.y * n;
    const float* imax = g_imax + (size_t)blockIdx.y * n;
    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
    unsigned int gridSize = blockSize * 2 * gridDim.x;

    float mn = 3.402823466e+38f, mx = -3.402823466e+38f;
    while (i < n) {
        mn = fminf(mn, imin[i]);
        mx = fmaxf(mx, imax[i]);
        if (i + blockSize < n) {
            mn = fminf(mn, imin[i + blockSize]);
            mx = fmaxf(mx, imax[i + blockSize]);
        }
        i += gridSize;
    }
    smin[tid] = mn;
    smax[tid] = mx;
    __syncthreads();

#pragma unroll
    for (unsigned int s = blockSize / 2; s > 0; s >>= 1) {
        if (tid < s) {
            smin[tid] = mn = fminf(mn, smin[tid + s]);
            smax[tid] = mx = fmaxf(mx, smax[tid + s]);
        }
        __syncthreads();
    }
    if (tid == 0) {
        g_omin[(size_t)blockIdx.y * gridDim.x + blockIdx.x] = smin[0];
        g_omax[(size_t)blockIdx.y * gridDim.x + blockIdx.x] = smax[0];
    }
}

__global__ void normalizeImages(const float* x, float* y, const float* mins, const float* maxs,
                                unsigned int pixels) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= pixels) return;
    size_t off = (size_t)blockIdx.y * pixels + i;
    float lo = mins[blockIdx.y];
    float hi = maxs[blockIdx.y];
    y[off] = (x[off] - lo) / (hi - lo);
}

static void reduce(int size, int threads, int blocks, int images, const float* dmin,
                   const float* dmax, float* omin, float* omax) {
    dim3 dimBlock(threads, 1, 1);
    dim3 dimGrid(blocks, images, 1);
    int smemSize = 2 * threads * sizeof(float);
    switch (threads) {
        case 512: reduceMinMax<512><<<dimGrid, dimBlock, smemSize>>>(dmin, dmax, omin, omax, size); break;
        case 256: reduceMinMax<256><<<dimGrid, dimBlock, smemSize>>>(dmin, dmax, omin, omax, size); break;
        case 128: reduceMinMax<128><<<dimGrid, dimBlock, smemSize>>>(dmin, dmax, omin, omax, size); break;
        case 64: reduceMinMax<64><<<dimGrid, dimBlock, smemSize>>>(dmin, dmax, omin, omax, size); break;
        case 32: reduceMinMax<32><<<dimGrid, dimBlock, smemSize>>>(dmin, dmax, omin, omax, size); break;
        case 16: reduceMinMax<16><<<dimGrid, dimBlock, smemSize>>>(dmin, dmax, omin, omax, size); break;
        case 8: reduceMinMax<8><<<dimGrid, dimBlock, smemSize>>>(dmin, dmax, omin, omax, size); break;
        case 4: reduceMinMax<4><<<dimGrid, dimBlock, smemSize>>>(dmin, dmax, omin, omax, size); break;
        case 2: reduceMinMax<2><<<dimGrid, dimBlock, smemSize>>>(dmin, dmax, omin, omax, size); break;
        case 1: reduceMinMax<1><<<dimGrid, dimBlock, smemSize>>>(dmin, dmax, omin, omax, size); break;
    }
}

static float* d_partMin[2] = {nullptr, nullptr};
static float* d_partMax[2] = {nullptr, nullptr};
static size_t d_partCount = 0;

extern "C" int maxmin_normalize(const float* d_x, float* d_y, int images, int pixels) {
    const int maxThreads = 512;
    const int maxBlocks = 64;
    g_lastError = 0;
    int blocks = 0, threads = 0;
    getNumBlocksAndThreads(pixels, maxBlocks, maxThreads, blocks, threads);
    size_t need = (size_t)blocks * images;
    if (need > d_partCount) {
        for (int b = 0; b < 2; ++b) {
            if (d_partMin[b]) checkCudaErrors(cudaFree(d_partMin[b]));
            if (d_partMax[b]) checkCudaErrors(cudaFree(d_partMax[b]));
            checkCudaErrors(cudaMalloc((void**)&d_partMin[b], need * sizeof(float)));
            checkCudaErrors(cudaMalloc((void**)&d_partMax[b], need * sizeof(float)));
        }
        d_partCount = need;
    }
    if (g_lastError) return g_lastError;

    // first pass reads the pixels for both the min and the max
    reduce(pixels, threads, blocks, images, d_x, d_x, d_partMin[0], d_partMax[0]);
    checkCudaErrors(cudaGetLastError());
    int s = blocks;
    int cur = 0;
    while (s > 1) {
        getNumBlocksAndThreads(s, maxBlocks, maxThreads, blocks, threads);
        reduce(s, threads, blocks, images, d_partMin[cur], d_partMax[cur], d_partMin[cur ^ 1],
               d_partMax[cur ^ 1]);
        checkCudaErrors(cudaGetLastError());
        cur ^= 1;
        s = blocks;
    }

    dim3 nb(256);
    dim3 ng((pixels + nb.x - 1) / nb.x, images);
    normalizeImages<<<ng, nb>>>(d_x, d_y, d_partMin[cur], d_partMax[cur], pixels);
    checkCudaErrors(cudaGetLastError());
    return g_lastError;
}
