// One Adam step: float4 accesses in a grid-stride loop, bias corrections hoisted,
// launch bounds for 256 threads, 4 blocks per SM.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256
#define NUM_SMS 132

__device__ __forceinline__ float adam_lane(float& m, float& v, float p, float gi, float lr, float beta1,
                                           float beta2, float eps, float bc1, float bc2)
{
    m = beta1 * m + (1.0f - beta1) * gi;
    v = beta2 * v + (1.0f - beta2) * gi * gi;
    return p - lr * (m / bc1) / (sqrtf(v / bc2) + eps);
}

// kforecast: n = 1 << 24; lr = 0.001; beta1 = 0.9; beta2 = 0.999; eps = 0.00000001; step = 10; p: f32[n] randn; g: f32[n] randn; m: f32[n] randn; v: f32[n] rand; rtol = 1e-4; atol = 1e-5
__global__ void __launch_bounds__(THREADS)
adam_step(float* __restrict__ p, const float* __restrict__ g, float* __restrict__ m,
          float* __restrict__ v, int n, float lr, float beta1, float beta2, float eps, int step)
{
    const float bc1 = 1.0f - powf(beta1, (float)step);
    const float bc2 = 1.0f - powf(beta2, (float)step);
    const int n4 = n >> 2;
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = gridDim.x * blockDim.x;
    for (int i = tid; i < n4; i += stride) {
        float4 pv = reinterpret_cast<float4*>(p)[i];
        const float4 gv = reinterpret_cast<const float4*>(g)[i];
        float4 mv = reinterpret_cast<float4*>(m)[i];
        float4 vv = reinterpret_cast<float4*>(v)[i];
        pv.x = adam_lane(mv.x, vv.x, pv.x, gv.x, lr, beta1, beta2, eps, bc1, bc2);
        pv.y = adam_lane(mv.y, vv.y, pv.y, gv.y, lr, beta1, beta2, eps, bc1, bc2);
        pv.z = adam_lane(mv.z, vv.z, pv.z, gv.z, lr, beta1, beta2, eps, bc1, bc2);
        pv.w = adam_lane(mv.w, vv.w, pv.w, gv.w, lr, beta1, beta2, eps, bc1, bc2);
        reinterpret_cast<float4*>(p)[i] = pv;
        reinterpret_cast<float4*>(m)[i] = mv;
        reinterpret_cast<float4*>(v)[i] = vv;
    }
    const int t = (n4 << 2) + tid;
    if (t < n) {
        float mt = m[t], vt = v[t];
        p[t] = adam_lane(mt, vt, p[t], g[t], lr, beta1, beta2, eps, bc1, bc2);
        m[t] = mt;
        v[t] = vt;
    }
}

extern "C" void launch_adam_step(float* p, const float* g, float* m, float* v, int n, float lr,
                                 float beta1, float beta2, float eps, int step, cudaStream_t stream)
{
    const int blocks = NUM_SMS * 4;
    adam_step<<<blocks, THREADS, 0, stream>>>(p, g, m, v, n, lr, beta1, beta2, eps, step);
}
