//! The trained forecaster on what the code leaves open: sizes known only at run time
//! (a prior over problem sizes) and programs whose kernels do not pair one to one (their
//! kernels and torch operations added up).

use super::{Estimate, TrainedForecaster};
use crate::features::Profile;
use crate::forecast::Forecast;
use crate::kernel::Kernel;

impl TrainedForecaster {
    /// The forecast of two versions one or both of which leave sizes to run time: the pair
    /// is forecast at every size of [`size_prior`], and the spread of those forecasts widens
    /// the distribution; a direction that flips within the prior is not claimed surely.
    pub(super) fn forecast_over_sizes(&self, base: &Kernel, cand: &Kernel, b: &Profile, c: &Profile) -> Forecast {
        let at_size = |_elements: f64, each: f64| {
            (
                Profile::clone(&self.profiles.profile_assuming(base, each)),
                Profile::clone(&self.profiles.profile_assuming(cand, each)),
            )
        };
        let undeclared = crate::forecast::undeclared([base, cand]);
        self.forecast_over_prior(b, c, undeclared, at_size)
    }

    /// [`Self::forecast_over_sizes`] for profiles made at any assumed size by `at_size`.
    fn forecast_over_prior(
        &self,
        b: &Profile,
        c: &Profile,
        undeclared: bool,
        at_size: impl Fn(f64, f64) -> (Profile, Profile),
    ) -> Forecast {
        let names: Vec<&str> = {
            let mut n: Vec<&str> = b.assumed.iter().chain(&c.assumed).map(String::as_str).collect();
            n.sort_unstable();
            n.dedup();
            n
        };
        let prior = size_prior(&names);
        let mut at = Vec::with_capacity(prior.len());
        for &(elements, each) in &prior {
            let (pb, pc) = at_size(elements, each);
            let e = self.raw_estimate(&pb, &pc).scaled(self.adjustment.mu_scale);
            at.push((elements, e));
        }
        let n = at.len().max(1) as f64;
        let mu = at.iter().map(|(_, e)| e.mu).sum::<f64>() / n;
        let disagreement = at.iter().map(|(_, e)| e.disagreement).sum::<f64>() / n;
        let spread = (at.iter().map(|(_, e)| (e.mu - mu).powi(2)).sum::<f64>() / n).sqrt();
        let mut f = self.forecast_estimate(Estimate { mu, disagreement }, spread, undeclared, b, c);
        if let Some(why) = different_unknowns(b, c) {
            // Each version's tensors are sized from its own unknowns: a 3-D state against a
            // 4-D one at the same value each is not the same problem (seen on foreign code:
            // 64% of such pairs kept were right, against 95% of the others).
            f.confidence = f.confidence.min(FLIP_CAP);
            f.reasons.insert(0, why);
        }
        let shown: Vec<String> = names.iter().take(4).map(|n| format!("`{n}`")).collect();
        let lo = at.iter().min_by(|x, y| x.1.mu.total_cmp(&y.1.mu));
        let hi = at.iter().max_by(|x, y| x.1.mu.total_cmp(&y.1.mu));
        if let (Some((e_lo, lo)), Some((e_hi, hi))) = (lo, hi) {
            if lo.mu < -crate::forecast::SAME_BAND && hi.mu > crate::forecast::SAME_BAND {
                f.confidence = f.confidence.min(FLIP_CAP);
                f.reasons.insert(
                    0,
                    format!(
                        "direction depends on the problem size: ≈{:.2}× at {} elements, ≈{:.2}× at {} \
                         (sizes {} are known only at run time)",
                        hi.mu.exp2(),
                        elements_label(*e_hi),
                        lo.mu.exp2(),
                        elements_label(*e_lo),
                        shown.join(", ")
                    ),
                );
                return f;
            }
        }
        f.reasons.push(format!(
            "assumed sizes: {} not given in the code; forecast over {}–{} elements (±{:.2} in log2 S across them)",
            shown.join(", "),
            elements_label(prior.first().map_or(0.0, |p| p.0)),
            elements_label(prior.last().map_or(0.0, |p| p.0)),
            spread
        ));
        f
    }

    /// The forecast of two groups of kernels taken as one program each (a fused kernel
    /// against the kernels it replaces): their profiles, and those of the torch operations
    /// their launching functions run, added up; over the size prior where sizes are unknown.
    pub fn forecast_programs(&self, base: &[&Kernel], cand: &[&Kernel]) -> Option<Forecast> {
        let (base, cand) = crate::forecast::program_profile::share_element_sizes(base, cand);
        let (base, cand): (Vec<&Kernel>, Vec<&Kernel>) =
            (base.iter().map(|k| &**k).collect(), cand.iter().map(|k| &**k).collect());
        let (base, cand) = (&base[..], &cand[..]);
        let total = |ks: &[&Kernel], assumed: f64, elements: f64| self.profiles.program_profile(ks, assumed, elements);
        let assumed = crate::features::expr::ASSUMED_SIZE;
        let (b, c) = (total(base, assumed, assumed)?, total(cand, assumed, assumed)?);
        let undeclared = crate::forecast::undeclared(base.iter().chain(cand).copied());
        if b.assumed.is_empty() && c.assumed.is_empty() {
            return Some(self.forecast_read(&b, &c, undeclared));
        }
        let at_size = |elements: f64, each: f64| {
            // The prior's element count at this size: a tensor nothing sizes has that many.
            match (total(base, each, elements), total(cand, each, elements)) {
                (Some(x), Some(y)) => (x, y),
                _ => (b.clone(), c.clone()),
            }
        };
        Some(self.forecast_over_prior(&b, &c, undeclared, at_size))
    }
}

