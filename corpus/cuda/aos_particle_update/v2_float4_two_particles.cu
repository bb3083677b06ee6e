// Euler step on AoS particles: each thread updates two adjacent particles, 48 bytes of state as three float4 and their 6 accelerations as three float2 (scalar path for an odd last particle).
// Particles are an array of structs {x, y, z, vx, vy, vz} (6 floats), acc is {ax, ay, az} per particle:
// one explicit Euler step pos += dt * vel (old vel), vel += dt * acc, in place.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 23; dt = 0.01; p: f32[n, 6] randn; acc: f32[n, 3] randn; rtol = 1e-5; atol = 1e-6
__global__ void __launch_bounds__(THREADS)
aos_particle_update(float* __restrict__ p, const float* __restrict__ acc, float dt, int n)
{
    const int t = blockIdx.x * THREADS + threadIdx.x;
    const int i0 = t * 2;
    if (i0 >= n) return;
    if (i0 + 1 < n) {
        float4* q = reinterpret_cast<float4*>(p) + (size_t)t * 3;
        const float2* a2 = reinterpret_cast<const float2*>(acc) + (size_t)t * 3;
        const float4 r0 = q[0], r1 = q[1], r2 = q[2];
        const float2 a0 = a2[0], a1 = a2[1], a2v = a2[2];
        float f[12] = {r0.x, r0.y, r0.z, r0.w, r1.x, r1.y, r1.z, r1.w, r2.x, r2.y, r2.z, r2.w};
        const float a[6] = {a0.x, a0.y, a1.x, a1.y, a2v.x, a2v.y};
#pragma unroll
        for (int k = 0; k < 2; ++k) {
#pragma unroll
            for (int j = 0; j < 3; ++j) f[6 * k + j] = f[6 * k + j] + dt * f[6 * k + 3 + j];
#pragma unroll
            for (int j = 0; j < 3; ++j) f[6 * k + 3 + j] = f[6 * k + 3 + j] + dt * a[3 * k + j];
        }
        q[0] = make_float4(f[0], f[1], f[2], f[3]);
        q[1] = make_float4(f[4], f[5], f[6], f[7]);
        q[2] = make_float4(f[8], f[9], f[10], f[11]);
    } else {
        float* q = p + (size_t)i0 * 6;
        const float* a = acc + (size_t)i0 * 3;
#pragma unroll
        for (int j = 0; j < 3; ++j) q[j] = q[j] + dt * q[3 + j];
#pragma unroll
        for (int j = 0; j < 3; ++j) q[3 + j] = q[3 + j] + dt * a[j];
    }
}

extern "C" void launch_aos_particle_update(float* p, const float* acc, float dt, int n, cudaStream_t stream)
{
    const int pairs = (n + 1) / 2;
    aos_particle_update<<<(pairs + THREADS - 1) / THREADS, THREADS, 0, stream>>>(p, acc, dt, n);
}
