//! Profiles a Triton kernel: tile shapes from `tl.arange`/`tl.zeros` flowing into
//! `tl.load`/`tl.store`/`tl.dot`, loop trip counts, passes over memory, programs
//! launched, `num_warps`, `num_stages`, group swizzling and autotune configurations
//! (the autotuner keeps the best, so the cheapest configuration counts). Each pointer
//! expression is also read as a linear function of its `tl.arange` axes, which says how
//! much of every 32-byte sector an access uses and how wide its vectors can be.

mod inline;
mod masks;
mod walk;
mod windows;

use super::cost::{self, Cost, Rates};
use super::expr::{components, Env};
use super::launch;
use super::{Features, Profile};
use crate::kernel::{HelperKind, Kernel, Language};
use crate::source::parse_snippet;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use tree_sitter::Node;

type Shape = BTreeSet<String>;

/// How an index moves along one `tl.arange` axis.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Coef {
    /// By `k` elements per step; `proven` when Triton can see it (no `%` or `//` on the
    /// way), which is what lets it vectorise.
    Lin { k: f64, proven: bool },
    /// By a factor the file does not pin down (an undeclared stride).
    Param,
    /// By loaded data or a non-linear function (a gather).
    Data,
}

impl Coef {
    fn add(self, other: Coef) -> Coef {
        match (self, other) {
            (Coef::Lin { k: a, proven: p }, Coef::Lin { k: b, proven: q }) => Coef::Lin { k: a + b, proven: p && q },
            (Coef::Data, _) | (_, Coef::Data) => Coef::Data,
            _ => Coef::Param,
        }
    }

    /// The same step, hidden from Triton.
    fn unproven(self) -> Coef {
        self.scale(Some(1.0), false)
    }

    fn scale(self, factor: Option<f64>, proven: bool) -> Coef {
        match (self, factor) {
            (Coef::Lin { k, proven: p }, Some(f)) => Coef::Lin { k: k * f, proven: p && proven },
            (Coef::Data, _) => Coef::Data,
            _ => Coef::Param,
        }
    }
}

/// An index as a linear function of the kernel's `tl.arange` axes (keyed by where each
/// `tl.arange` is written, so two tiles of one constexpr size stay two axes).
type Strides = BTreeMap<usize, Coef>;

#[derive(Default, Clone)]
struct Acc {
    load: f64,
    store: f64,
    loop_loads: f64,
    passes: f64,
    tensor_flops: f64,
    dot_tile_flops: f64,
    scalar_ops: f64,
    atomics: f64,
    /// Atomics every program aims at one address (serialised).
    contended: f64,
    loops: f64,
    static_loops: f64,
    iter_load: f64,
    tile: f64,
    /// Bytes an access moves beyond what it uses (partly used sectors).
    uncoalesced: f64,
    /// Accessed bytes, and the same weighted by the access's vector width in words.
    accessed: f64,
    vector_words: f64,
    /// Lanes a program's loads and stores issue: the tile's whole width each trip, the
    /// masked-off lanes too (a loop of 0.25 trips runs once).
    lanes: f64,
    guesses: u32,
}

struct Walker<'a> {
    src: &'a str,
    env: Env,
    shapes: HashMap<String, Shape>,
    /// Index variables as linear functions of the arange axes.
    strides: HashMap<String, Strides>,
    /// Each arange axis's size, as written.
    axes: HashMap<usize, String>,
    params: &'a BTreeSet<String>,
    streamed: HashMap<String, usize>,
    pass: usize,
    elem: f64,
    acc: Acc,
    loop_load: Vec<f64>,
    /// Trips the loops being walked run, each rounded up (a tile runs whole).
    issue: f64,
    /// The loops being walked: their variable, its step a trip and their trips.
    windows: Vec<windows::Window>,
    /// The `@triton.jit` helpers the kernel may call, by name, and those being walked.
    jit: &'a HashMap<String, Node<'a>>,
    inlining: Vec<String>,
    /// What each helper call walked returned, by the call's offset.
    returned: HashMap<usize, Vec<inline::Returned>>,
}

