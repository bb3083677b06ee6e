// Per-row cross-entropy loss, one block of 256 threads per row, three passes: max
// (shared-memory tree), sum of exp (shared-memory tree), then the label's logit.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: rows = 8192; classes = 4096; logits: f32[rows, classes] randn; labels: i32[rows] randint(0,4096); loss: f32[rows]; rtol = 1e-4; atol = 1e-4
__global__ void cross_entropy(const float* __restrict__ logits, const int* __restrict__ labels, float* __restrict__ loss,
                              int rows, int classes)
{
    __shared__ float red[THREADS];
    const float* x = logits + (size_t)blockIdx.x * classes;
    const int t = threadIdx.x;

    float m = -INFINITY;
    for (int c = t; c < classes; c += THREADS) m = fmaxf(m, x[c]);
    red[t] = m;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s) red[t] = fmaxf(red[t], red[t + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();

    float sum = 0.0f;
    for (int c = t; c < classes; c += THREADS) sum += expf(x[c] - m);
    red[t] = sum;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    if (t == 0) loss[blockIdx.x] = m + logf(red[0]) - x[labels[blockIdx.x]];
}

extern "C" void launch_cross_entropy(const float* logits, const int* labels, float* loss, int rows, int classes,
                                     cudaStream_t stream)
{
    cross_entropy<<<rows, THREADS, 0, stream>>>(logits, labels, loss, rows, classes);
}
