// Euler step on AoS particles: the float2 version with renamed variables, the accelerations loaded first and the new velocities computed into temporaries before the positions.
// Particles are an array of structs {x, y, z, vx, vy, vz} (6 floats), acc is {ax, ay, az} per particle:
// one explicit Euler step pos += dt * vel (old vel), vel += dt * acc, in place.
#include <cuda_runtime.h>

#define THREADS 256

// kforecast: n = 1 << 23; dt = 0.01; p: f32[n, 6] randn; acc: f32[n, 3] randn; rtol = 1e-5; atol = 1e-6
__global__ void __launch_bounds__(THREADS)
aos_particle_update(float* __restrict__ p, const float* __restrict__ acc, float dt, int n)
{
    const int idx = threadIdx.x + blockIdx.x * THREADS;
    if (idx >= n) return;
    const float* acc_i = acc + 3 * (size_t)idx;
    const float gx = acc_i[0], gy = acc_i[1], gz = acc_i[2];
    float2* state = reinterpret_cast<float2*>(p + 6 * (size_t)idx);
    const float2 s0 = state[0], s1 = state[1], s2 = state[2];
    // s0 = (x, y), s1 = (z, vx), s2 = (vy, vz)
    const float nvx = s1.y + dt * gx;
    const float nvy = s2.x + dt * gy;
    const float nvz = s2.y + dt * gz;
    const float nx = s0.x + dt * s1.y;
    const float ny = s0.y + dt * s2.x;
    const float nz = s1.x + dt * s2.y;
    state[0] = make_float2(nx, ny);
    state[1] = make_float2(nz, nvx);
    state[2] = make_float2(nvy, nvz);
}

extern "C" void launch_aos_particle_update(float* p, const float* acc, float dt, int n, cudaStream_t stream)
{
    aos_particle_update<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(p, acc, dt, n);
}
