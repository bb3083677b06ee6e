// Integral image, decoupled look-back over 16-row strips with 256-thread blocks: each thread owns 16
// adjacent columns (one 16-byte load per row, serial scan of 16 in registers, four 16-byte stores),
// so a row's block scan has 8 warp totals and each thread does 4x the work between barriers.
// Needs cols % 16 == 0 and cols <= 4096.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define COLS_T    16
#define STRIP     16
#define FULL_MASK 0xffffffffu

// Exclusive prefix, in thread order over the block, of each thread's total (8 warps).
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
        unsigned w = lane < WARPS ? ws[lane] : 0u;
#pragma unroll
        for (int o = 1; o < WARPS; o <<= 1) {
            const unsigned y = __shfl_up_sync(FULL_MASK, w, o);
            if (lane >= o) w += y;
        }
        if (lane < WARPS) ws[lane] = w;
    }
    __syncthreads();
    return (warp > 0 ? ws[warp - 1] : 0u) + inc - total;
}

// The 16 bytes of a uint4, in address order.
__device__ __forceinline__ void unpack16(const uint4 w, unsigned* v)
{
    const unsigned x[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
    for (int i = 0; i < 4; ++i) {
#pragma unroll
        for (int b = 0; b < 4; ++b) v[4 * i + b] = (x[i] >> (8 * b)) & 0xffu;
    }
}

// kforecast: rows = 4096; cols = 4096; img: u8[rows, cols] randint(0,256); out: u32[rows, cols]; flags: u32[4096] zeros; partial: u32[1024, cols] zeros; counters: u32[2] zeros; outputs = out; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
integral_image(const unsigned char* __restrict__ img, unsigned* __restrict__ out, unsigned* flags, unsigned* partial,
               unsigned* counters, int rows, int cols)
{
    __shared__ unsigned ws[2][WARPS];
    __shared__ int s_tile, s_last;
    const int t = threadIdx.x;
    if (t == 0) s_tile = (int)atomicAdd(&counters[0], 1u);
    __syncthreads();
    const int tile = s_tile;
    const int r0 = tile * STRIP, r1 = min(r0 + STRIP, rows);
    const int c = COLS_T * t;
    const bool active = c < cols;

    // Phase 1: column sums of the strip, scanned along the row = the strip's aggregate.
    unsigned a[COLS_T];
#pragma unroll
    for (int j = 0; j < COLS_T; ++j) a[j] = 0u;
    if (active) {
        for (int r = r0; r < r1; ++r) {
            unsigned v[COLS_T];
            unpack16(*reinterpret_cast<const uint4*>(img + (size_t)r * cols + c), v);
#pragma unroll
            for (int j = 0; j < COLS_T; ++j) a[j] += v[j];
        }
    }
#pragma unroll
    for (int j = 1; j < COLS_T; ++j) a[j] += a[j - 1];
    const unsigned off = block_exclusive(a[COLS_T - 1], ws[0]);
#pragma unroll
    for (int j = 0; j < COLS_T; ++j) a[j] += off;

    // Look-back: carry = sum over the strips above.
    unsigned k[COLS_T];
#pragma unroll
    for (int j = 0; j < COLS_T; ++j) k[j] = 0u;
    if (tile > 0) {
        if (active) {
            uint4* dst = reinterpret_cast<uint4*>(partial + (size_t)(2 * tile) * cols + c);
#pragma unroll
            for (int q = 0; q < COLS_T / 4; ++q) {
                uint4 o;
                o.x = a[4 * q]; o.y = a[4 * q + 1]; o.z = a[4 * q + 2]; o.w = a[4 * q + 3];
                dst[q] = o;
            }
        }
        __threadfence();
        __syncthreads();
        if (t == 0) atomicExch(&flags[tile], 1u);
        for (int p = tile - 1; p >= 0; --p) {
            unsigned f;
            do {
                f = *(volatile unsigned*)&flags[p];
            } while (f == 0u);
            __threadfence();
            if (active) {
                const volatile unsigned* src = partial + (size_t)(2 * p + (f == 2u ? 1 : 0)) * cols + c;
#pragma unroll
                for (int j = 0; j < COLS_T; ++j) k[j] += src[j];
            }
            if (f == 2u) break;
        }
    }
    if (active) {
        uint4* dst = reinterpret_cast<uint4*>(partial + (size_t)(2 * tile + 1) * cols + c);
#pragma unroll
        for (int q = 0; q < COLS_T / 4; ++q) {
            uint4 o;
            o.x = k[4 * q] + a[4 * q]; o.y = k[4 * q + 1] + a[4 * q + 1];
            o.z = k[4 * q + 2] + a[4 * q + 2]; o.w = k[4 * q + 3] + a[4 * q + 3];
            dst[q] = o;
        }
    }
    __threadfence();
    __syncthreads();
    if (t == 0) atomicExch(&flags[tile], 2u);

    // Phase 2: the strip's rows again, running column sums (k) starting from the carry.
    for (int r = r0; r < r1; ++r) {
        unsigned v[COLS_T];
        if (active) {
            unpack16(*reinterpret_cast<const uint4*>(img + (size_t)r * cols + c), v);
        } else {
#pragma unroll
            for (int j = 0; j < COLS_T; ++j) v[j] = 0u;
        }
#pragma unroll
        for (int j = 1; j < COLS_T; ++j) v[j] += v[j - 1];
        const unsigned o16 = block_exclusive(v[COLS_T - 1], ws[(r - r0) & 1]);
#pragma unroll
        for (int j = 0; j < COLS_T; ++j) k[j] += o16 + v[j];
        if (active) {
            uint4* dst = reinterpret_cast<uint4*>(out + (size_t)r * cols + c);
#pragma unroll
            for (int q = 0; q < COLS_T / 4; ++q) {
                uint4 o;
                o.x = k[4 * q]; o.y = k[4 * q + 1]; o.z = k[4 * q + 2]; o.w = k[4 * q + 3];
                dst[q] = o;
            }
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
