//! Loops of a CUDA kernel: how many times each runs (from its initialiser, condition and
//! update, for the average thread, or the last one in the grid's tail), and the loops
//! whose variable doubles or halves, walked once per value.

use super::access::unparenthesized;
use super::Walker;
use tree_sitter::Node;

impl Walker<'_> {
    /// `while (i < n) { …; i += stride; }`: the loop variable, its bound and its step.
    pub(super) fn while_stride(&self, node: Node) -> Option<(String, String, String)> {
        let mut cond = node.child_by_field_name("condition")?;
        while matches!(cond.kind(), "parenthesized_expression" | "condition_clause") {
            cond = cond.named_child(0)?;
        }
        let op = cond.child_by_field_name("operator").map(|o| o.kind())?;
        if !matches!(op, "<" | "<=") {
            return None;
        }
        let var = self.text(cond.child_by_field_name("left")?).trim().to_string();
        let bound = self.text(cond.child_by_field_name("right")?).to_string();
        let body = node.child_by_field_name("body")?;
        let mut cursor = body.walk();
        let step = body.named_children(&mut cursor).find_map(|st| {
            let a = st
                .named_child(0)
                .filter(|a| st.kind() == "expression_statement" && a.kind() == "assignment_expression")?;
            let left = self.text(a.child_by_field_name("left")?).trim().to_string();
            let op = self.text(a.child_by_field_name("operator")?).to_string();
            let right = a.child_by_field_name("right")?;
            (left == var && op == "+=").then(|| self.text(right).to_string())
        })?;
        Some((var, bound, step))
    }

    /// Trip count of a loop from its initialiser, condition and update.
    pub(super) fn trip_count(&mut self, node: Node) -> f64 {
        let guess = |w: &mut Self| {
            w.acc.guesses += 1;
            8.0
        };
        if node.kind() == "while_statement" {
            // A grid-stride `while`: from the mean thread's start to the bound by the step.
            // The start and step must be known (the bound may be a size).
            let Some((var, bound, step)) = self.while_stride(node) else { return guess(self) };
            let exact = |w: &mut Self, t: &str| w.env.eval_quiet(t).filter(|e| e.guesses == 0).map(|e| e.value);
            let (Some(_), Some(s)) = (exact(self, &var), exact(self, &step)) else { return guess(self) };
            let (Some(a), Some(b)) = (self.eval_mean_thread(&var), self.eval_mean_thread(&bound)) else {
                return guess(self);
            };
            return if s >= 1.0 { ((b - a).max(0.0) / s).ceil().clamp(0.0, 1e12) } else { guess(self) };
        }
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
        // `for (; k < k_end; ++k)`: the loop starts where the variable stands.
        let start = if init.is_none() { var.clone() } else { self.loop_start(init) };
        let bound_text = self.text(bound).to_string();
        let update_text = self.text(update).replace(' ', "");
        let update_raw = self.text(update).to_string();
        if let Some(trips) = self.pointer_range_trips(&start, &bound_text, &update_raw) {
            return trips;
        }
        let (Some(a), Some(b)) = (self.eval_mean_thread(&start), self.eval_mean_thread(&bound_text)) else {
            return guess(self);
        };
        // The step from the text as written: `(long long)gridDim.x` is a cast only with its space.
        let step_of = |op: &str| update_raw.split_once(op).map(|(_, s)| s.to_string());
        let trip = if self.tail && update_text.contains("++") {
            // The grid's last thread may start past the bound: its tail loop does not run.
            (b - a).max(0.0)
        } else if update_text.contains("++") || update_text.contains("--") {
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

    /// `for (float *p = begin; p < end; p += STEP, q += STEP * n)` with `end = begin + k`:
    /// a walk over a pointer range, `k / STEP` trips (the pointers themselves are no values).
    fn pointer_range_trips(&mut self, start: &str, bound: &str, update: &str) -> Option<f64> {
        let end = self.env.texts.get(bound.trim())?.replace(' ', "");
        let span = end.strip_prefix(&format!("{}+", start.replace(' ', "")))?.to_string();
        let step = update.split(',').next()?.split_once("+=")?.1.trim().to_string();
        let span = self.eval_mean_thread(&span)?;
        let step = self.env.eval(&step).map(|e| e.value).filter(|s| *s >= 1.0)?;
        Some((span / step).ceil().max(0.0))
    }

    /// The text of a `for` loop's initial value (`0` where it has none).
    pub(super) fn loop_start(&self, init: Option<Node>) -> String {
        init.and_then(|i| {
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
        .unwrap_or_else(|| "0".to_string())
    }

    /// A loop whose variable grows or shrinks by a factor (`s *= 2`, `s >>= 1`: a tree
    /// reduction's steps): the variable and each value it takes, in order. Such a loop runs
    /// a few times, and what its body does changes with the value (the lanes a `tid < s`
    /// lets through, the stride of `sdata[2 * s * tid]`): it is walked once per value.
    pub(super) fn loop_values(&mut self, node: Node) -> Option<(String, Vec<f64>)> {
        if node.kind() != "for_statement" {
            return None;
        }
        let cond = unparenthesized(node.child_by_field_name("condition")?)?;
        let op = cond.child_by_field_name("operator")?.kind();
        let var = self.text(cond.child_by_field_name("left")?).trim().to_string();
        let bound = self.text(cond.child_by_field_name("right")?).to_string();
        if !var.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        let update = self.text(node.child_by_field_name("update")?).replace(' ', "");
        let rest = update.strip_prefix(var.as_str())?;
        let rest = rest.strip_prefix(&format!("={var}")).map(|r| format!("{r}=")).unwrap_or(rest.to_string());
        let (step, by) = ["<<", ">>", "*", "/"].iter().find_map(|s| {
            let by = rest.strip_prefix(s)?;
            let by = by.strip_prefix('=').or_else(|| by.strip_suffix('='))?;
            Some((*s, by.to_string()))
        })?;
        let by = self.env.eval_quiet(&by).filter(|e| e.guesses == 0)?.value;
        let start = self.loop_start(node.child_by_field_name("initializer"));
        let (mut v, b) = (self.eval_mean_thread(&start)?, self.eval_mean_thread(&bound)?);
        let holds = |v: f64| match op {
            "<" => v < b,
            "<=" => v <= b,
            ">" => v > b,
            ">=" => v >= b,
            "!=" => v != b,
            _ => false,
        };
        let mut values = Vec::new();
        while holds(v) {
            if values.len() == 32 {
                return None;
            }
            values.push(v);
            let next = match step {
                "<<" => v * 2f64.powf(by),
                ">>" => (v / 2f64.powf(by)).floor(),
                "*" => v * by,
                _ => (v / by).floor(),
            };
            if next == v || !next.is_finite() {
                return None;
            }
            v = next;
        }
        (!values.is_empty()).then_some((var, values))
    }

    /// Walks a loop's body once per value of its variable, `var` set to it: the body's work
    /// adds up over the values, its counts (loops, unrolled loops, guesses, shared memory
    /// declared) are the text's, once.
    pub(super) fn iterate(&mut self, body: Node, var: &str, values: &[f64], mult: f64, frac: f64, depth: usize) {
        let (kept, was_iterating) = (self.env.values.get(var).copied(), self.iterating);
        self.iterating = true;
        let mut once = None;
        for v in values {
            self.env.set(var, *v);
            self.statement(body, mult, frac, depth);
            let counts = (self.acc.loops, self.acc.unrolled, self.acc.guesses, self.acc.smem_bytes);
            match once {
                None => once = Some(counts),
                Some(c) => (self.acc.loops, self.acc.unrolled, self.acc.guesses, self.acc.smem_bytes) = c,
            }
        }
        match kept {
            Some(v) => self.env.set(var, v),
            None => {
                self.env.values.remove(var);
            }
        }
        self.iterating = was_iterating;
        if let Some(top) = self.loop_load.last_mut() {
            *top /= values.len() as f64;
        }
    }

    /// Evaluates `text` for the average thread of the grid (elsewhere the indices are 0).
    pub(super) fn eval_mean_thread(&mut self, text: &str) -> Option<f64> {
        // In the grid's tail, the last thread: twice the average index.
        let scale = if self.tail { 2.0 } else { 1.0 };
        for (k, v) in &self.mean_index {
            self.env.set(k, *v * scale);
        }
        // The enclosing counted loops' variables at their mean (not their start, which
        // their initialiser defines).
        let saved: Vec<(String, Option<f64>)> =
            self.loop_means.iter().map(|(k, _)| (k.clone(), self.env.values.get(k).copied())).collect();
        for (k, v) in &self.loop_means {
            self.env.set(k, *v);
        }
        let value = self.env.eval(text).map(|e| e.value);
        for (k, old) in saved {
            match old {
                Some(v) => self.env.set(&k, v),
                None => drop(self.env.values.remove(&k)),
            }
        }
        for (k, _) in &self.mean_index {
            self.env.set(k, 0.0);
        }
        value
    }

    /// A counted loop's variable and its mean value over the loop (`for (int i = a; i < b;
    /// i++)`: `(a + b) / 2`), where its start and bound have values.
    pub(super) fn loop_mean(&mut self, node: Node) -> Option<(String, f64)> {
        if node.kind() != "for_statement" {
            return None;
        }
        let cond = node.child_by_field_name("condition")?;
        let update = self.text(node.child_by_field_name("update")?).replace(' ', "");
        let var = cond.child_by_field_name("left").filter(|v| v.kind() == "identifier")?;
        let var = self.text(var).to_string();
        if update != format!("{var}++")
            && update != format!("++{var}")
            && update != format!("{var}--")
            && update != format!("--{var}")
        {
            return None;
        }
        let start = self.loop_start(node.child_by_field_name("initializer"));
        let bound = self.text(cond.child_by_field_name("right")?).to_string();
        let (a, b) = (self.eval_mean_thread(&start)?, self.eval_mean_thread(&bound)?);
        Some((var, (a + b) / 2.0))
    }
}
