//! Global reads that other threads' reads make cache hits: a stencil's or a convolution's
//! neighbours (`in[i + k]` for `k` in `-R..=R`, `in[(y + dy) * W + x + dx]`, `in[i - 1] +
//! in[i + 1]`) land on elements the neighbouring threads read as their own, and a read the
//! whole grid makes alike (a filter's weights `w[k]`) on a few elements; DRAM moves each
//! such element once, the rest are served by L1/L2.
//!
//! An array's reads are compared at one thread near the middle of the grid (integer
//! indices): the index's change when the thread moves one lane (`gx`) and one row (`gy`)
//! spans the lattice of the elements the threads own; a read at a lattice shift no farther
//! than [`REUSE_WINDOW`] bytes (and well inside the grid's extent) from the array's first
//! read is a neighbour's element, as is each iteration of a loop that moves the index by
//! one lane (a sliding window) or by a few such shifts.

use super::{Coef, Walker};
use tree_sitter::Node;

/// How far (bytes) a neighbour's element may lie from the thread's own for L2 to still
/// hold it when it is read again: a few rows of a wide image, a plane of a volume.
const REUSE_WINDOW: f64 = 4.0 * 1024.0 * 1024.0;

/// A loop being walked: its variable and fixed step where it has them, its trips and
/// where it begins in the text.
#[derive(Clone, Debug)]
pub(super) struct StepLoop {
    pub stepping: Option<(String, f64)>,
    pub trip: f64,
    pub at: usize,
}

/// The first read of an array that neighbour reads are compared with.
#[derive(Clone, Debug)]
pub(super) struct FirstRead {
    /// Its index at the representative thread.
    index: f64,
    /// The loops around it that take it to new data (a grid stride, a walk along a row, a
    /// loop whose step is unknown): a read in other such loops is another pass.
    streaming: Vec<usize>,
    /// Elements per thread charged as DRAM traffic so far (the largest footprint).
    charged: f64,
}

/// How one thread's index moves across the grid: a stride per axis the threads spread
/// along (x, y, z: a thread's or else a block's index), finest first, each with the number
/// of threads along it.
struct Lattice {
    axes: Vec<(f64, f64)>,
    elem: f64,
}

impl Lattice {
    /// Whether an index `delta` elements away is another thread's own element, near enough
    /// for the cache: whole steps along the axes (coarsest first), each well inside the
    /// grid, within [`REUSE_WINDOW`].
    fn near(&self, delta: f64) -> bool {
        if delta.abs() * self.elem > REUSE_WINDOW {
            return false;
        }
        let mut rest = delta;
        for (at, (stride, threads)) in self.axes.iter().enumerate().rev() {
            let q = if at == 0 { rest / stride } else { (rest / stride).round() };
            if q.fract() != 0.0 || q.abs() > threads / 4.0 {
                return false;
            }
            rest -= q * stride;
        }
        rest == 0.0
    }

    /// The finest stride: one lane's.
    fn lane(&self) -> f64 {
        self.axes.first().map_or(0.0, |a| a.0)
    }
}

