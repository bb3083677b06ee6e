// Euler step on AoS particles: each warp copies its 32 particles (192 floats) and their accelerations into shared memory with coalesced loads, updates one particle per lane there, and writes back coalesced.
// Particles are an array of structs {x, y, z, vx, vy, vz} (6 floats), acc is {ax, ay, az} per particle:
// one explicit Euler step pos += dt * vel (old vel), vel += dt * acc, in place.
#include <cuda_runtime.h>

#define THREADS 256
#define WARPS   (THREADS / 32)

// kforecast: n = 1 << 23; dt = 0.01; p: f32[n, 6] randn; acc: f32[n, 3] randn; rtol = 1e-5; atol = 1e-6
__global__ void __launch_bounds__(THREADS)
aos_particle_update(float* __restrict__ p, const float* __restrict__ acc, float dt, int n)
{
    __shared__ float sp[WARPS][32 * 6];
    __shared__ float sa[WARPS][32 * 3];
    const int lane = threadIdx.x & 31;
    const int w = threadIdx.x >> 5;
    const int first = (blockIdx.x * WARPS + w) * 32;
    if (first >= n) return;
    const int count = min(32, n - first);
    float* gp = p + (size_t)first * 6;
    const float* ga = acc + (size_t)first * 3;
    for (int e = lane; e < count * 6; e += 32) sp[w][e] = gp[e];
    for (int e = lane; e < count * 3; e += 32) sa[w][e] = ga[e];
    __syncwarp();
    if (lane < count) {
        float* q = &sp[w][lane * 6];
        const float* a = &sa[w][lane * 3];
        q[0] = q[0] + dt * q[3];
        q[1] = q[1] + dt * q[4];
        q[2] = q[2] + dt * q[5];
        q[3] = q[3] + dt * a[0];
        q[4] = q[4] + dt * a[1];
        q[5] = q[5] + dt * a[2];
    }
    __syncwarp();
    for (int e = lane; e < count * 6; e += 32) gp[e] = sp[w][e];
}

extern "C" void launch_aos_particle_update(float* p, const float* acc, float dt, int n, cudaStream_t stream)
{
    const int warps = (n + 31) / 32;
    aos_particle_update<<<(warps + WARPS - 1) / WARPS, THREADS, 0, stream>>>(p, acc, dt, n);
}
