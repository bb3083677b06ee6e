// Conway's Game of Life, one step on a byte grid (cells 0/1, outside the grid dead).
// The naive version with 32x8 blocks instead of 16x16 (a warp covers 32 cells of one
// row instead of two 16-cell halves): one thread per cell, 8 bounds-checked global
// neighbour loads, the rule written as nested if/else.
#include <cuda_runtime.h>

#define BX 32
#define BY 8

// kforecast: W = 8192; H = 8192; in: u8[H, W] randint(0,2); out: u8[H, W]; rtol = 0; atol = 0
__global__ void game_of_life(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, int W, int H)
{
    const int x = blockIdx.x * BX + threadIdx.x;
    const int y = blockIdx.y * BY + threadIdx.y;
    if (x >= W || y >= H) return;
    int n = 0;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            if (dx == 0 && dy == 0) continue;
            const int xx = x + dx;
            const int yy = y + dy;
            if (xx >= 0 && xx < W && yy >= 0 && yy < H) n += in[(size_t)yy * W + xx];
        }
    }
    const unsigned char alive = in[(size_t)y * W + x];
    unsigned char next;
    if (alive) {
        if (n == 2 || n == 3)
            next = 1;
        else
            next = 0;
    } else {
        if (n == 3)
            next = 1;
        else
            next = 0;
    }
    out[(size_t)y * W + x] = next;
}

extern "C" void launch_game_of_life(const unsigned char* in, unsigned char* out, int W, int H, cudaStream_t stream)
{
    dim3 block(BX, BY);
    dim3 grid((W + BX - 1) / BX, (H + BY - 1) / BY);
    game_of_life<<<grid, block, 0, stream>>>(in, out, W, H);
}
