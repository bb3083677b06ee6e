//! Each expression of a CUDA kernel walked for its memory accesses: a subscript's stride
//! across the lanes (coalescing, vector width), shared-memory bank conflicts, atomics and
//! the calls it makes.

use super::{cost, vector_width, Coef, Walker};
use std::collections::HashMap;
use tree_sitter::Node;

impl Walker<'_> {
    pub(super) fn coef(&self, node: Node, depth: usize) -> Coef {
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
                // A size known only at run time scales an index by its assumed value: `idx % OH`
                // keeps the lanes apart, `(idx / OH) % OW` does not, `oy * OW` strides them.
                let value = |n: Node| self.env.eval_quiet(self.text(n)).map(|e| e.value);
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
            // A cooperative group's `block.thread_rank()`: the lane's index.
            "call_expression"
                if node.child_by_field_name("function").is_some_and(|f| self.text(f).ends_with(".thread_rank")) =>
            {
                Coef::Lin(1.0)
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

    pub(super) fn expr(&mut self, node: Node, mult: f64, frac: f64, depth: usize) {
        if depth > 64 {
            return;
        }
        let weight = mult * frac;
        (self.mult_now, self.frac_now) = (mult, frac);
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
                    // A vector access's element (`&(a[i])` in the cast) was the access: only
                    // its index is read.
                    match self.element_cast(base) {
                        Some((_, index, _)) => self.expr(index, mult, frac, depth + 1),
                        None => self.expr(base, mult, frac, depth + 1),
                    }
                }
                return;
            }
            "call_expression" => self.call(node, weight),
            // `*(x + i)`, `*p`: a load (a store on the left of `=`) through a global pointer.
            "pointer_expression" if node.child_by_field_name("operator").is_some_and(|o| o.kind() == "*") => {
                if let Some(arg) = node.child_by_field_name("argument") {
                    let (store, load) = access_kind(node, self.src);
                    self.pointer_load(arg, weight, store, load);
                }
            }
            "gnu_asm_expression" => self.inline_ptx(node, weight),
            "binary_expression" => {
                if let Some(op) = node.child_by_field_name("operator") {
                    if matches!(op.kind(), "+" | "-" | "*" | "/") {
                        self.acc.scalar_ops += self.issued(weight);
                    } else if op.kind() == "%" {
                        let by = node.child_by_field_name("right");
                        let ops = if by.is_some_and(|r| self.compile_time(r)) { 1.0 } else { INTEGER_DIVISION };
                        self.acc.scalar_ops += ops * self.issued(weight);
                    }
                }
            }
            "assignment_expression" => {
                if let Some(op) = node.child_by_field_name("operator") {
                    if op.kind() != "=" {
                        self.acc.scalar_ops += self.issued(weight);
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

    pub(super) fn call(&mut self, node: Node, weight: f64) {
        let Some(function) = node.child_by_field_name("function") else {
            return;
        };
        let name = self.text(function).to_string();
        let short = name.rsplit("::").next().unwrap_or(&name);
        if LOAD_INTRINSICS.contains(&short) {
            // `__ldg(&a[i])` is read at its subscript; `__ldg(row + j)` here.
            if let Some(arg) = node.child_by_field_name("arguments").and_then(|a| a.named_child(0)) {
                if arg.kind() != "pointer_expression" {
                    self.pointer_load(arg, weight, false, true);
                }
            }
        } else if short.starts_with("atomic") {
            self.atomic(node, short, weight);
        } else if short.starts_with("__syncthreads")
            || short == "__syncwarp"
            || short.ends_with("sync") && name.contains('.')
            // `cg::sync(block)`: a cooperative group's barrier.
            || short == "sync" && name.contains("::")
        {
            if short == "__syncwarp" {
                self.acc.shuffles += weight;
            } else {
                self.acc.syncs += weight;
            }
        } else if short.starts_with("__shfl") || short.starts_with("__reduce_") {
            self.acc.shuffles += weight;
        } else if short == "load_matrix_sync" || short == "store_matrix_sync" {
            self.fragment_access(node, short == "store_matrix_sync", weight);
        } else if short == "mma_sync" || short.starts_with("__hmma") || short.starts_with("wgmma") {
            self.acc.tensor_flops += super::ptx::flops_per_lane(short) * weight;
        } else if short.starts_with("__")
            && (short.contains("exp") || short.contains("log") || short.contains("sin") || short.contains("fdiv"))
        {
            self.acc.scalar_ops += 2.0 * self.issued(weight);
        } else if matches!(short, "exp" | "log" | "sqrt" | "tanh" | "pow" | "sin" | "cos" | "erf" | "exp2")
            && self.in_double(node)
        {
            // `tanh(sqrt(2.0 / M_PI) * x)`: the double-precision routine, a long FP64
            // sequence at half the FP32 rate; one of constants alone is folded.
            if !self.folded(node) {
                self.acc.scalar_ops += DOUBLE_MATH * self.issued(weight);
            }
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
            if !self.folded(node) {
                self.acc.scalar_ops += 8.0 * self.issued(weight);
            }
        } else {
            self.inline_call(node, &name, weight);
        }
    }

    /// Whether a call's arguments are all constants (`sqrtf(2.0f / M_PI)`): the compiler
    /// folds it.
    fn folded(&self, call: Node) -> bool {
        call.child_by_field_name("arguments").is_some_and(|a| {
            let mut cursor = a.walk();
            let args: Vec<Node> = a.named_children(&mut cursor).collect();
            !args.is_empty() && args.iter().all(|x| self.compile_time(*x))
        })
    }

    /// Whether a math call's arguments are double precision: a literal without an `f`
    /// suffix (`2.0`, `1e-5`), a `<math.h>` constant (`M_PI`), a `(double)` cast or a
    /// scalar declared `double`. (`tanh(x)` of a float calls the float overload.)
    fn in_double(&self, call: Node) -> bool {
        let Some(args) = call.child_by_field_name("arguments") else {
            return false;
        };
        let named = crate::extract::words(self.text(args))
            .any(|w| math_constant(w) || w == "double" || self.doubles.contains(w));
        let mut literal = false;
        crate::extract::walk_preorder(args, |n| {
            literal |= n.kind() == "number_literal" && double_literal(self.text(n));
            !literal
        });
        named || literal
    }

    /// The work of `weight` lane-executions as the warps issue it (see `Walker::issue`): at
    /// most once per thread for each time it runs.
    pub(super) fn issued(&self, weight: f64) -> f64 {
        (weight * self.issue).min(self.mult_now.max(weight))
    }

    /// Whether an operand is known when the kernel is compiled: a literal, a template
    /// parameter or a `#define`/constant of the file (`% 32` is a mask, `% n` a division).
    fn compile_time(&self, node: Node) -> bool {
        let text = self.text(node);
        crate::extract::words(text).filter(|w| !w.is_empty()).all(|w| {
            w.chars().next().is_some_and(|c| c.is_ascii_digit())
                || self.constants.contains(w)
                || self.helpers.iter().any(|h| {
                    h.name == w
                        && matches!(h.kind, crate::kernel::HelperKind::Define | crate::kernel::HelperKind::Constant)
                })
                || matches!(w, "sizeof" | "int" | "unsigned" | "float" | "double" | "warpSize")
                || math_constant(w)
        })
    }

    /// Whether an access of `elems` elements at `index`, whose lanes are `stride` elements
    /// apart, is one of an unrolled group that covers the gap between the lanes: four
    /// `HALF2(a[i + k])` at k = 0, 2, 4, 6 with `i` stepping by 8 read every element once,
    /// like one 16-byte access of the eight.
    pub(super) fn covers_gap(&self, array: &str, index: Node, stride: f64, elems: f64) -> bool {
        let Some(indices) = self.subscripts.get(array) else { return false };
        if stride <= elems || stride > 64.0 || elems <= 0.0 {
            return false;
        }
        let (base, _) = offset_of(&squeezed(self.text(index)));
        let mut offsets: Vec<f64> =
            indices.iter().map(|i| offset_of(i)).filter(|(b, _)| *b == base).map(|(_, c)| c).collect();
        offsets.sort_by(f64::total_cmp);
        let Some(&first) = offsets.first() else { return false };
        // The union of [c, c + elems) over the offsets, from the first: does it reach a stride?
        let mut reach = first;
        for c in offsets {
            if c > reach {
                break;
            }
            reach = reach.max(c + elems);
        }
        reach - first >= stride
    }

    /// One subscript access: global (coalescing, vector width) or shared (bank conflicts).
    pub(super) fn access(&mut self, node: Node, weight: f64) {
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
            // A warp issues the access for all its lanes, however few of them work.
            let issued = self.issued(weight);
            let accesses = (store as u8 + load as u8) as f64;
            self.acc.shared_accesses += issued * accesses;
            // Lanes walking the first index of an unpadded 2-D tile hit one bank.
            if shared.dims >= 2 && !shared.padded && indices.len() >= 2 {
                let first = self.coef(indices[0], 0);
                let last = self.coef(indices[indices.len() - 1], 0);
                if first != Coef::Uniform && last == Coef::Uniform {
                    // The lanes along x, a row apart: `tile[32][32]` read down a column is
                    // 32-way, counted as (d − 1) / 15 of the cost's 16-way unit.
                    let lanes = (32.0 / self.issue.max(1.0)).min(self.block_x);
                    let degree = conflict_degree(shared.row * shared.width, lanes) / shared.width.max(1.0);
                    self.acc.bank_conflicts += weight * (degree - 1.0).max(0.0) / 15.0;
                }
            } else if let (1, Coef::Lin(a)) =
                (indices.len(), indices.first().map_or(Coef::Unknown, |i| self.coef(*i, 0)))
            {
                // Lanes `a` elements apart: a d-way conflict costs d accesses, counted as
                // (d − 1) / 15 of the 2-D tile's 16-way one (the cost's weight).
                let stride = a * self.lane_gap * shared.width;
                let degree = conflict_degree(stride, 32.0 / self.issue.max(1.0)) / shared.width.max(1.0);
                if degree > 1.0 {
                    self.acc.bank_conflicts += issued * accesses * (degree - 1.0) / 15.0;
                }
            }
            return;
        }
        if let Some(&entries) = self.constant.get(base_text.as_str()) {
            if load {
                self.constant_read(indices.first().copied(), entries, weight);
            }
            return;
        }
        // `reinterpret_cast<float4*>(&(a[i]))[0]`: a vector access at `a[i]`.
        if let Some((array, index, width)) = self.element_cast(cur) {
            self.vector_element(array, index, width, weight, load, store);
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
        let (coef, group) = match indices.len() {
            1 => match self.coef(index, 0) {
                // `a[i + 0]` … `a[i + 3]` with `i` stepping by 4: together, every element,
                // the lane's stride moved as one access that wide would.
                Coef::Lin(a) if cur.kind() == "identifier" && self.covers_gap(&base_text, index, a.abs(), 1.0) => {
                    (Coef::Lin(1.0), (a.abs() * width).min(4.0))
                }
                c => (c, width),
            },
            // `x[row][col]` of a row-major array (a torch tensor accessor): the last index
            // moves along a row, the others a row at a time.
            _ => match indices.split_last() {
                Some((last, rows)) if rows.iter().all(|i| self.coef(*i, 0) == Coef::Uniform) => {
                    (self.coef(*last, 0), width)
                }
                _ => (Coef::Unknown, width),
            },
        };
        self.acc.vector_width = self.acc.vector_width.max(group);
        // A pointer derived per lane (`plane = x + (n * C + c) * H * W`) varies with it.
        let coef = match self.vars.get(base_text.as_str()) {
            Some(pointer) if cur.kind() == "identifier" => pointer.add(coef),
            _ => coef,
        };
        // A neighbour's element (a stencil's, a filter's weights): DRAM moves it once.
        let reuse = match (load && !store && cur.kind() == "identifier" && indices.len() == 1, coef) {
            (true, Coef::Lin(_) | Coef::Uniform) => self.neighbour_reads(&base_text, index, coef, weight, 4.0 * width),
            _ => None,
        };
        let Some((dram, hits)) = reuse else {
            self.global_access(base_text, width, coef, weight, load, store);
            return;
        };
        let elem = 4.0 * width;
        if coef == Coef::Uniform {
            // Each warp's read of the element, one per row of the block it spans.
            let rows = (32.0 / self.block_x.max(1.0)).clamp(1.0, 32.0);
            self.acc.cached += elem.max(32.0) * rows / 32.0 * hits;
            self.acc.broadcast += hits;
        } else {
            self.acc.cached += elem * hits;
        }
        self.global_access(base_text, width, coef, dram, load, store);
    }

    /// One global access of `base_text` (elements of `width` words) whose index varies
    /// across the lanes as `coef`: its bytes, sector use and vector width.
    pub(super) fn global_access(
        &mut self,
        base_text: String,
        width: f64,
        coef: Coef,
        weight: f64,
        load: bool,
        store: bool,
    ) {
        if !load && !store {
            // An element's address (`&a[i]` handed on) moves nothing by itself.
            return;
        }
        let elem = 4.0 * width;
        // The lanes that work are `lane_gap` apart: so are their elements.
        let coef = match coef {
            Coef::Lin(a) => Coef::Lin(a * self.lane_gap),
            c => c,
        };
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
            || self.subscripts.get(base_text.as_str()).is_some_and(|n| n.len() > 1);
        let bytes = if bytes > elem && reused { elem + (bytes - elem) / self.rates.l2_over_dram } else { bytes };
        self.acc.vector_width = self.acc.vector_width.max(width);
        self.acc.uncoalesced += (bytes - elem).max(0.0) * weight;
        if load {
            // A later pass over an array an earlier loop already streamed is partly served by L2;
            // not one that reads many times what the earlier did (a pipeline's prologue loads
            // the first tile, its main loop the others).
            let discount = match self.streamed.get(base_text.as_str()) {
                Some((p, first)) if *p < self.pass && 2.0 * first >= self.mult_now => 0.5,
                _ => 1.0,
            };
            self.streamed.entry(base_text).or_insert((self.pass, self.mult_now));
            self.acc.load += bytes * weight * discount;
            // Fewer threads than a warp per SM run it (a grid that small, or one thread of each
            // block): each of them waits for its loads in turn.
            let blocks = self.threads / (self.block_x * self.block_rows).max(1.0);
            let active = if self.one_thread { blocks } else { self.threads };
            if active < 32.0 * self.rates.sms {
                self.acc.serial_loads += self.mult_now;
            }
            if let Some(top) = self.loop_load.last_mut() {
                *top += bytes;
            }
        }
        if store {
            self.acc.store += bytes * weight;
        }
    }
}

/// Instructions an integer division or remainder by a value known only at run time takes.
const INTEGER_DIVISION: f64 = 16.0;

/// Lanes of a warp that hit one bank when `active` lanes access words `stride` apart: the
/// 32 banks hold consecutive words, so a stride of 2^j words leaves 32 / 2^j of them in use.
fn conflict_degree(stride: f64, active: f64) -> f64 {
    let words = stride.abs();
    if words < 1.0 || words.fract() != 0.0 {
        return 1.0;
    }
    let gcd = {
        let (mut a, mut b) = (words as u64, 32u64);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a as f64
    };
    (active.clamp(1.0, 32.0) * gcd / 32.0).ceil().max(1.0)
}

/// Cache-hinted load intrinsics that read through a pointer (`__ldg(p + i)`).
const LOAD_INTRINSICS: [&str; 6] = ["__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"];

/// Each array's subscripts in the kernel `def` (`a[i][j]` once, as `a`), by the text of
/// their index without spaces: a chain of subscripts is counted at its innermost one, the
/// one whose argument is the array.
pub(super) fn subscript_indices(def: Node, src: &str) -> HashMap<String, Vec<String>> {
    let mut found: HashMap<String, Vec<String>> = HashMap::new();
    crate::extract::walk_preorder(def, |n| {
        if n.kind() == "subscript_expression" {
            if let Some(array) = n.child_by_field_name("argument").filter(|a| a.kind() == "identifier") {
                let index = n.child_by_field_name("indices").and_then(|i| i.named_child(0));
                let text = index.and_then(|i| src.get(i.byte_range())).unwrap_or_default();
                found.entry(src[array.byte_range()].to_string()).or_default().push(squeezed(text));
            }
        }
        true
    });
    found
}

/// An index's text without spaces or outer parentheses.
fn squeezed(text: &str) -> String {
    let mut t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    while t.starts_with('(')
        && t.ends_with(')')
        && t[1..t.len() - 1].chars().filter(|c| *c == '(').count()
            == t[1..t.len() - 1].chars().filter(|c| *c == ')').count()
    {
        t = t[1..t.len() - 1].to_string();
    }
    t
}

/// `idx + 2` → (`idx`, 2); an index with no constant offset is its own base at 0.
fn offset_of(index: &str) -> (String, f64) {
    match index.rsplit_once('+') {
        Some((base, c)) if !base.is_empty() => match c.parse::<u32>() {
            Ok(c) => (squeezed(base), f64::from(c)),
            Err(_) => (index.to_string(), 0.0),
        },
        _ => (index.to_string(), 0.0),
    }
}

/// The array a (possibly nested) subscript reads: `a` for `a[i][j]`.
pub(super) fn array_of(mut node: Node) -> Node {
    while node.kind() == "subscript_expression" {
        match node.child_by_field_name("argument") {
            Some(a) => node = a,
            None => break,
        }
    }
    node
}

/// `n` without the parentheses around it (`None` for empty ones).
pub(super) fn unparenthesized(mut n: Node) -> Option<Node> {
    while n.kind() == "parenthesized_expression" {
        n = n.named_child(0)?;
    }
    Some(n)
}

/// (is a store, is a load) for the access at `node`.
pub(super) fn access_kind(node: Node, src: &str) -> (bool, bool) {
    // `(FLOAT4(c[i])) = v` once the macro is expanded: the parentheses are the access.
    let mut node = node;
    while let Some(p) = node.parent().filter(|p| p.kind() == "parenthesized_expression") {
        node = p;
    }
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

/// Operations a double-precision math routine (`tanh`, `exp`, `pow` of a double) costs,
/// against 8 for the float one: some 50 FP64 instructions at half the FP32 rate on an H100.
const DOUBLE_MATH: f64 = 96.0;

/// Whether a number literal is a double: floating (`2.0`, `.5`, `1e-5`), without an `f`
/// suffix.
fn double_literal(literal: &str) -> bool {
    let hex = literal.starts_with("0x") || literal.starts_with("0X");
    !hex && literal.contains(['.', 'e', 'E']) && !literal.ends_with(['f', 'F'])
}

/// A `<math.h>` constant (`M_PI`, `M_SQRT1_2`): a double.
fn math_constant(word: &str) -> bool {
    word.strip_prefix("M_").is_some_and(|rest| {
        !rest.is_empty() && rest.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    })
}
