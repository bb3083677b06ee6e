#include <cuda_runtime.h>
#define BLOCKS_FOR(n, t) (((n) + (t) - 1) / (t))
// kforecast: n = 1 << 24; x: f32[n] randn; y: f32[n]; rtol = 1e-5; atol = 1e-6
__global__ void scale_clamp(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) { float v = 2.0f * x[i]; y[i] = fminf(fmaxf(v, -1.0f), 1.0f); }
}
extern "C" void launch(const float* x, float* y, int n) { scale_clamp<<<BLOCKS_FOR(n, 256), 256>>>(x, y, n); }
