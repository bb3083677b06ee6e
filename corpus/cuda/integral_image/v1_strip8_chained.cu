// Integral image in one launch, strips of 8 rows per block (chained scan): each block scans its
// rows into local sums, waits for the strip above to finish, adds that strip's final last row,
// publishes its own last row, then fixes its other rows (the strips' carries are serialised).
// flags and counters are scratch: strips are numbered in the order blocks start (atomicAdd on
// counters[0]) and the last block to finish clears them for the next launch.
#include <cuda_runtime.h>

#define THREADS   1024
#define STRIP     8
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
    __shared__ int s_tile, s_last;
    const int t = threadIdx.x;
    if (t == 0) s_tile = (int)atomicAdd(&counters[0], 1u);
    __syncthreads();
    const int tile = s_tile;
    const int r0 = tile * STRIP, r1 = min(r0 + STRIP, rows);
    const int c = 4 * t;
    const bool active = c < cols;
    unsigned s0 = 0u, s1 = 0u, s2 = 0u, s3 = 0u;  // local column sums (this strip only)
    for (int r = r0; r < r1; ++r) {
        uchar4 p = make_uchar4(0, 0, 0, 0);
        if (active) p = *reinterpret_cast<const uchar4*>(img + (size_t)r * cols + c);
        const unsigned v0 = p.x, v1 = v0 + p.y, v2 = v1 + p.z, v3 = v2 + p.w;
        const unsigned off = block_exclusive(v3, ws[r & 1]);
        s0 += off + v0;
        s1 += off + v1;
        s2 += off + v2;
        s3 += off + v3;
        if (active && r < r1 - 1) {
            uint4 o;
            o.x = s0; o.y = s1; o.z = s2; o.w = s3;
            *reinterpret_cast<uint4*>(out + (size_t)r * cols + c) = o;
        }
    }
    // Carry: the final last row of the strip above, valid once its flag is set.
    unsigned k0 = 0u, k1 = 0u, k2 = 0u, k3 = 0u;
    if (tile > 0) {
        if (t == 0) {
            while (*(volatile unsigned*)&flags[tile - 1] == 0u) {
            }
            __threadfence();
        }
        __syncthreads();
        if (active) {
            const volatile unsigned* above = out + (size_t)(r0 - 1) * cols + c;
            k0 = above[0]; k1 = above[1]; k2 = above[2]; k3 = above[3];
        }
    }
    if (active) {
        uint4 o;
        o.x = s0 + k0; o.y = s1 + k1; o.z = s2 + k2; o.w = s3 + k3;
        *reinterpret_cast<uint4*>(out + (size_t)(r1 - 1) * cols + c) = o;
    }
    __threadfence();
    __syncthreads();
    if (t == 0) atomicExch(&flags[tile], 1u);
    if (tile > 0 && active) {
        for (int r = r0; r < r1 - 1; ++r) {
            uint4* q = reinterpret_cast<uint4*>(out + (size_t)r * cols + c);
            uint4 o = *q;
            o.x += k0; o.y += k1; o.z += k2; o.w += k3;
            *q = o;
        }
    }
    // The last block to finish clears the flags and counters for the next launch.
    if (t == 0) {
        __threadfence();
        s_last = atomicAdd(&counters[1], 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (s_last) {
        for (int k = t; k < (int)gridDim.x; k += THREADS) flags[k] = 0u;
        if (t == 0) {
            counters[0] = 0u;
            counters[1] = 0u;
        }
    }
}

extern "C" void launch_integral_image(const unsigned char* img, unsigned* out, unsigned* flags, unsigned* partial,
                                      unsigned* counters, int rows, int cols, cudaStream_t stream)
{
    integral_image<<<(rows + STRIP - 1) / STRIP, THREADS, 0, stream>>>(img, out, flags, partial, counters, rows, cols);
}
