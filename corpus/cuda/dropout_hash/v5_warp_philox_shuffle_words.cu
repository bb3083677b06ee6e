// Dropout with a counter-based RNG: each warp covers 128 elements; lane l runs the Philox call of
// group warp*32 + l, then 4 coalesced scalar passes fetch each element's word from the owning lane
// with warp shuffles (4 shuffles per element), blocks of 256.
// Mask: element i is kept iff word (i & 3) of Philox(counter = (i / 4, 0, 0, 0), key = (seed, 0))
// is >= p * 2^32; kept elements are scaled by 1 / (1 - p).
#include <cuda_runtime.h>

#define THREADS   256
#define FULL_MASK 0xffffffffu

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

// Philox-4x32-10 (Salmon et al.): counter (c0, c1, c2, c3), key (k0, k1) -> four random words.
__device__ __forceinline__ void philox4x32_10(unsigned c0, unsigned c1, unsigned c2, unsigned c3, unsigned k0,
                                              unsigned k1, unsigned& r0, unsigned& r1, unsigned& r2, unsigned& r3)
{
#pragma unroll
    for (int round = 0; round < 10; ++round) {
        const unsigned long long p0 = (unsigned long long)PHILOX_M0 * c0;
        const unsigned long long p1 = (unsigned long long)PHILOX_M1 * c2;
        const unsigned hi0 = (unsigned)(p0 >> 32), lo0 = (unsigned)p0;
        const unsigned hi1 = (unsigned)(p1 >> 32), lo1 = (unsigned)p1;
        c0 = hi1 ^ c1 ^ k0;
        c1 = lo1;
        c2 = hi0 ^ c3 ^ k1;
        c3 = lo0;
        k0 += PHILOX_W0;
        k1 += PHILOX_W1;
    }
    r0 = c0;
    r1 = c1;
    r2 = c2;
    r3 = c3;
}

// kforecast: n = 1 << 25; p = 0.1; seed = 1234; x: f32[n] randn; out: f32[n]; rtol = 1e-5; atol = 1e-6
__global__ void dropout_hash(const float* __restrict__ x, float* __restrict__ out, int n, float p, unsigned int seed)
{
    const unsigned threshold = (unsigned)(p * 4294967296.0f);
    const float scale = 1.0f / (1.0f - p);
    const int lane = threadIdx.x & 31;
    const int warp = (blockIdx.x * THREADS + threadIdx.x) >> 5;
    unsigned r0, r1, r2, r3;
    philox4x32_10((unsigned)(warp * 32 + lane), 0u, 0u, 0u, seed, 0u, r0, r1, r2, r3);
    const int base = warp * 128;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const int src = k * 8 + (lane >> 2);
        const unsigned w0 = __shfl_sync(FULL_MASK, r0, src);
        const unsigned w1 = __shfl_sync(FULL_MASK, r1, src);
        const unsigned w2 = __shfl_sync(FULL_MASK, r2, src);
        const unsigned w3 = __shfl_sync(FULL_MASK, r3, src);
        const int sel = lane & 3;
        const unsigned word = sel == 0 ? w0 : sel == 1 ? w1 : sel == 2 ? w2 : w3;
        const int i = base + k * 32 + lane;
        if (i < n) out[i] = word >= threshold ? x[i] * scale : 0.0f;
    }
}

extern "C" void launch_dropout_hash(const float* x, float* out, int n, float p, unsigned int seed, cudaStream_t stream)
{
    const int warps = (n + 127) / 128;
    const int blocks = (warps * 32 + THREADS - 1) / THREADS;
    dropout_hash<<<blocks, THREADS, 0, stream>>>(x, out, n, p, seed);
}
