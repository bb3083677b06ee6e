// Embedding bag sum: out[b, :] = sum_j W[idx[b * bag + j], :]. One thread per
// (bag, column), bags on threadIdx.x and columns on threadIdx.y, so a warp reads
// one float from each of 32 different rows (uncoalesced).
#include <cuda_runtime.h>

#define BAGS_X 32
#define COLS_Y 8

// kforecast: rows = 262144; dim = 128; num_bags = 16384; bag = 32; W: f32[rows, dim] randn; idx: i32[num_bags * bag] randint(0,262144); out: f32[num_bags, dim]; rtol = 1e-4; atol = 1e-4
__global__ void embedding_bag(const float* __restrict__ W, const int* __restrict__ idx, float* __restrict__ out, int num_bags, int bag, int dim)
{
    const int b = blockIdx.x * BAGS_X + threadIdx.x;
    const int c = blockIdx.y * COLS_Y + threadIdx.y;
    if (b >= num_bags || c >= dim) return;
    const int* ids = idx + (size_t)b * bag;
    float acc = 0.0f;
    for (int j = 0; j < bag; ++j) acc += W[(size_t)ids[j] * dim + c];
    out[(size_t)b * dim + c] = acc;
}

extern "C" void launch_embedding_bag(const float* W, const int* idx, float* out, int num_bags, int bag, int dim,
                                     cudaStream_t stream)
{
    dim3 block(BAGS_X, COLS_Y);
    dim3 grid((num_bags + BAGS_X - 1) / BAGS_X, (dim + COLS_Y - 1) / COLS_Y);
    embedding_bag<<<grid, block, 0, stream>>>(W, idx, out, num_bags, bag, dim);
}