pub(super) fn profile(kernel: &Kernel, rates: &Rates, assumed: f64) -> Profile {
    // The kernel, and after it the `@triton.jit` helpers it calls (walked where called).
    let jit: Vec<&str> = kernel
        .helpers
        .iter()
        .filter(|h| h.kind == HelperKind::JitFunction && !h.text.is_empty())
        .map(|h| h.text.as_str())
        .collect();
    let text: Cow<str> = if jit.is_empty() {
        Cow::Borrowed(&kernel.source)
    } else {
        Cow::Owned(std::iter::once(&*kernel.source).chain(jit).collect::<Vec<_>>().join("\n\n"))
    };
    let tree = parse_snippet(Language::Triton, &text);
    let def = tree.as_ref().and_then(|t| find_def(t.root_node()));
    let helpers = tree.as_ref().map(|t| inline::helper_defs(t.root_node(), def, &text)).unwrap_or_default();
    let src = Source { text: &text, helpers: &helpers };
    let params = def.map(|d| param_names(d, &kernel.source)).unwrap_or_default();
    let mut env = launch::environment(kernel, &params, assumed);
    if let Some(def) = def {
        constexpr_defaults(def, &kernel.source, &mut env);
    }
    let configs: Vec<Env> = if kernel.autotune.is_empty() {
        vec![env.clone()]
    } else {
        kernel
            .autotune
            .iter()
            .map(|config| {
                let mut e = env.clone();
                for (k, v) in config {
                    e.define(k, v);
                }
                e
            })
            .collect()
    };
    let names: BTreeSet<String> = params.iter().cloned().collect();
    let mut best: Option<Profile> = None;
    for config_env in configs {
        let p = profile_config(kernel, &src, def, (&params, &names), config_env, rates);
        if best.as_ref().is_none_or(|b| p.cost.total < b.cost.total) {
            best = Some(p);
        }
    }
    let mut profile = best.unwrap_or_else(|| profile_config(kernel, &src, def, (&params, &names), env, rates));
    profile.features.autotune_configs = kernel.autotune.len() as f64;
    profile
}

/// The text walked (the kernel's, and its helpers' after it) and the helpers in it.
struct Source<'a> {
    text: &'a str,
    helpers: &'a HashMap<String, Node<'a>>,
}

fn find_def(root: Node) -> Option<Node> {
    let mut found = None;
    crate::extract::walk_preorder(root, |n| {
        if found.is_some() {
            return false;
        }
        if n.kind() == "function_definition" {
            found = Some(n);
            return false;
        }
        true
    });
    found
}

/// The kernel's parameter names, in order.
fn param_names(def: Node, src: &str) -> Vec<String> {
    crate::extract::python_parameters(def)
        .into_iter()
        .map(|(_, name)| src.get(name.byte_range()).unwrap_or_default().to_string())
        .collect()
}

/// `BLOCK: tl.constexpr = 128` gives BLOCK a default.
fn constexpr_defaults(def: Node, src: &str, env: &mut Env) {
    let Some(params) = def.child_by_field_name("parameters") else {
        return;
    };
    let mut cursor = params.walk();
    for p in params.named_children(&mut cursor) {
        if p.kind() == "typed_default_parameter" || p.kind() == "default_parameter" {
            if let (Some(name), Some(value)) = (p.child_by_field_name("name"), p.child_by_field_name("value")) {
                let name = &src[name.byte_range()];
                if !env.texts.contains_key(name) {
                    env.define(name, &src[value.byte_range()]);
                }
            }
        }
    }
}

