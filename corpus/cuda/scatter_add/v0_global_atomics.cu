// out[idx[i]] += val[i] (float, bins <= 4096): one global atomicAdd per element.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 22; bins = 4096; idx: i32[n] randint(0,4096); val: f32[n] randn; out: f32[bins] zeros; rtol = 1e-3; atol = 2e-3
__global__ void scatter_add(const int* __restrict__ idx, const float* __restrict__ val, float* __restrict__ out, int n, int bins)
{
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i < n) atomicAdd(&out[idx[i]], val[i]);
}

extern "C" void launch_scatter_add(const int* idx, const float* val, float* out, int n, int bins, cudaStream_t stream)
{
    scatter_add<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(idx, val, out, n, bins);
}
