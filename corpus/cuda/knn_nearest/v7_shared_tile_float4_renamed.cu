// Nearest-neighbour squared distance in 4-D. The float4 shared-tile version rewritten:
// renamed variables, the query loaded after the tile pointer setup, the tile bound
// computed as an end index, the same loads, tile size and unrolling.
#include <cuda_runtime.h>

#define BLOCK 256
#define REFS_PER_TILE 256

__device__ __forceinline__ float dist2(float ax, float ay, float az, float aw, float bx, float by, float bz, float bw)
{
    const float ex = ax - bx, ey = ay - by, ez = az - bz, ew = aw - bw;
    float acc = ex * ex;
    acc = fmaf(ey, ey, acc);
    acc = fmaf(ez, ez, acc);
    acc = fmaf(ew, ew, acc);
    return acc;
}

// kforecast: Q = 16384; N = 16384; queries: f32[Q, 4] randn; refs: f32[N, 4] randn; out: f32[Q]; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(BLOCK)
knn_nearest(const float* __restrict__ queries, const float* __restrict__ refs, float* __restrict__ out, int Q, int N)
{
    __shared__ float4 staged[REFS_PER_TILE];
    const float4* ref4 = reinterpret_cast<const float4*>(refs);
    const int t = threadIdx.x;
    const int qi = blockIdx.x * BLOCK + t;
    const float4 me = reinterpret_cast<const float4*>(queries)[qi < Q ? qi : Q - 1];
    float nearest = INFINITY;
    for (int start = 0; start < N; start += REFS_PER_TILE) {
        const int end = min(start + REFS_PER_TILE, N);
        if (start + t < end) staged[t] = ref4[start + t];
        __syncthreads();
        if (end - start == REFS_PER_TILE) {
#pragma unroll 8
            for (int k = 0; k < REFS_PER_TILE; ++k) {
                const float4 b = staged[k];
                nearest = fminf(nearest, dist2(me.x, me.y, me.z, me.w, b.x, b.y, b.z, b.w));
            }
        } else {
            for (int k = 0; k < end - start; ++k) {
                const float4 b = staged[k];
                nearest = fminf(nearest, dist2(me.x, me.y, me.z, me.w, b.x, b.y, b.z, b.w));
            }
        }
        __syncthreads();
    }
    if (qi < Q) out[qi] = nearest;
}

extern "C" void launch_knn_nearest(const float* queries, const float* refs, float* out, int Q, int N, cudaStream_t stream)
{
    knn_nearest<<<(Q + BLOCK - 1) / BLOCK, BLOCK, 0, stream>>>(queries, refs, out, Q, N);
}