/// `params` are the kernel's parameters in order (as the launch passes them) and as a set.
fn profile_config<'a>(
    kernel: &Kernel,
    src: &Source<'a>,
    def: Option<Node<'a>>,
    (order, params): (&[String], &'a BTreeSet<String>),
    mut env: Env,
    rates: &Rates,
) -> Profile {
    // The grid, in the wrapper's names (before the kernel's locals, which may reuse them,
    // enter the environment).
    let grid = kernel.launches.first().and_then(|l| l.grid.as_deref()).map(|g| env.resolve(g));
    // Loop bounds that depend on the program id (causal attention, triangles) are
    // counted for the average program.
    if let Some(text) = &grid {
        let axes = components(text).unwrap_or_else(|| vec![text.clone()]);
        for (axis, part) in axes.iter().enumerate().take(3) {
            // A grid of sizes known only at run time too: the program id is never a size of
            // its own (`range(pid, n_rows, num_programs)` of `n_rows` programs runs once).
            if let Some(e) = env.eval(part) {
                env.set(&format!("tl.program_id({axis})"), ((e.value - 1.0) / 2.0).max(0.0));
                // A persistent kernel's grid stride: `range(pid * BLOCK, n, nprog * BLOCK)`.
                env.set(&format!("tl.num_programs({axis})"), e.value.max(1.0));
            }
        }
    }
    let mut guesses = 0;
    let assumed = env.unknown;
    let programs = grid.map(|text| {
        let e = env.eval_or(Some(&text), assumed);
        guesses += e.guesses.min(1);
        e.value.max(1.0)
    });
    // The width the wrapper's tensors are made with, else what the kernel's text says.
    let half = super::names_half(&kernel.source);
    let elem = kernel.launches.first().and_then(super::element_size).unwrap_or(if half { 2.0 } else { 4.0 });
    // A launch option the reader cannot evaluate (`num_warps=_num_warps(BLOCK)`) is
    // Triton's default, named as a guess: never the size prior's unknown.
    let mut num = |name: &str, default: f64| {
        let e = env.eval_or(env.texts.get(name).map(String::as_str), default);
        if env.texts.contains_key(name) {
            guesses += e.guesses.min(1);
        }
        if e.guesses > 0 {
            default
        } else {
            e.value
        }
    };
    let num_warps = num("num_warps", 4.0).clamp(1.0, 32.0);
    let num_stages = num("num_stages", 3.0).clamp(1.0, 8.0);
    let mut walker = Walker {
        src: src.text,
        env,
        shapes: HashMap::new(),
        strides: HashMap::new(),
        axes: HashMap::new(),
        params,
        streamed: HashMap::new(),
        pass: 0,
        elem,
        acc: Acc::default(),
        loop_load: vec![0.0],
        issue: 1.0,
        windows: Vec::new(),
        jit: src.helpers,
        inlining: Vec::new(),
        returned: HashMap::new(),
    };
    let swizzle = params.iter().any(|p| p.contains("GROUP"));
    if let Some(def) = def {
        walker.find_axes(def);
        for helper in src.helpers.values() {
            walker.find_axes(*helper);
        }
        if let Some(body) = def.child_by_field_name("body") {
            walker.block(body, 1.0, 0);
        }
    }
    let programs = match programs {
        Some(programs) => programs,
        None => {
            // No launch read: a grid that covers one tensor of the assumed size, tile by
            // tile (not the square of it: 2^44 elements is no workload).
            guesses += 1;
            (assumed / walker.acc.tile.max(1.0)).max(1.0)
        }
    };
    // Bytes a program has in flight at once: a loop's per-iteration loads, or what the
    // program loads outside loops (a scalar load per iteration of a serial loop hides no
    // memory latency, however much the program reads in total).
    let top_level_loads = walker.loop_load.first().copied().unwrap_or(0.0);
    walker.acc.iter_load = walker.acc.iter_load.max(top_level_loads);
    let acc = walker.acc.clone();
    guesses += acc.guesses.min(4);

    let threads = 32.0 * num_warps;
    let smem = if acc.tensor_flops > 0.0 { acc.iter_load * num_stages.max(1.0) } else { 0.0 };
    let by_smem = if smem > 0.0 { (rates.shared_per_sm / smem).floor().max(1.0) } else { f64::INFINITY };
    let per_sm = rates
        .max_blocks_per_sm
        .min((rates.max_threads_per_sm / threads).floor())
        .min(by_smem)
        .min(if acc.tensor_flops > 0.0 { f64::INFINITY } else { by_registers(acc.tile, threads, rates) });
    let pipelined = if acc.loops > 0.0 { (num_stages - 1.0).max(1.0) } else { 1.0 };
    let (resident, sm_fill, waves) = cost::fill(programs, per_sm, rates);
    let in_flight = resident * acc.iter_load.max(4.0) * pipelined;
    let efficiency = (cost::efficiency(in_flight, rates) * sm_fill).max(1e-3);
    // Tiles too small for the tensor cores' wide instructions waste them.
    let tile_eff = if acc.dot_tile_flops > 0.0 {
        (acc.dot_tile_flops / 2f64.powi(21)).clamp(1.0 / 16.0, 1.0).powf(0.35)
    } else {
        1.0
    };
    // Tile loads in a matmul loop are re-read by neighbouring programs: swizzling keeps
    // them in L2.
    let reuse = if acc.tensor_flops > 0.0 && swizzle { 0.7 } else { 1.0 };
    // A tile wider than the registers hold spills: what does not fit goes to local memory
    // and comes back (`tl.load` of a 1024 × 64 tile on 4 warps: 512 values a thread).
    let spilled = if acc.tensor_flops > 0.0 { 0.0 } else { 2.0 * spill_fraction(acc.tile, threads) * acc.load };
    let memory_bytes = (acc.load - acc.loop_loads * (1.0 - reuse) + acc.store + spilled) * programs;

    let features = Features {
        load_bytes: acc.load * programs,
        store_bytes: acc.store * programs,
        uncoalesced_bytes: acc.uncoalesced * programs,
        vector_width: if acc.accessed > 0.0 { acc.vector_words / acc.accessed } else { 1.0 },
        global_passes: if acc.passes == 0.0 && acc.load > 0.0 { 1.0 } else { acc.passes },
        atomics: acc.atomics,
        contended_atomics: acc.contended,
        tensor_flops: acc.tensor_flops * programs,
        scalar_ops: acc.scalar_ops * programs,
        unrolled_loops: acc.static_loops,
        loops: acc.loops,
        block_threads: threads,
        blocks: programs,
        occupancy: per_sm * threads / rates.max_threads_per_sm,
        tile_elems: acc.tile,
        num_stages,
        group_swizzle: if swizzle { 1.0 } else { 0.0 },
        sm_fill,
        waves,
        ..Features::default()
    };
    let cost = Cost {
        memory: memory_bytes / efficiency,
        atomics: (acc.atomics * rates.atomic + acc.contended * rates.contended_atomic) * programs,
        compute: programs
            * (acc.tensor_flops * rates.tensor_flop / tile_eff
                + acc.scalar_ops * rates.scalar_op / 32.0
                + acc.lanes * ACCESS_INSTRUCTIONS * rates.lane_issue),
        overhead: programs * rates.block_overhead,
        efficiency,
        ..Cost::default()
    }
    .combine();
    // In order: the launch's arguments bind the parameters by position.
    let assumed = launch::problem_sizes(kernel, order, &walker.env.missing.borrow());
    Profile { language: Language::Triton, features, cost, guesses, assumed }
}