impl Walker<'_> {
    /// A `for` loop's variable and its fixed step (`j++`, `k += 2`, `i = i + 1`, `d--`).
    pub(super) fn loop_step(&self, node: Node) -> Option<(String, f64)> {
        if node.kind() != "for_statement" {
            return None;
        }
        let cond = super::access::unparenthesized(node.child_by_field_name("condition")?)?;
        let var = self.text(cond.child_by_field_name("left")?).trim().to_string();
        if var.is_empty() || !var.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let update: String =
            self.text(node.child_by_field_name("update")?).chars().filter(|c| !c.is_whitespace()).collect();
        let step = if update == format!("{var}++") || update == format!("++{var}") {
            "1".to_string()
        } else if update == format!("{var}--") || update == format!("--{var}") {
            "-1".to_string()
        } else if let Some(by) = update.strip_prefix(&format!("{var}+=")) {
            by.to_string()
        } else if let Some(by) = update.strip_prefix(&format!("{var}-=")) {
            format!("-({by})")
        } else if let Some(by) = update.strip_prefix(&format!("{var}={var}+")) {
            by.to_string()
        } else {
            return None;
        };
        let step = self.env.eval_quiet(&step).filter(|e| e.guesses == 0)?.value;
        (step != 0.0).then_some((var, step))
    }

    /// Whether `text`, with the definitions of the names it uses, is plain arithmetic (no
    /// call but `min`/`max` and the file's macros: a helper or `floorf` would be evaluated
    /// as a constant, losing how the index moves; no pointer cast), and whether it reads a thread's or a
    /// block's index; `None` where it is not plain.
    fn plain_arithmetic(&self, text: &str) -> Option<bool> {
        let mut pending = vec![text.to_string()];
        let mut seen = std::collections::HashSet::new();
        let mut threaded = false;
        while let Some(t) = pending.pop() {
            // A pointer cast changes the element the arithmetic counts in.
            if seen.len() > 64 || t.contains("reinterpret_cast") || t.contains("const_cast") || t.contains("*)") {
                return None;
            }
            let mut rest = t.as_str();
            while let Some(at) = rest.find(|c: char| c.is_alphanumeric() || c == '_') {
                let len = rest[at..].find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len() - at);
                let word = &rest[at..at + len];
                rest = &rest[at + len..];
                if word.starts_with(|c: char| c.is_ascii_digit()) {
                    continue;
                }
                if rest.trim_start().starts_with('(') {
                    if !matches!(word, "min" | "max" | "MIN" | "MAX" | "sizeof") && !self.env.macros.contains_key(word)
                    {
                        return None;
                    }
                    continue;
                }
                threaded |= matches!(word, "threadIdx" | "blockIdx" | "thread_rank");
                if seen.insert(word.to_string()) {
                    if let Some(def) = self.env.texts.get(word) {
                        pending.push(def.clone());
                    }
                }
            }
        }
        Some(threaded)
    }

    /// `text`'s value at a thread near the middle of the grid (integer indices), with the
    /// names in `shift` moved by their amounts (a thread index, a loop variable).
    fn index_at(&mut self, text: &str, shift: &[(&str, f64)]) -> Option<f64> {
        let mean: Vec<(String, f64)> = self.mean_index.iter().map(|(k, v)| (k.clone(), v.floor())).collect();
        for (k, v) in &mean {
            self.env.set(k, *v);
        }
        let mut kept = Vec::new();
        let mut ok = true;
        for (name, by) in shift {
            match self.env.eval_quiet(name) {
                Some(now) => {
                    kept.push((name.to_string(), self.env.values.get(*name).copied()));
                    self.env.set(name, now.value + by);
                }
                None => ok = false,
            }
        }
        let value = if ok { self.env.eval_quiet(text).map(|e| e.value) } else { None };
        for (name, old) in kept.into_iter().rev() {
            match old {
                Some(v) => self.env.set(&name, v),
                None => {
                    self.env.values.remove(&name);
                }
            }
        }
        for (k, _) in &mean {
            self.env.set(k, 0.0);
        }
        value
    }

    /// A global read of `array` at `index` (elements of `elem` bytes), run `weight` times per
    /// thread: how many of those reads move DRAM traffic and how many are cache hits, where
    /// neighbouring threads (or the whole grid) read the same elements; `None` where they do
    /// not (read as before).
    pub(super) fn neighbour_reads(
        &mut self,
        array: &str,
        index: Node,
        coef: Coef,
        weight: f64,
        elem: f64,
    ) -> Option<(f64, f64)> {
        if self.stored.contains(array) || weight <= 0.0 {
            return None;
        }
        // A pointer the kernel derives (`row = x + r * cols`) moves with the thread too.
        let text = match self.vars.contains_key(array) {
            true => format!("{array} + ({})", self.text(index)),
            false => self.text(index).to_string(),
        };
        let threaded = self.plain_arithmetic(&text)?;
        let here = self.index_at(&text, &[])?;
        let moved = |w: &mut Self, name: &str| w.index_at(&text, &[(name, 1.0)]).map(|v| v - here);
        let lane = moved(self, "threadIdx.x")?;
        let dim =
            |w: &Self, what: &str, axis: &str| w.env.values.get(&format!("{what}.{axis}")).copied().unwrap_or(1.0);
        // Per axis: the index's stride across a block's threads and across blocks.
        let mut axes = Vec::new();
        for axis in ["x", "y", "z"] {
            let (threads, blocks) = (dim(self, "blockDim", axis), dim(self, "gridDim", axis));
            let thread = match axis {
                "x" => lane,
                _ if threads > 1.0 => moved(self, &format!("threadIdx.{axis}"))?,
                _ => 0.0,
            };
            let block = if blocks > 1.0 { moved(self, &format!("blockIdx.{axis}"))? } else { 0.0 };
            axes.push((thread, block, threads, blocks));
        }
        // The loops whose variable moves this index, and by how much a step.
        let mut loops: Vec<(f64, f64, usize)> = Vec::new();
        let mut unknown = Vec::new();
        for l in self.step_loops.clone() {
            match &l.stepping {
                Some((var, step)) => match self.index_at(&text, &[(var.as_str(), *step)]) {
                    Some(moved) if moved != here => loops.push((moved - here, l.trip, l.at)),
                    Some(_) => {}
                    None => unknown.push(l.at),
                },
                None => unknown.push(l.at),
            }
        }
        // The numbers must tell what the walk tells: how the index moves across the lanes.
        match coef {
            Coef::Lin(a) if a == lane => {}
            Coef::Uniform if lane == 0.0 => {}
            _ => return None,
        }
        if !threaded && axes.iter().all(|(t, b, _, _)| *t == 0.0 && *b == 0.0) {
            // The whole grid reads these elements alike: a few, read once from DRAM.
            let span: f64 = 1.0 + loops.iter().map(|(d, trip, _)| d.abs() * (trip - 1.0).max(0.0)).sum::<f64>();
            return (span * elem <= REUSE_WINDOW).then_some((0.0, weight));
        }
        if lane == 0.0 {
            return None;
        }
        // The threads own a dense lattice: along each axis a block's threads follow the
        // previous block's (`blockIdx.x * blockDim.x + threadIdx.x`, not `* 2 * blockDim.x`);
        // an axis only blocks spread along (a row per block of a 1-D block) is one too.
        let mut strides = Vec::new();
        for (thread, block, threads, blocks) in axes {
            match (thread != 0.0, block != 0.0) {
                (true, true) if block != threads * thread => return None,
                (true, true) => strides.push((thread, threads * blocks)),
                // Every block reads the same span (`gamma[threadIdx.x + k]`): one block's.
                (true, false) => strides.push((thread, threads)),
                (false, true) if threads == 1.0 => strides.push((block, blocks)),
                (false, true) => return None,
                (false, false) => {}
            }
        }
        strides.sort_by(|a, b| a.0.abs().total_cmp(&b.0.abs()));
        let lattice = Lattice { axes: strides, elem };
        // Loops stepping one lane (a sliding window) or a few near shifts hold the thread
        // among its neighbours' elements; others (a grid stride, a walk down a column) move
        // it to new data.
        let mut trips = 1.0;
        let mut streaming = unknown;
        let mut offsets = Vec::new();
        for (d, trip, at) in &loops {
            if d.abs() == lattice.lane().abs() || lattice.near(d * (trip - 1.0).max(1.0)) {
                trips *= trip.max(1.0);
                offsets.push((*d, trip.max(1.0)));
            } else {
                streaming.push(*at);
            }
        }
        streaming.sort_unstable();
        let own = weight / trips;
        match self.first_reads.get_mut(array) {
            None => {
                self.first_reads.insert(array.to_string(), FirstRead { index: here, streaming, charged: own });
                (trips > 1.0).then_some((own, weight - own))
            }
            Some(first) => {
                // A read in other loops that stream over the array is another pass over it.
                // The iteration of its offset loops nearest the first read (a window from
                // `i - R` sweeps over `i`).
                let delta = offsets.iter().fold(here - first.index, |delta, (d, trip)| {
                    delta + (-delta / d).round().clamp(0.0, trip - 1.0) * d
                });
                if first.streaming != streaming || !lattice.near(delta) {
                    return None;
                }
                let dram = (own - first.charged).max(0.0);
                first.charged = first.charged.max(own);
                Some((dram, weight - dram))
            }
        }
    }
}

