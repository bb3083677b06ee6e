// [B, S, H, D] -> [B, H, S, D], one thread per output element (output order).
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
/* offset of [i0][i1][i2][i3] in a contiguous [*][N1][N2][N3] tensor */
#define OFF4(i0, i1, i2, i3, N1, N2, N3) \
    ((((long long)(i0) * (N1) + (i1)) * (N2) + (i2)) * (N3) + (i3))
#define NTHREADS 256

__global__ void permute0213_naive(const float* __restrict__ in, float* __restrict__ out,
                                  int B, int S, int H, int D) {
    long long total = (long long)B * S * H * D;
    long long o = (long long)blockIdx.x * NTHREADS + threadIdx.x;
    if (o >= total) return;
    long long t = o;
    int d = (int)(t % D); t /= D;
    int s = (int)(t % S); t /= S;
    int h = (int)(t % H); t /= H;
    int b = (int)t;
    out[o] = in[OFF4(b, s, h, d, S, H, D)];
}

extern "C" int permute_0213(const float* x, float* y, int B, int S, int H, int D) {
    long long total = (long long)B * S * H * D;
    if (total == 0) return 0;
    permute0213_naive<<<(unsigned)CDIV(total, NTHREADS), NTHREADS>>>(x, y, B, S, H, D);
    CHECK(cudaGetLastError());
    return 0;
}
