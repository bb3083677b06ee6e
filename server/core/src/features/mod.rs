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
#[cfg(test)]
mod reading_tests;
pub mod torch_ops;
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
    uncoalesced_bytes: "Bytes moved beyond what strided or narrow (uncoalesced) accesses use.",
    broadcast_accesses: "Warp-uniform global accesses (per thread).",
    vector_width: "Widest vector access (CUDA) or bytes-weighted mean vector width (Triton), in 4-byte words.",
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
    launches: "Kernels launched per run (Triton: the wrapper's other kernels too).",
}

/// What the forecaster knows about one kernel version.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub language: Language,
    pub features: Features,
    pub cost: Cost,
    /// Quantities that had to be assumed (unknown launch shape, meta-parameters).
    pub guesses: u32,
    /// Names nothing in the code gives a value (problem sizes known only at run time),
    /// each assumed to be [`expr::ASSUMED_SIZE`] (or the size asked for).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assumed: Vec<String>,
}

/// Profiles a kernel with the H100 rates.
pub fn profile(kernel: &Kernel) -> Profile {
    profile_with(kernel, &Rates::H100)
}

/// Profiles a kernel with the given device rates. Where several sizes are known only at
/// run time (rows and cols, N·C·H·W), each is taken so that together they make about
/// [`expr::ASSUMED_SIZE`] elements, as the forecaster's size prior does, never that many
/// per dimension (a batch, heads or a head's width at their typical values, see
/// [`expr::spread`]).
pub fn profile_with(kernel: &Kernel, rates: &Rates) -> Profile {
    let p = profile_assuming(kernel, rates, expr::ASSUMED_SIZE);
    match p.assumed.len() {
        0 => p,
        _ => match expr::assumed_each(&p.assumed) {
            each if each == expr::ASSUMED_SIZE => p,
            each => profile_assuming(kernel, rates, each),
        },
    }
}

/// The torch operations a kernel's launching function runs beside it, each as one launch's
/// profile (see [`torch_ops`]); a tensor whose size nothing gives has `elements`, and other
/// unknown sizes are `assumed`.
pub fn torch_op_profiles(kernel: &Kernel, rates: &Rates, assumed: f64, elements: f64) -> Vec<(String, Profile)> {
    let Some(site) = kernel.launches.first() else { return Vec::new() };
    let ops = torch_ops::torch_ops(site);
    if ops.is_empty() {
        return Vec::new();
    }
    let env = launch::environment(kernel, &[], assumed);
    let half = ["float16", "bfloat16", "fp16", "bf16", "half"].iter().any(|t| kernel.source.contains(t));
    let elem =
        element_size(site).or_else(|| torch_ops::library::element_size(site)).unwrap_or(if half { 2.0 } else { 4.0 });
    ops.iter().map(|op| (op.name.clone(), torch_ops::profile(op, &env, elem, elements, rates))).collect()
}

/// The element size the tensors of a launch have where the program makes them
/// (`x.element_size()`, from `get_inputs()` or `generate_input`), if they all agree.
/// Whether a Triton kernel's text names a 16-bit float type (its tensors' width where its
/// wrapper gives none).
pub(crate) fn names_half(source: &str) -> bool {
    ["float16", "bfloat16", "fp16", "bf16"].iter().any(|t| source.contains(t))
}

pub(crate) fn element_size(site: &crate::kernel::LaunchSite) -> Option<f64> {
    let sizes =
        site.locals.iter().filter(|(k, _)| k.ends_with(".element_size()")).filter_map(|(_, v)| v.parse::<f64>().ok());
    crate::extract::agreed_element_size(sizes)
}

