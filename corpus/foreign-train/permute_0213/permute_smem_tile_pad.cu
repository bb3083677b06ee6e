// [B, S, H, D] -> [B, H, S, D] through padded shared-memory tiles: for one batch b and
// one float4 slot v of D, the [S][H] plane of float4 is transposed 32x32 tiles at a time,
// so that both the reads (along h) and the writes (along s) are long contiguous runs.
// Needs D % 4 == 0.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t e_ = (call);                                                 \
        if (e_ != cudaSuccess) {                                                 \
            fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
            return (int)e_;                                                      \
        }                                                                        \
    } while (0)

#define CDIV(a, b) (((a) + (b) - 1) / (b))
#define TILE 32
#define TILE_ROWS 8
#define PAD 1  /* one float4 of padding: column reads hit other banks */
/* float4 index of (b, s, h, v) in the input and of (b, h, s, v) in the output */
#define IN_AT(b, s, h, v) ((((long long)(b) * S + (s)) * H + (h)) * DV + (v))
#define OUT_AT(b, h, s, v) ((((long long)(b) * H + (h)) * S + (s)) * DV + (v))

__global__ void permute0213_tiled_padded(const float4* __restrict__ in,
                                         float4* __restrict__ out, int S, int H, int DV) {
    __shared__ float4 tile[TILE][TILE + PAD];
    int b = blockIdx.z / DV;
    int v = blockIdx.z % DV;
    int h0 = blockIdx.x * TILE;
    int s0 = blockIdx.y * TILE;

#pragma unroll
    for (int k = 0; k < TILE; k += TILE_ROWS) {
        int s = s0 + threadIdx.y + k;
        int h = h0 + threadIdx.x;
        if (s < S && h < H) tile[threadIdx.y + k][threadIdx.x] = in[IN_AT(b, s, h, v)];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; k += TILE_ROWS) {
        int h = h0 + threadIdx.y + k;
        int s = s0 + threadIdx.x;
        if (s < S && h < H) out[OUT_AT(b, h, s, v)] = tile[threadIdx.x][threadIdx.y + k];
    }
}

extern "C" int permute_0213(const float* x, float* y, int B, int S, int H, int D) {
    if (D % 4 != 0) return (int)cudaErrorInvalidValue;
    int DV = D / 4;
    if ((long long)B * S * H * DV == 0) return 0;
    if ((long long)B * DV > 65535) return (int)cudaErrorInvalidConfiguration;
    dim3 grid(CDIV(H, TILE), CDIV(S, TILE), B * DV);
    dim3 block(TILE, TILE_ROWS);
    permute0213_tiled_padded<<<grid, block>>>(reinterpret_cast<const float4*>(x),
                                              reinterpret_cast<float4*>(y), S, H, DV);
    CHECK(cudaGetLastError());
    return 0;
}
