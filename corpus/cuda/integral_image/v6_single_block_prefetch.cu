// Integral image in one block as v0 (1024 threads x 4 columns, the block walks down all rows), with
// the row loads software-pipelined 4 rows ahead, so a row's load latency overlaps earlier rows' scans.
#include <cuda_runtime.h>

#define THREADS   1024
#define AHEAD     4
#define FULL_MASK 0xffffffffu

// Exclusive prefix, in thread order over the whole block, of each thread's total (1024 threads,
// 32 warps). ws is a 32-entry shared array; the caller alternates two of them between calls.
__device__ __forceinline__ unsigned block_exclusive(unsigned total, unsigned* ws)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned inc = total;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const unsigned y = __shfl_up_sync(FULL_MASK, inc, o);
        if (lane >= o) inc += y;
    }
    if (lane == 31) ws[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        unsigned w = ws[lane];
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const unsigned y = __shfl_up_sync(FULL_MASK, w, o);
            if (lane >= o) w += y;
        }
        ws[lane] = w;
    }
    __syncthreads();
    return (warp > 0 ? ws[warp - 1] : 0u) + inc - total;
}

// kforecast: rows = 4096; cols = 4096; img: u8[rows, cols] randint(0,256); out: u32[rows, cols]; flags: u32[4096] zeros; partial: u32[1024, cols] zeros; counters: u32[2] zeros; outputs = out; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
integral_image(const unsigned char* __restrict__ img, unsigned* __restrict__ out, unsigned* flags, unsigned* partial,
               unsigned* counters, int rows, int cols)
{
    __shared__ unsigned ws[2][32];
    const int c = 4 * threadIdx.x;
    const bool active = c < cols;
    const unsigned char* src = img + c;
    uchar4 buf[AHEAD];
#pragma unroll
    for (int u = 0; u < AHEAD; ++u)
        buf[u] = (active && u < rows) ? *reinterpret_cast<const uchar4*>(src + (size_t)u * cols) : make_uchar4(0, 0, 0, 0);
    unsigned s0 = 0u, s1 = 0u, s2 = 0u, s3 = 0u;  // running column sums of columns c .. c + 3
    for (int r0 = 0; r0 < rows; r0 += AHEAD) {
#pragma unroll
        for (int u = 0; u < AHEAD; ++u) {
            const int r = r0 + u;
            if (r >= rows) break;
            const uchar4 p = buf[u];
            if (active && r + AHEAD < rows) buf[u] = *reinterpret_cast<const uchar4*>(src + (size_t)(r + AHEAD) * cols);
            const unsigned v0 = p.x, v1 = v0 + p.y, v2 = v1 + p.z, v3 = v2 + p.w;
            const unsigned off = block_exclusive(v3, ws[u & 1]);
            s0 += off + v0;
            s1 += off + v1;
            s2 += off + v2;
            s3 += off + v3;
            if (active) {
                uint4 o;
                o.x = s0; o.y = s1; o.z = s2; o.w = s3;
                *reinterpret_cast<uint4*>(out + (size_t)r * cols + c) = o;
            }
        }
    }
}

extern "C" void launch_integral_image(const unsigned char* img, unsigned* out, unsigned* flags, unsigned* partial,
                                      unsigned* counters, int rows, int cols, cudaStream_t stream)
{
    integral_image<<<1, THREADS, 0, stream>>>(img, out, flags, partial, counters, rows, cols);
}
