//! Profiles a CUDA kernel: launch shape, global access patterns (coalesced, strided,
//! warp-uniform, vector width), passes over memory, shared memory and bank conflicts,
//! barriers, atomics, shuffles, tensor-core ops and loop trip counts.

mod access;
mod atomics;
mod constant;
mod control;
mod guard;
mod inline;
mod loops;
mod pointers;
mod ptx;
mod reuse;

use super::cost::{self, Cost, Rates};
use super::expr::{components, Env};
use super::launch;
use super::{Features, Profile};
use crate::extract::macros::Macro;
use crate::kernel::{Kernel, Language};
use crate::source::parse_snippet;
use access::subscript_indices;
use std::collections::HashMap;
use tree_sitter::Node;

/// How an index expression varies with `threadIdx.x` across a warp.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Coef {
    /// Same value for every lane.
    Uniform,
    /// Linear in the lane with this stride (in elements).
    Lin(f64),
    /// Linear with a stride nothing pins down (e.g. `x * rows`): one sector per lane.
    Strided,
    /// Data-dependent or non-linear.
    Unknown,
}

impl Coef {
    fn add(self, other: Coef) -> Coef {
        match (self, other) {
            (Coef::Uniform, x) | (x, Coef::Uniform) => x,
            (Coef::Lin(a), Coef::Lin(b)) => Coef::Lin(a + b),
            (Coef::Strided, _) | (_, Coef::Strided) => Coef::Strided,
            _ => Coef::Unknown,
        }
    }
}

#[derive(Clone, Debug)]
struct Shared {
    dims: usize,
    padded: bool,
    /// Element width in 4-byte words (a bank is one word wide).
    width: f64,
    /// Elements in a row (the last dimension).
    row: f64,
}

#[derive(Default)]
struct Acc {
    load: f64,
    store: f64,
    uncoalesced: f64,
    broadcast: f64,
    vector_width: f64,
    passes: f64,
    shared_accesses: f64,
    bank_conflicts: f64,
    /// Reads of `__constant__` arrays serialised over lanes' distinct addresses (per thread).
    constant_serial: f64,
    syncs: f64,
    atomics: f64,
    contended: f64,
    /// Atomics on `__shared__` memory (on chip; contended ones serialise within a block).
    shared_atomics: f64,
    shuffles: f64,
    tensor_flops: f64,
    scalar_ops: f64,
    unrolled: f64,
    loops: f64,
    guesses: u32,
    /// Load bytes issued per iteration of the loop being walked, max over loops.
    iter_load: f64,
    /// Global loads one thread issues one after another where so few threads run them
    /// (`if (threadIdx.x == 0) for (…)`, `<<<1, 1>>>`) that nothing hides their latency.
    serial_loads: f64,
    smem_bytes: f64,
    /// Bytes per thread that global reads take from L1/L2 where neighbouring threads (or
    /// the whole grid) read the same elements (see `reuse.rs`): not DRAM traffic.
    cached: f64,
}

