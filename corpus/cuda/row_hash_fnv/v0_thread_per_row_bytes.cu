// FNV-1a (32-bit) of each byte row, naive: one thread per row reading its bytes one at a time (a warp's loads are a row, 1024 bytes, apart).
#include <cuda_runtime.h>

#define THREADS 256
#define FNV_OFFSET 2166136261u
#define FNV_PRIME  16777619u

// kforecast: rows = 65536; cols = 1024; data: u8[rows, cols] randint(0,256); out: u32[rows]; rtol = 0; atol = 0
__global__ void row_hash_fnv(const unsigned char* data, unsigned* out, int rows, int cols)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const unsigned char* p = data + (size_t)row * cols;
    unsigned h = FNV_OFFSET;
    for (int j = 0; j < cols; ++j) {
        h ^= p[j];
        h *= FNV_PRIME;
    }
    out[row] = h;
}

extern "C" void launch_row_hash_fnv(const unsigned char* data, unsigned* out, int rows, int cols, cudaStream_t stream)
{
    int blocks = (rows + THREADS - 1) / THREADS;
    row_hash_fnv<<<blocks, THREADS, 0, stream>>>(data, out, rows, cols);
}
