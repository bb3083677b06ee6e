//! How a kernel's launch is read from the host code around it: a launcher template's
//! instance, a block size the host picks at run time, a launch in a host loop, a `switch`
//! over block sizes.

use super::profile_of;
use crate::extract::extract_text;
use crate::kernel::Language;

/// A templated kernel launched from a function template that a C entry point instantiates.
fn templated_dot(instance: &str) -> String {
    format!(
        r#"
// kforecast: n = 1 << 24; x: f32[n] randn; y: f32[n] randn; out: f32[1] zeros
template <int BLOCK, int ITEMS>
__global__ void dot_block(const float* x, const float* y, float* out, long long n) {{
    __shared__ float partial[BLOCK];
    long long base = (long long)blockIdx.x * BLOCK * ITEMS + threadIdx.x;
    float s = 0.f;
    for (int k = 0; k < ITEMS; ++k) {{
        long long i = base + (long long)k * BLOCK;
        if (i < n) s += x[i] * y[i];
    }}
    partial[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}}
template <int BLOCK, int ITEMS>
static int launch_dot(const float* x, const float* y, float* out, long long n) {{
    long long blocks = (n + (long long)BLOCK * ITEMS - 1) / ((long long)BLOCK * ITEMS);
    dot_block<BLOCK, ITEMS><<<(unsigned)blocks, BLOCK>>>(x, y, out, n);
    return 0;
}}
extern "C" int dot(const float* x, const float* y, float* out, long long n) {{
    return launch_dot<{instance}>(x, y, out, n);
}}
"#
    )
}

#[test]
fn a_launcher_template_binds_the_kernel_instance() {
    let ex = extract_text(Language::Cuda, &templated_dot("256, 8"));
    let k = ex.kernel("dot_block").expect("kernel");
    let p = crate::features::profile(k);
    let n = f64::from(1u32 << 24);
    assert_eq!(p.features.block_threads, 256.0);
    assert_eq!(p.features.blocks, n / 2048.0);
    let ratio = p.features.load_bytes / (2.0 * 4.0 * n);
    assert!((0.9..1.2).contains(&ratio), "{} bytes loaded", p.features.load_bytes);
    assert!(p.assumed.is_empty(), "{:?}", p.assumed);
    // Another instance is another kernel.
    let other = extract_text(Language::Cuda, &templated_dot("128, 4"));
    let o = other.kernel("dot_block").expect("kernel");
    assert_ne!(k.identity(), o.identity());
    assert_eq!(crate::features::profile(o).features.blocks, n / 512.0);
}

/// A tree reduction in the common CUDA-samples style: each block sums twice its threads'
/// worth of `in`, with a block size the launcher picks with `threads` at run time.
fn block_sum(bounds: &str, threads: &str) -> String {
    format!(
        r#"
__global__ void {bounds} block_sum(const float* __restrict__ in, float* __restrict__ out, int n) {{
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    float s = 0.0f;
    if (i < n) s = in[i];
    if (i + blockDim.x < n) s += in[i + blockDim.x];
    sdata[tid] = s;
    __syncthreads();
    for (unsigned int k = blockDim.x / 2; k > 0; k >>= 1) {{
        if (tid < k) sdata[tid] += sdata[tid + k];
        __syncthreads();
    }}
    if (tid == 0) out[blockIdx.x] = sdata[0];
}}
unsigned int nextPow2(unsigned int x) {{
    --x; x |= x >> 1; x |= x >> 2; x |= x >> 4; x |= x >> 8; x |= x >> 16;
    return ++x;
}}
void run(const float* in, float* out, int n, int maxThreads, char** argv) {{
    int threads = {threads};
    int blocks = (n + threads * 2 - 1) / (threads * 2);
    block_sum<<<blocks, threads, threads * sizeof(float)>>>(in, out, n);
}}
"#
    )
}

#[test]
fn a_block_size_the_host_picks_at_run_time_is_a_typical_block_not_a_problem_size() {
    for (bounds, threads, expected) in [
        ("", "(n < maxThreads * 2) ? nextPow2((n + 1) / 2) : maxThreads", 256.0),
        ("", "nextPow2(maxThreads)", 256.0),
        ("", "atoi(argv[2])", 256.0),
        ("__launch_bounds__(512)", "(n < maxThreads * 2) ? nextPow2((n + 1) / 2) : maxThreads", 512.0),
    ] {
        let p = profile_of(&block_sum(bounds, threads), "block_sum");
        let f = &p.features;
        assert_eq!(f.block_threads, expected, "{threads}: {f:?}");
        assert_eq!(p.assumed, ["n"], "{threads}: the block is not a problem size");
        assert!(p.guesses >= 1, "{threads}: the block is a guess");
        assert_eq!(f.blocks, (crate::features::expr::ASSUMED_SIZE / (2.0 * expected)).ceil(), "{threads}");
        let ratio = f.load_bytes / (4.0 * crate::features::expr::ASSUMED_SIZE);
        assert!((0.9..1.2).contains(&ratio), "{threads}: {} bytes loaded", f.load_bytes);
    }
}

/// An LSD radix sort's digit histogram, launched once per pass of `bits`-bit digits.
fn digit_passes(bits: u32) -> String {
    format!(
        r#"
#define BITS {bits}
// kforecast: n = 1 << 24; keys: u32[n] randint; counts: u32[65536] zeros
__global__ void digit_count(const unsigned int* keys, unsigned int* counts, int n, int shift) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&counts[(keys[i] >> shift) & ((1u << BITS) - 1)], 1u);
}}
void sort_keys(const unsigned int* keys, unsigned int* counts, int n) {{
    const int passes = 32 / BITS;
    for (int pass = 0; pass < passes; ++pass) {{
        digit_count<<<(n + 255) / 256, 256>>>(keys, counts, n, pass * BITS);
    }}
}}
"#
    )
}