struct Walker<'a> {
    src: &'a str,
    /// The file's helpers (`__device__` functions are walked where they are called).
    helpers: &'a [crate::kernel::Helper],
    /// The device functions being walked, innermost last.
    inlining: Vec<String>,
    /// Threads the grid launches.
    threads: f64,
    /// How often the expression being walked runs per thread, and the fraction of threads
    /// that run it.
    mult_now: f64,
    frac_now: f64,
    /// Inside a guard that lets one thread of a block through (`if (threadIdx.x == 0)`).
    one_thread: bool,
    /// How many more lanes the warps issue for than do work in the branch being walked
    /// (`if (tid % 8 == 0)`: every warp issues, one lane in 8 works): shared-memory and
    /// arithmetic issue by the warp, so their work counts this many times per active lane.
    issue: f64,
    /// Lanes apart of the lanes that work in the branch being walked (`if (tid % 8 ==
    /// 0)`: 8): an index linear in the lane reaches memory at that many times its stride.
    lane_gap: f64,
    /// Walking a loop's body once per value of its variable (see `Walker::loop_values`).
    iterating: bool,
    rates: &'a Rates,
    env: Env,
    vars: HashMap<String, Coef>,
    global: HashMap<String, f64>,
    /// Global pointers to integers (a warp's integer atomics on one address are combined).
    integers: std::collections::HashSet<String>,
    /// Scalars declared `double` (math on them runs at the FP64 rate).
    doubles: std::collections::HashSet<String>,
    shared: HashMap<String, Shared>,
    /// The file's `__constant__` arrays and their element counts.
    constant: HashMap<String, f64>,
    /// Arrays already streamed by an earlier top-level loop (later passes hit L2 more): the
    /// pass that first read each, and how many times a thread ran that read.
    streamed: HashMap<String, (usize, f64)>,
    pass: usize,
    block_x: f64,
    /// Threads of a block beyond its first row (`blockDim.y * blockDim.z`).
    block_rows: f64,
    /// Each name's subscripts in the kernel's text (their index expressions, spaces
    /// removed): how often it is read, and at which constant offsets of one index.
    subscripts: HashMap<String, Vec<String>>,
    /// Threads along x in the whole grid: a linear index in x spans this many.
    threads_x: f64,
    acc: Acc,
    loop_load: Vec<f64>,
    /// Template parameters: a branch on them alone (`if (nIsPow2)`) is decided per instance.
    constants: std::collections::HashSet<String>,
    /// The average thread's `threadIdx`/`blockIdx`: loop bounds that depend on the thread
    /// (triangles, grid-stride starts) are counted for it.
    mean_index: Vec<(String, f64)>,
    /// Walking the grid's tail (the other side of a bounds check most threads pass):
    /// thread-dependent values are the last thread's, not the average one's.
    tail: bool,
    /// The loops being walked whose variable steps by a fixed amount, outermost first.
    step_loops: Vec<reuse::StepLoop>,
    /// The counted loops being walked, each variable with its mean value (`i` of `for (int
    /// i = 0; i < T; i++)` is `T / 2` on average): an inner loop bounded by it (`for (j = 0;
    /// j < i; j++)`, a triangle) runs that many times on average.
    loop_means: Vec<(String, f64)>,
    /// Arrays the kernel writes (their reads are never a neighbour's cache hits).
    stored: std::collections::HashSet<String>,
    /// Each read-only array's first read, that later neighbour reads are compared with.
    first_reads: HashMap<String, reuse::FirstRead>,
}

const VECTOR_TYPES: [(&str, f64); 14] = [
    ("float4", 4.0),
    ("int4", 4.0),
    ("uint4", 4.0),
    ("double2", 4.0),
    ("float2", 2.0),
    ("int2", 2.0),
    ("double", 2.0),
    ("half2", 1.0),
    ("__half2", 1.0),
    ("bfloat162", 1.0),
    // 16-bit scalars after their pairs (`half2` is found first).
    ("half", 0.5),
    ("bfloat16", 0.5),
    ("bf16", 0.5),
    ("short", 0.5),
];

fn vector_width(type_text: &str) -> f64 {
    VECTOR_TYPES.iter().find(|(t, _)| type_text.contains(t)).map(|(_, w)| *w).unwrap_or(1.0)
}

/// The width a declaration's type states, where it names one (`float4 *p`, `half *p`,
/// `float *p`); `None` for a template's type (`T *p`).
fn declared_width(type_text: &str) -> Option<f64> {
    let scalar = ["float", "int", "unsigned", "uint32_t", "int32_t"];
    let named = VECTOR_TYPES.iter().any(|(t, _)| type_text.contains(t))
        || crate::extract::words(type_text).any(|w| scalar.contains(&w));
    named.then(|| vector_width(type_text))
}

pub(super) fn profile(kernel: &Kernel, rates: &Rates, assumed: f64) -> Profile {
    profile_sized(kernel, rates, assumed, assumed, true)
}

