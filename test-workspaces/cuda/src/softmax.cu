// Row-wise softmax of a row-major float32 matrix (rows x cols), one block per row.
#include <cuda_runtime.h>
#include <math.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        v = fmaxf(v, __shfl_xor_sync(FULL_MASK, v, offset));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1)
        v += __shfl_xor_sync(FULL_MASK, v, offset);
    return v;
}

// Block-wide max / sum; every thread gets the result. `smem` holds BLOCK/32 floats.
template <int BLOCK>
__device__ float block_max(float v, float* smem)
{
    const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
    v = warp_max(v);
    if (lane == 0) smem[warp] = v;
    __syncthreads();
    v = warp_max(lane < BLOCK / WARP_SIZE ? smem[lane] : -INFINITY);
    __syncthreads();  // smem is reused by the next reduction
    return v;
}

template <int BLOCK>
__device__ float block_sum(float v, float* smem)
{
    const int lane = threadIdx.x % WARP_SIZE, warp = threadIdx.x / WARP_SIZE;
    v = warp_sum(v);
    if (lane == 0) smem[warp] = v;
    __syncthreads();
    v = warp_sum(lane < BLOCK / WARP_SIZE ? smem[lane] : 0.0f);
    __syncthreads();
    return v;
}

// Split into one pass per step for readability:
//   1. max over the row            (reads x)
//   2. sum of exp(x - max)         (reads x)
//   3. y = exp(x - max)            (reads x, writes y)
//   4. y *= 1 / sum                (reads y, writes y)
// kforecast: rows = 256; cols = 65536; in: f32[rows, cols]; out: f32[rows, cols]; BLOCK = 1024; block = 1024
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
softmax_rows(const float* __restrict__ in, float* __restrict__ out, int cols)
{
    __shared__ float red[BLOCK / WARP_SIZE];

    const float* x = in + (size_t)blockIdx.x * cols;
    float* y = out + (size_t)blockIdx.x * cols;

    float m = -INFINITY;
    for (int i = threadIdx.x; i < cols; i += BLOCK)
        m = fmaxf(m, x[i]);
    m = block_max<BLOCK>(m, red);

    float s = 0.0f;
    for (int i = threadIdx.x; i < cols; i += BLOCK)
        s += __expf(x[i] - m);
    s = block_sum<BLOCK>(s, red);

    for (int i = threadIdx.x; i < cols; i += BLOCK)
        y[i] = __expf(x[i] - m);

    // Same thread wrote y[i] above, so no barrier is needed.
    const float inv_sum = 1.0f / s;
    for (int i = threadIdx.x; i < cols; i += BLOCK)
        y[i] *= inv_sum;
}

// in, out: rows x cols, row-major, contiguous.
extern "C" void launch_softmax(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    if (rows <= 0 || cols <= 0) return;
    dim3 grid(rows);
    // Wide blocks for long rows: fewer resident rows per SM, so a row read
    // once stays in L1 for the next pass.
    if (cols <= 1024)
        softmax_rows<128><<<grid, 128, 0, stream>>>(in, out, cols);
    else if (cols <= 4096)
        softmax_rows<512><<<grid, 512, 0, stream>>>(in, out, cols);
    else
        softmax_rows<1024><<<grid, 1024, 0, stream>>>(in, out, cols);
}
