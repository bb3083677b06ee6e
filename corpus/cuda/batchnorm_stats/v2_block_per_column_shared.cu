// Per-column mean and variance: one block per column, its 256 threads stride over
// the rows (each warp load touches 32 different rows: uncoalesced), sum and sum of
// squares in one pass, shared-memory tree reduction, var = E[x^2] - mean^2.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: N = 4096; C = 4096; x: f32[N, C] randn; mean: f32[C]; var: f32[C]; ws: f32[2, C] zeros; count: u32[C] zeros; outputs = mean, var; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
bn_stats(const float* __restrict__ x, float* __restrict__ mean, float* __restrict__ var,
         float* __restrict__ ws, unsigned int* __restrict__ count, int N, int C)
{
    __shared__ float sh_s[THREADS];
    __shared__ float sh_ss[THREADS];
    const int c = blockIdx.x;
    const int t = threadIdx.x;
    float s = 0.0f, ss = 0.0f;
    for (int r = t; r < N; r += THREADS) {
        const float v = x[(size_t)r * C + c];
        s += v;
        ss += v * v;
    }
    sh_s[t] = s;
    sh_ss[t] = ss;
    __syncthreads();
    for (int h = THREADS / 2; h > 0; h >>= 1) {
        if (t < h) {
            sh_s[t] += sh_s[t + h];
            sh_ss[t] += sh_ss[t + h];
        }
        __syncthreads();
    }
    if (t == 0) {
        const float m = sh_s[0] / N;
        mean[c] = m;
        var[c] = sh_ss[0] / N - m * m;
    }
}

extern "C" void launch_bn_stats(const float* x, float* mean, float* var, float* ws, unsigned int* count, int N, int C,
                                cudaStream_t stream)
{
    bn_stats<<<C, THREADS, 0, stream>>>(x, mean, var, ws, count, N, C);
}
