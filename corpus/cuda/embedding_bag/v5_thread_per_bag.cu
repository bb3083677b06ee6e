// Embedding bag sum: one thread per bag sums all columns serially (column loop
// outside, bag loop inside): few threads, and a warp's loads hit 32 different rows.
#include <cuda_runtime.h>

#define THREADS 128

// kforecast: rows = 262144; dim = 128; num_bags = 16384; bag = 32; W: f32[rows, dim] randn; idx: i32[num_bags * bag] randint(0,262144); out: f32[num_bags, dim]; rtol = 1e-4; atol = 1e-4
__global__ void embedding_bag(const float* __restrict__ W, const int* __restrict__ idx, float* __restrict__ out, int num_bags, int bag, int dim)
{
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= num_bags) return;
    const int* ids = idx + (size_t)b * bag;
    float* o = out + (size_t)b * dim;
    for (int c = 0; c < dim; ++c) {
        float acc = 0.0f;
        for (int j = 0; j < bag; ++j) acc += W[(size_t)ids[j] * dim + c];
        o[c] = acc;
    }
}

extern "C" void launch_embedding_bag(const float* W, const int* idx, float* out, int num_bags, int bag, int dim,
                                     cudaStream_t stream)
{
    embedding_bag<<<(num_bags + THREADS - 1) / THREADS, THREADS, 0, stream>>>(W, idx, out, num_bags, bag, dim);
}
