// Stream compaction of the positive values: float4 loads (four elements per thread), the
// thread's kept count is scanned across the warp with shuffles, the last lane reserves the
// warp's slots with one atomicAdd; a scalar kernel does the last n % 4 elements.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CALL(x)                                                                    \
    do {                                                                                \
        cudaError_t st = (x);                                                           \
        if (st != cudaSuccess) {                                                        \
            fprintf(stderr, "error %s in %s at %s:%d\n", cudaGetErrorString(st), #x, __FILE__, __LINE__); \
            return (int)st;                                                             \
        }                                                                               \
    } while (0)

__global__ void compact_pos_vec4(const float4* __restrict__ in4, float* __restrict__ out,
                                 int* __restrict__ counter, long long n4) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    float4 q = make_float4(0.f, 0.f, 0.f, 0.f);
    if (i < n4) q = in4[i];
    const int mine = (q.x > 0.f) + (q.y > 0.f) + (q.z > 0.f) + (q.w > 0.f);
    int incl = mine;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const int t = __shfl_up_sync(0xffffffffu, incl, d);
        if (lane >= d) incl += t;
    }
    int base = 0;
    if (lane == 31 && incl > 0) base = atomicAdd(counter, incl);
    base = __shfl_sync(0xffffffffu, base, 31);
    int pos = base + incl - mine;
    if (q.x > 0.f) out[pos++] = q.x;
    if (q.y > 0.f) out[pos++] = q.y;
    if (q.z > 0.f) out[pos++] = q.z;
    if (q.w > 0.f) out[pos++] = q.w;
}

__global__ void compact_pos_tail(const float* __restrict__ in, float* __restrict__ out,
                                 int* __restrict__ counter, long long start, long long n) {
    const long long i = start + threadIdx.x;
    if (i < n) {
        const float v = in[i];
        if (v > 0.f) out[atomicAdd(counter, 1)] = v;
    }
}

extern "C" int compact_positive(const float* in, float* out, int* d_count, long long n) {
    CUDA_CALL(cudaMemsetAsync(d_count, 0, sizeof(int)));
    if (n <= 0) return 0;
    if (((size_t)in & 15) != 0) {
        fprintf(stderr, "compact_positive: input not 16-byte aligned\n");
        return (int)cudaErrorMisalignedAddress;
    }
    const long long n4 = n / 4;
    const int threads = 256;
    if (n4 > 0) {
        compact_pos_vec4<<<(unsigned)((n4 + threads - 1) / threads), threads>>>(
            reinterpret_cast<const float4*>(in), out, d_count, n4);
        CUDA_CALL(cudaGetLastError());
    }
    if (n4 * 4 < n) {
        compact_pos_tail<<<1, 32>>>(in, out, d_count, n4 * 4, n);
        CUDA_CALL(cudaGetLastError());
    }
    return 0;
}
