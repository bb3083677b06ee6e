//! Doubts about what the reader made of the code, whatever forecaster is asked: a kernel
//! modelled at an implausible cost (unknown sizes multiplied into a grid), and versions in
//! different languages. The trained forecaster applies them to every pair it forecasts (an
//! editor's hint as much as `kforecast forecast`), and a program's forecast again after its
//! kernels' forecasts are combined (a combination is a plain normal that keeps no cap).

use super::{Doubt, Forecast};
use crate::kernel::Kernel;

/// Modelled cost (byte-equivalents at the H100's 3 TB/s) past which a kernel's reading is
/// not believed: 10 s a launch, a thousand times the longest run in the evaluation sets.
pub const IMPLAUSIBLE_COST: f64 = 3.0e13;

/// The doubt of a forecast whose reading kforecast knows it missed: it may be off either
/// way, so it is never claimed surely.
pub const UNREAD: Doubt = Doubt { sigma: 1.0, lost: 0.0, cap: super::trained::FLIP_CAP };

/// How sure a forecast across languages may be: below the deferral threshold (measured
/// on the few such pairs of the evaluation sets, 6 of 10 right).
pub const CROSS_LANGUAGE: Doubt = Doubt { sigma: 0.5, lost: 0.0, cap: 0.6 };

/// `f`, widened for each doubt of the reading that holds for `base` against `candidate`
/// (each kernel with its modelled cost) and that `f` does not state already.
pub fn read_doubts(f: Forecast, base: &[(&Kernel, f64)], candidate: &[(&Kernel, f64)]) -> Forecast {
    let f = match implausible(base.iter().chain(candidate)) {
        Some(why) => widen_once(f, UNREAD, why),
        None => f,
    };
    match crossed_languages(base, candidate) {
        Some(why) => widen_once(f, CROSS_LANGUAGE, why),
        None => f,
    }
}

fn widen_once(f: Forecast, doubt: Doubt, why: String) -> Forecast {
    if f.reasons.iter().any(|r| r.contains(&why)) {
        return f;
    }
    f.widened(doubt, Some(why))
}

/// "not sure: …" when a kernel of either version is modelled past [`IMPLAUSIBLE_COST`].
fn implausible<'a>(mut kernels: impl Iterator<Item = &'a (&'a Kernel, f64)>) -> Option<String> {
    let (k, _) = kernels.find(|(_, cost)| *cost > IMPLAUSIBLE_COST)?;
    Some(format!(
        "not sure: `{}` is modelled at over 10 s a run (sizes the code leaves to run time misread); \
         measure it on the GPU",
        k.name
    ))
}

/// "not sure: …" when no kernel of one version shares a language with the other's (a
/// PyTorch-only program is comparable to either: its torch operations are costed alike).
fn crossed_languages(base: &[(&Kernel, f64)], candidate: &[(&Kernel, f64)]) -> Option<String> {
    let torch = base.iter().chain(candidate).any(|(k, _)| k.torch_program);
    let shared = base.iter().any(|(x, _)| candidate.iter().any(|(y, _)| y.language == x.language));
    if torch || shared {
        return None;
    }
    let ((b, _), (c, _)) = (base.first()?, candidate.first()?);
    Some(format!(
        "not sure: {:?} against {:?}: kforecast compares versions in different languages from few examples; \
         measure it on the GPU",
        b.language, c.language
    ))
}
