import cupy as cp

saxpy_kernel = cp.RawKernel(r'''
extern "C" __global__
void saxpy(const float* x, const float* y, float* out, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a * x[i] + y[i];
    }
}
''', 'saxpy')

N = 1 << 24
THREADS = 128
BLOCKS = (N + THREADS - 1) // THREADS


def run():
    x = cp.random.randn(N, dtype=cp.float32)
    y = cp.random.randn(N, dtype=cp.float32)
    out = cp.empty_like(x)
    saxpy_kernel((BLOCKS,), (THREADS,), (x, y, out, cp.float32(2.0), cp.int32(N)))
    return out
