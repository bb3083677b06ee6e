//! Profiles a CUDA kernel: launch shape, global access patterns (coalesced, strided,
//! warp-uniform, vector width), passes over memory, shared memory and bank conflicts,
//! barriers, atomics, shuffles, tensor-core ops and loop trip counts.

use super::cost::{self, Cost, Rates};
use super::expr::{components, Env};
use super::launch;
use super::{Features, Profile};
use crate::kernel::{Kernel, Language};
use crate::source::parse_snippet;
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
    smem_bytes: f64,
}

struct Walker<'a> {
    src: &'a str,
    rates: &'a Rates,
    env: Env,
    vars: HashMap<String, Coef>,
    global: HashMap<String, f64>,
    shared: HashMap<String, Shared>,
    /// Arrays already streamed by an earlier top-level loop (later passes hit L2 more).
    streamed: HashMap<String, usize>,
    pass: usize,
    block_x: f64,
    /// Threads of a block beyond its first row (`blockDim.y * blockDim.z`).
    block_rows: f64,
    /// How often each name is subscripted in the kernel's text.
    subscripts: HashMap<String, usize>,
    /// Threads along x in the whole grid: a linear index in x spans this many.
    threads_x: f64,
    acc: Acc,
    loop_load: Vec<f64>,
    /// The average thread's `threadIdx`/`blockIdx`: loop bounds that depend on the thread
    /// (triangles, grid-stride starts) are counted for it.
    mean_index: Vec<(String, f64)>,
}

const VECTOR_TYPES: [(&str, f64); 10] = [
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
];

fn vector_width(type_text: &str) -> f64 {
    VECTOR_TYPES.iter().find(|(t, _)| type_text.contains(t)).map(|(_, w)| *w).unwrap_or(1.0)
}