/// Profiles a kernel with every size nothing in the code gives taken as `assumed`.
pub fn profile_assuming(kernel: &Kernel, rates: &Rates, assumed: f64) -> Profile {
    if kernel.torch_program {
        // No kernel of its own: its torch operations are added where programs are. The
        // shape is that of torch's element-wise kernels (128 threads, 16-byte accesses, a
        // full device).
        let features = Features {
            vector_width: 4.0,
            block_threads: 128.0,
            occupancy: 1.0,
            sm_fill: 1.0,
            waves: 1.0,
            ..Features::default()
        };
        return Profile { language: kernel.language, features, cost: Cost::default(), guesses: 0, assumed: Vec::new() };
    }
    // A kernel launched from several branches (`if (n <= b) k<<<1, b>>>(…); … k<<<blocks,
    // b>>>(…);`) runs from the one the sizes take: that launch shapes and costs it.
    let running = running_site_first(kernel, assumed);
    let kernel = running.as_ref().unwrap_or(kernel);
    let mut p = match kernel.language {
        Language::Cuda => cuda::profile(kernel, rates, assumed),
        Language::Triton => triton::profile(kernel, rates, assumed),
    };
    p.features.launches = 1.0;
    p.repeat(kernel, assumed);
    for companion in &kernel.companions {
        p.absorb(&profile_assuming(companion, rates, assumed), rates);
    }
    p
}

/// The kernel with its first launch site that runs at the sizes read (or assumed) moved
/// first, where the first site lies in a branch those sizes do not take and a later one
/// runs; `None` where the first site runs, or none does.
pub fn running_site_first(kernel: &Kernel, assumed: f64) -> Option<Kernel> {
    let first = kernel.launches.first()?;
    if kernel.launches.len() < 2 || first.taken.is_empty() || first_site_runs(kernel, assumed).0 {
        return None;
    }
    (1..kernel.launches.len()).map(|i| site_first(kernel, i)).find(|k| first_site_runs(k, assumed).0)
}

/// Whether the sizes read decide, without a guess, that no launch of `kernel` runs: each
/// lies in a branch its launching function does not take (`if (method == 5) k<<<…>>>(…)`,
/// called as `reduce(x, 3)`). A program that keeps every step's kernel and picks one by a
/// number its caller passes runs that one alone.
pub fn decided_not_to_run(kernel: &Kernel) -> bool {
    let decided_off = |k: &Kernel| {
        k.launches.first().is_some_and(|site| !site.taken.is_empty())
            && first_site_runs(k, expr::ASSUMED_SIZE) == (false, false)
    };
    !kernel.launches.is_empty()
        && (0..kernel.launches.len()).all(|i| {
            if i == 0 {
                decided_off(kernel)
            } else {
                decided_off(&site_first(kernel, i))
            }
        })
}

/// `kernel` with its launch site `i` moved first: the launch its profile is read from.
fn site_first(kernel: &Kernel, i: usize) -> Kernel {
    let mut k = kernel.clone();
    let site = k.launches.remove(i);
    k.launches.insert(0, site);
    k
}

/// [`site_runs`] for `kernel`'s first launch site, at the sizes read (or `assumed`).
fn first_site_runs(kernel: &Kernel, assumed: f64) -> (bool, bool) {
    kernel.launches.first().map_or((false, false), |site| site_runs(&launch::environment(kernel, &[], assumed), site))
}

/// Whether the branches around the launch `site` let it run at the sizes `env` holds (read
/// or assumed), and whether any of them was decided on a guess.
fn site_runs(env: &expr::Env, site: &crate::kernel::LaunchSite) -> (bool, bool) {
    let (mut runs, mut guessed) = (true, false);
    for branch in &site.taken {
        // A size taken on a guess decides an order (`n < 1024`), never an equality
        // (`mode == 6`, a `case`): equal to a guess is nothing but chance.
        let decided =
            env.eval_condition(&branch.condition).filter(|e| e.guesses == 0 || !branch.condition.contains("=="));
        let holds = match decided {
            Some(e) => {
                guessed |= e.guesses > 0;
                (e.value != 0.0) == branch.holds
            }
            None => {
                guessed = true;
                branch.if_unknown
            }
        };
        runs &= holds;
    }
    (runs, guessed)
}

/// Trips of a loop around a launch whose count the text does not give (`for t in
/// tensors:`, a `while`): a few, counted as a guess (never a problem size).
pub const TYPICAL_LAUNCH_TRIPS: f64 = 4.0;

/// The most trips a loop around a launch may have when its count rests on sizes known only
/// at run time: more is a size, not a count of passes.
const MAX_GUESSED_TRIPS: f64 = 64.0;

