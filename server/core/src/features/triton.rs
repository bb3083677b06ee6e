//! Profiles a Triton kernel: tile shapes from `tl.arange`/`tl.zeros` flowing into
//! `tl.load`/`tl.store`/`tl.dot`, loop trip counts, passes over memory, programs
//! launched, `num_warps`, `num_stages`, group swizzling and autotune configurations
//! (the autotuner keeps the best, so the cheapest configuration counts). Each pointer
//! expression is also read as a linear function of its `tl.arange` axes, which says how
//! much of every 32-byte sector an access uses and how wide its vectors can be.

use super::cost::{self, Cost, Rates};
use super::expr::{components, Env};
use super::launch;
use super::{Features, Profile};
use crate::kernel::{Kernel, Language};
use crate::source::parse_snippet;
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
    loops: f64,
    static_loops: f64,
    iter_load: f64,
    tile: f64,
    /// Bytes an access moves beyond what it uses (partly used sectors).
    uncoalesced: f64,
    /// Accessed bytes, and the same weighted by the access's vector width in words.
    accessed: f64,
    vector_words: f64,
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
}

pub(super) fn profile(kernel: &Kernel, rates: &Rates, assumed: f64) -> Profile {
    let tree = parse_snippet(Language::Triton, &kernel.source);
    let def = tree.as_ref().and_then(|t| find_def(t.root_node()));
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
    let names: BTreeSet<String> = params.into_iter().collect();
    let mut best: Option<Profile> = None;
    for config_env in configs {
        let p = profile_config(kernel, def, &names, config_env, rates);
        if best.as_ref().is_none_or(|b| p.cost.total < b.cost.total) {
            best = Some(p);
        }
    }
    let mut profile = best.unwrap_or_else(|| profile_config(kernel, def, &names, env, rates));
    profile.features.autotune_configs = kernel.autotune.len() as f64;
    profile
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

fn profile_config(
    kernel: &Kernel,
    def: Option<Node>,
    params: &BTreeSet<String>,
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
            if let Some(e) = env.eval(part).filter(|e| e.guesses == 0) {
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
    let elem =
        if ["float16", "bfloat16", "fp16", "bf16"].iter().any(|t| kernel.source.contains(t)) { 2.0 } else { 4.0 };
    let mut num = |name: &str, default: f64| {
        let e = env.eval_or(env.texts.get(name).map(String::as_str), default);
        if env.texts.contains_key(name) {
            guesses += e.guesses.min(1);
        }
        e.value
    };
    let num_warps = num("num_warps", 4.0).clamp(1.0, 32.0);
    let num_stages = num("num_stages", 3.0).clamp(1.0, 8.0);
    let mut walker = Walker {
        src: &kernel.source,
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
    };
    let swizzle = params.iter().any(|p| p.contains("GROUP"));
    if let Some(def) = def {
        walker.find_axes(def);
        if let Some(body) = def.child_by_field_name("body") {
            walker.block(body, 1.0, 0);
        }
    }
    let programs = match programs {
        Some(programs) => programs,
        None => {
            guesses += 1;
            (assumed * assumed / walker.acc.tile.max(1.0)).max(1.0)
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
    let per_sm = rates.max_blocks_per_sm.min((rates.max_threads_per_sm / threads).floor()).min(by_smem);
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
    let memory_bytes = (acc.load - acc.loop_loads * (1.0 - reuse) + acc.store) * programs;

    let features = Features {
        load_bytes: acc.load * programs,
        store_bytes: acc.store * programs,
        uncoalesced_bytes: acc.uncoalesced * programs,
        vector_width: if acc.accessed > 0.0 { acc.vector_words / acc.accessed } else { 1.0 },
        global_passes: if acc.passes == 0.0 && acc.load > 0.0 { 1.0 } else { acc.passes },
        atomics: acc.atomics,
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
        atomics: acc.atomics * programs * rates.atomic,
        compute: programs * (acc.tensor_flops * rates.tensor_flop / tile_eff + acc.scalar_ops * rates.scalar_op / 32.0),
        overhead: programs * rates.block_overhead,
        efficiency,
        ..Cost::default()
    }
    .combine();
    let assumed =
        launch::problem_sizes(kernel, &params.iter().cloned().collect::<Vec<_>>(), &walker.env.missing.borrow());
    Profile { language: Language::Triton, features, cost, guesses, assumed }
}

impl Walker<'_> {
    fn text(&self, node: Node) -> &str {
        self.src.get(node.start_byte()..node.end_byte()).unwrap_or("")
    }

    fn size(&self, shape: &Shape) -> f64 {
        shape.iter().map(|s| self.env.eval(s).map(|e| e.value).unwrap_or(self.env.unknown / 32.0).max(1.0)).product()
    }

    /// Dimensions an expression's value spans: `tl.arange(0, B)` sizes, `tl.zeros((M, N))`,
    /// and the shapes of the variables it reads.
    fn shape_of(&self, node: Node) -> Shape {
        let mut shape = Shape::new();
        crate::extract::walk_preorder(node, |n| match n.kind() {
            "call" => {
                let func = n.child_by_field_name("function").map(|f| self.text(f)).unwrap_or("");
                let short = func.rsplit('.').next().unwrap_or(func);
                let args = n.child_by_field_name("arguments");
                match short {
                    "arange" => {
                        if let Some(a) = args.and_then(|a| a.named_child(1)) {
                            shape.insert(self.text(a).to_string());
                        }
                        false
                    }
                    "zeros" | "full" | "empty" => {
                        if let Some(t) = args.and_then(|a| a.named_child(0)) {
                            let mut c = t.walk();
                            for dim in t.named_children(&mut c) {
                                shape.insert(self.text(dim).to_string());
                            }
                        }
                        false
                    }
                    // Reductions drop a dimension: approximate as the row they reduce.
                    "sum" | "max" | "min" | "argmax" | "argmin" | "reduce" => false,
                    _ => true,
                }
            }
            "identifier" => {
                if let Some(s) = self.shapes.get(self.text(n)) {
                    shape.extend(s.iter().cloned());
                }
                false
            }
            "keyword_argument" => false,
            _ => true,
        });
        shape
    }

    fn block(&mut self, block: Node, mult: f64, depth: usize) {
        let mut cursor = block.walk();
        let children: Vec<Node> = block.named_children(&mut cursor).collect();
        for child in children {
            self.statement(child, mult, depth);
        }
    }

    fn statement(&mut self, node: Node, mult: f64, depth: usize) {
        if depth > 48 {
            return;
        }
        match node.kind() {
            "expression_statement" => {
                if let Some(assign) = node.named_child(0).filter(|n| n.kind() == "assignment") {
                    if let (Some(left), Some(right)) =
                        (assign.child_by_field_name("left"), assign.child_by_field_name("right"))
                    {
                        self.expr(right, mult, depth);
                        let shape = self.shape_of(right);
                        let targets: Vec<String> = if left.kind() == "identifier" {
                            vec![self.text(left).to_string()]
                        } else {
                            let mut c = left.walk();
                            left.named_children(&mut c).map(|t| self.text(t).to_string()).collect()
                        };
                        let right_text = self.text(right).to_string();
                        for t in targets {
                            if left.kind() == "identifier" {
                                self.env.define(&t, &right_text);
                                let strides = self.strides_of(right, 0);
                                self.strides.insert(t.clone(), strides);
                            } else {
                                self.strides.remove(&t);
                            }
                            self.shapes.insert(t, shape.clone());
                        }
                        return;
                    }
                }
                self.expr(node, mult, depth);
            }
            "for_statement" => {
                self.acc.loops += 1.0;
                let trip = node.child_by_field_name("right").map(|r| self.trip(r)).unwrap_or(8.0);
                let top = depth == 0;
                if top {
                    self.pass += 1;
                }
                let before = self.acc.load;
                self.loop_load.push(0.0);
                if let Some(body) = node.child_by_field_name("body") {
                    self.block(body, mult * trip, depth + 1);
                }
                let per_iter = self.loop_load.pop().unwrap_or(0.0);
                self.acc.iter_load = self.acc.iter_load.max(per_iter);
                self.acc.loop_loads += self.acc.load - before;
                if top && self.acc.load > before {
                    self.acc.passes += 1.0;
                }
            }
            "while_statement" => {
                self.acc.loops += 1.0;
                self.acc.guesses += 1;
                if let Some(body) = node.child_by_field_name("body") {
                    self.block(body, mult * 8.0, depth + 1);
                }
            }
            "if_statement" | "else_clause" | "elif_clause" | "with_statement" | "block" => {
                if let Some(c) = node.child_by_field_name("condition") {
                    self.expr(c, mult, depth + 1);
                }
                let mut cursor = node.walk();
                let children: Vec<Node> = node.named_children(&mut cursor).collect();
                for child in children {
                    if matches!(child.kind(), "block" | "else_clause" | "elif_clause") {
                        self.statement(child, mult, depth + 1);
                    }
                }
                if node.kind() == "block" {
                    self.block(node, mult, depth + 1);
                }
            }
            "comment" => {}
            _ => self.expr(node, mult, depth),
        }
    }

    /// Trip count of `range(a, b, step)`, `tl.range(…)`, `tl.static_range(…)`.
    fn trip(&mut self, iter: Node) -> f64 {
        let func = iter.child_by_field_name("function").map(|f| self.text(f).to_string()).unwrap_or_default();
        if func.ends_with("static_range") {
            self.acc.static_loops += 1.0;
        }
        let mut cursor = iter.walk();
        let args: Vec<String> = iter
            .child_by_field_name("arguments")
            .map(|a| {
                a.named_children(&mut cursor)
                    .filter(|c| c.kind() != "keyword_argument")
                    .map(|c| self.text(c).to_string())
                    .collect()
            })
            .unwrap_or_default();
        let eval = |w: &Self, t: &str| w.env.eval(t).map(|e| e.value);
        let (a, b, s) = match args.as_slice() {
            [b] => (Some(0.0), eval(self, b), Some(1.0)),
            [a, b] => (eval(self, a), eval(self, b), Some(1.0)),
            [a, b, s, ..] => (eval(self, a), eval(self, b), eval(self, s)),
            [] => (None, None, None),
        };
        match (a, b, s) {
            (Some(a), Some(b), Some(s)) if s.abs() >= 1.0 => ((b - a) / s).abs().clamp(0.0, 1e12),
            _ => {
                self.acc.guesses += 1;
                8.0
            }
        }
    }

    fn expr(&mut self, node: Node, mult: f64, depth: usize) {
        let mut calls = Vec::new();
        crate::extract::walk_preorder(node, |n| {
            if n.kind() == "call" {
                calls.push(n);
            }
            n.kind() != "lambda"
        });
        for call in calls {
            self.call(call, mult, depth);
        }
    }

    fn call(&mut self, node: Node, mult: f64, _depth: usize) {
        let func = node.child_by_field_name("function").map(|f| self.text(f).to_string()).unwrap_or_default();
        let short = func.rsplit('.').next().unwrap_or(&func).to_string();
        let args = node.child_by_field_name("arguments");
        let arg = |i: u32| args.and_then(|a| a.named_child(i));
        match short.as_str() {
            "load" | "store" => {
                let Some(ptr) = arg(0) else { return };
                let shape = self.shape_of(ptr);
                let elems = self.size(&shape);
                self.acc.tile = self.acc.tile.max(elems);
                let (per_element, vector) = self.sectors(ptr);
                let useful = elems * self.elem;
                let bytes = elems * per_element;
                self.acc.uncoalesced += (bytes - useful) * mult;
                self.acc.accessed += useful * mult;
                self.acc.vector_words += useful * mult * vector / 4.0;
                if short == "store" {
                    self.acc.store += bytes * mult;
                    return;
                }
                let base = self.base_param(ptr).unwrap_or_default();
                let discount = match self.streamed.get(&base) {
                    Some(p) if *p < self.pass => 0.5,
                    _ => 1.0,
                };
                self.streamed.entry(base).or_insert(self.pass);
                self.acc.load += bytes * mult * discount;
                if let Some(top) = self.loop_load.last_mut() {
                    *top += bytes;
                }
            }
            "dot" => {
                let (Some(a), Some(b)) = (arg(0), arg(1)) else {
                    return;
                };
                let mut shape = self.shape_of(a);
                shape.extend(self.shape_of(b));
                let flops = 2.0 * self.size(&shape);
                self.acc.dot_tile_flops = self.acc.dot_tile_flops.max(flops);
                self.acc.tensor_flops += flops * mult;
            }
            s if s.starts_with("atomic_") => {
                let elems = arg(0).map(|p| self.size(&self.shape_of(p))).unwrap_or(1.0);
                self.acc.atomics += elems * mult;
            }
            "exp" | "exp2" | "log" | "log2" | "sqrt" | "rsqrt" | "sigmoid" | "sum" | "max" | "min" | "maximum"
            | "minimum" | "where" | "fma" | "softmax" | "cumsum" => {
                let elems = arg(0).map(|p| self.size(&self.shape_of(p))).unwrap_or(1.0);
                self.acc.scalar_ops += elems * mult;
            }
            _ => {}
        }
    }

    /// Every `tl.arange` axis and its size, by where it is written.
    fn find_axes(&mut self, def: Node) {
        let mut axes = HashMap::new();
        crate::extract::walk_preorder(def, |n| {
            if n.kind() == "call" {
                let func = n.child_by_field_name("function").map(|f| self.text(f)).unwrap_or("");
                if func.rsplit('.').next() == Some("arange") {
                    if let Some(size) = n.child_by_field_name("arguments").and_then(|a| a.named_child(1)) {
                        axes.insert(n.start_byte(), self.text(size).to_string());
                    }
                }
            }
            true
        });
        self.axes = axes;
    }

    /// Bytes an access through `ptr` moves per element it uses (32-byte sectors), and its
    /// vector width in bytes. Lanes follow the axis the address moves by one element along
    /// (Triton orders a tile's threads that way), so the run along that axis is what one
    /// sector serves; without one, a constant step or a data-dependent one moves what
    /// [`cost::bytes_per_element`] says. An undeclared stride is assumed coalesced.
    fn sectors(&self, ptr: Node) -> (f64, f64) {
        let elem = self.elem;
        let (mut run, mut proven, mut step, mut gather) = (0.0f64, false, f64::INFINITY, false);
        for (axis, coef) in self.strides_of(ptr, 0) {
            let n = self.axes.get(&axis).and_then(|t| self.env.eval(t)).map_or(1.0, |e| e.value);
            if n <= 1.0 {
                continue;
            }
            match coef {
                Coef::Lin { k, proven: p } if (k.abs() - 1.0).abs() < 1e-9 => {
                    if n > run {
                        (run, proven) = (n, p);
                    }
                }
                Coef::Lin { k, .. } if k.abs() < 1e-9 => {}
                // Several lanes share an element: the run covers n · k elements.
                Coef::Lin { k, .. } if k.abs() < 1.0 => run = run.max(n * k.abs()),
                Coef::Lin { k, .. } => step = step.min(k.abs()),
                Coef::Param => {}
                Coef::Data => gather = true,
            }
        }
        if run > 0.0 {
            let vector = if proven { (run * elem).min(16.0) } else { elem };
            (elem / (run * elem / 32.0).min(1.0), vector)
        } else if step.is_finite() || gather {
            (cost::bytes_per_element(step, elem), elem)
        } else {
            (elem, elem)
        }
    }

    /// `node` as a linear function of the arange axes (empty for a per-program scalar).
    fn strides_of(&self, node: Node, depth: usize) -> Strides {
        if depth > 64 {
            return Strides::new();
        }
        let child = |field: &str| node.child_by_field_name(field);
        let all = |s: Strides, coef: Coef| -> Strides { s.into_keys().map(|a| (a, coef)).collect() };
        match node.kind() {
            "identifier" => self.strides.get(self.text(node)).cloned().unwrap_or_default(),
            "parenthesized_expression" => {
                node.named_child(0).map(|n| self.strides_of(n, depth + 1)).unwrap_or_default()
            }
            "subscript" => child("value").map(|n| self.strides_of(n, depth + 1)).unwrap_or_default(),
            "unary_operator" => {
                let inner = child("argument").map(|n| self.strides_of(n, depth + 1)).unwrap_or_default();
                let negate = child("operator").is_some_and(|o| self.text(o) == "-");
                inner.into_iter().map(|(a, c)| (a, if negate { c.scale(Some(-1.0), true) } else { c })).collect()
            }
            "binary_operator" => {
                let (Some(left), Some(right)) = (child("left"), child("right")) else {
                    return Strides::new();
                };
                let op = child("operator").map(|o| self.text(o)).unwrap_or("");
                let (l, r) = (self.strides_of(left, depth + 1), self.strides_of(right, depth + 1));
                let value = |n: Node| self.env.eval(self.text(n)).filter(|e| e.guesses == 0).map(|e| e.value);
                match op {
                    "+" | "-" => {
                        let sign = if op == "-" { -1.0 } else { 1.0 };
                        let mut out = l;
                        for (axis, c) in r {
                            let c = c.scale(Some(sign), true);
                            out.entry(axis).and_modify(|e| *e = e.add(c)).or_insert(c);
                        }
                        out
                    }
                    "*" if r.is_empty() => l.into_iter().map(|(a, c)| (a, c.scale(value(right), true))).collect(),
                    "*" if l.is_empty() => r.into_iter().map(|(a, c)| (a, c.scale(value(left), true))).collect(),
                    "<<" if r.is_empty() => {
                        let f = value(right).map(|v| 2f64.powf(v));
                        l.into_iter().map(|(a, c)| (a, c.scale(f, true))).collect()
                    }
                    // A quotient hardly moves between neighbours and a remainder moves as
                    // its operand (`(i // w) * w + i % w` is `i`), but Triton cannot see
                    // either.
                    "//" | ">>" if r.is_empty() => l.into_iter().map(|(a, c)| (a, c.scale(Some(0.0), false))).collect(),
                    "%" if r.is_empty() => l.into_iter().map(|(a, c)| (a, c.unproven())).collect(),
                    _ => {
                        let mut out = all(l, Coef::Data);
                        out.extend(all(r, Coef::Data));
                        out
                    }
                }
            }
            "call" => {
                let func = child("function").map(|f| self.text(f)).unwrap_or("");
                let short = func.rsplit('.').next().unwrap_or(func);
                let args: Vec<Node> = child("arguments")
                    .map(|a| {
                        let mut c = a.walk();
                        a.named_children(&mut c).filter(|n| n.kind() != "keyword_argument").collect()
                    })
                    .unwrap_or_default();
                let arg = |i: usize| args.get(i).map(|n| self.strides_of(*n, depth + 1)).unwrap_or_default();
                match short {
                    "arange" => Strides::from([(node.start_byte(), Coef::Lin { k: 1.0, proven: true })]),
                    // Contiguity hints, casts and views keep the addresses.
                    "multiple_of" | "max_contiguous" | "to" | "broadcast_to" | "reshape" | "view" | "trans"
                    | "expand_dims" => {
                        let object = child("function").and_then(|f| f.child_by_field_name("object"));
                        match object.filter(|o| !matches!(self.text(*o), "tl" | "triton.language")) {
                            Some(o) => self.strides_of(o, depth + 1),
                            None => arg(0),
                        }
                    }
                    // Clamps and selects keep the step where they pass the index through.
                    "minimum" | "maximum" | "where" => {
                        let mut out = Strides::new();
                        for i in usize::from(short == "where")..args.len() {
                            for (a, c) in arg(i) {
                                out.entry(a).or_insert(c.unproven());
                            }
                        }
                        out
                    }
                    _ => (0..args.len()).flat_map(|i| all(arg(i), Coef::Data)).collect(),
                }
            }
            _ => Strides::new(),
        }
    }

    /// The kernel parameter a pointer expression is based on (`x_ptr + offs` → `x_ptr`).
    fn base_param(&self, node: Node) -> Option<String> {
        let mut found = None;
        crate::extract::walk_preorder(node, |n| {
            if found.is_some() {
                return false;
            }
            if n.kind() == "identifier" {
                let t = self.text(n);
                if self.params.contains(t) {
                    found = Some(t.to_string());
                } else if let Some(def) = self.env.texts.get(t) {
                    // A local pointer: follow its definition textually.
                    let hit = self.params.iter().find(|p| crate::extract::words(def).any(|w| w == p.as_str()));
                    found = hit.cloned();
                }
            }
            true
        });
        found
    }
}
