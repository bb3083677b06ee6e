// Elementwise kernels: saxpy, scale, relu.
// All pointers are device pointers from cudaMalloc.
#include <cuda_runtime.h>

#define ELEMWISE_THREADS 256
#define BLOCKS_PER_SM    8      // 8 x 256 threads = 2048 = full occupancy on sm_90

// y[i] = a * x[i] + y[i].
// 128-bit loads/stores (float4) over a grid-stride loop; the last n % 4
// elements are handled by a scalar tail. x and y must be 16-byte aligned
// (always true for cudaMalloc'd buffers used from offset 0).
// kforecast: n = 1 << 24; a = 2.0
__global__ void __launch_bounds__(ELEMWISE_THREADS)
saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y)
{
    const int n4 = n >> 2;
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = gridDim.x * blockDim.x;
    const float4* __restrict__ x4 = reinterpret_cast<const float4*>(x);
    float4* __restrict__ y4 = reinterpret_cast<float4*>(y);

    for (int i = tid; i < n4; i += stride) {
        const float4 xv = x4[i];
        float4 yv = y4[i];
        yv.x = fmaf(a, xv.x, yv.x);
        yv.y = fmaf(a, xv.y, yv.y);
        yv.z = fmaf(a, xv.z, yv.z);
        yv.w = fmaf(a, xv.w, yv.w);
        y4[i] = yv;
    }

    // Tail: at most 3 elements, taken by the first threads of the grid.
    const int t = (n4 << 2) + tid;
    if (t < n) y[t] = fmaf(a, x[t], y[t]);
}

// Scale every element by alpha: out[i] = alpha * in[i].
// kforecast: n = 1 << 24; alpha = 0.5
__global__ void __launch_bounds__(ELEMWISE_THREADS)
scale(int n, float alpha, const float* __restrict__ in, float* __restrict__ out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = alpha * in[i];
}

__device__ __forceinline__ float relu_op(float v)
{
    return v > 0.0f ? v : 0.0f;
}

// kforecast: n = 1 << 24
__global__ void __launch_bounds__(ELEMWISE_THREADS)
relu(int n, const float* __restrict__ in, float* __restrict__ out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = relu_op(in[i]);
}

static inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

static int num_sms()
{
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    return sms > 0 ? sms : 1;
}

extern "C" void launch_saxpy(int n, float a, const float* x, float* y, cudaStream_t stream)
{
    if (n <= 0) return;
    const int n4 = n >> 2;
    // Enough blocks to fill the GPU once; the grid-stride loop covers the rest.
    int blocks = ceil_div(n4 > 0 ? n4 : 1, ELEMWISE_THREADS);
    const int max_blocks = num_sms() * BLOCKS_PER_SM;
    if (blocks > max_blocks) blocks = max_blocks;
    dim3 block(ELEMWISE_THREADS);
    dim3 grid(blocks);
    saxpy<<<grid, block, 0, stream>>>(n, a, x, y);
}

extern "C" void launch_scale(int n, float alpha, const float* in, float* out, cudaStream_t stream)
{
    if (n <= 0) return;
    dim3 block(ELEMWISE_THREADS);
    dim3 grid(ceil_div(n, ELEMWISE_THREADS));
    scale<<<grid, block, 0, stream>>>(n, alpha, in, out);
}

extern "C" void launch_relu(int n, const float* in, float* out, cudaStream_t stream)
{
    if (n <= 0) return;
    dim3 block(ELEMWISE_THREADS);
    dim3 grid(ceil_div(n, ELEMWISE_THREADS));
    relu<<<grid, block, 0, stream>>>(n, in, out);
}