/// How many of the launch's threads grow per unknown size: the grid of an `N × N` matrix
/// grows as `N²` with one unknown name, so each size is taken so that the problem, not
/// each dimension, has the elements assumed.
fn dimensions(kernel: &Kernel, params: &[String], assumed: f64, threads: f64, env: &super::expr::Env) -> Option<f64> {
    let names = env.missing.borrow().iter().filter(|n| super::expr::typical_size(n).is_none()).count() as f64;
    if names == 0.0 || threads <= 0.0 {
        return None;
    }
    let mut larger = launch::environment(kernel, params, assumed * 16.0);
    let launch = kernel.launches.first();
    let mut guesses = 0;
    let block = match launch.and_then(|l| l.block.as_deref()).or(kernel.declared.block.as_deref()) {
        Some(text) => block_dims(text, &mut larger, TYPICAL_BLOCK, &mut guesses),
        None => [TYPICAL_BLOCK, 1.0, 1.0],
    };
    let per_element = (assumed * 16.0 / block.iter().product::<f64>().clamp(1.0, 1024.0)).ceil();
    let text = launch.and_then(|l| l.grid.as_deref()).or(kernel.declared.grid.as_deref())?;
    let grid = dims(text, &larger, &mut guesses, per_element);
    let grown = block.iter().chain(&grid).product::<f64>() / threads;
    let d = (grown.log2() / 4.0).round();
    (d > names && d <= 4.0).then_some(names / d)
}

