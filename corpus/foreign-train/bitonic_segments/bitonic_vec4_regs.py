"""Sorts every 1024-element segment (ascending) in one launch with 256 threads per segment:
float4 loads and stores, the network's first stages (k <= 4) sorted in registers, then the
remaining steps in shared memory with two compare-exchanges per thread per step."""
import cupy as cp

_SRC = r"""
template <typename T>
__device__ __forceinline__ void cas(T& a, T& b, bool ascending)
{
    if ((a > b) == ascending) { T t = a; a = b; b = t; }
}

template <int SEG, int THREADS>
__global__ void bitonic_vec4_kernel(const float4* __restrict__ in, float4* __restrict__ out)
{
    static_assert(SEG == THREADS * 4, "one float4 per thread");
    __shared__ float s[SEG];
    const int t = threadIdx.x;
    float4 v = in[(size_t)blockIdx.x * THREADS + t];
    // elements 4t .. 4t+3: stages k = 2 and k = 4 stay inside the thread's four values
    const int i0 = 4 * t;
    cas(v.x, v.y, (i0 & 2) == 0);            // k = 2, j = 1 (pair 4t, 4t+1)
    cas(v.z, v.w, ((i0 + 2) & 2) == 0);      // k = 2, j = 1 (pair 4t+2, 4t+3)
    bool up4 = (i0 & 4) == 0;                // k = 4
    cas(v.x, v.z, up4);                      // j = 2
    cas(v.y, v.w, up4);
    cas(v.x, v.y, up4);                      // j = 1
    cas(v.z, v.w, up4);
    s[i0] = v.x; s[i0 + 1] = v.y; s[i0 + 2] = v.z; s[i0 + 3] = v.w;
    __syncthreads();

    for (int k = 8; k <= SEG; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            #pragma unroll
            for (int h = 0; h < 2; ++h) {
                int p = t + h * THREADS;
                int i = ((p & ~(j - 1)) << 1) | (p & (j - 1));
                cas(s[i], s[i | j], (i & k) == 0);
            }
            __syncthreads();
        }
    }
    out[(size_t)blockIdx.x * THREADS + t] = make_float4(s[i0], s[i0 + 1], s[i0 + 2], s[i0 + 3]);
}
"""

SEG, THREADS = 1024, 256
_NAME = "bitonic_vec4_kernel<1024, 256>"
_module = cp.RawModule(code=_SRC, name_expressions=[_NAME])
_kernel = _module.get_function(_NAME)


def sort_segments(x):
    assert x.shape[-1] == SEG
    x = cp.ascontiguousarray(x, dtype=cp.float32)
    out = cp.empty_like(x)
    _kernel((x.size // SEG,), (THREADS,), (x, out))
    return out
