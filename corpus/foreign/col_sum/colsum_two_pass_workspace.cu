// Column sums in two passes through a device workspace:
//   pass 1  partial_col_sums  [slabs x cols] partial sums, one slab of rows per blockIdx.y
//   pass 2  reduce_partials   adds the slabs of each column
// The workspace is allocated on first use and grown when a larger problem comes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(call)                                                                        \
    do {                                                                                \
        cudaError_t rc_ = (call);                                                       \
        if (rc_ != cudaSuccess) {                                                       \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(rc_)); \
            return (int)rc_;                                                            \
        }                                                                               \
    } while (0)

namespace {

constexpr int kSlabRows = 128;
constexpr int kThreads = 256;

struct Workspace {
    float* partial = nullptr;
    size_t capacity = 0;  // floats
};

Workspace g_ws;

int ensure_workspace(size_t floats)
{
    if (g_ws.capacity >= floats) return 0;
    if (g_ws.partial) CK(cudaFree(g_ws.partial));
    g_ws.partial = nullptr;
    g_ws.capacity = 0;
    CK(cudaMalloc(&g_ws.partial, floats * sizeof(float)));
    g_ws.capacity = floats;
    return 0;
}

}  // namespace

__global__ void partial_col_sums(const float* __restrict__ x, float* __restrict__ partial, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int slab = blockIdx.y;
    if (c >= cols) return;
    int r0 = slab * kSlabRows;
    int r1 = r0 + kSlabRows < rows ? r0 + kSlabRows : rows;
    float s0 = 0.f, s1 = 0.f;
    int r = r0;
    for (; r + 1 < r1; r += 2) {
        s0 += x[(size_t)r * cols + c];
        s1 += x[(size_t)(r + 1) * cols + c];
    }
    if (r < r1) s0 += x[(size_t)r * cols + c];
    partial[(size_t)slab * cols + c] = s0 + s1;
}

__global__ void reduce_partials(const float* __restrict__ partial, float* __restrict__ out, int slabs, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float s = 0.f;
    for (int k = 0; k < slabs; ++k) s += partial[(size_t)k * cols + c];
    out[c] = s;
}

extern "C" int column_sums(const float* x, float* out, int rows, int cols)
{
    if (rows <= 0 || cols <= 0) return (int)cudaErrorInvalidValue;
    const int slabs = (rows + kSlabRows - 1) / kSlabRows;
    if (int rc = ensure_workspace((size_t)slabs * cols)) return rc;
    const dim3 grid1((cols + kThreads - 1) / kThreads, slabs);
    partial_col_sums<<<grid1, kThreads>>>(x, g_ws.partial, rows, cols);
    CK(cudaGetLastError());
    reduce_partials<<<(cols + kThreads - 1) / kThreads, kThreads>>>(g_ws.partial, out, slabs, cols);
    CK(cudaGetLastError());
    return 0;
}
