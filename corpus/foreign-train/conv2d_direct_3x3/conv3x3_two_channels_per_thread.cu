// Direct 3x3 convolution, register blocking over output channels: every thread computes the
// same pixel for two output channels, so each input value it loads feeds two accumulators.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                 \
    do {                                                                                 \
        cudaError_t rc_ = (call);                                                        \
        if (rc_ != cudaSuccess) {                                                        \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(rc_), __FILE__, __LINE__); \
            return (int)rc_;                                                             \
        }                                                                                \
    } while (0)

#define OC_PER_THREAD 2

__global__ void conv3x3_oc2(const float* __restrict__ in, const float* __restrict__ wt,
                            float* __restrict__ out, int cin, int cout, int h, int w, int oc_groups) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int n = blockIdx.z / oc_groups;
    const int oc0 = (blockIdx.z % oc_groups) * OC_PER_THREAD;
    if (x >= w || y >= h) return;
    const bool has_second = oc0 + 1 < cout;

    float acc0 = 0.f, acc1 = 0.f;
    const size_t hw = (size_t)h * w;
    const float* img = in + (size_t)n * cin * hw;
    for (int ci = 0; ci < cin; ++ci) {
        const float* p = img + ci * hw;
        const float* k0 = wt + ((size_t)oc0 * cin + ci) * 9;
        const float* k1 = has_second ? k0 + (size_t)cin * 9 : k0;
        float v[9];
#pragma unroll
        for (int t = 0; t < 9; ++t) {
            const int iy = y + t / 3 - 1, ix = x + t % 3 - 1;
            v[t] = (iy >= 0 && iy < h && ix >= 0 && ix < w) ? p[(size_t)iy * w + ix] : 0.f;
        }
#pragma unroll
        for (int t = 0; t < 9; ++t) {
            acc0 += v[t] * k0[t];
            acc1 += v[t] * k1[t];
        }
    }
    float* o = out + ((size_t)n * cout + oc0) * hw + (size_t)y * w + x;
    o[0] = acc0;
    if (has_second) o[hw] = acc1;
}

extern "C" int conv2d_3x3(const float* in, const float* weight, float* out, int n, int cin, int cout,
                          int h, int w) {
    if (n <= 0 || h <= 0 || w <= 0 || cout <= 0) return 0;
    const int oc_groups = (cout + OC_PER_THREAD - 1) / OC_PER_THREAD;
    dim3 block(32, 8);
    dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y, n * oc_groups);
    conv3x3_oc2<<<grid, block>>>(in, weight, out, cin, cout, h, w, oc_groups);
    CUDA_CHECK(cudaGetLastError());
    return 0;
}
