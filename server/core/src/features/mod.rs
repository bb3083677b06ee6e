//! From one kernel version to a [`Profile`]: named features and a modelled cost.
//!
//! The cost is in *byte-equivalents*: the time the H100 needs to move that many bytes
//! through device memory at its sustained bandwidth. Arithmetic, shared memory,
//! synchronisation and atomics are converted with the rates in [`Rates`]. Only the
//! ratio of two costs is ever used, so sizes that nothing in the file pins down are
//! assumed ([`expr::ASSUMED_SIZE`]) equally for both versions.

pub mod cost;
mod cuda;
pub mod expr;
mod launch;
mod triton;

use crate::kernel::{Kernel, Language};
use serde::{Deserialize, Serialize};

pub use cost::{Cost, Rates};

macro_rules! features {
    ($($name:ident: $doc:literal,)*) => {
        /// Named features of one kernel version (totals per launch unless noted).
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        pub struct Features {
            $(#[doc = $doc] pub $name: f64,)*
        }

        impl Features {
            /// Feature names, in the order of [`Features::values`].
            pub const NAMES: &'static [&'static str] = &[$(stringify!($name)),*];

            pub fn values(&self) -> Vec<f64> {
                vec![$(self.$name),*]
            }
        }
    };
}

features! {
    load_bytes: "Modelled bytes loaded from global memory.",
    store_bytes: "Modelled bytes stored to global memory.",
    uncoalesced_bytes: "Bytes moved by strided (uncoalesced) accesses.",
    broadcast_accesses: "Warp-uniform global accesses (per thread).",
    vector_width: "Widest vector access, in 4-byte words.",
    global_passes: "Loops that stream over global memory.",
    shared_arrays: "`__shared__` arrays.",
    shared_padded: "`__shared__` arrays padded against bank conflicts.",
    shared_accesses: "Shared-memory accesses (per thread, loop-weighted).",
    bank_conflicts: "Shared accesses likely to conflict (per thread).",
    syncs: "Barriers executed (per thread).",
    atomics: "Atomic operations (per thread).",
    contended_atomics: "Atomics that all threads aim at one address (per thread).",
    shared_atomics: "Atomics on shared memory at per-lane addresses (per thread).",
    shuffles: "Warp shuffles (per thread).",
    tensor_flops: "Tensor-core (MMA / tl.dot) flops per launch.",
    scalar_ops: "Arithmetic operations per launch.",
    unrolled_loops: "Loops with `#pragma unroll` or static ranges.",
    loops: "Loops in the kernel.",
    block_threads: "Threads per block (CUDA) or per program (Triton: 32 × num_warps).",
    blocks: "Blocks (programs) launched.",
    launch_bounds: "Has `__launch_bounds__`.",
    occupancy: "Modelled fraction of an SM's threads that are resident.",
    tile_elems: "Elements of the largest tile a program loads (Triton).",
    num_stages: "Software-pipelining stages (Triton).",
    autotune_configs: "Configurations offered to the autotuner.",
    group_swizzle: "Program-id swizzle for L2 reuse (GROUP_SIZE_M).",
    sm_fill: "Fraction of the SMs the grid gives a block (program) to.",
    waves: "Blocks launched over the blocks resident at once on the whole device.",
}

/// What the forecaster knows about one kernel version.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub language: Language,
    pub features: Features,
    pub cost: Cost,
    /// Quantities that had to be assumed (unknown launch shape, meta-parameters).
    pub guesses: u32,
}

/// Profiles a kernel with the H100 rates.
pub fn profile(kernel: &Kernel) -> Profile {
    profile_with(kernel, &Rates::H100)
}

/// Profiles a kernel with the given device rates.
pub fn profile_with(kernel: &Kernel, rates: &Rates) -> Profile {
    match kernel.language {
        Language::Cuda => cuda::profile(kernel, rates),
        Language::Triton => triton::profile(kernel, rates),
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::extract_text;
    use crate::kernel::Language;

    fn profile_of(src: &str, name: &str) -> super::Profile {
        let ex = extract_text(Language::Cuda, src);
        super::profile(ex.kernel(name).expect("kernel"))
    }

    const COL_SUM: &str = r#"
#define THREADS 256
// kforecast: rows = 4096; cols = 4096; x: f32[rows, cols] randn; out: f32[cols] zeros
__global__ void col_sum(const float* x, float* out, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float s = 0.0f;
    for (int r = 0; r < rows; ++r) s += x[(size_t)r * cols + c];
    out[c] = s;
}
void launch(const float* x, float* out, int rows, int cols) {
    col_sum<<<(cols + THREADS - 1) / THREADS, THREADS>>>(x, out, rows, cols);
}
"#;

    #[test]
    fn a_declared_problem_is_costed_at_its_size() {
        let p = profile_of(COL_SUM, "col_sum");
        assert_eq!(p.guesses, 0);
        // 4096 x 4096 floats read once.
        assert!((p.features.load_bytes / (4096.0 * 4096.0 * 4.0) - 1.0).abs() < 0.01, "{}", p.features.load_bytes);
        // 16 blocks of 256 threads leave most of 132 SMs idle.
        assert_eq!(p.features.blocks, 16.0);
        assert!(p.features.sm_fill < 0.2);
        let undeclared = profile_of(&COL_SUM.replace("// kforecast:", "// sizes:"), "col_sum");
        assert!(undeclared.guesses > 0);
    }

    #[test]
    fn a_triangular_loop_counts_the_average_thread() {
        let src = r#"
// kforecast: n = 8192; l: f32[n, n] randn; x: f32[n] randn; y: f32[n]
__global__ void tril(const float* l, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float s = 0.0f;
    for (int j = 0; j <= i; ++j) s += l[(size_t)i * n + j] * x[j];
    y[i] = s;
}
void launch(const float* l, const float* x, float* y, int n) { tril<<<n / 256, 256>>>(l, x, y, n); }
"#;
        let triangle = profile_of(src, "tril").features.load_bytes;
        let square = profile_of(&src.replace("j <= i", "j < n"), "tril").features.load_bytes;
        // Rows average half the matrix's width, not thread 0's single element.
        assert!((triangle / square - 0.5).abs() < 0.02, "{triangle} vs {square}");
    }
}
