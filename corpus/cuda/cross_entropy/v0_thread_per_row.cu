// Per-row cross-entropy loss, one thread per row: a max pass, a sum-of-exp pass and
// the label's logit, all sequential over the row (uncoalesced: a warp touches 32 rows per step).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 128

// kforecast: rows = 8192; classes = 4096; logits: f32[rows, classes] randn; labels: i32[rows] randint(0,4096); loss: f32[rows]; rtol = 1e-4; atol = 1e-4
__global__ void cross_entropy(const float* __restrict__ logits, const int* __restrict__ labels, float* __restrict__ loss,
                              int rows, int classes)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    const float* x = logits + (size_t)r * classes;
    float m = -INFINITY;
    for (int c = 0; c < classes; ++c) m = fmaxf(m, x[c]);
    float s = 0.0f;
    for (int c = 0; c < classes; ++c) s += expf(x[c] - m);
    loss[r] = m + logf(s) - x[labels[r]];
}

extern "C" void launch_cross_entropy(const float* logits, const int* labels, float* loss, int rows, int classes,
                                     cudaStream_t stream)
{
    cross_entropy<<<(rows + THREADS - 1) / THREADS, THREADS, 0, stream>>>(logits, labels, loss, rows, classes);
}
