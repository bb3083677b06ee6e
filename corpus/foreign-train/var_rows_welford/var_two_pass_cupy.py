"""Row variance with two kernels: row means, then the mean squared deviation."""
import cupy as cp

_source = r"""
extern "C" __global__ void row_mean(const float* x, float* mean, int cols) {
    __shared__ float buf[256];
    const float* row = x + (long long)blockIdx.x * cols;
    float s = 0.0f;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) s += row[j];
    buf[threadIdx.x] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) buf[threadIdx.x] += buf[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) mean[blockIdx.x] = buf[0] / cols;
}

extern "C" __global__ void row_sq_dev(const float* x, const float* mean, float* var, int cols) {
    __shared__ float buf[256];
    const float* row = x + (long long)blockIdx.x * cols;
    const float mu = mean[blockIdx.x];
    float s = 0.0f;
    for (int j = threadIdx.x; j < cols; j += blockDim.x) {
        float d = row[j] - mu;
        s += d * d;
    }
    buf[threadIdx.x] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) buf[threadIdx.x] += buf[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) var[blockIdx.x] = buf[0] / cols;
}
"""

_module = cp.RawModule(code=_source)
_row_mean = _module.get_function("row_mean")
_row_sq_dev = _module.get_function("row_sq_dev")


def row_var(x):
    x = cp.ascontiguousarray(x, dtype=cp.float32)
    rows, cols = x.shape
    mean = cp.empty(rows, dtype=cp.float32)
    var = cp.empty(rows, dtype=cp.float32)
    _row_mean((rows,), (256,), (x, mean, cp.int32(cols)))
    _row_sq_dev((rows,), (256,), (x, mean, var, cp.int32(cols)))
    return var
