//! Tensor-core GEMMs as libraries and tutorials write them: WMMA fragments loaded
//! straight from global memory, inline-PTX `mma.sync` of several shapes, and the
//! `cp.async` copies of a multi-stage pipeline, often behind macros (`HMMA16816(…)`,
//! `CP_ASYNC_CG(dst, src, 16)`).

use super::profile_of;

/// A 4096³ half-precision GEMM, one warp a tile, its tensor-core step `step` (our own text).
fn tensor_core_gemm(tile_cols: u32, step: &str) -> String {
    format!(
        r#"
#include <mma.h>
using namespace nvcuda;
__global__ void tc_gemm(const half *a, const half *b, float *c) {{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    unsigned a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0;
    for (int kk = 0; kk < 4096; kk += 16) {{
        {step}
    }}
    c[blockIdx.y * 16 * 4096 + blockIdx.x * {tile_cols}] = d0 + d1 + d2 + d3;
}}
void run(const half *a, const half *b, float *c) {{
    tc_gemm<<<dim3(4096 / {tile_cols}, 4096 / 16), 32>>>(a, b, c);
}}
"#
    )
}

#[test]
fn a_ptx_mma_instruction_does_the_work_its_shape_names() {
    let wmma = profile_of(&tensor_core_gemm(16, "wmma::mma_sync(acc, fa, fb, acc);"), "tc_gemm");
    let ptx = profile_of(
        &tensor_core_gemm(
            8,
            r#"asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));"#,
        ),
        "tc_gemm",
    );
    // Both are 2·4096³ flops: an m16n8k16 instruction is half a 16 × 16 × 16 fragment's
    // work, over twice the tiles. Before, every `mma` in inline PTX was read as a WMMA
    // fragment's, and the PTX GEMM did twice the work of the same product through cuBLAS.
    let flops = 2.0 * 4096f64.powi(3);
    for (how, p) in [("wmma", &wmma), ("ptx", &ptx)] {
        let ratio = p.features.tensor_flops / flops;
        assert!((0.99..1.01).contains(&ratio), "{how}: {:.3e} tensor flops", p.features.tensor_flops);
    }
}

/// A 4096³ half-precision WMMA GEMM, one warp a 16 × 16 tile, its fragments loaded by
/// `load` (our own text).
fn wmma_gemm(load: &str) -> String {
    format!(
        r#"
#include <mma.h>
using namespace nvcuda;
__global__ void wmma_gemm(const half *A, const half *B, float *C) {{
    __shared__ half As[16 * 16];
    __shared__ half Bs[16 * 16];
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    const int row = blockIdx.y * 16, col = blockIdx.x * 16, lane = threadIdx.x;
    for (int k = 0; k < 4096; k += 16) {{
        {load}
        wmma::mma_sync(acc, fa, fb, acc);
    }}
    wmma::store_matrix_sync(C + row * 4096 + col, acc, 4096, wmma::mem_row_major);
}}
void run(const half *A, const half *B, float *C) {{
    wmma_gemm<<<dim3(4096 / 16, 4096 / 16), 32>>>(A, B, C);
}}
"#
    )
}

#[test]
fn wmma_fragments_loaded_from_global_memory_are_global_traffic() {
    let direct = profile_of(
        &wmma_gemm(
            "wmma::load_matrix_sync(fa, A + row * 4096 + k, 4096);\n        \
             wmma::load_matrix_sync(fb, B + col * 4096 + k, 4096);",
        ),
        "wmma_gemm",
    );
    // Each warp reads a 16 × 16 tile of A and of B per step: 2 · 4096³ / 16 halves in all,
    // and writes its 16 × 16 floats of C once. Before, a fragment's load moved nothing,
    // and the naive WMMA GEMM was read as the fastest of its ladder.
    let tiles = 2.0 * 4096f64.powi(3) / 16.0 * 2.0;
    let ratio = direct.features.load_bytes / tiles;
    assert!((0.9..1.1).contains(&ratio), "{:.3e} bytes loaded", direct.features.load_bytes);
    assert!((direct.features.store_bytes / (4096.0 * 4096.0 * 4.0) - 1.0).abs() < 0.1, "{:?}", direct.features);
    // Staged through shared memory by a vector copy, the loads are the copy's and the
    // fragments' are shared accesses.
    let staged = profile_of(
        &wmma_gemm(
            "*((int4 *)(&As[lane * 8])) = *((int4 *)(&A[(row + lane / 2) * 4096 + k]) + lane % 2);\n        \
             *((int4 *)(&Bs[lane * 8])) = *((int4 *)(&B[(col + lane / 2) * 4096 + k]) + lane % 2);\n        \
             __syncthreads();\n        \
             wmma::load_matrix_sync(fa, As, 16);\n        \
             wmma::load_matrix_sync(fb, Bs, 16);",
        ),
        "wmma_gemm",
    );
    assert!(staged.features.load_bytes >= 0.9 * tiles, "{:.3e} bytes loaded", staged.features.load_bytes);
    assert!(staged.features.shared_accesses > 0.0, "{:?}", staged.features);
}

