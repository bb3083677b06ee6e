// Linear recurrence with a warp-shuffle associative scan: a 32 x 32 block owns 32 channels and walks time in 32-step tiles; tiles of a, b*x are loaded coalesced into padded shared memory, warp w scans channel w over the tile's 32 steps (lane = step) composing (A, B) pairs with shuffles, applies the carried state, and the tile is stored coalesced.
#include <cuda_runtime.h>

#define TS        32
#define FULL_MASK 0xffffffffu

// kforecast: steps = 2048; channels = 8192; a: f32[steps, channels] rand; b: f32[steps, channels] randn; x: f32[steps, channels] randn; y: f32[steps, channels]; rtol = 1e-4; atol = 1e-4
__global__ void __launch_bounds__(TS * TS)
ssm_scan(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ x,
         float* __restrict__ y, int steps, int channels)
{
    __shared__ float ta[TS][TS + 1];
    __shared__ float tb[TS][TS + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int d = blockIdx.x * TS + tx;  // channel this thread loads and stores
    float carry = 0.0f;                  // state of channel blockIdx.x * TS + ty (warp ty's channel)
    for (int t0 = 0; t0 < steps; t0 += TS) {
        const int t = t0 + ty;
        const size_t i = (size_t)t * channels + d;
        const bool in = t < steps && d < channels;
        ta[ty][tx] = in ? a[i] : 1.0f;
        tb[ty][tx] = in ? b[i] * x[i] : 0.0f;
        __syncthreads();
        float A = ta[tx][ty], B = tb[tx][ty];  // lane tx = time step t0 + tx of channel ty
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const float Ap = __shfl_up_sync(FULL_MASK, A, o);
            const float Bp = __shfl_up_sync(FULL_MASK, B, o);
            if (tx >= o) {
                B = A * Bp + B;
                A = A * Ap;
            }
        }
        const float h = A * carry + B;
        carry = __shfl_sync(FULL_MASK, h, 31);
        tb[tx][ty] = h;
        __syncthreads();
        if (in) y[i] = tb[ty][tx];
        __syncthreads();
    }
}

extern "C" void launch_ssm_scan(const float* a, const float* b, const float* x, float* y, int steps, int channels,
                                cudaStream_t stream)
{
    dim3 block(TS, TS);
    ssm_scan<<<(channels + TS - 1) / TS, block, 0, stream>>>(a, b, x, y, steps, channels);
}
