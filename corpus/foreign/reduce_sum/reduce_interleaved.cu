// Parallel sum, the textbook first try: each block reduces 256 elements in shared
// memory with interleaved addressing (tid % (2*s) == 0, divergent warps), and the
// host relaunches the kernel on the block sums until one value is left.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 256
#define CUDA_CHECK(x)                                                                     \
    do {                                                                                  \
        cudaError_t e = (x);                                                              \
        if (e != cudaSuccess) {                                                           \
            fprintf(stderr, "reduce: %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
            return (int)e;                                                                \
        }                                                                                 \
    } while (0)

__global__ void reduce0_interleaved(const float* in, float* out, long long n)
{
    __shared__ float sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    long long i = (long long)blockIdx.x * BLOCK + tid;
    sdata[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int s = 1; s < BLOCK; s *= 2) {
        if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0) out[blockIdx.x] = sdata[0];
}

static float* d_buf[2] = {nullptr, nullptr};
static long long d_cap = 0;

extern "C" int reduce_sum_f32(const float* x, float* out, long long n)
{
    long long blocks = (n + BLOCK - 1) / BLOCK;
    if (blocks > d_cap) {
        for (int k = 0; k < 2; ++k) {
            if (d_buf[k]) CUDA_CHECK(cudaFree(d_buf[k]));
            CUDA_CHECK(cudaMalloc(&d_buf[k], blocks * sizeof(float)));
        }
        d_cap = blocks;
    }
    const float* src = x;
    int which = 0;
    while (n > 1) {
        blocks = (n + BLOCK - 1) / BLOCK;
        float* dst = blocks == 1 ? out : d_buf[which];
        reduce0_interleaved<<<(unsigned)blocks, BLOCK>>>(src, dst, n);
        CUDA_CHECK(cudaGetLastError());
        src = dst;
        which ^= 1;
        n = blocks;
    }
    if (src != out) CUDA_CHECK(cudaMemcpy(out, src, sizeof(float), cudaMemcpyDeviceToDevice));
    return 0;
}
