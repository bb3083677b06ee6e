// Euler step on AoS particles: the float2 version in a grid-stride loop over a fixed grid of 4 blocks of 256 per SM.
// Particles are an array of structs {x, y, z, vx, vy, vz} (6 floats), acc is {ax, ay, az} per particle:
// one explicit Euler step pos += dt * vel (old vel), vel += dt * acc, in place.
#include <cuda_runtime.h>

#define THREADS 256
#define BLOCKS  (132 * 4)

// kforecast: n = 1 << 23; dt = 0.01; p: f32[n, 6] randn; acc: f32[n, 3] randn; rtol = 1e-5; atol = 1e-6
__global__ void __launch_bounds__(THREADS)
aos_particle_update(float* __restrict__ p, const float* __restrict__ acc, float dt, int n)
{
    float2* p2 = reinterpret_cast<float2*>(p);
    for (int i = blockIdx.x * THREADS + threadIdx.x; i < n; i += gridDim.x * THREADS) {
        float2* q = p2 + (size_t)i * 3;
        const float* a = acc + (size_t)i * 3;
        float2 xy = q[0];
        float2 zv = q[1];
        float2 vv = q[2];
        const float ax = a[0], ay = a[1], az = a[2];
        xy.x = xy.x + dt * zv.y;
        xy.y = xy.y + dt * vv.x;
        zv.x = zv.x + dt * vv.y;
        zv.y = zv.y + dt * ax;
        vv.x = vv.x + dt * ay;
        vv.y = vv.y + dt * az;
        q[0] = xy;
        q[1] = zv;
        q[2] = vv;
    }
}

extern "C" void launch_aos_particle_update(float* p, const float* acc, float dt, int n, cudaStream_t stream)
{
    aos_particle_update<<<BLOCKS, THREADS, 0, stream>>>(p, acc, dt, n);
}
