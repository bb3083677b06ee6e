// out[i][j] = sum_d |X[i][d] - Y[j][d]|, naive with i along threadIdx.x: a warp's 16-lane
// halves store to 16 different rows of out (N floats apart), so the stores are uncoalesced.
#include <cuda_runtime.h>

#define D  64
#define BS 16

// kforecast: M = 4096; N = 4096; X: f32[M, 64] randn; Y: f32[N, 64] randn; out: f32[M, N]; rtol = 1e-4; atol = 1e-3
__global__ void cdist_l1(const float* __restrict__ X, const float* __restrict__ Y, float* __restrict__ out, int M, int N)
{
    const int i = blockIdx.x * BS + threadIdx.x;
    const int j = blockIdx.y * BS + threadIdx.y;
    if (i >= M || j >= N) return;
    float acc = 0.0f;
    for (int d = 0; d < D; ++d)
        acc += fabsf(X[(size_t)i * D + d] - Y[(size_t)j * D + d]);
    out[(size_t)i * N + j] = acc;
}

extern "C" void launch_cdist_l1(const float* X, const float* Y, float* out, int M, int N, cudaStream_t stream)
{
    dim3 block(BS, BS);
    dim3 grid((M + BS - 1) / BS, (N + BS - 1) / BS);
    cdist_l1<<<grid, block, 0, stream>>>(X, Y, out, M, N);
}