#[test]
fn a_launch_in_a_host_loop_runs_once_per_trip() {
    let four = profile_of(&digit_passes(4), "digit_count");
    let eight = profile_of(&digit_passes(8), "digit_count");
    assert_eq!((four.features.launches, eight.features.launches), (8.0, 4.0));
    let ratio = four.features.load_bytes / eight.features.load_bytes;
    assert!((1.9..2.1).contains(&ratio), "twice the passes read the keys twice as often: {ratio}");
    assert!((1.9..2.1).contains(&(four.cost.total / eight.cost.total)), "{:?} {:?}", four.cost, eight.cost);
    assert_eq!(four.guesses, eight.guesses, "a pass count the text gives is not a guess");
    // One launch per tensor of a list: a few launches, named as a guess, not the size prior.
    let per_tensor = |launch: &str| {
        format!(
            "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n\
             def ema_kernel(e_ptr, p_ptr, n, decay, BLOCK: tl.constexpr):\n    \
             offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    mask = offs < n\n    \
             e = tl.load(e_ptr + offs, mask=mask)\n    p = tl.load(p_ptr + offs, mask=mask)\n    \
             tl.store(e_ptr + offs, decay * e + (1.0 - decay) * p, mask=mask)\n\n\
             def ema_update(ema, params, decay):\n{launch}\n"
        )
    };
    let launch = "ema_kernel[(triton.cdiv(e.numel(), 1024),)](e, p, e.numel(), decay, BLOCK=1024)";
    let once = per_tensor(&format!("    e, p = ema[0], params[0]\n    {launch}"));
    let zipped = per_tensor(&format!("    for e, p in zip(ema, params):\n        {launch}"));
    let ranged = per_tensor(&format!("    for t in range(3):\n        e, p = ema[t], params[t]\n        {launch}"));
    let profile =
        |src: &str| crate::features::profile(extract_text(Language::Triton, src).kernel("ema_kernel").expect("kernel"));
    let (once, zipped, ranged) = (profile(&once), profile(&zipped), profile(&ranged));
    assert_eq!(zipped.features.launches, crate::features::TYPICAL_LAUNCH_TRIPS);
    assert_eq!(zipped.guesses, once.guesses + 1, "the list's length is a guess");
    assert_eq!(zipped.assumed, once.assumed, "the list's length is not a problem size");
    assert_eq!(ranged.features.launches, 3.0, "{:?}", ranged);
    assert!((2.9..3.1).contains(&(ranged.features.load_bytes / once.features.load_bytes)), "{:?}", ranged.features);
}

/// A CUDA-samples-style block sum whose block size is a template argument picked by a
/// switch over the run-time thread count.
fn switch_sum(cases: &[u32]) -> String {
    let arms: String = cases
        .iter()
        .map(|c| format!("        case {c}: block_sum<{c}><<<blocks, block, smem>>>(in, out, n); break;\n"))
        .collect();
    format!(
        r#"
template <unsigned int THREADS>
__global__ void block_sum(const float* __restrict__ in, float* __restrict__ out, int n) {{
    __shared__ float s[THREADS];
    unsigned int i = blockIdx.x * THREADS + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned int k = THREADS / 2; k > 0; k >>= 1) {{
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }}
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}}
// kforecast: n = 1 << 24; in: f32[n] randn; out: f32[n]
void sum(const float* in, float* out, int n, int threads, int blocks) {{
    dim3 block(threads, 1, 1);
    int smem = threads * sizeof(float);
    switch (threads) {{
{arms}    }}
}}
"#
    )
}

#[test]
fn a_switch_over_block_sizes_launches_its_typical_case() {
    for (cases, expected) in [(&[512, 256, 128, 64, 32, 16, 8, 4, 2, 1][..], 256.0), (&[1024, 512][..], 1024.0)] {
        let p = profile_of(&switch_sum(cases), "block_sum");
        let f = &p.features;
        assert_eq!(f.block_threads, expected, "{cases:?}: {f:?}");
        assert_eq!(f.launches, 1.0, "one case runs: {f:?}");
    }
}
