// Integral image, decoupled look-back over 32-row strips as v2, but written for one column per
// thread: a row is processed in chunks of 1024 columns (byte loads, 4-byte stores), each chunk a
// separate block-wide scan with a carried row sum, so a 4096-wide row costs four scans (8 barriers).
#include <cuda_runtime.h>

#define THREADS   1024
#define CHUNKS    4
#define STRIP     32
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
    int n = 0;  // block scans so far (selects the shared buffer)

    // Phase 1: column sums of the strip, scanned along the row chunk by chunk = the strip's aggregate.
    unsigned agg[CHUNKS];
#pragma unroll
    for (int j = 0; j < CHUNKS; ++j) {
        const int c = j * THREADS + t;
        unsigned s = 0u;
        if (c < cols)
            for (int r = r0; r < r1; ++r) s += img[(size_t)r * cols + c];
        agg[j] = s;
    }
    unsigned row_carry = 0u;
#pragma unroll
    for (int j = 0; j < CHUNKS; ++j) {
        unsigned* w = ws[n++ & 1];
        const unsigned ex = block_exclusive(agg[j], w);
        const unsigned chunk_total = w[31];
        agg[j] += row_carry + ex;
        row_carry += chunk_total;
    }

    // Look-back: carry = sum over the strips above.
    unsigned k[CHUNKS];
#pragma unroll
    for (int j = 0; j < CHUNKS; ++j) k[j] = 0u;
    if (tile > 0) {
#pragma unroll
        for (int j = 0; j < CHUNKS; ++j) {
            const int c = j * THREADS + t;
            if (c < cols) partial[(size_t)(2 * tile) * cols + c] = agg[j];
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
            const volatile unsigned* src = partial + (size_t)(2 * p + (f == 2u ? 1 : 0)) * cols;
#pragma unroll
            for (int j = 0; j < CHUNKS; ++j) {
                const int c = j * THREADS + t;
                if (c < cols) k[j] += src[c];
            }
            if (f == 2u) break;
        }
    }
#pragma unroll
    for (int j = 0; j < CHUNKS; ++j) {
        const int c = j * THREADS + t;
        if (c < cols) partial[(size_t)(2 * tile + 1) * cols + c] = k[j] + agg[j];
    }
    __threadfence();
    __syncthreads();
    if (t == 0) atomicExch(&flags[tile], 2u);

    // Phase 2: the strip's rows again, chunk by chunk, running column sums starting from the carry.
    for (int r = r0; r < r1; ++r) {
        unsigned carry = 0u;
#pragma unroll
        for (int j = 0; j < CHUNKS; ++j) {
            const int c = j * THREADS + t;
            const unsigned v = c < cols ? (unsigned)img[(size_t)r * cols + c] : 0u;
            unsigned* w = ws[n++ & 1];
            const unsigned ex = block_exclusive(v, w);
            const unsigned chunk_total = w[31];
            k[j] += carry + ex + v;
            carry += chunk_total;
            if (c < cols) out[(size_t)r * cols + c] = k[j];
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
