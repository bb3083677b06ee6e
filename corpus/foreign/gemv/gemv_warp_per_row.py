import cupy as cp

_code = r'''
extern "C" __global__ void gemv_warp(const float* __restrict__ A, const float* __restrict__ x,
                                     float* __restrict__ y, int m, int k)
{
    const int warps_per_block = blockDim.x / 32;
    const int row = blockIdx.x * warps_per_block + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= m) return;
    const float* a = A + (size_t)row * k;
    float s = 0.f;
    for (int j = lane; j < k; j += 32)
        s += a[j] * x[j];
    for (int off = 16; off > 0; off /= 2)
        s += __shfl_down_sync(0xffffffff, s, off);
    if (lane == 0) y[row] = s;
}
'''
_kern = cp.RawKernel(_code, "gemv_warp")


def gemv(A, x):
    m, k = A.shape
    y = cp.empty((m,), dtype=A.dtype)
    rows_per_block = 8
    _kern(((m + rows_per_block - 1) // rows_per_block,), (32 * rows_per_block,),
          (A, x, y, cp.int32(m), cp.int32(k)))
    return y
