//! Doubts about what the reader made of the code, whatever forecaster is asked: a kernel
//! modelled at an implausible cost (unknown sizes multiplied into a grid), versions in
//! different languages, and a forecast the versions' modelled costs contradict. The trained
//! forecaster applies them to every pair it forecasts (an editor's hint as much as
//! `kforecast forecast`), and a program's forecast again after its kernels' forecasts are
//! combined (a combination is a plain normal that keeps no cap).

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
    let f = match crossed_languages(base, candidate) {
        Some(why) => widen_once(f, CROSS_LANGUAGE, why),
        None => f,
    };
    let f = match library_differs(base, candidate) {
        Some(why) => widen_once(f, UNREAD, why),
        None => f,
    };
    match roofline_disagrees(&f, base, candidate) {
        Some((doubt, why)) => widen_once(f, doubt, why),
        None => f,
    }
}

/// How sure a forecast may be whose direction the versions' modelled costs contradict by
/// less than [`ROOFLINE_FAR`] (the roofline reads one version dearer, the trained model
/// calls it the faster): below the deferral threshold. On the looked-at first looks
/// (b26)–(b40) and (a) calib, the trained model was right on 30 of 42 such clear pairs (71%).
pub const ROOFLINE_DISAGREES: Doubt = Doubt { sigma: 0.0, lost: 0.0, cap: 0.6 };

/// How sure a forecast may be whose direction the modelled costs contradict by
/// [`ROOFLINE_FAR`] or more: on the same sets the trained model was right on 90 of 102 such
/// clear pairs (88%), in 12 of 17 families wholly. A roofline that far the other way has
/// mostly misread the work (a naive GEMM's reuse), so it lowers the claim without deferring it.
pub const ROOFLINE_FAR_DOUBT: Doubt = Doubt { sigma: 0.0, lost: 0.0, cap: 0.85 };

/// How far apart (log2 of the modelled costs' ratio) the versions' costs must be for the
/// roofline to contradict a forecast: a quarter of an octave, past the cost model's noise.
const ROOFLINE_MARGIN: f64 = 0.25;

/// Modelled costs' ratio (log2) from which a contradicting roofline is taken as its own
/// misreading more often than the trained model's: 4×.
const ROOFLINE_FAR: f64 = 2.0;

/// The doubt and "not sure: …" (or, [`ROOFLINE_FAR`] apart, "less sure: …") when the
/// versions' modelled costs (all kernels of each) put them the other way round from `f`'s
/// claim, by more than [`ROOFLINE_MARGIN`].
fn roofline_disagrees(f: &Forecast, base: &[(&Kernel, f64)], candidate: &[(&Kernel, f64)]) -> Option<(Doubt, String)> {
    let total = |ks: &[(&Kernel, f64)]| ks.iter().map(|(_, c)| c).sum::<f64>();
    let (b, c) = (total(base), total(candidate));
    if !(b > 0.0 && c > 0.0 && b.is_finite() && c.is_finite()) || f.claim == super::Claim::Same {
        return None;
    }
    let roofline = (b / c).log2();
    let claimed = f.speedup.max(1e-12).log2();
    if roofline.abs() < ROOFLINE_MARGIN || roofline.signum() == claimed.signum() {
        return None;
    }
    let (ratio, way) = if roofline > 0.0 { (b / c, "faster") } else { (c / b, "slower") };
    Some(if roofline.abs() >= ROOFLINE_FAR {
        (
            ROOFLINE_FAR_DOUBT,
            format!(
                "less sure: the modelled costs make it ≈{ratio:.1}× {way}, the trained model the other way                  (the trained model is right on most such pairs: ≈88% where they were measured)"
            ),
        )
    } else {
        (
            ROOFLINE_DISAGREES,
            format!(
                "not sure: the modelled costs make it ≈{ratio:.1}× {way}, the trained model the other way;                  measure it on the GPU"
            ),
        )
    })
}

