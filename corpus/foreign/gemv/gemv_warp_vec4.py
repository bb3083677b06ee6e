import cupy as cp

SOURCE = r'''
extern "C" __global__ void gemv_warp_float4(const float4* __restrict__ A, const float4* __restrict__ x,
                                            float* __restrict__ y, int m, int k4)
{
    int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int lane = threadIdx.x & 31;
    if (row >= m) return;
    const float4* a = A + (size_t)row * k4;
    float s0 = 0.f, s1 = 0.f;
    int j = lane;
    for (; j + 32 < k4; j += 64) {
        float4 p = a[j], q = x[j];
        float4 r = a[j + 32], t = x[j + 32];
        s0 += p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w;
        s1 += r.x * t.x + r.y * t.y + r.z * t.z + r.w * t.w;
    }
    for (; j < k4; j += 32) {
        float4 p = a[j], q = x[j];
        s0 += p.x * q.x + p.y * q.y + p.z * q.z + p.w * q.w;
    }
    float s = s0 + s1;
    #pragma unroll
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) y[row] = s;
}
'''
gemv_vec4 = cp.RawKernel(SOURCE, "gemv_warp_float4")


def gemv(A, x):
    m, k = A.shape
    if k % 4:
        raise ValueError("gemv_warp_float4 needs k % 4 == 0")
    y = cp.empty(m, dtype=cp.float32)
    threads = 256
    gemv_vec4((((m * 32) + threads - 1) // threads,), (threads,), (A, x, y, cp.int32(m), cp.int32(k // 4)))
    return y
