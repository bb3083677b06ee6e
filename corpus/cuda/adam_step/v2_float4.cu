// One Adam step with float4 loads and stores of p, g, m, v (n % 4 handled by a tail).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

__device__ __forceinline__ void adam_one(float& p, float gi, float& m, float& v, float lr, float beta1,
                                         float beta2, float eps, float bc1, float bc2)
{
    m = beta1 * m + (1.0f - beta1) * gi;
    v = beta2 * v + (1.0f - beta2) * gi * gi;
    p = p - lr * (m / bc1) / (sqrtf(v / bc2) + eps);
}

// kforecast: n = 1 << 24; lr = 0.001; beta1 = 0.9; beta2 = 0.999; eps = 0.00000001; step = 10; p: f32[n] randn; g: f32[n] randn; m: f32[n] randn; v: f32[n] rand; rtol = 1e-4; atol = 1e-5
__global__ void adam_step(float* __restrict__ p, const float* __restrict__ g, float* __restrict__ m,
                          float* __restrict__ v, int n, float lr, float beta1, float beta2, float eps,
                          int step)
{
    const float bc1 = 1.0f - powf(beta1, (float)step);
    const float bc2 = 1.0f - powf(beta2, (float)step);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int n4 = n / 4;
    if (i < n4) {
        float4 pv = reinterpret_cast<float4*>(p)[i];
        const float4 gv = reinterpret_cast<const float4*>(g)[i];
        float4 mv = reinterpret_cast<float4*>(m)[i];
        float4 vv = reinterpret_cast<float4*>(v)[i];
        adam_one(pv.x, gv.x, mv.x, vv.x, lr, beta1, beta2, eps, bc1, bc2);
        adam_one(pv.y, gv.y, mv.y, vv.y, lr, beta1, beta2, eps, bc1, bc2);
        adam_one(pv.z, gv.z, mv.z, vv.z, lr, beta1, beta2, eps, bc1, bc2);
        adam_one(pv.w, gv.w, mv.w, vv.w, lr, beta1, beta2, eps, bc1, bc2);
        reinterpret_cast<float4*>(p)[i] = pv;
        reinterpret_cast<float4*>(m)[i] = mv;
        reinterpret_cast<float4*>(v)[i] = vv;
    }
    const int t = n4 * 4 + i;
    if (i < 4 && t < n) {
        float pt = p[t], mt = m[t], vt = v[t];
        adam_one(pt, g[t], mt, vt, lr, beta1, beta2, eps, bc1, bc2);
        p[t] = pt;
        m[t] = mt;
        v[t] = vt;
    }
}

extern "C" void launch_adam_step(float* p, const float* g, float* m, float* v, int n, float lr,
                                 float beta1, float beta2, float eps, int step, cudaStream_t stream)
{
    const int n4 = n / 4;
    const int blocks = (n4 + THREADS - 1) / THREADS + 1;
    adam_step<<<blocks, THREADS, 0, stream>>>(p, g, m, v, n, lr, beta1, beta2, eps, step);
}