/// `assumed` is each unknown size's value, `total` the problem's elements (the same unless
/// several unknown sizes share them).
fn profile_sized(kernel: &Kernel, rates: &Rates, assumed: f64, total: f64, rescale: bool) -> Profile {
    let source = expand_loop_macros(&kernel.source, &kernel.helpers);
    let tree = parse_snippet(Language::Cuda, source.as_ref());
    let def = tree.as_ref().and_then(|t| find_kernel(t.root_node(), source.as_bytes()));
    let params = def.map(|d| param_names(d, &source)).unwrap_or_default();
    let mut env = launch::environment(kernel, &params, assumed);
    let launch = kernel.launches.first();
    let mut guesses = 0;
    let bounds_threads = kernel.launch_bounds.first().and_then(|b| env.eval(b)).map(|e| e.value);
    let typical_block = bounds_threads.unwrap_or(TYPICAL_BLOCK);
    let block = match launch.and_then(|l| l.block.as_deref()).or(kernel.declared.block.as_deref()) {
        Some(text) => block_dims(text, &mut env, typical_block, &mut guesses),
        None => {
            guesses += 1;
            [typical_block, 1.0, 1.0]
        }
    };
    let threads_per_block = (block[0] * block[1] * block[2]).clamp(1.0, 1024.0);
    let grid = match launch.and_then(|l| l.grid.as_deref()).or(kernel.declared.grid.as_deref()) {
        Some(text) => {
            let elements = declared_elements(kernel, &env).unwrap_or(total);
            dims(text, &env, &mut guesses, (elements / threads_per_block).ceil())
        }
        None => {
            guesses += 1;
            // No launch: a thread per element of the largest declared size or buffer.
            let elements = declared_elements(kernel, &env).unwrap_or(assumed);
            [(elements / threads_per_block).ceil(), 1.0, 1.0]
        }
    };
    // No launch can exceed the grid's limits (2^31 − 1 blocks in x, 65535 in y and z),
    // whatever sizes were assumed.
    if rescale {
        let unclamped = block.iter().chain(&grid).product::<f64>();
        if let Some(power) = dimensions(kernel, &params, assumed, unclamped, &env) {
            return profile_sized(kernel, rates, assumed.powf(power).round().max(2.0), total, false);
        }
    }
    let grid = [grid[0].min(2_147_483_647.0), grid[1].min(65_535.0), grid[2].min(65_535.0)];
    let blocks = (grid[0] * grid[1] * grid[2]).max(1.0);
    let threads = blocks * threads_per_block;
    let mut mean_index = Vec::new();
    for (axis, (b, g)) in ["x", "y", "z"].iter().zip(block.iter().zip(grid.iter())) {
        env.set(&format!("blockDim.{axis}"), *b);
        env.set(&format!("gridDim.{axis}"), *g);
        env.set(&format!("threadIdx.{axis}"), 0.0);
        env.set(&format!("blockIdx.{axis}"), 0.0);
        mean_index.push((format!("threadIdx.{axis}"), (b - 1.0).max(0.0) / 2.0));
        mean_index.push((format!("blockIdx.{axis}"), (g - 1.0).max(0.0) / 2.0));
    }
    env.set("warpSize", 32.0);
    let dynamic_smem = launch.and_then(|l| l.shared_mem.as_deref()).and_then(|s| env.eval(s)).map(|e| e.value);

    let mut walker = Walker {
        constants: kernel.constexpr_params.iter().cloned().collect(),
        src: &source,
        helpers: &kernel.helpers,
        inlining: Vec::new(),
        threads,
        mult_now: 1.0,
        frac_now: 1.0,
        one_thread: false,
        issue: 1.0,
        lane_gap: 1.0,
        iterating: false,
        rates,
        env,
        vars: HashMap::new(),
        global: HashMap::new(),
        integers: Default::default(),
        doubles: Default::default(),
        shared: HashMap::new(),
        constant: constant::constant_arrays(&kernel.helpers),
        streamed: HashMap::new(),
        pass: 0,
        block_x: block[0],
        block_rows: block[1] * block[2],
        subscripts: def.map(|d| subscript_indices(d, &source)).unwrap_or_default(),
        threads_x: (grid[0] * block[0]).max(1.0),
        acc: Acc::default(),
        loop_load: vec![0.0],
        mean_index,
        tail: false,
        step_loops: Vec::new(),
        loop_means: Vec::new(),
        stored: def.map(|d| reuse::stored_arrays(d, &source)).unwrap_or_default(),
        first_reads: HashMap::new(),
    };
    if let Some(def) = def {
        walker.params(def);
        if let Some(body) = def.child_by_field_name("body") {
            walker.top_level(body);
        }
    }
    let top_level_loads = walker.loop_load.first().copied().unwrap_or(0.0);
    walker.acc.iter_load = walker.acc.iter_load.max(top_level_loads);
    let acc = &walker.acc;
    guesses += acc.guesses.min(4);

    // Occupancy: resident blocks per SM under the thread, block and shared-memory limits.
    let smem = acc.smem_bytes + dynamic_smem.unwrap_or(0.0);
    let by_smem = if smem > 0.0 { (rates.shared_per_sm / smem).floor().max(1.0) } else { f64::INFINITY };
    let blocks_per_sm =
        rates.max_blocks_per_sm.min((rates.max_threads_per_sm / threads_per_block).floor()).min(by_smem);
    let occupancy = blocks_per_sm * threads_per_block / rates.max_threads_per_sm;
    // A grid smaller than the device leaves SMs idle and the busy ones less loaded.
    let (resident_blocks, sm_fill, waves) = cost::fill(blocks, blocks_per_sm, rates);
    let in_flight = resident_blocks * threads_per_block * acc.iter_load.max(4.0);
    let efficiency = (cost::efficiency(in_flight, rates) * sm_fill).max(1e-3);

    let passes = if acc.passes == 0.0 && acc.load > 0.0 { 1.0 } else { acc.passes };
    let features = Features {
        load_bytes: acc.load * threads,
        store_bytes: acc.store * threads,
        uncoalesced_bytes: acc.uncoalesced * threads,
        broadcast_accesses: acc.broadcast,
        vector_width: acc.vector_width.max(1.0),
        global_passes: passes,
        shared_arrays: walker.shared.len() as f64,
        shared_padded: walker.shared.values().filter(|s| s.padded).count() as f64,
        shared_accesses: acc.shared_accesses,
        bank_conflicts: acc.bank_conflicts,
        syncs: acc.syncs,
        atomics: acc.atomics,
        contended_atomics: acc.contended,
        shared_atomics: acc.shared_atomics,
        shuffles: acc.shuffles,
        tensor_flops: acc.tensor_flops * threads,
        scalar_ops: acc.scalar_ops * threads,
        unrolled_loops: acc.unrolled,
        loops: acc.loops,
        block_threads: threads_per_block,
        blocks,
        launch_bounds: if kernel.launch_bounds.is_empty() { 0.0 } else { 1.0 },
        occupancy,
        sm_fill,
        waves,
        ..Features::default()
    };
    // A serial pass takes its loads' latency one after another, however few bytes it moves.
    let serial = acc.serial_loads * rates.serial_load;
    let cost = Cost {
        memory: ((acc.load + acc.store) * threads / efficiency).max(serial) + acc.cached * threads * rates.cache_hit,
        shared: (acc.shared_accesses + 4.0 * acc.shared_atomics + 15.0 * acc.bank_conflicts)
            * threads
            * rates.shared_access
            + acc.constant_serial * threads * rates.constant_serial,
        sync: acc.syncs * threads * rates.sync,
        atomics: (acc.atomics * rates.atomic + acc.contended * rates.contended_atomic) * threads,
        compute: acc.scalar_ops * threads * rates.scalar_op + acc.tensor_flops * threads * rates.tensor_flop,
        overhead: blocks * rates.block_overhead,
        efficiency,
        total: 0.0,
    }
    .combine();
    let assumed = launch::problem_sizes(kernel, &params, &walker.env.missing.borrow());
    Profile { language: Language::Cuda, features, cost, guesses, assumed }
}

