// Euler step on AoS particles: naive, one thread per particle reading and writing its 6 floats one by one (a warp's accesses are 24 bytes apart).
// Particles are an array of structs {x, y, z, vx, vy, vz} (6 floats), acc is {ax, ay, az} per particle:
// one explicit Euler step pos += dt * vel (old vel), vel += dt * acc, in place.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 23; dt = 0.01; p: f32[n, 6] randn; acc: f32[n, 3] randn; rtol = 1e-5; atol = 1e-6
__global__ void aos_particle_update(float* __restrict__ p, const float* __restrict__ acc, float dt, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float* q = p + (size_t)i * 6;
    const float* a = acc + (size_t)i * 3;
    q[0] = q[0] + dt * q[3];
    q[1] = q[1] + dt * q[4];
    q[2] = q[2] + dt * q[5];
    q[3] = q[3] + dt * a[0];
    q[4] = q[4] + dt * a[1];
    q[5] = q[5] + dt * a[2];
}

extern "C" void launch_aos_particle_update(float* p, const float* acc, float dt, int n, cudaStream_t stream)
{
    aos_particle_update<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(p, acc, dt, n);
}
