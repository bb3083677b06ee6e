# Dynamic per-token int8 quantisation: one kernel finds each row's absmax,
# a second one quantises element by element.
import cupy as cp

_src = r'''
extern "C" __global__ void row_absmax(const float* x, float* scales, int cols)
{
    __shared__ float red[256];
    const float* row = x + (size_t)blockIdx.x * cols;
    float m = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, fabsf(row[c]));
    red[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        scales[blockIdx.x] = red[0] / 127.0f;
}

extern "C" __global__ void quantize_elementwise(const float* x, const float* scales, signed char* q,
                                                long long n, int cols)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = scales[i / cols];
    int v = __float2int_rn(x[i] / s);
    q[i] = (signed char)max(-127, min(127, v));
}
'''

_mod = cp.RawModule(code=_src)
_absmax = _mod.get_function("row_absmax")
_quant = _mod.get_function("quantize_elementwise")


def quantize_rows(x):
    rows, cols = x.shape
    scales = cp.empty(rows, dtype=cp.float32)
    q = cp.empty((rows, cols), dtype=cp.int8)
    _absmax((rows,), (256,), (x, scales, cp.int32(cols)))
    n = x.size
    _quant(((n + 255) // 256,), (256,), (x, scales, q, cp.int64(n), cp.int32(cols)))
    return q, scales
