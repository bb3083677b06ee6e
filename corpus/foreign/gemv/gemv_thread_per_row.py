import cupy as cp

matvec = cp.RawKernel(r'''
extern "C" __global__
void matvec_rowthread(const float* A, const float* x, float* y, int m, int k)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m) {
        float acc = 0.0f;
        for (int j = 0; j < k; ++j)
            acc += A[(size_t)row * k + j] * x[j];
        y[row] = acc;
    }
}
''', 'matvec_rowthread')


def gemv(A, x):
    m, k = A.shape
    y = cp.empty(m, dtype=cp.float32)
    threads = 128
    matvec(((m + threads - 1) // threads,), (threads,), (A, x, y, cp.int32(m), cp.int32(k)))
    return y
