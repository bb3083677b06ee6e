// [B, S, H, D] -> [B, H, S, D], one thread per output element, 32-bit index arithmetic
// (the launcher refuses tensors past 2^31 elements).
#include <climits>
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
#define SRC_IDX(b, s, h, d) ((((b) * S_ + (s)) * H_ + (h)) * D_ + (d))
#define BLOCK_SZ 256

__global__ void permute_bshd_to_bhsd(const float* __restrict__ src, float* __restrict__ dst,
                                     int B_, int S_, int H_, int D_) {
    int idx = blockIdx.x * BLOCK_SZ + threadIdx.x;
    if (idx >= B_ * S_ * H_ * D_) return;
    int d = idx % D_;
    int rest = idx / D_;
    int s = rest % S_;
    rest /= S_;
    int h = rest % H_;
    int b = rest / H_;
    dst[idx] = src[SRC_IDX(b, s, h, d)];
}

extern "C" int permute_0213(const float* x, float* y, int B, int S, int H, int D) {
    long long total = (long long)B * S * H * D;
    if (total == 0) return 0;
    if (total > INT_MAX) return (int)cudaErrorInvalidValue;
    permute_bshd_to_bhsd<<<(unsigned)CDIV(total, BLOCK_SZ), BLOCK_SZ>>>(x, y, B, S, H, D);
    CHECK(cudaGetLastError());
    return 0;
}
