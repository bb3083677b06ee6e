// Bucketize (right=True, nb <= 1024): each block stages the boundaries in shared memory (coalesced), then one thread per element runs the branchy upper-bound binary search there.
#include <cuda_runtime.h>

#define THREADS 256
#define MAX_NB  1024

// kforecast: n = 1 << 24; nb = 1024; x: f32[n] randint(-8,1032); boundaries: f32[nb] arange; out: i32[n]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
bucketize(const float* __restrict__ x, const float* __restrict__ boundaries, int* __restrict__ out, int n, int nb)
{
    __shared__ float sb[MAX_NB];
    for (int j = threadIdx.x; j < nb; j += THREADS) sb[j] = boundaries[j];
    __syncthreads();
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i >= n) return;
    const float v = x[i];
    int lo = 0, hi = nb;
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (sb[mid] <= v) lo = mid + 1;
        else hi = mid;
    }
    out[i] = lo;
}

extern "C" void launch_bucketize(const float* x, const float* boundaries, int* out, int n, int nb, cudaStream_t stream)
{
    bucketize<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, boundaries, out, n, nb);
}