/// The kernel's text with its loop macros expanded (`FOR_GRID_STRIDE(i, n) body` → the
/// `for` it stands for), so that the walk sees the loop and what runs in it, and its
/// vector-access macros (`FLOAT4(a[i])` → `reinterpret_cast<float4*>(&(a[i]))[0]`), so
/// that it sees the access's width, and its inline-PTX macros (`HMMA16816(…)` → the `asm`
/// statement). Other expression macros are read where evaluated.
fn expand_loop_macros<'s>(source: &'s str, helpers: &[crate::kernel::Helper]) -> std::borrow::Cow<'s, str> {
    let expanded: Vec<Macro> = helpers
        .iter()
        .filter(|h| h.kind == crate::kernel::HelperKind::Macro)
        .filter_map(|h| Macro::parse(&h.text))
        // Loops, vector accesses written as macros (`FLOAT4(a[i])`, `LDST128BITS(x)`), and
        // inline PTX (`HMMA16816(…)`, `CP_ASYNC_CG(dst, src, 16)`: see `ptx.rs`).
        .filter(|m| {
            crate::extract::words(&m.body).any(|w| w == "for" || w == "while" || w == "reinterpret_cast" || w == "asm")
        })
        .collect();
    if expanded.is_empty() {
        return std::borrow::Cow::Borrowed(source);
    }
    let mut text = source.to_string();
    for m in &expanded {
        for (at, args, end) in m.uses(&text) {
            text.replace_range(at..end, &m.expand(&args));
        }
    }
    std::borrow::Cow::Owned(text)
}

/// The kernel's `parameter_declaration` nodes, in order.
fn parameter_declarations(def: Node) -> Vec<Node> {
    let mut found = Vec::new();
    crate::extract::walk_preorder(def, |n| {
        if n.kind() == "compound_statement" {
            return false;
        }
        if n.kind() == "parameter_declaration" {
            found.push(n);
            return false;
        }
        true
    });
    found
}

/// The kernel's parameter names, in order.
fn param_names(def: Node, src: &str) -> Vec<String> {
    parameter_declarations(def)
        .into_iter()
        .map(|p| {
            let name = p.child_by_field_name("declarator").and_then(crate::extract::declarator_name);
            name.and_then(|x| src.get(x.byte_range())).unwrap_or_default().to_string()
        })
        .collect()
}

/// Evaluates a launch dimension: `256`, `threads`, `dim3(32, 8)`, `block` (a local).
/// The largest problem the declaration states: a size, or a buffer's element count.
fn declared_elements(kernel: &Kernel, env: &Env) -> Option<f64> {
    let d = &kernel.declared;
    let exact = |t: &str| env.eval(t).filter(|e| e.guesses == 0).map(|e| e.value);
    let sizes = d.values.values().filter_map(|v| exact(v));
    let buffers = d.shapes.keys().filter_map(|name| exact(&format!("{name}.numel()")));
    sizes.chain(buffers).filter(|v| *v >= 1.0).reduce(f64::max)
}

/// Threads per block taken where the file does not say (nor `__launch_bounds__`).
const TYPICAL_BLOCK: f64 = 256.0;