/// Why two versions that each leave sizes to run time, but not the same ones, cannot be
/// told to be costed at the same problem: `None` where they leave the same (or either none).
fn different_unknowns(b: &Profile, c: &Profile) -> Option<String> {
    if b.assumed.is_empty() || c.assumed.is_empty() {
        return None;
    }
    let only = |x: &Profile, y: &Profile| -> Vec<String> {
        x.assumed.iter().filter(|n| !y.assumed.contains(n)).take(3).map(|n| format!("`{n}`")).collect()
    };
    let (base, cand) = (only(b, c), only(c, b));
    if base.is_empty() && cand.is_empty() || roles(&b.assumed) == roles(&c.assumed) {
        // The same sizes, or the same under other names (`x.shape[0]` for `y.shape[0]`,
        // `batch_size` for `B`, `n` for `N`: a version renamed).
        return None;
    }
    let side = |names: &[String], which: &str| {
        (!names.is_empty()).then(|| format!("{} only in the {which}", names.join(", ")))
    };
    let sides: Vec<String> = [side(&base, "base"), side(&cand, "candidate")].into_iter().flatten().collect();
    Some(format!(
        "not sure: the versions leave different sizes to run time ({}), so kforecast cannot tell \
         they are costed at the same problem; measure it on the GPU",
        sides.join("; ")
    ))
}

/// The roles of a version's unknown sizes, whatever their names: a tensor's dimension
/// (`x.shape[0]` → `shape[0]`, any other `shape[inner]`), a tensor's elements, a size whose name tells a role of
/// typical value (a batch, heads), or a size of the problem.
fn roles(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = names
        .iter()
        .map(|n| {
            if let Some(i) = n.find(".shape[") {
                // The leading dimension, or an inner one (`x.shape[-1]` of a 2-D `x` is its
                // `x.shape[1]`).
                if n[i..].starts_with(".shape[0]") { "shape[0]" } else { "shape[inner]" }.to_string()
            } else if n.ends_with(".numel()") {
                "numel()".to_string()
            } else if let Some(v) = crate::features::expr::typical_size(n) {
                format!("typical {v}")
            } else {
                "size".to_string()
            }
        })
        .collect();
    out.sort_unstable();
    out
}

/// Confidence a forecast whose direction flips within the size prior may have.
pub const FLIP_CAP: f64 = 0.5;

/// Problem sizes real workloads use, log-uniform from 2^14 elements (a batch of 16 rows of
/// a 1024-wide layer) to 2^28 (32k rows of 8k): (elements, the value each of the unknown
/// sizes `names` takes so that together they make that many elements; a batch, heads or a
/// head's width keep their typical values, see [`crate::features::expr::spread`]).
pub fn size_prior<S: AsRef<str>>(names: &[S]) -> Vec<(f64, f64)> {
    (0..8)
        .map(|i| {
            let elements = f64::from(1u32 << (14 + 2 * i));
            (elements, crate::features::expr::spread(elements, names))
        })
        .collect()
}

fn elements_label(e: f64) -> String {
    format!("2^{}", e.max(1.0).log2().round())
}

#[cfg(test)]
mod tests {
    use crate::extract::extract_text;
    use crate::forecast::{Forecaster, TrainedForecaster};
    use crate::kernel::Language;

    /// A row scale whose wrapper reads the sizes as `read` (run time only).
    fn scale(read: &str, grid: &str, n: &str) -> String {
        format!(
            "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n\
             def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    \
             tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)\n\n\
             def run(x):\n    y = torch.empty_like(x)\n{read}\n    scale[({grid},)](x, y, {n}, BLOCK=1024)\n    return y\n"
        )
    }

    #[test]
    fn versions_leaving_different_sizes_to_run_time_are_never_claimed_surely() {
        let f = TrainedForecaster::shipped().expect("model");
        let kernel = |src: &str| extract_text(Language::Triton, src).kernels.into_iter().next().expect("kernel");
        let rows = kernel(&scale("    rows, cols = x.shape\n    n = rows * cols", "triton.cdiv(n, 1024)", "n"));
        let batched =
            kernel(&scale("    batch, heads, dim = x.shape\n    n = batch * heads * dim", "triton.cdiv(n, 512)", "n"));
        let forecast = f.forecast(&rows, &batched);
        assert!(forecast.confidence <= super::FLIP_CAP, "{forecast:?}");
        assert!(forecast.reasons.iter().any(|r| r.contains("different sizes")), "{:?}", forecast.reasons);
        // The same unknowns on both sides: compared at one size, no such doubt.
        let rows_512 = kernel(&scale("    rows, cols = x.shape\n    n = rows * cols", "triton.cdiv(n, 512)", "n"));
        let same = f.forecast(&rows, &rows_512);
        assert!(!same.reasons.iter().any(|r| r.contains("different sizes")), "{:?}", same.reasons);
        // The same roles under other names (a version renamed `rows` to `m`, `x` to `inp`).
        let renamed = kernel(
            &scale(
                "    m, k = x.shape
    n = m * k",
                "triton.cdiv(n, 512)",
                "n",
            )
            .replace("def run(x):", "def run(inp):")
            .replace("x.shape", "inp.shape"),
        );
        let renamed = f.forecast(&rows, &renamed);
        assert!(!renamed.reasons.iter().any(|r| r.contains("different sizes")), "{:?}", renamed.reasons);
    }
}