impl Profile {
    /// Scales a launch's profile by the trips of the loops around it in its launching
    /// function (a pass loop, one launch per tensor): traffic, work, launches and cost.
    fn repeat(&mut self, kernel: &Kernel, assumed: f64) {
        let Some(site) = kernel.launches.first().filter(|s| !s.trips.is_empty() || !s.taken.is_empty()) else {
            return;
        };
        let env = launch::environment(kernel, &[], assumed);
        // A launch in a branch that the program's sizes (or the sizes assumed) do not take
        // does not run: `if (n < 1024) small<<<…>>>(…); else big<<<…>>>(…);` runs one.
        // Branches taken on a guess count as one guess, however many.
        let (runs, guessed) = site_runs(&env, site);
        let mut times = if runs { 1.0 } else { 0.0 };
        self.guesses += u32::from(guessed);
        for text in &site.trips {
            match env.eval_quiet(text).filter(|e| e.value >= 1.0) {
                Some(e) if e.guesses == 0 => times *= e.value.round(),
                // A count resting on sizes known only at run time, too small to be one (a
                // pass per halving of the input: log2 n).
                Some(e) if e.value <= MAX_GUESSED_TRIPS => {
                    times *= e.value.round();
                    self.guesses += 1;
                }
                _ => {
                    times *= TYPICAL_LAUNCH_TRIPS;
                    self.guesses += 1;
                }
            }
        }
        let f = &mut self.features;
        for v in [
            &mut f.load_bytes,
            &mut f.store_bytes,
            &mut f.uncoalesced_bytes,
            &mut f.tensor_flops,
            &mut f.scalar_ops,
            &mut f.launches,
        ] {
            *v *= times;
        }
        let c = &mut self.cost;
        for v in
            [&mut c.memory, &mut c.shared, &mut c.sync, &mut c.atomics, &mut c.compute, &mut c.overhead, &mut c.total]
        {
            *v *= times;
        }
    }

