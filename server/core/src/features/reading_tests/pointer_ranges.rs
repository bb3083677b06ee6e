//! Loops that walk a pointer over a range rather than an index over a count, as
//! hand-written SGEMM tutorials step their tiles: `for (float *p = begin; p < end; p += STEP)`.

use super::profile_of;

/// A 2048³ shared-memory SGEMM, each block's k-loop written as `head` (our own text).
fn tiled_sgemm(head: &str) -> String {
    format!(
        r#"
#define TILE 16
__global__ void sgemm(int m, int n, int k, float *a, float *b, float *c) {{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    float *begin_a = a + blockIdx.y * TILE * k;
    float *begin_b = b + blockIdx.x * TILE;
    float *end_a = begin_a + k;
    float sum = 0.f;
    {head} {{
        as[ty][tx] = a_ptr[ty * k + tx];
        bs[ty][tx] = b_ptr[ty * n + tx];
        __syncthreads();
        for (int kk = 0; kk < TILE; ++kk) sum += as[ty][kk] * bs[kk][tx];
        __syncthreads();
    }}
    c[(blockIdx.y * TILE + ty) * n + blockIdx.x * TILE + tx] = sum;
}}
void run(float *a, float *b, float *c) {{
    sgemm<<<dim3(2048 / TILE, 2048 / TILE), dim3(TILE, TILE)>>>(2048, 2048, 2048, a, b, c);
}}
"#
    )
}

#[test]
fn a_loop_over_a_pointer_range_runs_the_ranges_length_over_its_step() {
    let pointers = profile_of(
        &tiled_sgemm("for (float *a_ptr = begin_a, *b_ptr = begin_b; a_ptr < end_a; a_ptr += TILE, b_ptr += TILE * n)"),
        "sgemm",
    );
    // k / TILE = 128 tiles of 16 multiply-adds: the product's 2 · 2048³ flops. Before, the
    // pointer loop's trips were a guess of 8, and the GEMM did a sixteenth of its work.
    let flops = 2.0 * 2048f64.powi(3);
    let ratio = pointers.features.scalar_ops / flops;
    assert!((0.9..2.0).contains(&ratio), "{:.3e} ops", pointers.features.scalar_ops);
    assert_eq!(pointers.guesses, 0, "{:?}", pointers.assumed);
}
