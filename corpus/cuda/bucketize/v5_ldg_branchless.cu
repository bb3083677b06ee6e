// Bucketize (right=True): no shared staging, the branchless binary lifting reads the boundaries through the read-only cache with __ldg, one element per thread.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 24; nb = 1024; x: f32[n] randint(-8,1032); boundaries: f32[nb] arange; out: i32[n]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
bucketize(const float* __restrict__ x, const float* __restrict__ boundaries, int* __restrict__ out, int n, int nb)
{
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i >= n) return;
    const float v = __ldg(&x[i]);
    int pos = 0;
    for (int step = 1 << (31 - __clz(nb)); step > 0; step >>= 1) {
        const int probe = pos + step;
        const float b = __ldg(&boundaries[min(probe, nb) - 1]);
        pos = (probe <= nb && b <= v) ? probe : pos;
    }
    out[i] = pos;
}

extern "C" void launch_bucketize(const float* x, const float* boundaries, int* out, int n, int nb, cudaStream_t stream)
{
    bucketize<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, boundaries, out, n, nb);
}