pub(super) fn profile(kernel: &Kernel, rates: &Rates, assumed: f64) -> Profile {
    let tree = parse_snippet(Language::Cuda, &kernel.source);
    let def = tree.as_ref().and_then(|t| find_kernel(t.root_node(), kernel.source.as_bytes()));
    let params = def.map(|d| param_names(d, &kernel.source)).unwrap_or_default();
    let mut env = launch::environment(kernel, &params, assumed);
    let launch = kernel.launches.first();
    let mut guesses = 0;
    let bounds_threads = kernel.launch_bounds.first().and_then(|b| env.eval(b)).map(|e| e.value);
    let block = match launch.and_then(|l| l.block.as_deref()).or(kernel.declared.block.as_deref()) {
        Some(text) => dims(text, &env, &mut guesses),
        None => {
            guesses += 1;
            [bounds_threads.unwrap_or(256.0), 1.0, 1.0]
        }
    };
    let threads_per_block = (block[0] * block[1] * block[2]).clamp(1.0, 1024.0);
    let grid = match launch.and_then(|l| l.grid.as_deref()).or(kernel.declared.grid.as_deref()) {
        Some(text) => dims(text, &env, &mut guesses),
        None => {
            guesses += 1;
            // No launch: a thread per element of the largest declared size or buffer.
            let elements = declared_elements(kernel, &env).unwrap_or(assumed);
            [(elements / threads_per_block).ceil(), 1.0, 1.0]
        }
    };
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
        src: &kernel.source,
        rates,
        env,
        vars: HashMap::new(),
        global: HashMap::new(),
        shared: HashMap::new(),
        streamed: HashMap::new(),
        pass: 0,
        block_x: block[0],
        block_rows: block[1] * block[2],
        subscripts: def.map(|d| subscript_counts(d, &kernel.source)).unwrap_or_default(),
        threads_x: (grid[0] * block[0]).max(1.0),
        acc: Acc::default(),
        loop_load: vec![0.0],
        mean_index,
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
    let cost = Cost {
        memory: (acc.load + acc.store) * threads / efficiency,
        shared: (acc.shared_accesses + 4.0 * acc.shared_atomics + 15.0 * acc.bank_conflicts)
            * threads
            * rates.shared_access,
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

fn dims(text: &str, env: &Env, guesses: &mut u32) -> [f64; 3] {
    let text = env.resolve(text);
    let parts = components(&text).unwrap_or_else(|| vec![text.clone()]);
    let mut out = [1.0; 3];
    for (slot, part) in out.iter_mut().zip(parts.iter()) {
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

impl Walker<'_> {
    fn text(&self, node: Node) -> &str {
        self.src.get(node.start_byte()..node.end_byte()).unwrap_or("")
    }

    fn params(&mut self, def: Node) {
        for p in parameter_declarations(def) {
            let Some(decl) = p.child_by_field_name("declarator") else {
                continue;
            };
            if decl.kind() != "pointer_declarator" {
                continue;
            }
            if let Some(name) = crate::extract::declarator_name(decl) {
                let width = vector_width(self.text(p));
                self.global.insert(self.text(name).to_string(), width);
            }
        }
    }

    fn top_level(&mut self, body: Node) {
        let mut cursor = body.walk();
        let children: Vec<Node> = body.named_children(&mut cursor).collect();
        for child in children {
            self.statement(child, 1.0, 1.0, 0);
        }
    }

    fn statement(&mut self, node: Node, mult: f64, frac: f64, depth: usize) {
        if depth > 48 {
            return;
        }
        match node.kind() {
            "declaration" => self.declaration(node, mult, frac),
            "for_statement" | "while_statement" | "do_statement" | "for_range_loop" => {
                self.acc.loops += 1.0;
                let trip = self.trip_count(node);
                let top = depth == 0;
                if top {
                    self.pass += 1;
                }
                let loads_before = self.acc.load;
                if let Some(init) = node.child_by_field_name("initializer") {
                    self.statement(init, mult, frac, depth + 1);
                }
                self.loop_load.push(0.0);
                if let Some(body) = node.child_by_field_name("body") {
                    self.statement(body, mult * trip, frac, depth + 1);
                }
                let per_iter = self.loop_load.pop().unwrap_or(0.0);
                let unrolled = self.preceded_by_unroll(node);
                let ilp = if unrolled { trip.clamp(1.0, 4.0) } else { 1.0 };
                self.acc.iter_load = self.acc.iter_load.max(per_iter * ilp);
                if top && self.acc.load > loads_before {
                    self.acc.passes += 1.0;
                }
            }
            "if_statement" => {
                let cond = node.child_by_field_name("condition");
                if let Some(c) = cond {
                    self.expr(c, mult, frac, depth + 1);
                }
                let inner = frac * cond.map(|c| self.guard_fraction(c)).unwrap_or(1.0);
                if let Some(c) = node.child_by_field_name("consequence") {
                    self.statement(c, mult, inner, depth + 1);
                }
                if let Some(a) = node.child_by_field_name("alternative") {
                    self.statement(a, mult, frac, depth + 1);
                }
            }
            "preproc_call" => {
                if self.text(node).contains("unroll") {
                    self.acc.unrolled += 1.0;
                }
            }
            "compound_statement" | "else_clause" => {
                let mut cursor = node.walk();
                let children: Vec<Node> = node.named_children(&mut cursor).collect();
                for child in children {
                    self.statement(child, mult, frac, depth);
                }
            }
            "expression_statement" => {
                if let Some(assign) = node.named_child(0).filter(|n| n.kind() == "assignment_expression") {
                    self.track_assignment(assign);
                }
                self.expr(node, mult, frac, depth + 1);
            }
            "comment" => {}
            _ => self.expr(node, mult, frac, depth + 1),
        }
    }

    fn preceded_by_unroll(&self, node: Node) -> bool {
        node.prev_named_sibling().is_some_and(|p| p.kind() == "preproc_call" && self.text(p).contains("unroll"))
    }

    fn declaration(&mut self, node: Node, mult: f64, frac: f64) {
        let decl_text = self.text(node).to_string();
        let is_shared = decl_text.contains("__shared__");
        let type_text = node.child_by_field_name("type").map(|t| self.text(t).to_string()).unwrap_or_default();
        let mut cursor = node.walk();
        let declarators: Vec<Node> = node.children_by_field_name("declarator", &mut cursor).collect();
        for d in declarators {
            if is_shared {
                let mut dims = 0;
                let mut padded = false;
                let mut elems = 1.0;
                let mut cur = Some(d);
                while let Some(c) = cur.filter(|c| c.kind() == "array_declarator") {
                    dims += 1;
                    if let Some(size) = c.child_by_field_name("size") {
                        let s = self.text(size);
                        let v = self.env.eval(s).map(|e| e.value).unwrap_or(32.0);
                        padded |= s.contains('+') || (v as i64 % 2 == 1 && v > 1.0);
                        elems *= v.max(1.0);
                    }
                    cur = c.child_by_field_name("declarator");
                }
                if let Some(name) = crate::extract::declarator_name(d) {
                    let bytes_per = 4.0 * vector_width(&type_text);
                    if dims > 0 {
                        self.acc.smem_bytes += elems * bytes_per;
                    }
                    self.shared.insert(self.text(name).to_string(), Shared { dims, padded });
                }
                continue;
            }
            let (name, value) = match d.kind() {
                "init_declarator" => (d.child_by_field_name("declarator"), d.child_by_field_name("value")),
                _ => (Some(d), None),
            };
            let Some(name_node) = name.and_then(crate::extract::declarator_name) else {
                continue;
            };
            let name = self.text(name_node).to_string();
            if let Some(value) = value {
                let coef = self.coef(value, 0);
                self.vars.insert(name.clone(), coef);
                let value_text = self.text(value).to_string();
                self.env.define(&name, &value_text);
                // Pointers derived from a global pointer are global too.
                let pointer = name.as_str() != type_text.as_str()
                    && (d.child_by_field_name("declarator").is_some_and(|x| x.kind() == "pointer_declarator")
                        || decl_text.contains('*'));
                if pointer {
                    if let Some(width) = self.global_in(value) {
                        let w = if vector_width(&decl_text) > 1.0 { vector_width(&decl_text) } else { width };
                        self.global.insert(name.clone(), w);
                    }
                }
                self.expr(value, mult, frac, 1);
            } else {
                self.vars.insert(name, Coef::Uniform);
            }
        }
    }

    fn track_assignment(&mut self, assign: Node) {
        let (Some(left), Some(right)) = (assign.child_by_field_name("left"), assign.child_by_field_name("right"))
        else {
            return;
        };
        if left.kind() == "identifier" {
            let coef = self.coef(right, 0);
            let name = self.text(left).to_string();
            let op = assign.child_by_field_name("operator").map(|o| self.text(o).to_string()).unwrap_or_default();
            let prev = self.vars.get(&name).copied().unwrap_or(Coef::Uniform);
            let next = if op == "=" { coef } else { prev.add(coef) };
            self.vars.insert(name, next);
        }
    }

    /// Vector width of the global pointer mentioned in `node`, if any.
    fn global_in(&self, node: Node) -> Option<f64> {
        let mut found = None;
        crate::extract::walk_preorder(node, |n| {
            if found.is_none() && n.kind() == "identifier" {
                found = self.global.get(self.text(n)).copied();
            }
            found.is_none()
        });
        found
    }

    /// Trip count of a loop from its initialiser, condition and update.
    fn trip_count(&mut self, node: Node) -> f64 {
        let guess = |w: &mut Self| {
            w.acc.guesses += 1;
            8.0
        };
        if node.kind() != "for_statement" {
            return guess(self);
        }
        let (Some(cond), Some(update)) = (node.child_by_field_name("condition"), node.child_by_field_name("update"))
        else {
            return guess(self);
        };
        let init = node.child_by_field_name("initializer");
        let (Some(var), Some(bound)) = (cond.child_by_field_name("left"), cond.child_by_field_name("right")) else {
            return guess(self);
        };
        let var = self.text(var).to_string();
        let start = init
            .and_then(|i| {
                let mut found = None;
                crate::extract::walk_preorder(i, |n| {
                    if found.is_none() && matches!(n.kind(), "init_declarator" | "assignment_expression") {
                        found = n.child_by_field_name("value").or_else(|| n.child_by_field_name("right"));
                    }
                    found.is_none()
                });
                found
            })
            .map(|v| self.text(v).to_string())
            .unwrap_or_else(|| "0".to_string());
        let bound_text = self.text(bound).to_string();
        let update_text = self.text(update).replace(' ', "");
        let (Some(a), Some(b)) = (self.eval_mean_thread(&start), self.eval_mean_thread(&bound_text)) else {
            return guess(self);
        };
        let step_of = |op: &str| update_text.split_once(op).map(|(_, s)| s.to_string());
        let trip = if update_text.contains("++") || update_text.contains("--") {
            (b - a).abs()
        } else if let Some(s) = step_of("+=").or_else(|| step_of("-=")) {
            // A strided loop runs a whole number of times: a grid-stride loop over
            // exactly as many elements as threads runs once, not half a time.
            match self.env.eval(&s) {
                Some(step) if step.value.abs() >= 1.0 => ((b - a).abs() / step.value.abs()).ceil(),
                _ => return guess(self),
            }
        } else if update_text.contains(">>=")
            || update_text.contains("/=")
            || update_text.contains("<<=")
            || update_text.contains("*=")
        {
            let (hi, lo) = (a.abs().max(b.abs()).max(1.0), a.abs().min(b.abs()).max(1.0));
            (hi / lo).log2().floor() + 1.0
        } else if update_text.contains(&format!("{var}={var}+")) {
            let s = update_text.rsplit('+').next().unwrap_or("1");
            match self.env.eval(s) {
                Some(step) if step.value >= 1.0 => (b - a).abs() / step.value,
                _ => return guess(self),
            }
        } else {
            return guess(self);
        };
        trip.clamp(0.0, 1e12)
    }

    /// Evaluates `text` for the average thread of the grid (elsewhere the indices are 0).
    fn eval_mean_thread(&mut self, text: &str) -> Option<f64> {
        for (k, v) in &self.mean_index {
            self.env.set(k, *v);
        }
        let value = self.env.eval(text).map(|e| e.value);
        for (k, _) in &self.mean_index {
            self.env.set(k, 0.0);
        }
        value
    }

    /// Fraction of threads that execute a branch: `if (lane == 0)`, `if (threadIdx.x == 0)`,
    /// or a bounds check `if (i < n)` on a thread index (a tail touches few threads).
    fn guard_fraction(&mut self, cond: Node) -> f64 {
        let mut frac: f64 = 1.0;
        crate::extract::walk_preorder(cond, |n| {
            if n.kind() != "binary_expression" {
                return true;
            }
            let op = n.child_by_field_name("operator").map(|o| o.kind()).unwrap_or("");
            let (Some(l), Some(r)) = (n.child_by_field_name("left"), n.child_by_field_name("right")) else {
                return true;
            };
            match op {
                "<" | "<=" => {
                    if let Coef::Lin(a) = self.coef(l, 0) {
                        let lo = self.env.eval(self.text(l)).map(|e| e.value);
                        let hi = self.env.eval(self.text(r)).map(|e| e.value);
                        if let (Some(lo), Some(hi)) = (lo, hi) {
                            let threads = self.threads_x;
                            let f = ((hi - lo) / (threads * a.abs().max(1e-9))).clamp(1.0 / threads, 1.0);
                            frac = frac.min(f);
                        }
                    }
                    false
                }
                "==" => {
                    let lt = self.text(l).replace(' ', "");
                    let is_thread_x = lt == "threadIdx.x"
                        || self.env.texts.get(&lt).is_some_and(|d| d.replace(' ', "") == "threadIdx.x");
                    if is_thread_x {
                        frac = frac.min(1.0 / self.block_x.max(1.0));
                    } else if self.coef(l, 0) != Coef::Uniform {
                        frac = frac.min(1.0 / 32.0);
                    }
                    false
                }
                _ => true,
            }
        });
        frac
    }

    fn coef(&self, node: Node, depth: usize) -> Coef {
        if depth > 32 {
            return Coef::Unknown;
        }
        match node.kind() {
            "number_literal" | "true" | "false" | "char_literal" => Coef::Uniform,
            "identifier" => self.vars.get(self.text(node)).copied().unwrap_or(Coef::Uniform),
            "field_expression" => match self.text(node).replace(' ', "").as_str() {
                "threadIdx.x" => Coef::Lin(1.0),
                // A warp spans 32 / blockDim.x rows of y: nearly uniform (see `access`).
                "threadIdx.y" | "threadIdx.z" => Coef::Uniform,
                // A field of a per-lane value (`v.x` of a loaded `uchar4`) varies like the value.
                _ => node
                    .child_by_field_name("argument")
                    .filter(|a| a.kind() == "identifier")
                    .and_then(|a| self.vars.get(self.text(a)).copied())
                    .unwrap_or(Coef::Uniform),
            },
            "parenthesized_expression" => node.named_child(0).map(|c| self.coef(c, depth + 1)).unwrap_or(Coef::Unknown),
            "cast_expression" => {
                node.child_by_field_name("value").map(|c| self.coef(c, depth + 1)).unwrap_or(Coef::Unknown)
            }
            "binary_expression" => {
                let (Some(l), Some(r), Some(op)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                    node.child_by_field_name("operator"),
                ) else {
                    return Coef::Unknown;
                };
                let (cl, cr) = (self.coef(l, depth + 1), self.coef(r, depth + 1));
                let value = |n: Node| self.env.eval(self.text(n)).filter(|e| e.guesses == 0).map(|e| e.value);
                match op.kind() {
                    "+" => cl.add(cr),
                    "-" => cl.add(match cr {
                        Coef::Lin(b) => Coef::Lin(-b),
                        other => other,
                    }),
                    "*" | "<<" => {
                        let scale = |c: Coef, other: Node| match (c, value(other)) {
                            (Coef::Uniform, _) => Coef::Uniform,
                            (Coef::Lin(a), Some(v)) => {
                                Coef::Lin(if op.kind() == "<<" { a * 2f64.powf(v) } else { a * v })
                            }
                            (Coef::Lin(_), None) | (Coef::Strided, _) => Coef::Strided,
                            _ => Coef::Unknown,
                        };
                        match (cl, cr) {
                            (Coef::Uniform, Coef::Uniform) => Coef::Uniform,
                            (c, Coef::Uniform) => scale(c, r),
                            (Coef::Uniform, c) if op.kind() == "*" => scale(c, l),
                            _ => Coef::Unknown,
                        }
                    }
                    "/" | ">>" => match (cl, cr, value(r)) {
                        (Coef::Uniform, Coef::Uniform, _) => Coef::Uniform,
                        (Coef::Lin(a), Coef::Uniform, Some(v)) if v > 0.0 => {
                            let div = if op.kind() == ">>" { 2f64.powf(v) } else { v };
                            if a / div <= 1.0 / 32.0 {
                                Coef::Uniform
                            } else {
                                Coef::Lin(a / div)
                            }
                        }
                        _ => Coef::Unknown,
                    },
                    "%" | "&" => match (cl, cr, value(r)) {
                        (Coef::Uniform, Coef::Uniform, _) => Coef::Uniform,
                        (Coef::Lin(a), Coef::Uniform, Some(v)) if v >= 31.0 => Coef::Lin(a),
                        _ => Coef::Unknown,
                    },
                    _ if cl == Coef::Uniform && cr == Coef::Uniform => Coef::Uniform,
                    _ => Coef::Unknown,
                }
            }
            "call_expression" => {
                let mut cursor = node.walk();
                let args: Vec<Coef> = node
                    .child_by_field_name("arguments")
                    .map(|a| a.named_children(&mut cursor).map(|c| self.coef(c, depth + 1)).collect())
                    .unwrap_or_default();
                args.into_iter().fold(Coef::Uniform, |acc, c| match (acc, c) {
                    (Coef::Uniform, x) => x,
                    (x, Coef::Uniform) => x,
                    _ => Coef::Unknown,
                })
            }
            "subscript_expression" => {
                let index = node.child_by_field_name("indices").and_then(|i| i.named_child(0));
                match index.map(|i| self.coef(i, depth + 1)) {
                    Some(Coef::Uniform) => Coef::Uniform,
                    _ => Coef::Unknown,
                }
            }
            _ => {
                if self.text(node).contains("threadIdx") {
                    Coef::Unknown
                } else {
                    Coef::Uniform
                }
            }
        }
    }

    fn expr(&mut self, node: Node, mult: f64, frac: f64, depth: usize) {
        if depth > 64 {
            return;
        }
        let weight = mult * frac;
        match node.kind() {
            "subscript_expression" => {
                self.access(node, weight);
                // Visit indices (gathers load too), not the array chain itself.
                let mut cur = Some(node);
                while let Some(c) = cur.filter(|c| c.kind() == "subscript_expression") {
                    if let Some(idx) = c.child_by_field_name("indices") {
                        self.expr(idx, mult, frac, depth + 1);
                    }
                    cur = c.child_by_field_name("argument");
                }
                if let Some(base) = cur.filter(|c| c.kind() != "identifier") {
                    self.expr(base, mult, frac, depth + 1);
                }
                return;
            }
            "call_expression" => self.call(node, weight),
            "gnu_asm_expression" if self.text(node).contains("mma") => {
                self.acc.tensor_flops += 256.0 * weight;
            }
            "binary_expression" => {
                if let Some(op) = node.child_by_field_name("operator") {
                    if matches!(op.kind(), "+" | "-" | "*" | "/") {
                        self.acc.scalar_ops += weight;
                    }
                }
            }
            "assignment_expression" => {
                if let Some(op) = node.child_by_field_name("operator") {
                    if op.kind() != "=" {
                        self.acc.scalar_ops += weight;
                    }
                }
            }
            _ => {}
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        for child in children {
            self.expr(child, mult, frac, depth + 1);
        }
    }

    fn call(&mut self, node: Node, weight: f64) {
        let Some(function) = node.child_by_field_name("function") else {
            return;
        };
        let name = self.text(function).to_string();
        let short = name.rsplit("::").next().unwrap_or(&name);
        if short.starts_with("atomic") {
            // The atomic's target without its `&`: `&a[i]` → `a[i]`.
            let target = node.child_by_field_name("arguments").and_then(|a| a.named_child(0)).map(|t| {
                if t.kind() == "pointer_expression" {
                    t.named_child(0).unwrap_or(t)
                } else {
                    t
                }
            });
            let contended = target.is_some_and(|inner| match inner.kind() {
                "identifier" => true,
                "subscript_expression" => {
                    let idx = inner.child_by_field_name("indices").and_then(|i| i.named_child(0));
                    idx.map(|i| self.coef(i, 0) == Coef::Uniform).unwrap_or(true)
                }
                _ => self.coef(inner, 0) == Coef::Uniform,
            });
            let on_chip = target.is_some_and(|t| self.shared.contains_key(self.text(array_of(t))));
            match (on_chip, contended) {
                (true, true) => self.acc.atomics += weight,
                (true, false) => self.acc.shared_atomics += weight,
                (false, true) => self.acc.contended += weight,
                (false, false) => self.acc.atomics += weight,
            }
        } else if short.starts_with("__syncthreads")
            || short == "__syncwarp"
            || short.ends_with("sync") && name.contains('.')
        {
            if short == "__syncwarp" {
                self.acc.shuffles += weight;
            } else {
                self.acc.syncs += weight;
            }
        } else if short.starts_with("__shfl") || short.starts_with("__reduce_") {
            self.acc.shuffles += weight;
        } else if short == "mma_sync" || short.starts_with("__hmma") || short.starts_with("wgmma") {
            self.acc.tensor_flops += 256.0 * weight;
        } else if short.starts_with("__")
            && (short.contains("exp") || short.contains("log") || short.contains("sin") || short.contains("fdiv"))
        {
            self.acc.scalar_ops += 2.0 * weight;
        } else if matches!(
            short,
            "expf"
                | "exp"
                | "logf"
                | "log"
                | "sqrtf"
                | "sqrt"
                | "rsqrtf"
                | "tanhf"
                | "tanh"
                | "powf"
                | "pow"
                | "sinf"
                | "cosf"
                | "erff"
                | "exp2f"
        ) {
            self.acc.scalar_ops += 8.0 * weight;
        }
    }

    /// One subscript access: global (coalescing, vector width) or shared (bank conflicts).
    fn access(&mut self, node: Node, weight: f64) {
        // Walk to the array at the bottom of `a[i][j]`.
        let mut indices = Vec::new();
        let mut cur = node;
        while cur.kind() == "subscript_expression" {
            if let Some(i) = cur.child_by_field_name("indices").and_then(|i| i.named_child(0)) {
                indices.push(i);
            }
            match cur.child_by_field_name("argument") {
                Some(a) => cur = a,
                None => return,
            }
        }
        indices.reverse();
        let (store, load) = access_kind(node, self.src);
        let base_text = self.text(cur).to_string();
        if let Some(shared) = self.shared.get(base_text.as_str()).cloned() {
            self.acc.shared_accesses += weight * (store as u8 + load as u8) as f64;
            // Lanes walking the first index of an unpadded 2-D tile hit one bank.
            if shared.dims >= 2 && !shared.padded && indices.len() >= 2 {
                let first = self.coef(indices[0], 0);
                let last = self.coef(indices[indices.len() - 1], 0);
                if first != Coef::Uniform && last == Coef::Uniform {
                    self.acc.bank_conflicts += weight;
                }
            }
            return;
        }
        let width = if cur.kind() == "identifier" {
            match self.global.get(base_text.as_str()) {
                Some(w) => *w,
                None => return,
            }
        } else {
            // `reinterpret_cast<float4*>(x)[i]`, `((float4*)x)[i]`.
            match self.global_in(cur) {
                Some(w) => w.max(vector_width(&base_text)),
                None => return,
            }
        };
        let Some(index) = indices.first().copied() else {
            return;
        };
        let coef = if indices.len() == 1 { self.coef(index, 0) } else { Coef::Unknown };
        let elem = 4.0 * width;
        let bytes = match coef {
            Coef::Uniform => {
                self.acc.broadcast += weight;
                // With blockDim.x < 32 a warp covers several y rows, one sector each.
                let rows = (32.0 / self.block_x.max(1.0)).clamp(1.0, 32.0);
                elem.max(32.0) * rows / 32.0
            }
            Coef::Lin(a) => cost::bytes_per_element(a, elem),
            Coef::Strided => cost::bytes_per_element(f64::INFINITY, elem),
            Coef::Unknown => {
                self.acc.guesses += 1;
                elem
            }
        };
        // The rest of a strided access's sectors is used soon after, and served by L2, when a
        // loop walks on, other rows of the block read nearby, or the array is read at other
        // places (the fields of a struct); otherwise the sector is fetched for one element.
        let reused = self.loop_load.len() > 1
            || self.block_rows > 1.0
            || self.subscripts.get(base_text.as_str()).is_some_and(|n| *n > 1);
        let bytes = if bytes > elem && reused { elem + (bytes - elem) / self.rates.l2_over_dram } else { bytes };
        self.acc.vector_width = self.acc.vector_width.max(width);
        self.acc.uncoalesced += (bytes - elem).max(0.0) * weight;
        if load {
            // A later pass over an array an earlier loop already streamed is partly served by L2.
            let discount = match self.streamed.get(base_text.as_str()) {
                Some(p) if *p < self.pass => 0.5,
                _ => 1.0,
            };
            self.streamed.entry(base_text).or_insert(self.pass);
            self.acc.load += bytes * weight * discount;
            if let Some(top) = self.loop_load.last_mut() {
                *top += bytes;
            }
        }
        if store {
            self.acc.store += bytes * weight;
        }
    }
}

/// How often each array is subscripted in the kernel `def` (`a[i][j]` once, as `a`): a
/// chain of subscripts is counted at its innermost one, the one whose argument is the array.
fn subscript_counts(def: Node, src: &str) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    crate::extract::walk_preorder(def, |n| {
        if n.kind() == "subscript_expression" {
            if let Some(array) = n.child_by_field_name("argument").filter(|a| a.kind() == "identifier") {
                *counts.entry(src[array.byte_range()].to_string()).or_insert(0) += 1;
            }
        }
        true
    });
    counts
}

/// The array a (possibly nested) subscript reads: `a` for `a[i][j]`.
fn array_of(mut node: Node) -> Node {
    while node.kind() == "subscript_expression" {
        match node.child_by_field_name("argument") {
            Some(a) => node = a,
            None => break,
        }
    }
    node
}

/// (is a store, is a load) for the access at `node`.
fn access_kind(node: Node, src: &str) -> (bool, bool) {
    let Some(parent) = node.parent() else {
        return (false, true);
    };
    match parent.kind() {
        "assignment_expression" if parent.child_by_field_name("left") == Some(node) => {
            let compound = parent.child_by_field_name("operator").is_some_and(|o| o.kind() != "=");
            (true, compound)
        }
        "update_expression" => (true, true),
        // `&a[i]` handed to `__ldg` is a load; handed to an atomic it is the atomic's target.
        "pointer_expression" => {
            let call = parent.parent().and_then(|args| args.parent()).filter(|c| c.kind() == "call_expression");
            let ldg = call
                .and_then(|c| c.child_by_field_name("function"))
                .and_then(|f| src.get(f.start_byte()..f.end_byte()))
                .is_some_and(|name| name.starts_with("__ld"));
            (false, ldg)
        }
        _ => (false, true),
    }
}
