// Sort every 1024-float segment ascending: 256 threads per segment, each holding
// 4 elements (t + 256 r) in registers; partner distances >= 256 are exchanged
// inside the thread, < 32 with __shfl_xor_sync, 32 to 128 through shared memory.
#include <cuda_runtime.h>

#define SEG 1024
#define THREADS 256
#define R 4
#define FULL_MASK 0xffffffffu

// Compare-exchange of register slots r and r ^ jj (partner distance jj * THREADS).
__device__ __forceinline__ void reg_step(float* v, int jj, int t, int k)
{
#pragma unroll
    for (int r = 0; r < R; ++r) {
        if (r & jj) continue;
        const bool up = ((t + r * THREADS) & k) == 0;
        const float a = v[r], b = v[r ^ jj];
        v[r] = up ? fminf(a, b) : fmaxf(a, b);
        v[r ^ jj] = up ? fmaxf(a, b) : fminf(a, b);
    }
}

// kforecast: num_segments = 16384; in: f32[num_segments, 1024] randn; out: f32[num_segments, 1024]; rtol = 0; atol = 0
__global__ void __launch_bounds__(THREADS)
bitonic_sort(const float* __restrict__ in, float* __restrict__ out, int num_segments)
{
    __shared__ float s[SEG];
    const int t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * SEG;
    float v[R];
#pragma unroll
    for (int r = 0; r < R; ++r) v[r] = in[base + t + r * THREADS];
    for (int k = 2; k <= SEG; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            if (j >= THREADS) {
                // Partner in the same thread: constant slot distances after inlining.
                if (4 < R && j == 4 * THREADS) reg_step(v, 4, t, k);
                else if (2 < R && j == 2 * THREADS) reg_step(v, 2, t, k);
                else reg_step(v, 1, t, k);
                continue;
            }
            const bool lower = (t & j) == 0;
            float other[R];
            if (j >= 32) {
#pragma unroll
                for (int r = 0; r < R; ++r) s[t + r * THREADS] = v[r];
                __syncthreads();
#pragma unroll
                for (int r = 0; r < R; ++r) other[r] = s[(t ^ j) + r * THREADS];
                __syncthreads();
            } else {
#pragma unroll
                for (int r = 0; r < R; ++r) other[r] = __shfl_xor_sync(FULL_MASK, v[r], j);
            }
#pragma unroll
            for (int r = 0; r < R; ++r) {
                const bool up = ((t + r * THREADS) & k) == 0;
                v[r] = (lower == up) ? fminf(v[r], other[r]) : fmaxf(v[r], other[r]);
            }
        }
    }
#pragma unroll
    for (int r = 0; r < R; ++r) out[base + t + r * THREADS] = v[r];
}

extern "C" void launch_bitonic_sort(const float* in, float* out, int num_segments, cudaStream_t stream)
{
    bitonic_sort<<<num_segments, THREADS, 0, stream>>>(in, out, num_segments);
}
