// [B, S, H, D] -> [B, H, S, D], one float4 (four consecutive d) per thread; needs D % 4 == 0.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t e_ = (call);                                                 \
        if (e_ != cudaSuccess) {                                                 \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            return (int)e_;                                                      \
        }                                                                        \
    } while (0)

#define CDIV(a, b) (((a) + (b) - 1) / (b))
#define OFF4(i0, i1, i2, i3, N1, N2, N3) \
    ((((long long)(i0) * (N1) + (i1)) * (N2) + (i2)) * (N3) + (i3))
#define VEC 4
#define NTHREADS 256

__global__ void permute0213_vec4(const float4* __restrict__ in, float4* __restrict__ out,
                                 int B, int S, int H, int DV) {
    long long total = (long long)B * S * H * DV;
    long long o = (long long)blockIdx.x * NTHREADS + threadIdx.x;
    if (o >= total) return;
    long long t = o;
    int v = (int)(t % DV); t /= DV;
    int s = (int)(t % S); t /= S;
    int h = (int)(t % H); t /= H;
    int b = (int)t;
    out[o] = in[OFF4(b, s, h, v, S, H, DV)];
}

extern "C" int permute_0213(const float* x, float* y, int B, int S, int H, int D) {
    if (D % VEC != 0) {
        fprintf(stderr, "permute_0213: D=%d is not a multiple of %d\n", D, VEC);
        return (int)cudaErrorInvalidValue;
    }
    int DV = D / VEC;
    long long total = (long long)B * S * H * DV;
    if (total == 0) return 0;
    permute0213_vec4<<<(unsigned)CDIV(total, NTHREADS), NTHREADS>>>(
        reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(y), B, S, H, DV);
    CHECK(cudaGetLastError());
    return 0;
}