/// Instructions each lane of a load or store issues: its pointer (a 64-bit add), its mask,
/// the access, a conversion and the arithmetic on the value. A block four times wider
/// than its row (`BLOCK_SIZE = 16384` over 4096 columns) issues four times as many: at
/// 16-bit elements that, not memory, bounds an RMSNorm.
const ACCESS_INSTRUCTIONS: f64 = 7.0;

/// The share of a program's tile values that do not fit in a thread's 255 registers, two
/// tiles live at once (the loaded tile and what is computed from it) beside some 32
/// registers of addresses and loop state: 0 for any tile that fits.
fn spill_fraction(tile: f64, threads: f64) -> f64 {
    let needed = registers_per_thread(tile, threads, 2.0);
    ((needed - 255.0) / needed).max(0.0)
}

/// 32-bit registers a program's thread needs for `live_tiles` tiles of `tile` elements
/// spread over `threads`, beside some 32 of addresses and loop state.
fn registers_per_thread(tile: f64, threads: f64, live_tiles: f64) -> f64 {
    32.0 + live_tiles * tile / threads.max(1.0)
}

/// Programs an SM holds by their registers: a tile's elements are spread over the
/// program's threads, a 32-bit register each, and a few tiles are live at once (the
/// accumulator, the loaded tile, its offsets and mask), beside some 32 registers of
/// addresses and loop state. A block far wider than its threads (`BLOCK_SIZE = 16384` on
/// 8 warps: 64 elements a thread) leaves room for one program per SM where a block as
/// wide as the row leaves room for several. (A `tl.dot` kernel's tiles pass through
/// shared memory, which `by_smem` counts.)
fn by_registers(tile: f64, threads: f64, rates: &Rates) -> f64 {
    let per_thread = registers_per_thread(tile, threads, 3.0).min(255.0);
    (rates.registers_per_sm / (per_thread * threads.max(1.0))).floor().max(1.0)
}
