import cupy as cp

mod = cp.RawModule(code=r'''
#define NT 256
extern "C" __global__ void sgemv_block_row(const float* A, const float* x, float* y, int k)
{
    __shared__ float red[NT];
    const float* a = A + (size_t)blockIdx.x * k;
    float s = 0.f;
    for (int j = threadIdx.x; j < k; j += NT) s += a[j] * x[j];
    red[threadIdx.x] = s;
    __syncthreads();
    for (int h = NT / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h) red[threadIdx.x] += red[threadIdx.x + h];
        __syncthreads();
    }
    if (threadIdx.x == 0) y[blockIdx.x] = red[0];
}
''')
kernel = mod.get_function("sgemv_block_row")


def gemv(A, x):
    m, k = A.shape
    y = cp.empty(m, dtype=cp.float32)
    kernel((m,), (256,), (A, x, y, cp.int32(k)))
    return y