/// The arrays a kernel `def` writes (assigned, updated or an atomic's target): their reads
/// may see other threads' writes, never counted as neighbour reads.
pub(super) fn stored_arrays(def: Node, src: &str) -> std::collections::HashSet<String> {
    let mut found = std::collections::HashSet::new();
    let base = |mut n: Node| loop {
        match n.kind() {
            "subscript_expression" | "pointer_expression" | "parenthesized_expression" | "field_expression" => {
                match n.child_by_field_name("argument").or_else(|| n.named_child(0)) {
                    Some(a) => n = a,
                    None => return None,
                }
            }
            "binary_expression" => n = n.child_by_field_name("left")?,
            "identifier" => return src.get(n.byte_range()).map(str::to_string),
            _ => return None,
        }
    };
    crate::extract::walk_preorder(def, |n| {
        let target = match n.kind() {
            "assignment_expression" => n.child_by_field_name("left").filter(|l| l.kind() != "identifier"),
            "update_expression" => n.child_by_field_name("argument").filter(|a| a.kind() != "identifier"),
            "call_expression"
                if n.child_by_field_name("function")
                    .and_then(|f| src.get(f.byte_range()))
                    .is_some_and(|f| f.rsplit("::").next().unwrap_or(f).starts_with("atomic")) =>
            {
                n.child_by_field_name("arguments").and_then(|a| a.named_child(0))
            }
            _ => None,
        };
        if let Some(name) = target.and_then(base) {
            found.insert(name);
        }
        true
    });
    found
}
