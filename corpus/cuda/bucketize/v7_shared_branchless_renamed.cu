// Bucketize (right=True, nb <= 1024): the shared-memory branchless search with renamed variables, the element loaded before the staging barrier and the step taken as an added 0 or step.
#include <cuda_runtime.h>

#define THREADS 256
#define MAX_NB  1024

// kforecast: n = 1 << 24; nb = 1024; x: f32[n] randint(-8,1032); boundaries: f32[nb] arange; out: i32[n]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
bucketize(const float* __restrict__ x, const float* __restrict__ boundaries, int* __restrict__ out, int n, int nb)
{
    __shared__ float edges[MAX_NB];
    const int gid = blockIdx.x * THREADS + threadIdx.x;
    const float key = gid < n ? x[gid] : 0.0f;
    for (int k = threadIdx.x; k < nb; k += THREADS) edges[k] = boundaries[k];
    __syncthreads();
    if (gid >= n) return;
    int below = 0;
    for (int half = 1 << (31 - __clz(nb)); half != 0; half >>= 1) {
        const int next = below + half;
        const bool take = next <= nb && edges[min(next, nb) - 1] <= key;
        below += take ? half : 0;
    }
    out[gid] = below;
}

extern "C" void launch_bucketize(const float* x, const float* boundaries, int* out, int n, int nb, cudaStream_t stream)
{
    bucketize<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(x, boundaries, out, n, nb);
}
