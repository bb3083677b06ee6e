// Sum reduction of a float32 vector into a single float.
#include <cuda_runtime.h>

#define REDUCE_THREADS 256
#define BLOCKS_PER_SM  4
#define WARP_SIZE      32
#define FULL_MASK      0xffffffffu

__device__ __forceinline__ float warp_reduce_sum(float v)
{
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;  // valid in lane 0
}

// Grid-stride accumulation in registers, then warp shuffles, then one
// shared-memory round across the block's warps, then one atomicAdd per block.
// *out must be zeroed before the launch (the wrapper does it).
// kforecast: n = 1 << 24; in: f32[n]; out: f32[1] zeros; rtol = 1e-3; atol = 0.5
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n)
{
    static_assert(BLOCK % WARP_SIZE == 0 && BLOCK <= 1024, "BLOCK must be a multiple of 32, <= 1024");
    constexpr int NUM_WARPS = BLOCK / WARP_SIZE;
    __shared__ float warp_sums[NUM_WARPS];

    float acc = 0.0f;
    const int stride = gridDim.x * BLOCK;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += stride)
        acc += in[i];

    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;

    acc = warp_reduce_sum(acc);
    if (lane == 0) warp_sums[warp] = acc;
    __syncthreads();

    if (warp == 0) {
        acc = lane < NUM_WARPS ? warp_sums[lane] : 0.0f;
        acc = warp_reduce_sum(acc);
        if (lane == 0) atomicAdd(out, acc);
    }
}

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

static int num_sms()
{
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    return sms > 0 ? sms : 1;
}

// out: device pointer to one float; receives sum(in[0..n)).
extern "C" void launch_reduce_sum(const float* in, float* out, int n, cudaStream_t stream)
{
    cudaMemsetAsync(out, 0, sizeof(float), stream);
    if (n <= 0) return;
    int blocks = ceil_div(n, REDUCE_THREADS);
    const int max_blocks = num_sms() * BLOCKS_PER_SM;
    if (blocks > max_blocks) blocks = max_blocks;
    dim3 block(REDUCE_THREADS);
    dim3 grid(blocks);
    reduce_sum<REDUCE_THREADS><<<grid, block, 0, stream>>>(in, out, n);
}
