// Row-wise softmax of a row-major float32 matrix (rows x cols), one block per row.
#include <cuda_runtime.h>
#include <math.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffffu

// Merge running (max, sum-of-exp) pair (m_o, s_o) into (m, s):
// s = s * e^(m - m') + s_o * e^(m_o - m'), m' = max(m, m_o).
__device__ __forceinline__ void online_merge(float& m, float& s, float m_o, float s_o)
{
    const float m_new = fmaxf(m, m_o);
    if (m_new == -INFINITY) return;  // both sides empty
    s = s * __expf(m - m_new) + s_o * __expf(m_o - m_new);
    m = m_new;
}

__device__ __forceinline__ void warp_online_merge(float& m, float& s)
{
#pragma unroll
    for (int offset = WARP_SIZE / 2; offset > 0; offset >>= 1) {
        const float m_o = __shfl_xor_sync(FULL_MASK, m, offset);
        const float s_o = __shfl_xor_sync(FULL_MASK, s, offset);
        online_merge(m, s, m_o, s_o);
    }
}

// Pass 1 reads the row once, keeping an online (max, sum) per thread, merged
// across the block. Pass 2 reads the row again and writes exp(x - max) / sum.
// kforecast: rows = 256; cols = 65536; in: f32[rows, cols]; out: f32[rows, cols]; BLOCK = 1024; block = 1024
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
softmax_rows(const float* __restrict__ in, float* __restrict__ out, int cols)
{
    constexpr int NUM_WARPS = BLOCK / WARP_SIZE;
    __shared__ float s_max[NUM_WARPS];
    __shared__ float s_sum[NUM_WARPS];

    const float* x = in + (size_t)blockIdx.x * cols;
    float* y = out + (size_t)blockIdx.x * cols;

    float m = -INFINITY, s = 0.0f;
    for (int i = threadIdx.x; i < cols; i += BLOCK) {
        const float v = x[i];
        if (v > m) {            // rescale only when the running max grows
            s *= __expf(m - v);
            m = v;
        }
        s += __expf(v - m);
    }

    const int lane = threadIdx.x % WARP_SIZE;
    const int warp = threadIdx.x / WARP_SIZE;
    warp_online_merge(m, s);
    if (lane == 0) { s_max[warp] = m; s_sum[warp] = s; }
    __syncthreads();
    m = lane < NUM_WARPS ? s_max[lane] : -INFINITY;
    s = lane < NUM_WARPS ? s_sum[lane] : 0.0f;
    warp_online_merge(m, s);  // every warp ends with the row's (max, sum)

    const float inv_sum = 1.0f / s;
    for (int i = threadIdx.x; i < cols; i += BLOCK)
        y[i] = __expf(x[i] - m) * inv_sum;
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
