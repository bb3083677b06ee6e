// Conway's Game of Life, one step on a byte grid (cells 0/1, outside the grid dead).
// Flat 1-D grid of 256-thread blocks, coordinates by division and modulo, neighbours
// summed in a clipped 3x3 loop, next state looked up in an 18-entry rule table.
#include <cuda_runtime.h>

#define THREADS 256

// next state indexed by alive * 9 + (number of live neighbours)
__constant__ unsigned char RULE[18] = {0, 0, 0, 1, 0, 0, 0, 0, 0,
                                       0, 0, 1, 1, 0, 0, 0, 0, 0};

// kforecast: W = 8192; H = 8192; in: u8[H, W] randint(0,2); out: u8[H, W]; rtol = 0; atol = 0
__global__ void game_of_life(const unsigned char* __restrict__ in, unsigned char* __restrict__ out, int W, int H)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= W * H) return;
    const int y = i / W;
    const int x = i % W;
    const int y_lo = max(y - 1, 0), y_hi = min(y + 1, H - 1);
    const int x_lo = max(x - 1, 0), x_hi = min(x + 1, W - 1);
    int s = 0;
    for (int yy = y_lo; yy <= y_hi; ++yy)
        for (int xx = x_lo; xx <= x_hi; ++xx) s += in[(size_t)yy * W + xx];
    const int alive = in[i];
    out[i] = RULE[alive * 9 + s - alive];
}

extern "C" void launch_game_of_life(const unsigned char* in, unsigned char* out, int W, int H, cudaStream_t stream)
{
    game_of_life<<<(W * H + THREADS - 1) / THREADS, THREADS, 0, stream>>>(in, out, W, H);
}
