//! `__constant__` arrays: a lookup table indexed by the data serialises a warp's reads
//! over the lanes' distinct entries; weights read at a loop variable are a broadcast.

use super::profile_of;

/// Counts the set bits of each word through an 8-bit table in constant memory (`lookups`
/// bytes of each word), or through shifts and adds (`lookups` = 0).
fn popcount(lookups: u32) -> String {
    let body = if lookups == 0 {
        "x = x - ((x >> 1) & 0x55555555u); x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u); \
         r[i] = (((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;"
            .to_string()
    } else {
        let terms: Vec<String> = (0..lookups).map(|b| format!("table[(x >> {}) & 0xFF]", 8 * b)).collect();
        format!("r[i] = {};", terms.join(" + "))
    };
    format!(
        r#"
__constant__ unsigned char table[256];
__global__ void popcount(const unsigned int *data, int *r, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned int x = data[i];
    {body}
}}
void run(const unsigned int *d, int *r) {{
    const int n = 1 << 24;
    popcount<<<(n + 255) / 256, 256>>>(d, r, n);
}}
"#
    )
}

#[test]
fn a_lookup_table_in_constant_memory_indexed_by_the_data_is_serialised() {
    let swar = profile_of(&popcount(0), "popcount");
    let lut = profile_of(&popcount(4), "popcount");
    // Same bytes moved; four table reads a word, each served lane by lane.
    assert_eq!(swar.features.load_bytes, lut.features.load_bytes);
    assert!(lut.cost.total > 4.0 * swar.cost.total, "{:?} vs {:?}", lut.cost, swar.cost);
    let one = profile_of(&popcount(1), "popcount");
    assert!(lut.cost.total > 2.0 * one.cost.total, "{:?} vs {:?}", lut.cost, one.cost);
}

#[test]
fn filter_weights_in_constant_memory_read_at_a_loop_variable_are_a_broadcast() {
    let src = |weights: &str| {
        format!(
            r#"
__constant__ float w[9];
__global__ void conv(const float *in, float *out, const float *g, int n) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < 4 || i >= n - 4) return;
    float acc = 0.0f;
    for (int k = 0; k < 9; k++) acc += {weights} * in[i + k - 4];
    out[i] = acc;
}}
void run(const float *in, float *out, const float *g) {{
    const int n = 1 << 24;
    conv<<<(n + 255) / 256, 256>>>(in, out, g, n);
}}
"#
        )
    };
    let constant = profile_of(&src("w[k]"), "conv");
    let none = profile_of(&src("1.0f"), "conv");
    assert!(constant.cost.total < 1.1 * none.cost.total, "{:?} vs {:?}", constant.cost, none.cost);
}
