// Bucketize (right=True): one thread per element, upper-bound binary search (first boundary > x) with branches, boundaries read from global memory.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 24; nb = 1024; x: f32[n] randint(-8,1032); boundaries: f32[nb] arange; out: i32[n]; rtol = 0; atol = 0
__global__ void bucketize(const float* __restrict__ x, const float* __restrict__ boundaries, int* __restrict__ out, int n, int nb)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float v = x[i];
    int lo = 0, hi = nb;
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (boundaries[mid] <= v) lo = mid + 1;
        else hi = mid;
    }
    out[i] = lo;
}

extern "C" void launch_bucketize(const float* x, const float* boundaries, int* out, int n, int nb, cudaStream_t stream)
{
    bucketize<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, boundaries, out, n, nb);
}
