// Conway's Game of Life, one step on a byte grid (cells 0/1, outside the grid dead).
// A 32x8 block stages its (8+2) x (32+2) tile with a one-cell halo in shared memory
// (cells outside the grid stored as 0), then each thread sums its 3x3 window there.
#include <cuda_runtime.h>

#define BX 32
#define BY 8
#define TW (BX + 2)
#define TH (BY + 2)

// kforecast: W = 8192; H = 8192; in: u8[H, W] randint(0,2); out: u8[H, W]; rtol = 0; atol = 0
__global__ void __launch_bounds__(BX * BY)
game_of_life(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, int W, int H)
{
    __shared__ unsigned char tile[TH][TW];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int xb = blockIdx.x * BX - 1;
    const int yb = blockIdx.y * BY - 1;
    for (int e = ty * BX + tx; e < TH * TW; e += BX * BY) {
        const int r = e / TW;
        const int c = e - r * TW;
        const int xx = xb + c, yy = yb + r;
        tile[r][c] = (xx >= 0 && xx < W && yy >= 0 && yy < H) ? in[(size_t)yy * W + xx] : 0;
    }
    __syncthreads();
    const int x = blockIdx.x * BX + tx;
    const int y = blockIdx.y * BY + ty;
    if (x >= W || y >= H) return;
    unsigned s = 0;
#pragma unroll
    for (int dy = 0; dy < 3; ++dy)
#pragma unroll
        for (int dx = 0; dx < 3; ++dx) s += tile[ty + dy][tx + dx];
    const unsigned c = tile[ty + 1][tx + 1];
    out[(size_t)y * W + x] = (unsigned char)((s == 3u) | ((s == 4u) & c));
}

extern "C" void launch_game_of_life(const unsigned char* in, unsigned char* out, int W, int H, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY);
    game_of_life<<<grid, block, 0, stream>>>(in, out, W, H);
}
