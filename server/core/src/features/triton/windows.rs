//! Window loops in a Triton kernel: a loop whose trip moves a load's address by less than
//! its tile spans (a pooling or convolution window, `for kw in range(K)`), or onto the rows
//! a neighbouring program reads as its own, reads again from L1/L2 what was just read, and
//! DRAM moves it once.

use super::{Coef, Walker};
use tree_sitter::Node;

/// How far (bytes) a neighbouring program's rows may lie for L2 to still hold them when a
/// window reads them again (as the CUDA reading's reuse window).
const REUSE_WINDOW: f64 = 4.0 * 1024.0 * 1024.0;

/// A loop being walked: its variable, the step the variable takes a trip, its trips.
#[derive(Clone, Debug)]
pub(super) struct Window {
    var: String,
    step: f64,
    trip: f64,
}

impl Walker<'_> {
    /// The loop `node` (`for v in range(…)`) as a window: its variable, the step the variable
    /// takes a trip, and its trips (more than one).
    pub(super) fn window(&self, node: Node, trip: f64) -> Option<Window> {
        let var = node.child_by_field_name("left").filter(|l| l.kind() == "identifier")?;
        let iter = node.child_by_field_name("right")?;
        if trip <= 1.0 || iter.kind() != "call" {
            return None;
        }
        let args = iter.child_by_field_name("arguments")?;
        let mut c = args.walk();
        let mut positional = Vec::new();
        let mut step = None;
        for a in args.named_children(&mut c) {
            if a.kind() != "keyword_argument" {
                positional.push(a);
            } else if a.child_by_field_name("name").is_some_and(|n| self.text(n) == "step") {
                step = a.child_by_field_name("value");
            }
        }
        let step = step.or_else(|| positional.get(2).copied());
        let step = match step {
            Some(s) => self.env.eval_quiet(self.text(s)).filter(|e| e.guesses == 0)?.value,
            None => 1.0,
        };
        Some(Window { var: self.text(var).to_string(), step, trip })
    }

    /// The share of a load's bytes that DRAM moves, across the window loops around it: a
    /// loop whose trip moves the address by less than the tile spans (`kw` in
    /// `x[(oh * S + kh) * W + ow * S + kw]`, a pooling or convolution window) reads again,
    /// from L1/L2, what the tile has just read; the loops move through
    /// `extent + |shift| · (trips − 1)` elements, not `trips · extent`. A loop that moves it
    /// a whole tile (`k + tl.arange(0, BLOCK_K)` by `BLOCK_K`) streams new data.
    pub(super) fn fresh_share(&mut self, ptr: Node) -> f64 {
        if self.windows.is_empty() {
            return 1.0;
        }
        let extent = self
            .strides_of(ptr, 0)
            .into_iter()
            .filter_map(|(axis, coef)| match coef {
                Coef::Lin { k, .. } => {
                    let n = self.axes.get(&axis).and_then(|t| self.env.eval_quiet(t)).map_or(1.0, |e| e.value);
                    Some(n * k.abs())
                }
                _ => None,
            })
            .fold(0.0f64, f64::max);
        if extent <= 1.0 {
            return 1.0;
        }
        let text = self.text(ptr).to_string();
        let mut share = 1.0;
        for w in self.windows.clone() {
            let saved = self.env.values.get(&w.var).copied();
            let at = |v: f64, env: &mut crate::features::expr::Env| {
                env.values.insert(w.var.clone(), v);
                env.eval_quiet(&text).map(|e| e.value)
            };
            let shift = match (at(0.0, &mut self.env), at(w.step, &mut self.env)) {
                (Some(a), Some(b)) => (b - a).abs(),
                _ => 0.0,
            };
            match saved {
                Some(v) => drop(self.env.values.insert(w.var.clone(), v)),
                None => drop(self.env.values.remove(&w.var)),
            }
            if shift > 0.0 && shift < extent {
                share *= ((extent + shift * (w.trip - 1.0)) / (w.trip * extent)).min(1.0);
            } else if let Some(lattice) = self.neighbour_step(&text, shift, w.trip) {
                // Rows (planes) the next programs read as their own: each is moved once.
                share *= (lattice / (shift * w.trip)).clamp(1.0 / w.trip, 1.0);
            }
        }
        share
    }

    /// The step between neighbouring programs' addresses (`tl.program_id(a)` one more)
    /// where a window loop's `shift` is a few such steps, or a few shifts one step (a
    /// convolution's next row is the next program's row): near enough for L2 to hold it.
    fn neighbour_step(&mut self, text: &str, shift: f64, trip: f64) -> Option<f64> {
        const MAX_STEPS: f64 = 8.0;
        if shift <= 0.0 || trip > 64.0 || shift * self.elem > REUSE_WINDOW {
            return None;
        }
        let whole = |r: f64| (1.0 - 1e-9..=MAX_STEPS).contains(&r) && (r - r.round()).abs() < 0.02;
        (0..3).find_map(|axis| {
            let key = format!("tl.program_id({axis})");
            let saved = self.env.values.get(&key).copied();
            let base = saved.unwrap_or(0.0);
            let mut at = |v: f64| {
                self.env.values.insert(key.clone(), v);
                self.env.eval_quiet(text).map(|e| e.value)
            };
            let step = match (at(base), at(base + 1.0)) {
                (Some(a), Some(b)) => (b - a).abs(),
                _ => 0.0,
            };
            match saved {
                Some(v) => drop(self.env.values.insert(key.clone(), v)),
                None => drop(self.env.values.remove(&key)),
            }
            // A window `step / shift` programs apart reaches the next program's rows only
            // within its trips (a stride-2 convolution's 3 rows do; a row streamed in
            // `trip` chunks does not).
            (step > 0.0 && (whole(shift / step) || (whole(step / shift) && step / shift < trip - 0.5))).then_some(step)
        })
    }
}
