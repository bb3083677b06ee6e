//! How often each statement of a CUDA kernel runs: declarations and assignments tracked,
//! loops and their trip counts (a tree step walked once per value of its variable); the
//! threads a branch lets through are in `guard.rs`.

use super::access::unparenthesized;
use super::{parameter_declarations, vector_width, Coef, Shared, Walker};
use tree_sitter::Node;

impl Walker<'_> {
    pub(super) fn text(&self, node: Node) -> &str {
        self.src.get(node.start_byte()..node.end_byte()).unwrap_or("")
    }

    pub(super) fn params(&mut self, def: Node) {
        for p in parameter_declarations(def) {
            let Some(decl) = p.child_by_field_name("declarator") else {
                continue;
            };
            // A torch tensor accessor (`torch::PackedTensorAccessor32<float, 2> x`) is a
            // global array indexed `x[row][col]`; its element type is its first argument.
            let ty = p.child_by_field_name("type").map(|t| self.text(t).to_string()).unwrap_or_default();
            let accessor = accessor_element(&ty);
            if decl.kind() == "identifier" && crate::extract::words(&ty).any(|w| w == "double") {
                self.doubles.insert(self.text(decl).to_string());
            }
            if decl.kind() != "pointer_declarator" && accessor.is_none() {
                continue;
            }
            if let Some(name) = crate::extract::declarator_name(decl) {
                // A template's type takes the launch's (`T *out` of `dot<half, 2>`).
                let decl = match accessor {
                    Some(element) => element,
                    None => p.child_by_field_name("type").map_or_else(|| self.text(p), |t| self.text(t)),
                };
                let resolved: String = decl
                    .split_inclusive(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .map(|piece| {
                        let word = piece.trim_end_matches(|c: char| !(c.is_alphanumeric() || c == '_'));
                        let rest = &piece[word.len()..];
                        match self.env.texts.contains_key(word) {
                            false => piece.to_string(),
                            true => format!("{}{rest}", self.env.resolve(word)),
                        }
                    })
                    .collect();
                let width = vector_width(&resolved);
                let name = self.text(name).to_string();
                let words: Vec<&str> = crate::extract::words(accessor.unwrap_or(&ty)).collect();
                let integer = |w: &&str| {
                    matches!(*w, "int" | "unsigned" | "long" | "short" | "size_t" | "char")
                        || (w.starts_with("int") || w.starts_with("uint")) && w.ends_with("_t")
                };
                if words.iter().any(integer) {
                    self.integers.insert(name.clone());
                }
                self.global.insert(name, width);
            }
        }
    }

    pub(super) fn top_level(&mut self, body: Node) {
        let mut cursor = body.walk();
        let children: Vec<Node> = body.named_children(&mut cursor).collect();
        for child in children {
            self.statement(child, 1.0, 1.0, 0);
        }
    }

    pub(super) fn statement(&mut self, node: Node, mult: f64, frac: f64, depth: usize) {
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
                // One loop's values at a time: a tree loop inside another is walked once.
                let values = if self.iterating { None } else { self.loop_values(node) };
                let trip = values.as_ref().map_or(trip, |(_, v)| v.len() as f64);
                let stepping = if values.is_none() { self.loop_step(node) } else { None };
                let at = node.start_byte();
                self.step_loops.push(super::reuse::StepLoop { stepping, trip, at });
                match (node.child_by_field_name("body"), values) {
                    (Some(body), Some((var, values))) => self.iterate(body, &var, &values, mult, frac, depth + 1),
                    (Some(body), None) => {
                        let mean = self.loop_mean(node);
                        let pushed = mean.is_some();
                        self.loop_means.extend(mean);
                        self.statement(body, mult * trip, frac, depth + 1);
                        if pushed {
                            self.loop_means.pop();
                        }
                    }
                    _ => {}
                }
                self.step_loops.pop();
                let per_iter = self.loop_load.pop().unwrap_or(0.0);
                let ilp = self.unroll_factor(node).map_or(1.0, |f| trip.min(f).clamp(1.0, 4.0));
                self.acc.iter_load = self.acc.iter_load.max(per_iter * ilp);
                if top && self.acc.load > loads_before {
                    self.acc.passes += 1.0;
                }
            }
            "if_statement" => {
                let cond = node.child_by_field_name("condition");
                if let Some(taken) = cond.and_then(|c| self.decided(c)) {
                    let branch = if taken {
                        node.child_by_field_name("consequence")
                    } else {
                        node.child_by_field_name("alternative")
                    };
                    if let Some(b) = branch {
                        self.statement(b, mult, frac, depth + 1);
                    }
                    return;
                }
                if let Some(c) = cond {
                    self.expr(c, mult, frac, depth + 1);
                }
                let guard = cond.map(|c| self.guard_fraction(c)).unwrap_or_default();
                let inner = frac * guard.lanes;
                let (outer, outer_issue, outer_gap) = (self.one_thread, self.issue, self.lane_gap);
                self.one_thread |= cond.is_some_and(|c| self.one_thread_guard(c));
                self.issue *= (guard.warps / guard.lanes).max(1.0);
                self.lane_gap *= guard.gap;
                let before = self.atomic_counts();
                if let Some(c) = node.child_by_field_name("consequence") {
                    self.statement(c, mult, inner, depth + 1);
                }
                (self.one_thread, self.issue, self.lane_gap) = (outer, outer_issue, outer_gap);
                if let Some(a) = node.child_by_field_name("alternative") {
                    let taken = self.atomic_counts();
                    let tail = guard.tail(self.threads_x);
                    match tail {
                        // The `else` of a bounds check most threads pass: the grid's last
                        // threads, with their own indices (a tail loop runs a few times).
                        Some(rest) => {
                            let outer_tail = std::mem::replace(&mut self.tail, true);
                            self.statement(a, mult, frac * rest, depth + 1);
                            self.tail = outer_tail;
                        }
                        None => self.statement(a, mult, frac, depth + 1),
                    }
                    // A thread runs one branch: the other's atomics are the threads the guard
                    // leaves out (half of them where it cannot tell; a tail is scaled already).
                    let (left_out, taken_share) = match tail {
                        Some(_) => (1.0, 1.0),
                        None if guard.lanes < 1.0 => (1.0 - guard.lanes, 1.0),
                        None => (0.5, 0.5),
                    };
                    let after = self.atomic_counts();
                    let split = |b: f64, t: f64, a: f64| b + (t - b) * taken_share + (a - t) * left_out;
                    self.acc.atomics = split(before[0], taken[0], after[0]);
                    self.acc.contended = split(before[1], taken[1], after[1]);
                    self.acc.shared_atomics = split(before[2], taken[2], after[2]);
                }
            }
            "preproc_if" | "preproc_elif" | "preproc_else" => self.preprocessed(node, mult, frac, depth),
            "preproc_call" => {
                if self.pragma_unroll(node).is_some_and(|f| f > 1.0) {
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
                    if mult == 1.0 && !self.iterating {
                        self.rescale(assign);
                    }
                }
                self.expr(node, mult, frac, depth + 1);
            }
            "comment" => {}
            _ => self.expr(node, mult, frac, depth + 1),
        }
    }

    /// The atomics counted so far: on distinct addresses, contended, on shared memory.
    fn atomic_counts(&self) -> [f64; 3] {
        [self.acc.atomics, self.acc.contended, self.acc.shared_atomics]
    }

    /// `#if … #elif … #else … #endif` in a body: the branch an H100 build takes where its
    /// condition reads only the toolkit's and the architecture's macros (`__CUDA_ARCH__ <
    /// 700`), else every branch.
    fn preprocessed(&mut self, node: Node, mult: f64, frac: f64, depth: usize) {
        let cond = node.child_by_field_name("condition");
        let alternative = node.child_by_field_name("alternative");
        let taken = match node.kind() {
            "preproc_else" => Some(true),
            _ => cond.and_then(|c| self.env.preprocessor_condition(self.text(c))),
        };
        let Some(taken) = taken else {
            self.expr(node, mult, frac, depth + 1);
            return;
        };
        if !taken {
            if let Some(a) = alternative {
                self.statement(a, mult, frac, depth + 1);
            }
            return;
        }
        let mut cursor = node.walk();
        let body: Vec<Node> =
            node.named_children(&mut cursor).filter(|c| Some(*c) != cond && Some(*c) != alternative).collect();
        for child in body {
            self.statement(child, mult, frac, depth + 1);
        }
    }

    /// How far the `#pragma unroll` before a loop unrolls it (infinite for a bare one:
    /// fully); `None` without one.
    fn unroll_factor(&self, node: Node) -> Option<f64> {
        node.prev_named_sibling().filter(|p| p.kind() == "preproc_call").and_then(|p| self.pragma_unroll(p))
    }

    /// A `#pragma unroll [N]` directive's factor (`N` read through the file's constants;
    /// infinite where it gives none or its value is not known); `None` for other directives.
    /// `#pragma unroll 1` keeps a loop rolled.
    fn pragma_unroll(&self, node: Node) -> Option<f64> {
        let factor =
            crate::extract::pragma_unroll(self.text(node))?.trim().trim_start_matches('(').trim_end_matches(')').trim();
        if factor.is_empty() {
            return Some(f64::INFINITY);
        }
        let e = self.env.eval_quiet(factor).filter(|e| e.guesses == 0);
        Some(e.map_or(f64::INFINITY, |e| e.value.max(1.0)))
    }

    pub(super) fn declaration(&mut self, node: Node, mult: f64, frac: f64) {
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
                let mut row = 32.0;
                let mut cur = Some(d);
                while let Some(c) = cur.filter(|c| c.kind() == "array_declarator") {
                    dims += 1;
                    if let Some(size) = c.child_by_field_name("size") {
                        let s = self.text(size);
                        let v = self.env.eval(s).map(|e| e.value).unwrap_or(32.0);
                        if dims == 1 {
                            row = v.max(1.0);
                        }
                        // `[TILE + PAD]` pads only where it moves the row off the 32 banks
                        // (`#define PAD 0` does not).
                        padded |= (s.contains('+') || (v as i64 % 2 == 1 && v > 1.0)) && v as i64 % 32 != 0;
                        elems *= v.max(1.0);
                    }
                    cur = c.child_by_field_name("declarator");
                }
                if let Some(name) = crate::extract::declarator_name(d) {
                    let bytes_per = 4.0 * vector_width(&type_text);
                    if dims > 0 {
                        self.acc.smem_bytes += elems * bytes_per;
                    }
                    let width = vector_width(&type_text);
                    self.shared.insert(self.text(name).to_string(), Shared { dims, padded, width, row });
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
            if crate::extract::words(&type_text).any(|w| w == "double") {
                self.doubles.insert(name.clone());
            }
            if let Some(value) = value {
                let coef = self.coef(value, 0);
                self.vars.insert(name.clone(), coef);
                let value_text = self.text(value).to_string();
                self.env.define(&name, &value_text);
                // Pointers derived from a global pointer are global too.
                // (A `*` in the initializer, `uint4 v = *reinterpret_cast<…>(x + i)`, is a load;
                // `auto p = x + i * n` is a pointer by its value.)
                let declared = decl_text.split('=').next().unwrap_or("");
                let pointer = name.as_str() != type_text.as_str()
                    && (d.child_by_field_name("declarator").is_some_and(|x| x.kind() == "pointer_declarator")
                        || declared.contains('*')
                        || (type_text.trim() == "auto" && (self.is_address(value) || cast_to_pointer(&value_text))));
                if pointer && !self.derive_global(&name, &decl_text, value) && self.shared_in(&value_text) {
                    let width = vector_width(&decl_text);
                    self.shared.insert(name.clone(), Shared { dims: 1, padded: false, width, row: 32.0 });
                }
                self.expr(value, mult, frac, 1);
            } else {
                self.vars.insert(name, Coef::Uniform);
            }
        }
    }

    /// Whether a pointer's initial value points into shared memory: a shared array
    /// (`smem + offset`, `(float*)smem`) or a helper that returns it
    /// (`SharedMemory<T>()`, `get_shared_buffer()`).
    fn shared_in(&self, value: &str) -> bool {
        crate::extract::words(value).any(|w| self.shared.contains_key(w))
            || value.contains('(') && value.to_ascii_lowercase().contains("shared")
    }

    pub(super) fn track_assignment(&mut self, assign: Node) {
        let (Some(left), Some(right)) = (assign.child_by_field_name("left"), assign.child_by_field_name("right"))
        else {
            return;
        };
        if left.kind() == "identifier" {
            let coef = self.coef(right, 0);
            let name = self.text(left).to_string();
            let op = assign.child_by_field_name("operator").map(|o| self.text(o).to_string()).unwrap_or_default();
            // A pointer declared empty and pointed into a global buffer later
            // (`int4 *p = nullptr; … p = (int4 *)(A + row * K) + lane;`) is global from here on.
            if op == "=" && !self.global.contains_key(name.as_str()) && self.points_into_global(right) {
                let typed = self.text(right).to_string();
                self.derive_global(&name, &typed, right);
            }
            let prev = self.vars.get(&name).copied().unwrap_or(Coef::Uniform);
            let next = if op == "=" { coef } else { prev.add(coef) };
            self.vars.insert(name, next);
        }
    }

    /// A condition on template parameters alone (`nIsPow2`, `BLOCK >= 64`) that the launched
    /// instance decides: whether it holds.
    fn decided(&self, cond: Node) -> Option<bool> {
        let text = self.text(cond);
        let words: Vec<&str> = crate::extract::words(text)
            .filter(|w| w.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_'))
            .collect();
        if words.is_empty() || !words.iter().all(|w| self.constants.contains(*w) || matches!(*w, "true" | "false")) {
            return None;
        }
        let e = self.env.eval_quiet(text).filter(|e| e.guesses == 0)?;
        Some(e.value != 0.0)
    }

    /// `stride = stride << 1;` outside loops: the name's value from here on is the old one
    /// so changed (a grid-stride loop's doubled stride).
    fn rescale(&mut self, assign: Node) {
        let (Some(left), Some(right)) = (assign.child_by_field_name("left"), assign.child_by_field_name("right"))
        else {
            return;
        };
        let op = assign.child_by_field_name("operator").map(|o| self.text(o).to_string()).unwrap_or_default();
        let name = self.text(left).trim().to_string();
        let right = self.text(right).to_string();
        if op != "=" || left.kind() != "identifier" || !self.env.defines(&name) {
            return;
        }
        if crate::extract::words(&right).any(|w| w == name) {
            let old = self.env.resolve(&name);
            if old != name {
                let new = crate::extract::substitute(&right, &name, &format!("({old})"));
                self.env.define(&name, &new);
            }
        }
    }

    /// `name`, a pointer set to `value`, is global where `value` names a global buffer: its
    /// elements that buffer's, or the vector type `typed` (its declaration or cast) names.
    fn derive_global(&mut self, name: &str, typed: &str, value: Node) -> bool {
        let Some(width) = self.global_in(value) else { return false };
        let vector = vector_width(typed);
        self.global.insert(name.to_string(), if vector > 1.0 { vector } else { width });
        true
    }

    /// Vector width of the global pointer mentioned in `node`, if any.
    pub(super) fn global_in(&self, node: Node) -> Option<f64> {
        self.global_base(node).map(|(_, width)| width)
    }

    /// The first global buffer named in `node`, and its element's width (words).
    pub(super) fn global_base(&self, node: Node) -> Option<(String, f64)> {
        let mut found = None;
        crate::extract::walk_preorder(node, |n| {
            if found.is_none() && n.kind() == "identifier" {
                found = self.global.get(self.text(n)).map(|w| (self.text(n).to_string(), *w));
            }
            found.is_none()
        });
        found
    }

    /// Whether `value` is an address into a global buffer, also offset after a cast
    /// (`(int4 *)(A + row * K) + lane`).
    fn points_into_global(&self, value: Node) -> bool {
        self.is_address(value)
            || unparenthesized(value).is_some_and(|v| {
                v.kind() == "binary_expression"
                    && v.child_by_field_name("operator").is_some_and(|o| matches!(o.kind(), "+" | "-"))
                    && v.child_by_field_name("left").is_some_and(|l| self.points_into_global(l))
            })
    }

    /// Whether an initializer is an address into a global buffer rather than a value read
    /// through one: `x + i * n` with `x` a global pointer, another such pointer, `&x[i]`
    /// or a pointer cast; not `x[i]`, `*p`, `x[i] + 1.0f` or a call.
    fn is_address(&self, value: Node) -> bool {
        let Some(v) = unparenthesized(value) else { return false };
        let global = |n: Option<Node>| {
            n.and_then(unparenthesized)
                .is_some_and(|n| n.kind() == "identifier" && self.global.contains_key(self.text(n)))
        };
        match v.kind() {
            "binary_expression" => {
                v.child_by_field_name("operator").is_some_and(|o| matches!(o.kind(), "+" | "-"))
                    && (global(v.child_by_field_name("left")) || global(v.child_by_field_name("right")))
            }
            "identifier" => global(Some(v)),
            "cast_expression" => v.child_by_field_name("type").is_some_and(|t| self.text(t).contains('*')),
            "pointer_expression" => v.child_by_field_name("operator").is_some_and(|o| o.kind() == "&"),
            _ => false,
        }
    }
}

/// `reinterpret_cast<const float4*>(&x[i])`, `static_cast<T*>(p)`: a cast to a pointer type
/// (what an `auto` declared from it is).
fn cast_to_pointer(value: &str) -> bool {
    let v = value.trim();
    ["reinterpret_cast<", "static_cast<", "const_cast<"]
        .iter()
        .find_map(|c| v.strip_prefix(c))
        .and_then(|rest| rest.split_once('>'))
        .is_some_and(|(ty, _)| ty.trim_end().ends_with('*'))
}

/// The element type of a torch tensor accessor type (`PackedTensorAccessor32<scalar_t, 2,
/// torch::RestrictPtrTraits>`, `at::TensorAccessor<float, 1>`): `None` for any other type.
fn accessor_element(ty: &str) -> Option<&str> {
    let at = ty.find("TensorAccessor")?;
    let open = at + ty.get(at..)?.find('<')?;
    let args = ty.get(open + 1..)?;
    let end = args.find([',', '>'])?;
    Some(args.get(..end)?.trim()).filter(|e| !e.is_empty())
}
