//! The walk over a Triton kernel's body: statements and loop trip counts, each value's
//! shape over the `tl.arange` axes, pointers as linear functions of those axes (sector use,
//! vector width) and the loads, stores and `tl.dot`s they feed.

use super::{cost, Coef, Shape, Strides, Walker};
use std::collections::HashMap;
use tree_sitter::Node;

impl Walker<'_> {
    pub(super) fn text(&self, node: Node) -> &str {
        self.src.get(node.start_byte()..node.end_byte()).unwrap_or("")
    }

    pub(super) fn size(&self, shape: &Shape) -> f64 {
        shape
            .iter()
            .map(|s| self.env.eval(untagged(s)).map(|e| e.value).unwrap_or(self.env.unknown / 32.0).max(1.0))
            .product()
    }

    /// Dimensions an expression's value spans: `tl.arange(0, B)` sizes, `tl.zeros((M, N))`,
    /// and the shapes of the variables it reads.
    pub(super) fn shape_of(&self, node: Node) -> Shape {
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
                            let dims: Vec<Node> = t.named_children(&mut c).collect();
                            // `tl.zeros([M, N])`: each size on its own axis, as `rows[:, None]`
                            // and `cols[None, :]` place theirs, so the tile and the ranges that
                            // index it (`tl.where(offs_m[:, None] >= offs_n[None, :], qk, …)`)
                            // are one M×N tile, not M×N×M×N.
                            for (slot, dim) in dims.iter().enumerate() {
                                let text = self.text(*dim).to_string();
                                shape.insert(if dims.len() > 1 { format!("{text}@{slot}") } else { text });
                            }
                        }
                        false
                    }
                    // (M, K) · (K, N) is M×N: the rows of the first, the columns of the second.
                    "dot" => {
                        let operand = |i: u32| args.and_then(|a| a.named_child(i)).map(|n| self.shape_of(n));
                        if let (Some(a), Some(b)) = (operand(0), operand(1)) {
                            let rows = a.iter().filter(|d| d.ends_with("@0"));
                            let cols = b.iter().filter(|d| d.ends_with("@1"));
                            let tagged: Shape = rows.chain(cols).cloned().collect();
                            if tagged.len() == 2 {
                                shape.extend(tagged);
                            } else {
                                shape.extend(a.into_iter().chain(b));
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
            // `rows[:, None]`, `cols[None, :]`: the value's axes placed on one axis of a
            // broadcast tile, so two ranges of one size across a tile are two axes.
            "subscript" => match (n.child_by_field_name("value"), broadcast_slot(n)) {
                (Some(value), Some(slot)) => {
                    shape.extend(self.shape_of(value).iter().map(|d| format!("{}@{slot}", untagged(d))));
                    false
                }
                _ => true,
            },
            "keyword_argument" => false,
            _ => true,
        });
        shape
    }

    pub(super) fn block(&mut self, block: Node, mult: f64, depth: usize) {
        let mut cursor = block.walk();
        let children: Vec<Node> = block.named_children(&mut cursor).collect();
        for child in children {
            self.statement(child, mult, depth);
        }
    }

    pub(super) fn statement(&mut self, node: Node, mult: f64, depth: usize) {
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
                        let targets: Vec<String> = if left.kind() == "identifier" {
                            vec![self.text(left).to_string()]
                        } else {
                            let mut c = left.walk();
                            left.named_children(&mut c).map(|t| self.text(t).to_string()).collect()
                        };
                        if let Some(returned) = (right.kind() == "call").then(|| self.returned_by(right)).flatten() {
                            self.assign_returned(&targets, returned);
                            return;
                        }
                        let shape = self.shape_of(right);
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
                let issue = self.issue;
                self.issue *= trip.ceil();
                let window = self.window(node, trip);
                let windowed = window.is_some();
                self.windows.extend(window);
                if let Some(body) = node.child_by_field_name("body") {
                    self.block(body, mult * trip, depth + 1);
                }
                if windowed {
                    self.windows.pop();
                }
                self.issue = issue;
                // A loop of less than one trip (`range(0, N, BLOCK)` with a block wider
                // than N) runs once with its tile masked to N: that much is in flight.
                let per_iter = self.loop_load.pop().unwrap_or(0.0) * trip.min(1.0);
                self.acc.iter_load = self.acc.iter_load.max(per_iter);
                self.acc.loop_loads += self.acc.load - before;
                if top && self.acc.load > before {
                    self.acc.passes += 1.0;
                }
            }
            "while_statement" => {
                self.acc.loops += 1.0;
                self.acc.guesses += 1;
                let issue = self.issue;
                self.issue *= 8.0;
                if let Some(body) = node.child_by_field_name("body") {
                    self.block(body, mult * 8.0, depth + 1);
                }
                self.issue = issue;
            }
            "if_statement" | "else_clause" | "elif_clause" | "with_statement" | "block" => {
                // `if HAS_WEIGHT:`, `if label_smoothing > 0:` on what the launch gives: only
                // the branch the values take runs (a flag off skips its work).
                if let Some(taken) = (node.kind() == "if_statement").then(|| self.decided(node)).flatten() {
                    if let Some(block) = taken {
                        self.statement(block, mult, depth + 1);
                    }
                    return;
                }
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

    /// The block an `if` (with its `elif`s and `else`) runs, where each condition up to the
    /// one that holds evaluates without a guess (`Some(None)`: none holds and there is no
    /// `else`); `None` where one rests on a guess (a value loaded, a size known at run time).
    fn decided<'t>(&self, node: Node<'t>) -> Option<Option<Node<'t>>> {
        let holds = |clause: Node| {
            let c = clause.child_by_field_name("condition")?;
            let e = self.env.eval_quiet(self.text(c)).filter(|e| e.guesses == 0)?;
            Some(e.value != 0.0)
        };
        if holds(node)? {
            return Some(node.child_by_field_name("consequence"));
        }
        let mut cursor = node.walk();
        let alternatives: Vec<Node<'t>> = node.children_by_field_name("alternative", &mut cursor).collect();
        for alt in alternatives {
            match alt.kind() {
                "elif_clause" if holds(alt)? => return Some(alt.child_by_field_name("consequence")),
                "elif_clause" => {}
                _ => return Some(alt.child_by_field_name("body")),
            }
        }
        Some(None)
    }

    /// Trip count of `range(a, b, step)`, `tl.range(…)`, `tl.static_range(…)`.
    pub(super) fn trip(&mut self, iter: Node) -> f64 {
        let func = iter.child_by_field_name("function").map(|f| self.text(f).to_string()).unwrap_or_default();
        if func.ends_with("static_range") {
            self.acc.static_loops += 1.0;
        }
        let mut cursor = iter.walk();
        let mut args: Vec<String> = Vec::new();
        // `tl.range(pid, n, step=nprog)`: the keyword step is the third argument.
        let mut step = None;
        if let Some(list) = iter.child_by_field_name("arguments") {
            for c in list.named_children(&mut cursor) {
                if c.kind() != "keyword_argument" {
                    args.push(self.text(c).to_string());
                } else if c.child_by_field_name("name").is_some_and(|n| self.text(n) == "step") {
                    step = c.child_by_field_name("value").map(|v| self.text(v).to_string());
                }
            }
        }
        if let (Some(step), 2) = (step, args.len()) {
            args.push(step);
        }
        let eval = |w: &Self, t: &str| w.env.eval(t).map(|e| e.value);
        let (a, b, s) = match args.as_slice() {
            [b] => (Some(0.0), eval(self, b), Some(1.0)),
            [a, b] => (eval(self, a), eval(self, b), Some(1.0)),
            [a, b, s, ..] => (eval(self, a), eval(self, b), eval(self, s)),
            [] => (None, None, None),
        };
        match (a, b, s) {
            (Some(a), Some(b), Some(s)) if s.abs() >= 1.0 => {
                // A start that moves with the program id (a grid-stride loop `range(pid, n,
                // num_programs)`): the programs share the whole range, so the average program
                // runs (b − first start) / step trips, not those of the middle program alone.
                // (A range whose both ends move with it, a split's chunk, keeps its length.)
                let (a, b) = match args.first().and_then(|t| self.at_first_program(t)) {
                    Some(first) => (first, args.get(1).and_then(|t| self.at_first_program(t)).unwrap_or(b)),
                    None => (a, b),
                };
                ((b - a) / s).abs().clamp(0.0, 1e12)
            }
            _ => {
                self.acc.guesses += 1;
                8.0
            }
        }
    }

    /// `text` evaluated for program 0 of each axis (None when it does not depend on them).
    fn at_first_program(&mut self, text: &str) -> Option<f64> {
        let keys: Vec<String> = (0..3).map(|axis| format!("tl.program_id({axis})")).collect();
        let saved: Vec<Option<f64>> = keys.iter().map(|k| self.env.values.get(k).copied()).collect();
        if saved.iter().all(Option::is_none) {
            return None;
        }
        let at_mean = self.env.eval(text).map(|e| e.value);
        for k in &keys {
            self.env.values.insert(k.clone(), 0.0);
        }
        let at_first = self.env.eval(text).map(|e| e.value);
        for (k, v) in keys.iter().zip(saved) {
            match v {
                Some(v) => drop(self.env.values.insert(k.clone(), v)),
                None => drop(self.env.values.remove(k)),
            }
        }
        at_first.filter(|f| Some(*f) != at_mean)
    }

    pub(super) fn expr(&mut self, node: Node, mult: f64, depth: usize) {
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

    pub(super) fn call(&mut self, node: Node, mult: f64, depth: usize) {
        let func = node.child_by_field_name("function").map(|f| self.text(f).to_string()).unwrap_or_default();
        if let Some(def) = self.jit.get(&func).copied() {
            self.inline(node, def, mult, depth);
            return;
        }
        let short = func.rsplit('.').next().unwrap_or(&func).to_string();
        let args = node.child_by_field_name("arguments");
        let arg = |i: u32| args.and_then(|a| a.named_child(i));
        match short.as_str() {
            "load" | "store" => {
                let Some(ptr) = arg(0) else { return };
                let shape = self.shape_of(ptr);
                let elems = self.size(&shape);
                self.acc.tile = self.acc.tile.max(elems);
                self.acc.lanes += elems * self.issue;
                let (per_element, vector) = self.sectors(ptr);
                // A mask that splits each period (`x0 >= I`) moves its share of the tile.
                let at = if short == "store" { 2 } else { 1 };
                let share = self.mask_of(node, at).map_or(1.0, |m| super::masks::lane_share(&self.env, self.text(m)));
                // An index bounded by a constant (`offs % 4`) reads that many elements again
                // and again: from cache, not a stream.
                let span = super::masks::index_span(&self.env, self.text(ptr), self.params);
                let share = share * span.map_or(1.0, |s| (s / elems).min(1.0));
                let useful = elems * self.elem * share;
                let bytes = elems * per_element * share;
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
                let fresh = self.fresh_share(ptr);
                self.acc.load += bytes * mult * discount * fresh;
                if let Some(top) = self.loop_load.last_mut() {
                    *top += bytes;
                }
            }
            "dot" => {
                let (Some(a), Some(b)) = (arg(0), arg(1)) else {
                    return;
                };
                // (M, K) · (K, N): the axes by size, so the shared K counts once.
                let shape: Shape =
                    self.shape_of(a).iter().chain(&self.shape_of(b)).map(|d| untagged(d).to_string()).collect();
                let flops = 2.0 * self.size(&shape);
                self.acc.dot_tile_flops = self.acc.dot_tile_flops.max(flops);
                self.acc.tensor_flops += flops * mult;
            }
            s if s.starts_with("atomic_") => {
                let elems = arg(0).map(|p| self.size(&self.shape_of(p))).unwrap_or(1.0);
                // `tl.atomic_add(out_ptr, total)`: every program adds to the one address a
                // pointer parameter names; such atomics serialise.
                let one_address =
                    arg(0).is_some_and(|p| p.kind() == "identifier" && self.params.contains(self.text(p)));
                if one_address {
                    self.acc.contended += elems * mult;
                } else {
                    self.acc.atomics += elems * mult;
                }
            }
            "exp" | "exp2" | "log" | "log2" | "sqrt" | "rsqrt" | "sigmoid" | "sum" | "max" | "min" | "maximum"
            | "minimum" | "where" | "fma" | "softmax" | "cumsum" => {
                let elems = arg(0).map(|p| self.size(&self.shape_of(p))).unwrap_or(1.0);
                self.acc.scalar_ops += elems * mult;
            }
            _ => {}
        }
    }

    /// The mask of a `tl.load`/`tl.store` call: its `mask=` argument, or the positional one
    /// at `at` (1 for a load, 2 for a store).
    fn mask_of<'t>(&self, call: Node<'t>, at: usize) -> Option<Node<'t>> {
        let args = call.child_by_field_name("arguments")?;
        let mut c = args.walk();
        let all: Vec<Node<'t>> = args.named_children(&mut c).collect();
        let keyword = all.iter().copied().find(|a| {
            a.kind() == "keyword_argument" && a.child_by_field_name("name").is_some_and(|n| self.text(n) == "mask")
        });
        match keyword {
            Some(k) => k.child_by_field_name("value"),
            None => all.into_iter().filter(|a| a.kind() != "keyword_argument").nth(at),
        }
    }

    /// Every `tl.arange` axis and its size, by where it is written.
    pub(super) fn find_axes(&mut self, def: Node) {
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
        self.axes.extend(axes);
    }

    /// Bytes an access through `ptr` moves per element it uses (32-byte sectors), and its
    /// vector width in bytes. Lanes follow the axis the address moves by one element along
    /// (Triton orders a tile's threads that way), so the run along that axis is what one
    /// sector serves; without one, a constant step or a data-dependent one moves what
    /// [`cost::bytes_per_element`] says. An undeclared stride is assumed coalesced.
    pub(super) fn sectors(&self, ptr: Node) -> (f64, f64) {
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
    pub(super) fn strides_of(&self, node: Node, depth: usize) -> Strides {
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
    pub(super) fn base_param(&self, node: Node) -> Option<String> {
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

/// A tile axis's size without the slot a broadcast subscript placed it on (`BLOCK@1`).
fn untagged(dim: &str) -> &str {
    dim.split_once('@').map_or(dim, |(size, _)| size)
}

/// The axis a subscript that adds `None` axes keeps its value on (`x[:, None]` → 0,
/// `x[None, :]` → 1); `None` for a plain subscript.
fn broadcast_slot(subscript: Node) -> Option<usize> {
    let mut cursor = subscript.walk();
    let slots: Vec<Node> = subscript.children_by_field_name("subscript", &mut cursor).collect();
    if !slots.iter().any(|s| s.kind() == "none") {
        return None;
    }
    slots.iter().position(|s| s.kind() == "slice")
}
