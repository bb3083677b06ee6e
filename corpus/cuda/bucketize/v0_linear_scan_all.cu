// Bucketize (right=True): naive, one thread per element counts every boundary <= x[i] with a full linear scan of the 1024 boundaries in global memory.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 24; nb = 1024; x: f32[n] randint(-8,1032); boundaries: f32[nb] arange; out: i32[n]; rtol = 0; atol = 0
__global__ void bucketize(const float* __restrict__ x, const float* __restrict__ boundaries, int* __restrict__ out, int n, int nb)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float v = x[i];
    int count = 0;
    for (int j = 0; j < nb; ++j) count += boundaries[j] <= v ? 1 : 0;
    out[i] = count;
}

extern "C" void launch_bucketize(const float* x, const float* boundaries, int* out, int n, int nb, cudaStream_t stream)
{
    bucketize<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, boundaries, out, n, nb);
}