/// Evaluates a launch's block. A dimension the file does not give (a host variable picked
/// at run time, a function's result, a command-line value) is not a problem size: unless a
/// cap settles it whatever the sizes (`min(n, 1024)`), it is a typical block (`typical`
/// threads in x), counted as a guess, and the names it reads are not named as sizes. The
/// block's own name (`threads`, `block.x`) then has that value, so that the grid and the
/// shared memory computed from it agree with it.
fn block_dims(text: &str, env: &mut Env, typical: f64, guesses: &mut u32) -> [f64; 3] {
    let resolved = env.resolve(text);
    let dim3 = resolved.trim_start().starts_with("dim3");
    let parts = components(&resolved).unwrap_or_else(|| vec![resolved.clone()]);
    let mut out = [1.0; 3];
    // The first axis whose size is a guess (`dim3 block(1, n_cols / 4)` of a run-time row).
    let mut guessed_axis = None;
    for (axis, (slot, part)) in out.iter_mut().zip(parts.iter()).enumerate() {
        let before = env.missing.borrow().clone();
        match env.eval(part) {
            Some(e) if e.guesses == 0 => *slot = e.value.max(1.0),
            _ => {
                guessed_axis.get_or_insert(axis);
                *env.missing.borrow_mut() = before;
                *guesses += 1;
                let at = |env: &mut Env, unknown: f64| {
                    let kept = std::mem::replace(&mut env.unknown, unknown);
                    let e = env.eval_quiet(part).map(|e| e.value);
                    env.unknown = kept;
                    e
                };
                let capped = match (at(env, 65536.0), at(env, 16_777_216.0)) {
                    (Some(a), Some(b)) if a == b && (1.0..=1024.0).contains(&a) => Some(a),
                    _ => None,
                };
                *slot = capped.unwrap_or(if axis == 0 { typical } else { 1.0 });
            }
        }
    }
    // A block whose size rests on a guessed axis has the typical block's threads, whichever
    // axis it is: `(1, n_cols / 4, 1)` is a row of threads along y, not a single thread.
    if let Some(axis) = guessed_axis.filter(|a| *a > 0 && out[*a] == 1.0) {
        let known: f64 = out.iter().product();
        out[axis] = (typical / known).floor().max(1.0);
    }
    let name = text.trim();
    if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') && !env.values.contains_key(name) {
        if !dim3 && parts.len() == 1 {
            env.set(name, out[0]);
        }
        for (axis, v) in ["x", "y", "z"].into_iter().zip(out) {
            env.set(&format!("{name}.{axis}"), v);
        }
    }
    out
}

/// A launch's grid. An x extent that is a name alone with no value or definition (`blocks`, a
/// launcher's parameter; `params.grid_dim`, a struct's member filled at run time) is a thread per
/// element (`per_element` blocks), as a grid sized to its data is, not the element count
/// taken as blocks.
fn dims(text: &str, env: &Env, guesses: &mut u32, per_element: f64) -> [f64; 3] {
    let text = env.resolve(text);
    let parts = components(&text).unwrap_or_else(|| vec![text.clone()]);
    let mut out = [1.0; 3];
    for (axis, (slot, part)) in out.iter_mut().zip(parts.iter()).enumerate() {
        let name = part.trim();
        let bare = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '.');
        // Quietly: such a grid is no size of the problem's (nor one more unknown to share it).
        if axis == 0 && bare && !env.defines(name) && env.eval_quiet(name).is_some_and(|v| v.guesses > 0) {
            *guesses += 1;
            *slot = per_element.max(1.0);
            continue;
        }
        let e = env.eval_or(Some(part), 256.0);
        *guesses += e.guesses.min(1);
        *slot = e.value.max(1.0);
    }
    out
}

fn find_kernel<'t>(root: Node<'t>, _src: &[u8]) -> Option<Node<'t>> {
    let mut found = None;
    crate::extract::walk_preorder(root, |n| {
        if found.is_some() {
            return false;
        }
        if n.kind() == "function_definition" {
            let mut c = n.walk();
            if n.children(&mut c).any(|ch| ch.kind() == "__global__") {
                found = Some(n);
            }
            return false;
        }
        true
    });
    found
}
