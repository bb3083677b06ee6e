import cupy as cp

_CODE = r"""
__device__ __forceinline__ void combine(float& n, float& mu, float& m2, float n_b, float mu_b, float m2_b) {
    const float n_ab = n + n_b;
    if (n_ab == 0.f) return;
    const float delta = mu_b - mu;
    const float frac = n_b / n_ab;
    mu += delta * frac;
    m2 += m2_b + delta * delta * n * frac;
    n = n_ab;
}

__device__ __forceinline__ void push(float& n, float& mu, float& m2, float v) {
    n += 1.f;
    const float d = v - mu;
    mu += d / n;
    m2 += d * (v - mu);
}

// block per row, float4 loads; Welford per thread, shuffles, then one slot per warp in shared memory
template <int BLOCK>
__device__ void row_var_vec4_impl(const float4* __restrict__ x4, float* __restrict__ out, int cols4) {
    __shared__ float sh_n[BLOCK / 32], sh_mu[BLOCK / 32], sh_m2[BLOCK / 32];
    const float4* row = x4 + (long long)blockIdx.x * cols4;
    float n = 0.f, mu = 0.f, m2 = 0.f;
    for (int j = threadIdx.x; j < cols4; j += BLOCK) {
        const float4 v = row[j];
        push(n, mu, m2, v.x);
        push(n, mu, m2, v.y);
        push(n, mu, m2, v.z);
        push(n, mu, m2, v.w);
    }
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        const float nb = __shfl_xor_sync(0xffffffffu, n, off);
        const float mb = __shfl_xor_sync(0xffffffffu, mu, off);
        const float qb = __shfl_xor_sync(0xffffffffu, m2, off);
        combine(n, mu, m2, nb, mb, qb);
    }
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    if (lane == 0) { sh_n[wid] = n; sh_mu[wid] = mu; sh_m2[wid] = m2; }
    __syncthreads();
    if (threadIdx.x == 0) {
        float tn = sh_n[0], tmu = sh_mu[0], tm2 = sh_m2[0];
        for (int w = 1; w < BLOCK / 32; ++w) combine(tn, tmu, tm2, sh_n[w], sh_mu[w], sh_m2[w]);
        out[blockIdx.x] = tm2 / tn;
    }
}

extern "C" __global__ void __launch_bounds__(256) row_var_welford_vec4_256(const float4* x4, float* out, int cols4) {
    row_var_vec4_impl<256>(x4, out, cols4);
}
"""

_module = cp.RawModule(code=_CODE, options=("-std=c++17",))
_kern = _module.get_function("row_var_welford_vec4_256")


def row_var(x):
    x = cp.ascontiguousarray(x, dtype=cp.float32)
    rows, cols = x.shape
    if cols % 4:
        raise ValueError("row_var: the row length must be a multiple of 4")
    out = cp.empty(rows, dtype=cp.float32)
    _kern((rows,), (256,), (x, out, cp.int32(cols // 4)))
    return out
