// Pairwise IoU matrix, 32x8 blocks over a tile of 8 rows x 128 columns: boxes decoded once into
// shared memory, each thread computes 4 columns j = tx + 32u (ILP, coalesced stores).
#include <cuda_runtime.h>

#define TX   32
#define TY   8
#define JPT  4
#define TILE_J (TX * JPT)

// Corners (x1, y1, x2, y2) of a box stored as (cx, cy, w, h) raw values in [0, 1): the
// width and height are mapped to [0.05, 0.3).
__device__ __forceinline__ float4 decode_box(float cx, float cy, float rw, float rh)
{
    const float hw = 0.5f * (0.05f + 0.25f * rw);
    const float hh = 0.5f * (0.05f + 0.25f * rh);
    return make_float4(cx - hw, cy - hh, cx + hw, cy + hh);
}

// Intersection over union of two boxes given by their corners.
__device__ __forceinline__ float box_iou(float4 a, float4 b)
{
    const float iw = fmaxf(0.0f, fminf(a.z, b.z) - fmaxf(a.x, b.x));
    const float ih = fmaxf(0.0f, fminf(a.w, b.w) - fmaxf(a.y, b.y));
    const float inter = iw * ih;
    const float area_a = (a.z - a.x) * (a.w - a.y);
    const float area_b = (b.z - b.x) * (b.w - b.y);
    return inter / (area_a + area_b - inter);
}

// kforecast: n = 4096; boxes: f32[n, 4] rand; iou: f32[n, n]; rtol = 1e-5; atol = 1e-6
__global__ void nms_iou(const float* __restrict__ boxes, float* __restrict__ iou, int n)
{
    __shared__ float4 row_box[TY];
    __shared__ float4 col_box[TILE_J];
    const int i0 = blockIdx.y * TY;
    const int j0 = blockIdx.x * TILE_J;
    const int t = threadIdx.y * TX + threadIdx.x;
    if (t < TILE_J) {
        const int k = j0 + t;
        if (k < n) col_box[t] = decode_box(boxes[4 * k], boxes[4 * k + 1], boxes[4 * k + 2], boxes[4 * k + 3]);
    } else if (t < TILE_J + TY) {
        const int k = i0 + t - TILE_J;
        if (k < n) row_box[t - TILE_J] = decode_box(boxes[4 * k], boxes[4 * k + 1], boxes[4 * k + 2], boxes[4 * k + 3]);
    }
    __syncthreads();
    const int i = i0 + threadIdx.y;
    if (i >= n) return;
    const float4 a = row_box[threadIdx.y];
    float* out = iou + (size_t)i * n;
#pragma unroll
    for (int u = 0; u < JPT; ++u) {
        const int jj = threadIdx.x + u * TX;
        if (j0 + jj < n) out[j0 + jj] = box_iou(a, col_box[jj]);
    }
}

extern "C" void launch_nms_iou(const float* boxes, float* iou, int n, cudaStream_t stream)
{
    dim3 block(TX, TY);
    dim3 grid((n + TILE_J - 1) / TILE_J, (n + TY - 1) / TY);
    nms_iou<<<grid, block, 0, stream>>>(boxes, iou, n);
}