/// A tile of A copied into shared memory by each thread's `copy` of 16 bytes, after a
/// prologue that copies the first tile (our own text, in the style of multi-stage HGEMMs).
fn pipelined(copy_macro: &str, copy: &str) -> String {
    format!(
        r#"
{copy_macro}
#define HMMA16816(RD0, RD1, RA0, RA1, RA2, RA3, RB0, RB1, RC0, RC1) \
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {{%0, %1}}, {{%2, %3, %4, %5}}, {{%6, %7}}, {{%8, %9}};\n" \
                 : "=r"(RD0), "=r"(RD1) : "r"(RA0), "r"(RA1), "r"(RA2), "r"(RA3), "r"(RB0), "r"(RB1), "r"(RC0), "r"(RC1))
__global__ void pipe(const half *A, half *C, int K) {{
    __shared__ int4 tile[2][256];
    uint32_t ra = 0, rb = 0, rc[2] = {{0, 0}};
    int4 *lane_ptr = nullptr;
    const half *warp_ptr = &A[blockIdx.x * 64 * K];
    lane_ptr = (int4 *)(warp_ptr + (threadIdx.x / 4) * K) + threadIdx.x % 4;
    uint32_t dst = __cvta_generic_to_shared(&tile[0][threadIdx.x]);
    {copy}
    for (int k = 32; k < K; k += 32) {{
        lane_ptr = (int4 *)(warp_ptr + k + (threadIdx.x / 4) * K) + threadIdx.x % 4;
        {copy}
        __syncthreads();
        HMMA16816(rc[0], rc[1], ra, ra, ra, ra, rb, rb, rc[0], rc[1]);
    }}
    C[blockIdx.x * 256 + threadIdx.x] = rc[0];
}}
void run(const half *A, half *C) {{
    pipe<<<4096 / 64, 256>>>(A, C, 4096);
}}
"#
    )
}

#[test]
fn a_pipelines_async_copies_and_mma_macros_are_read_like_plain_loads() {
    let sync = profile_of(&pipelined("", "*((int4 *)&tile[0][threadIdx.x]) = *lane_ptr;"), "pipe");
    let asynchronous = profile_of(
        &pipelined(
            r#"#define CP_ASYNC_CG(dst, src, Bytes) asm volatile("cp.async.cg.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(Bytes))"#,
            "CP_ASYNC_CG(dst, lane_ptr, 16);",
        ),
        "pipe",
    );
    // Every step copies 16 bytes a thread, whether by a plain vector copy or by `cp.async`
    // through a macro; the main loop's copies are no second pass over the prologue's.
    // Before, the macro's copies moved nothing and its `mma` did no work.
    let steps = 4096.0 / 32.0;
    let expected = steps * 16.0 * 256.0 * 64.0;
    for (how, p) in [("plain", &sync), ("cp.async", &asynchronous)] {
        let ratio = p.features.load_bytes / expected;
        assert!((0.9..1.1).contains(&ratio), "{how}: {:.3e} bytes loaded", p.features.load_bytes);
    }
    assert!(asynchronous.features.tensor_flops > 0.0, "{:?}", asynchronous.features);
    assert_eq!(asynchronous.features.tensor_flops, sync.features.tensor_flops);
}
