// Dropout with a counter-based RNG: grid-stride loop handling two groups of 4 elements per
// iteration (two independent Philox calls and float4 loads in flight), grid capped at 4 blocks of 256 per SM.
// Mask: element i is kept iff word (i & 3) of Philox(counter = (i / 4, 0, 0, 0), key = (seed, 0))
// is >= p * 2^32; kept elements are scaled by 1 / (1 - p).
#include <cuda_runtime.h>

#define THREADS 256
#define NUM_SMS 132

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
__device__ __forceinline__ float4 apply4(float4 v, unsigned r0, unsigned r1, unsigned r2, unsigned r3,
                                         unsigned threshold, float scale)
{
    return make_float4(r0 >= threshold ? v.x * scale : 0.0f, r1 >= threshold ? v.y * scale : 0.0f,
                       r2 >= threshold ? v.z * scale : 0.0f, r3 >= threshold ? v.w * scale : 0.0f);
}

// kforecast: n = 1 << 25; p = 0.1; seed = 1234; x: f32[n] randn; out: f32[n]; rtol = 1e-5; atol = 1e-6
__global__ void dropout_hash(const float* __restrict__ x, float* __restrict__ out, int n, float p, unsigned int seed)
{
    const unsigned threshold = (unsigned)(p * 4294967296.0f);
    const float scale = 1.0f / (1.0f - p);
    const int groups = n >> 2;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float4* out4 = reinterpret_cast<float4*>(out);
    const int stride = gridDim.x * THREADS;
    int g = blockIdx.x * THREADS + threadIdx.x;
    for (; g + stride < groups; g += 2 * stride) {
        const float4 v0 = x4[g];
        const float4 v1 = x4[g + stride];
        unsigned a0, a1, a2, a3, b0, b1, b2, b3;
        philox4x32_10((unsigned)g, 0u, 0u, 0u, seed, 0u, a0, a1, a2, a3);
        philox4x32_10((unsigned)(g + stride), 0u, 0u, 0u, seed, 0u, b0, b1, b2, b3);
        out4[g] = apply4(v0, a0, a1, a2, a3, threshold, scale);
        out4[g + stride] = apply4(v1, b0, b1, b2, b3, threshold, scale);
    }
    if (g < groups) {
        unsigned r0, r1, r2, r3;
        philox4x32_10((unsigned)g, 0u, 0u, 0u, seed, 0u, r0, r1, r2, r3);
        out4[g] = apply4(x4[g], r0, r1, r2, r3, threshold, scale);
    }
    if ((n & 3) && blockIdx.x == 0 && threadIdx.x == 0) {
        unsigned r0, r1, r2, r3;
        philox4x32_10((unsigned)groups, 0u, 0u, 0u, seed, 0u, r0, r1, r2, r3);
        const unsigned words[3] = {r0, r1, r2};
        for (int k = 0; k < (n & 3); ++k) {
            const int i = 4 * groups + k;
            out[i] = words[k] >= threshold ? x[i] * scale : 0.0f;
        }
    }
}

extern "C" void launch_dropout_hash(const float* x, float* out, int n, float p, unsigned int seed, cudaStream_t stream)
{
    const int blocks = min(((n >> 2) + THREADS - 1) / THREADS + 1, NUM_SMS * 4);
    dropout_hash<<<blocks, THREADS, 0, stream>>>(x, out, n, p, seed);
}
