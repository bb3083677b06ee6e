// Transpose with the thread mapping flipped: writes are coalesced, reads go down
// a column of the input.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK_CUDA(x)                                                          \
    do {                                                                       \
        cudaError_t e_ = (x);                                                  \
        if (e_ != cudaSuccess) {                                               \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), \
                    __FILE__, __LINE__);                                       \
            return (int)e_;                                                    \
        }                                                                      \
    } while (0)
#define AT(p, r, c, ld) (p)[(size_t)(r) * (ld) + (c)]
#define DIV_UP(a, b) (((a) + (b) - 1) / (b))
#define TX 32
#define TY 8

__global__ void transpose_write_coalesced(const float* __restrict__ src, float* __restrict__ dst,
                                          int rows, int cols)
{
    // (orow, ocol) indexes the output, which is cols x rows
    const int ocol = blockIdx.x * TX + threadIdx.x;
    const int orow = blockIdx.y * TY + threadIdx.y;
    if (orow < cols && ocol < rows)
        AT(dst, orow, ocol, rows) = AT(src, ocol, orow, cols);
}

extern "C" int transpose_f32(const float* in, float* out, int rows, int cols)
{
    const dim3 threads(TX, TY);
    const dim3 blocks(DIV_UP(rows, TX), DIV_UP(cols, TY));
    transpose_write_coalesced<<<blocks, threads>>>(in, out, rows, cols);
    CHECK_CUDA(cudaGetLastError());
    return 0;
}
