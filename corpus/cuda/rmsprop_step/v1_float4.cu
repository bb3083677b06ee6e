// One RMSprop step with float4 loads and stores of p, v, g (four elements per thread; n % 4 tail).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

__device__ __forceinline__ void rms_one(float& p, float& v, float gi, float alpha, float lr, float eps)
{
    v = alpha * v + (1.0f - alpha) * gi * gi;
    p = p - lr * gi / (sqrtf(v) + eps);
}

// kforecast: n = 1 << 25; alpha = 0.99; lr = 0.01; eps = 0.00000001; p: f32[n] randn; v: f32[n] rand; g: f32[n] randn; rtol = 1e-4; atol = 1e-5
__global__ void rmsprop_step(float* __restrict__ p, float* __restrict__ v, const float* __restrict__ g, int n,
                             float alpha, float lr, float eps)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int n4 = n / 4;
    if (i < n4) {
        float4 pv = reinterpret_cast<float4*>(p)[i];
        float4 vv = reinterpret_cast<float4*>(v)[i];
        const float4 gv = reinterpret_cast<const float4*>(g)[i];
        rms_one(pv.x, vv.x, gv.x, alpha, lr, eps);
        rms_one(pv.y, vv.y, gv.y, alpha, lr, eps);
        rms_one(pv.z, vv.z, gv.z, alpha, lr, eps);
        rms_one(pv.w, vv.w, gv.w, alpha, lr, eps);
        reinterpret_cast<float4*>(p)[i] = pv;
        reinterpret_cast<float4*>(v)[i] = vv;
    }
    const int t = n4 * 4 + i;
    if (i < 4 && t < n) {
        float pt = p[t], vt = v[t];
        rms_one(pt, vt, g[t], alpha, lr, eps);
        p[t] = pt;
        v[t] = vt;
    }
}

extern "C" void launch_rmsprop_step(float* p, float* v, const float* g, int n, float alpha, float lr, float eps,
                                    cudaStream_t stream)
{
    const int n4 = n / 4;
    const int blocks = (n4 + THREADS - 1) / THREADS + 1;
    rmsprop_step<<<blocks, THREADS, 0, stream>>>(p, v, g, n, alpha, lr, eps);
}
