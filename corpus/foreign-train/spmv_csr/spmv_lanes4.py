"""CSR SpMV with 4 lanes per row (eight rows per warp): each group of 4 lanes walks its
row, so a warp's loads spread over 8 rows."""
import cupy as cp

LANES = 4
THREADS = 128

spmv_kernel = cp.RawKernel(r"""
#define LANES 4
extern "C" __global__
void spmv_csr_lanes4(const int* __restrict__ rp, const int* __restrict__ ci,
                       const float* __restrict__ v, const float* __restrict__ x,
                       float* __restrict__ y, int rows)
{
    int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    int row = gtid / LANES;
    int sub = gtid % LANES;
    // rows past the end still take part in the shuffles (with zero), nobody returns early
    float acc = 0.f;
    if (row < rows) {
        int end = rp[row + 1];
        for (int p = rp[row] + sub; p < end; p += LANES) acc += v[p] * x[ci[p]];
    }
    for (int off = LANES / 2; off > 0; off /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, off, LANES);
    if (row < rows && sub == 0) y[row] = acc;
}
""", "spmv_csr_lanes4")


def spmv(row_ptr, col_idx, values, x):
    rows = int(row_ptr.shape[0]) - 1
    y = cp.empty((rows,), dtype=cp.float32)
    total = rows * LANES
    spmv_kernel(((total + THREADS - 1) // THREADS,), (THREADS,),
                (row_ptr, col_idx, values, x, y, cp.int32(rows)))
    return y
