#include <cuda_runtime.h>
#define BLOCKS_FOR(n, t) (((n) + (t) - 1) / (t))
#define CLAMP1(v) \
    fminf(fmaxf((v), -1.0f), \
          1.0f)
// kforecast: n = 1 << 24; x: f32[n] randn; y: f32[n]; rtol = 1e-5; atol = 1e-6
__global__ void scale_clamp(const float* x, float* y, int n) {
    int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (i + 3 < n) {
        float4 v = *reinterpret_cast<const float4*>(x + i);
        *reinterpret_cast<float4*>(y + i) = make_float4(CLAMP1(2.0f * v.x), CLAMP1(2.0f * v.y), CLAMP1(2.0f * v.z), CLAMP1(2.0f * v.w));
    } else {
        for (int j = i; j < n; ++j) y[j] = CLAMP1(2.0f * x[j]);
    }
}
extern "C" void launch(const float* x, float* y, int n) { scale_clamp<<<BLOCKS_FOR(n, 1024), 256>>>(x, y, n); }
