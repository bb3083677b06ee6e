// FNV-1a of each byte row, one thread per row, byte at a time as the naive version, but the bytes are read through the read-only cache (__ldg, const __restrict__).
#include <cuda_runtime.h>

#define THREADS 256
#define FNV_OFFSET 2166136261u
#define FNV_PRIME  16777619u

// kforecast: rows = 65536; cols = 1024; data: u8[rows, cols] randint(0,256); out: u32[rows]; rtol = 0; atol = 0
__global__ void row_hash_fnv(const unsigned char* __restrict__ data, unsigned* __restrict__ out, int rows, int cols)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const unsigned char* __restrict__ p = data + (size_t)row * cols;
    unsigned h = FNV_OFFSET;
    for (int j = 0; j < cols; ++j) h = (h ^ __ldg(p + j)) * FNV_PRIME;
    out[row] = h;
}

extern "C" void launch_row_hash_fnv(const unsigned char* data, unsigned* out, int rows, int cols, cudaStream_t stream)
{
    const int blocks = (rows + THREADS - 1) / THREADS;
    row_hash_fnv<<<blocks, THREADS, 0, stream>>>(data, out, rows, cols);
}
