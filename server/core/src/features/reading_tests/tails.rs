//! The other side of a bounds check: the grid's last threads finishing what the vector
//! path left (a tail loop), read as a few threads doing a few elements.

use super::profile_of;

/// A float4 kernel whose last thread finishes the tail element by element in `tail`.
fn vec4_with_tail(tail: &str) -> String {
    format!(
        r#"
// kforecast: n = 16777219; x: f32[n] randn; y: f32[n]
__global__ void scale4(const float* __restrict__ x, float* __restrict__ y, long long n) {{
    long long base = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (base + 4 <= n) {{
        float4 v = *reinterpret_cast<const float4*>(x + base);
        v.x *= 2.0f; v.y *= 2.0f; v.z *= 2.0f; v.w *= 2.0f;
        *reinterpret_cast<float4*>(y + base) = v;
    }} {tail}
}}
void launch(const float* x, float* y, long long n) {{
    scale4<<<(unsigned)((n + 1023) / 1024), 256>>>(x, y, n);
}}
"#
    )
}

#[test]
fn a_tail_loop_after_a_bounds_check_moves_a_few_elements_not_the_array() {
    let without = profile_of(&vec4_with_tail(""), "scale4");
    let with =
        profile_of(&vec4_with_tail("else { for (long long i = base; i < n; ++i) y[i] = 2.0f * x[i]; }"), "scale4");
    let array = 16777219.0 * 4.0;
    // The vector path reads the array once; the tail adds next to nothing (it used to be
    // read as every thread looping from its own index to n: the array squared).
    assert!((0.9..1.2).contains(&(without.features.load_bytes / array)), "{}", without.features.load_bytes);
    let extra = with.features.load_bytes / without.features.load_bytes;
    assert!(
        (1.0..1.01).contains(&extra),
        "tail loop: {} bytes vs {}",
        with.features.load_bytes,
        without.features.load_bytes
    );
}

#[test]
fn a_branch_on_the_data_still_counts_both_sides() {
    // Not a bounds check: either side may run on any thread, so both are counted.
    let src = r#"
// kforecast: n = 16777216; x: f32[n] randn; y: f32[n]; z: f32[n]
__global__ void pick(const float* __restrict__ x, const float* __restrict__ z, float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (x[i] > 0.0f) y[i] = x[i]; else y[i] = z[i];
    }
}
void launch(const float* x, const float* z, float* y, int n) { pick<<<(n + 255) / 256, 256>>>(x, z, y, n); }
"#;
    let p = profile_of(src, "pick");
    let one = 16777216.0 * 4.0;
    assert!(p.features.load_bytes > 1.8 * one, "{}", p.features.load_bytes);
}

#[test]
fn every_spelling_of_a_float4_access_moves_the_same_bytes() {
    let array = 16777216.0 * 4.0;
    for (load, store) in [
        ("*reinterpret_cast<const float4*>(x + base)", "*reinterpret_cast<float4*>(y + base)"),
        ("*reinterpret_cast<const float4*>(&x[base])", "*reinterpret_cast<float4*>(&y[base])"),
        ("reinterpret_cast<const float4*>(&x[base])[0]", "reinterpret_cast<float4*>(&y[base])[0]"),
        ("reinterpret_cast<const float4*>(x)[base / 4]", "reinterpret_cast<float4*>(y)[base / 4]"),
        ("*(const float4*)(x + base)", "*(float4*)(y + base)"),
    ] {
        let src = format!(
            r#"
// kforecast: n = 16777216; x: f32[n] randn; y: f32[n]
__global__ void scale4(const float* __restrict__ x, float* __restrict__ y, long long n) {{
    long long base = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 4;
    if (base + 4 <= n) {{
        float4 v = {load};
        v.x *= 2.0f; v.y *= 2.0f; v.z *= 2.0f; v.w *= 2.0f;
        {store} = v;
    }}
}}
void launch(const float* x, float* y, long long n) {{
    scale4<<<(unsigned)((n + 1023) / 1024), 256>>>(x, y, n);
}}
"#
        );
        let p = profile_of(&src, "scale4");
        let f = &p.features;
        assert!((0.95..1.05).contains(&(f.load_bytes / array)), "{load}: {} bytes loaded", f.load_bytes);
        assert!((0.95..1.05).contains(&(f.store_bytes / array)), "{store}: {} bytes stored", f.store_bytes);
        assert!(f.uncoalesced_bytes < 0.01 * array, "{load}: {} bytes uncoalesced", f.uncoalesced_bytes);
        assert_eq!(f.vector_width, 4.0, "{load}");
    }
}

#[test]
fn a_register_copy_of_a_vector_load_is_not_global_memory() {
    // `raw` holds the 16 bytes loaded; the lanes of it `v` walks are registers.
    let src = r#"
#include <cuda_bf16.h>
// kforecast: n = 16777216; x: bf16[n] randn; y: bf16[n]
__global__ void k8(const __nv_bfloat16* __restrict__ x, __nv_bfloat16* __restrict__ y, long long n, float a, float b) {
    long long base = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 8;
    if (base + 8 <= n) {
        uint4 raw = *reinterpret_cast<const uint4*>(x + base);
        __nv_bfloat16* v = reinterpret_cast<__nv_bfloat16*>(&raw);
#pragma unroll
        for (int k = 0; k < 8; ++k) v[k] = __float2bfloat16(fmaxf(a * __bfloat162float(v[k]) + b, 0.0f));
        *reinterpret_cast<uint4*>(y + base) = raw;
    }
}
void launch(const __nv_bfloat16* x, __nv_bfloat16* y, long long n) { k8<<<(unsigned)((n + 1023) / 1024), 128>>>(x, y, n, 1.0f, 0.0f); }
"#;
    let p = profile_of(src, "k8");
    let array = 16777216.0 * 2.0;
    assert!((0.95..1.05).contains(&(p.features.load_bytes / array)), "{} bytes loaded", p.features.load_bytes);
    assert!((0.95..1.05).contains(&(p.features.store_bytes / array)), "{} bytes stored", p.features.store_bytes);
}

#[test]
fn an_auto_pointer_into_a_row_reads_the_row() {
    // `const auto row = inp + i * ncol`: a pointer by its value, though no `*` declares it.
    let src = r#"
// kforecast: nrow = 4096; ncol = 4096; inp: f32[nrow, ncol] randn; out: f32[nrow]
__global__ void row_max(float* out, const float* inp, int nrow, int ncol) {
    const auto i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nrow) return;
    const auto row = inp + i * ncol;
    float best = -1e30f;
    for (auto j = 0; j < ncol; j++) {
        const auto v = row[j] + 0.0f;
        best = fmaxf(best, v);
    }
    out[i] = best;
}
void launch(float* out, const float* inp, int nrow, int ncol) { row_max<<<nrow / 128, 128>>>(out, inp, nrow, ncol); }
"#;
    let p = profile_of(src, "row_max");
    let matrix = 4096.0 * 4096.0 * 4.0;
    assert!(p.features.load_bytes >= 0.9 * matrix, "{} bytes loaded", p.features.load_bytes);
}
