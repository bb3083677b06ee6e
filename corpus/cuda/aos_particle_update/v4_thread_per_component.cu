// Euler step on AoS particles: one thread per float of the state (n*6 threads, 192-thread blocks = 32 whole particles), the field from tid % 6, all reads before a barrier and the write after it.
// Particles are an array of structs {x, y, z, vx, vy, vz} (6 floats), acc is {ax, ay, az} per particle:
// one explicit Euler step pos += dt * vel (old vel), vel += dt * acc, in place.
#include <cuda_runtime.h>

#define PARTICLES_PER_BLOCK 32
#define THREADS (PARTICLES_PER_BLOCK * 6)

// kforecast: n = 1 << 23; dt = 0.01; p: f32[n, 6] randn; acc: f32[n, 3] randn; rtol = 1e-5; atol = 1e-6
__global__ void __launch_bounds__(THREADS)
aos_particle_update(float* __restrict__ p, const float* __restrict__ acc, float dt, int n)
{
    const int g = blockIdx.x * THREADS + threadIdx.x;
    const int field = threadIdx.x % 6;
    const int particle = blockIdx.x * PARTICLES_PER_BLOCK + threadIdx.x / 6;
    const bool live = particle < n;
    float val = 0.0f, rate = 0.0f;
    if (live) {
        val = p[g];
        rate = field < 3 ? p[g + 3] : acc[(size_t)particle * 3 + field - 3];
    }
    // The velocity threads overwrite what the position threads of the same particle read.
    __syncthreads();
    if (live) p[g] = val + dt * rate;
}

extern "C" void launch_aos_particle_update(float* p, const float* acc, float dt, int n, cudaStream_t stream)
{
    aos_particle_update<<<(n + PARTICLES_PER_BLOCK - 1) / PARTICLES_PER_BLOCK, THREADS, 0, stream>>>(p, acc, dt, n);
}