    /// Adds another launch timed with this one (a wrapper's other kernel): its traffic,
    /// work and cost, and a launch's fixed cost. The shape features stay this kernel's.
    pub fn absorb(&mut self, other: &Profile, rates: &Rates) {
        let (f, o) = (&mut self.features, &other.features);
        // Passes over memory count by the traffic each makes, in passes of the largest one:
        // a one-block tail kernel that touches a few elements is not a second pass, two
        // full-size kernels are two, and a third makes three.
        let (fb, ob) = (f.load_bytes + f.store_bytes, o.load_bytes + o.store_bytes);
        let per_pass = |passes: f64, bytes: f64| if passes > 0.0 { bytes / passes } else { 0.0 };
        let (pf, po) = (per_pass(f.global_passes, fb), per_pass(o.global_passes, ob));
        let largest = pf.max(po);
        f.global_passes = if largest > 0.0 {
            (f.global_passes * pf + o.global_passes * po) / largest
        } else {
            f.global_passes + o.global_passes
        };
        f.load_bytes += o.load_bytes;
        f.store_bytes += o.store_bytes;
        f.uncoalesced_bytes += o.uncoalesced_bytes;
        f.tensor_flops += o.tensor_flops;
        f.scalar_ops += o.scalar_ops;
        f.launches += o.launches;
        let (c, q) = (&mut self.cost, &other.cost);
        c.memory += q.memory;
        c.shared += q.shared;
        c.sync += q.sync;
        c.atomics += q.atomics;
        c.compute += q.compute;
        // A launch in a branch not taken (no launches) costs nothing, not even its latency.
        let launch = if o.launches > 0.0 { rates.launch } else { 0.0 };
        c.overhead += q.overhead + launch;
        c.total += q.total + launch;
        self.guesses += other.guesses;
        for name in &other.assumed {
            if !self.assumed.contains(name) {
                self.assumed.push(name.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::extract_text;
    use crate::kernel::Language;

    fn profile_in(language: Language, src: &str, name: &str) -> super::Profile {
        let ex = extract_text(language, src);
        super::profile(ex.kernel(name).expect("kernel"))
    }

    fn profile_of(src: &str, name: &str) -> super::Profile {
        profile_in(Language::Cuda, src, name)
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
    fn a_strided_read_costs_a_sector_unless_its_neighbours_are_read_soon() {
        let kernel = |body: &str| {
            format!(
                "// kforecast: n = 1 << 20; a: f32[n, 8] randn; b: f32[n]\n__global__ void k(const float* a, float* b, int n) \
                 {{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) {body} }}\n\
                 void go(const float* a, float* b, int n) {{ k<<<(n + 255) / 256, 256>>>(a, b, n); }}"
            )
        };
        let n = f64::from(1u32 << 20);
        let alone = profile_of(&kernel("b[i] = a[i * 8];"), "k");
        // One element per 32-byte sector, nothing else of it ever read: a sector each.
        assert!((alone.features.load_bytes / (32.0 * n) - 1.0).abs() < 0.01, "{:?}", alone.features);
        // The struct's other fields are read right after: the rest of the sector comes from L2.
        let fields = profile_of(&kernel("b[i] = a[i * 8] + a[i * 8 + 1];"), "k");
        assert!(fields.features.load_bytes < 2.0 * 32.0 * n * 0.6, "{:?}", fields.features);
        assert!(fields.features.load_bytes > 2.0 * 4.0 * n, "{:?}", fields.features);
    }

    #[test]
    fn a_triton_wrapper_is_costed_with_every_kernel_it_launches() {
        let unfused = r#"
import triton
import triton.language as tl

@triton.jit
def silu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x / (1.0 + tl.exp(-x)), mask=offs < n)

# kforecast: wrapper = swiglu(g, u); g: f32[8192, 2048]; u: f32[8192, 2048]
@triton.jit
def mul_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    a = tl.load(a_ptr + offs, mask=offs < n)
    b = tl.load(b_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, a * b, mask=offs < n)

def swiglu(g, u):
    n = g.numel()
    tmp = torch.empty_like(g)
    out = torch.empty_like(g)
    silu_kernel[(triton.cdiv(n, 1024),)](g, tmp, n, BLOCK=1024)
    mul_kernel[(triton.cdiv(n, 1024),)](tmp, u, out, n, BLOCK=1024)
    return out
"#;
        let ex = extract_text(Language::Triton, unfused);
        let k = ex.kernel("mul_kernel").expect("kernel");
        assert_eq!(k.companions.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["silu_kernel"]);
        let both = super::profile(k);
        let alone = super::profile(&crate::kernel::Kernel { companions: Vec::new(), ..k.clone() });
        assert_eq!(both.features.launches, 2.0);
        // silu reads g and writes tmp: one more read and one more write of 64 MiB.
        let mib = 8192.0 * 2048.0 * 4.0;
        assert!((both.features.load_bytes - alone.features.load_bytes - mib).abs() < 1.0);
        assert!((both.features.store_bytes - alone.features.store_bytes - mib).abs() < 1.0);
        assert!(both.cost.total > 1.5 * alone.cost.total);
        // The companion is part of the kernel's identity: editing it is a change.
        let edited = extract_text(Language::Triton, &unfused.replace("x / (1.0 + tl.exp(-x))", "x * tl.sigmoid(x)"));
        assert_ne!(edited.kernel("mul_kernel").map(|k| k.identity()), Some(k.identity()));
        // Only the wrapper the declaration names is timed: a kernel declared with another
        // wrapper is not tied to what this function launches.
        let other = extract_text(Language::Triton, &unfused.replace("wrapper = swiglu(g, u)", "wrapper = mul(g, u)"));
        assert!(other.kernel("mul_kernel").is_some_and(|k| k.companions.is_empty()));
    }

    const TRITON_TILES: &str = r#"
import torch
import triton
import triton.language as tl

# kforecast: wrapper = scale(x); x: f32[8192, 8192] randn
@triton.jit
def scale_kernel(x_ptr, y_ptr, rows, cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    offs = r[:, None] * cols + c[None, :]
    mask = (r[:, None] < rows) & (c[None, :] < cols)
    tl.store(y_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=mask), mask=mask)

def scale(x):
    rows, cols = x.shape
    y = torch.empty_like(x)
    BLOCK_R, BLOCK_C = 16, 64
    grid = (triton.cdiv(rows, BLOCK_R), triton.cdiv(cols, BLOCK_C))
    scale_kernel[grid](x, y, rows, cols, BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
    return y
"#;

    fn triton_profile(src: &str) -> super::Profile {
        profile_in(Language::Triton, src, "scale_kernel")
    }

    #[test]
    fn a_persistent_triton_kernel_is_costed_for_every_block_it_walks() {
        let src = |body: &str, grid: &str| {
            format!(
                "import torch\nimport triton\nimport triton.language as tl\n\n\
                 # kforecast: wrapper = scale(x); x: f32[16777216] randn\n@triton.jit\n\
                 def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n    pid = tl.program_id(0)\n\
                 {body}\n\
                 def scale(x):\n    out = torch.empty_like(x)\n    n = x.numel()\n    \
                 scale_kernel[({grid},)](x, out, n, BLOCK=1024)\n    return out\n"
            )
        };
        let one_block = "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n    \
                         tl.store(out_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)\n";
        let persistent =
            "    nprog = tl.num_programs(0)\n    for start in range(pid * BLOCK, n, nprog * BLOCK):\n        \
                          offs = start + tl.arange(0, BLOCK)\n        \
                          tl.store(out_ptr + offs, 2.0 * tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)\n";
        let flat = triton_profile(&src(one_block, "triton.cdiv(n, 1024)"));
        let walking = triton_profile(&src(persistent, "min(triton.cdiv(n, 1024), 528)"));
        assert_eq!(walking.features.blocks, 528.0);
        // 528 programs walk all 16,384 blocks: the same bytes as one program per block.
        let ratio = walking.features.load_bytes / flat.features.load_bytes;
        assert!((ratio - 1.0).abs() < 0.05, "{ratio}: {:?} vs {:?}", walking.features, flat.features);
    }

    #[test]
    fn a_triton_tile_narrow_along_memory_wastes_sectors() {
        let wide = triton_profile(TRITON_TILES);
        assert_eq!(wide.features.uncoalesced_bytes, 0.0);
        assert_eq!(wide.features.vector_width, 4.0);
        // 1024 x 2 tiles: each row of a tile is 8 bytes of a 32-byte sector.
        let thin = triton_profile(&TRITON_TILES.replace("BLOCK_R, BLOCK_C = 16, 64", "BLOCK_R, BLOCK_C = 1024, 2"));
        let bytes = 8192.0 * 8192.0 * 4.0;
        assert!((thin.features.uncoalesced_bytes / (2.0 * 3.0 * bytes) - 1.0).abs() < 0.01, "{:?}", thin.features);
        assert!(thin.cost.total > 3.0 * wide.cost.total);
        // A column-major tile is coalesced along its rows...
        let column_major = TRITON_TILES.replace("r[:, None] * cols + c[None, :]", "r[:, None] + c[None, :] * rows");
        assert_eq!(triton_profile(&column_major).features.uncoalesced_bytes, 0.0);
        // ...unless it is one row high: then every lane has a sector of its own.
        let strided = triton_profile(&column_major.replace("BLOCK_R, BLOCK_C = 16, 64", "BLOCK_R, BLOCK_C = 1, 1024"));
        assert!(
            (strided.features.uncoalesced_bytes / (2.0 * 7.0 * bytes) - 1.0).abs() < 0.01,
            "{:?}",
            strided.features
        );
        // Quotients and remainders keep the addresses coalesced but hide them from
        // Triton's vectoriser.
        let flat = TRITON_TILES
            .replace(
                "r = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)",
                "i = tl.program_id(0) * BLOCK_R * BLOCK_C + tl.arange(0, BLOCK_R * BLOCK_C)",
            )
            .replace("c = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)", "r = i // cols\n    c = i % cols")
            .replace("r[:, None] * cols + c[None, :]", "r * cols + c")
            .replace("(r[:, None] < rows) & (c[None, :] < cols)", "r < rows");
        let flat = triton_profile(&flat);
        assert_eq!(flat.features.uncoalesced_bytes, 0.0);
        assert_eq!(flat.features.vector_width, 1.0);
    }

    #[test]
    fn a_triton_grid_is_sized_by_the_wrappers_names_not_the_kernels_locals() {
        // The kernel's `r` and `c` are aranges; the wrapper's are plain numbers.
        let src = TRITON_TILES.replace("rows, cols = x.shape", "rows, cols = x.shape\n    r, c = rows, cols").replace(
            "triton.cdiv(rows, BLOCK_R), triton.cdiv(cols, BLOCK_C)",
            "triton.cdiv(r, BLOCK_R), triton.cdiv(c, BLOCK_C)",
        );
        assert_eq!(triton_profile(&src).features.blocks, 512.0 * 128.0);
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