/// Each kernel of `kernels` with its modelled cost, as [`read_doubts`] takes them.
pub fn with_costs<'a>(
    kernels: impl IntoIterator<Item = &'a Kernel>,
    cost: impl Fn(&Kernel) -> f64,
) -> Vec<(&'a Kernel, f64)> {
    kernels.into_iter().map(|k| (k, cost(k))).collect()
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

/// "not sure: …" when one version's launching code calls a GPU library (cuFFT, cuDNN, a
/// batched GEMM) the other's does not, and kforecast does not cost its work: it is not in
/// any kernel kforecast reads, so the kernels alone do not tell which version is faster.
fn library_differs(base: &[(&Kernel, f64)], candidate: &[(&Kernel, f64)]) -> Option<String> {
    let calls = |ks: &[(&Kernel, f64)]| -> std::collections::BTreeSet<String> {
        ks.iter().flat_map(|(k, _)| k.launches.iter().flat_map(|l| l.library_names())).map(str::to_string).collect()
    };
    let (b, c) = (calls(base), calls(candidate));
    // A call whose work is costed (a GEMM, a sort, a scan) is compared as the kernels are.
    let call = b.symmetric_difference(&c).find(|call| !crate::features::torch_ops::library::costed(call))?;
    Some(format!(
        "not sure: `{call}` is a library call whose work kforecast does not cost, and only one version \
         makes it; measure it on the GPU"
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::Language;

    fn kernel(name: &str) -> Kernel {
        let src = format!("__global__ void {name}(float* x) {{ x[threadIdx.x] = 0.0f; }}\n");
        crate::extract::extract_text(Language::Cuda, &src).kernels.remove(0)
    }

    fn claim(speedup: f64) -> Forecast {
        Forecast::from_log2_normal(speedup.log2(), 0.2, "test", Vec::new())
    }

    #[test]
    fn a_claim_the_modelled_costs_contradict_is_not_kept() {
        let (a, b) = (kernel("a"), kernel("b"));
        // The candidate is modelled at twice the base's cost, yet claimed 1.5x faster.
        let sure = claim(1.5);
        assert!(sure.confidence > 0.9);
        let f = read_doubts(sure.clone(), &[(&a, 1.0e9)], &[(&b, 2.0e9)]);
        assert!(f.confidence <= ROOFLINE_DISAGREES.cap, "{f:?}");
        assert!(f.reasons.iter().any(|r| r.contains("modelled costs make it ≈2.0× slower")), "{:?}", f.reasons);
        // Costs that agree, or that differ by less than the margin, leave it as it was.
        assert_eq!(read_doubts(sure.clone(), &[(&a, 2.0e9)], &[(&b, 1.0e9)]).confidence, sure.confidence);
        assert_eq!(read_doubts(sure.clone(), &[(&a, 1.0e9)], &[(&b, 1.1e9)]).confidence, sure.confidence);
    }

    #[test]
    fn a_roofline_far_the_other_way_lowers_the_claim_without_deferring_it() {
        let (a, b) = (kernel("a"), kernel("b"));
        // A naive GEMM's reuse misread: the candidate modelled 8x dearer, measured faster
        // far more often than not.
        let sure = claim(3.0);
        let f = read_doubts(sure.clone(), &[(&a, 1.0e9)], &[(&b, 8.0e9)]);
        assert!(f.confidence <= ROOFLINE_FAR_DOUBT.cap && f.confidence >= 0.7, "{f:?}");
        assert!(
            f.reasons.iter().any(|r| r.starts_with("less sure: the modelled costs make it ≈8.0× slower")),
            "{:?}",
            f.reasons
        );
    }

    #[test]
    fn a_version_whose_work_is_in_a_library_call_kforecast_does_not_cost_is_not_sure() {
        let naive = crate::extract::extract_text(
            Language::Cuda,
            "__global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; }\n\
             void run(float* x, float* y) { scale<<<1, 256>>>(x); scale<<<1, 256>>>(y); }\n",
        )
        .kernels
        .remove(0);
        let library = crate::extract::extract_text(
            Language::Cuda,
            "__global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; }\n\
             void run(cufftHandle p, float* x, float* y) {\n\
               cufftPlan1d(&p, 256, CUFFT_C2C, 1);\n\
               cufftExecC2C(p, (cufftComplex*)x, (cufftComplex*)y, CUFFT_FORWARD);\n\
               scale<<<1, 256>>>(x);\n\
             }\n",
        )
        .kernels
        .remove(0);
        // Only the work the kernel shows, not its handle's set-up.
        assert_eq!(library.launches[0].library_names(), vec!["cufftExecC2C"]);
        let sure = claim(1.5);
        let f = read_doubts(sure.clone(), &[(&naive, 1.0e9)], &[(&library, 1.0e9)]);
        assert!(f.confidence < 0.7, "{f:?}");
        assert!(f.reasons.iter().any(|r| r.contains("`cufftExecC2C` is a library call")), "{:?}", f.reasons);
        // Both versions making the same call: the kernels tell them apart again.
        assert_eq!(read_doubts(sure.clone(), &[(&library, 1.0e9)], &[(&library, 1.0e9)]).confidence, sure.confidence);
    }
}
