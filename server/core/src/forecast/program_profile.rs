//! A program's profile: what its kernels and the torch operations around them cost,
//! added up. The trained forecaster forecasts programs whose kernels do not pair one to
//! one with it, and training reads measured programs of other styles through it, so a
//! program is seen the same way when it is learned from and when it is forecast.

use super::trained::programs::size_prior;
use super::EmbeddedForecaster;
use crate::features::{element_size, Profile};
use crate::kernel::Kernel;
use crate::pairing::pair;
use std::borrow::Cow;
use std::collections::BTreeSet;

/// Index in [`size_prior`] of the size a program is read at for training: 2^22 elements,
/// the middle of the prior.
const TRAINING_SIZE: usize = 4;

impl EmbeddedForecaster {
    /// The profiles of `ks` (each kernel alone) and of the torch operations their
    /// launching functions run (each once per launching function), added up; sizes
    /// nothing gives taken as `assumed`, a tensor nothing sizes as `elements` elements.
    pub fn program_profile(&self, ks: &[&Kernel], assumed: f64, elements: f64) -> Option<Profile> {
        let rates = self.rates();
        let ks = &forward_run(ks);
        let mut it = ks.iter();
        let mut p = Profile::clone(&self.profile_assuming(&solo(it.next()?), assumed));
        for k in it {
            p.absorb(&self.profile_assuming(&solo(k), assumed), rates);
        }
        // A torch program's first launch is its own, as a kernel program's first kernel is:
        // only the launches after it pay a further launch's latency.
        let torch = ks.first().is_some_and(|k| k.torch_program) && p.cost.total == 0.0;
        let mut largest: Option<Profile> = None;
        let mut seen = BTreeSet::new();
        for k in ks {
            let host = k.launches.first().map(|l| l.host_name.clone()).unwrap_or_default();
            for (name, op) in crate::features::torch_op_profiles(k, rates, assumed, elements) {
                if seen.insert((host.clone(), name)) {
                    p.absorb(&op, rates);
                    if largest.as_ref().is_none_or(|l| l.features.blocks < op.features.blocks) {
                        largest = Some(op);
                    }
                }
            }
        }
        if let Some(op) = largest.filter(|_| torch) {
            // Its launch shape and bandwidth efficiency: those of its largest launch.
            let f = &mut p.features;
            (f.blocks, f.sm_fill, f.waves) = (op.features.blocks, op.features.sm_fill, op.features.waves);
            p.cost.efficiency = op.cost.efficiency;
            p.cost.overhead -= rates.launch;
            p.cost.total -= rates.launch;
        }
        Some(p)
    }

    /// The two profiles a measured pair of programs is learned from, read as
    /// [`super::forecast_program`] reads them: one kernel paired with one and the same
    /// torch operations around them give the two kernels' profiles; anything else the
    /// two programs added up. Sizes the code leaves to run time are taken at the middle of
    /// the size prior. None when the two versions are the same kernel or hold none.
    pub fn program_pair_profiles(&self, base: &[Kernel], candidate: &[Kernel]) -> Option<(Profile, Profile)> {
        let pairing = pair(base, candidate);
        let torch_program = base.iter().chain(candidate).any(|k| k.torch_program);
        let same_ops = !torch_program && super::program::torch_ops_of(base) == super::program::torch_ops_of(candidate);
        if pairing.pairs.len() == 1 && pairing.base_only.is_empty() && pairing.candidate_only.is_empty() && same_ops {
            let p = &pairing.pairs[0];
            let (b, c) = super::same_problem(base.get(p.base)?, candidate.get(p.candidate)?);
            if b.identity() == c.identity() {
                return None;
            }
            let (pb, pc) = (self.profile(&b), self.profile(&c));
            let Some(each) = training_size(&pb, &pc) else {
                return Some((Profile::clone(&pb), Profile::clone(&pc)));
            };
            return Some((
                Profile::clone(&self.profile_assuming(&b, each.1)),
                Profile::clone(&self.profile_assuming(&c, each.1)),
            ));
        }
        let (b, c): (Vec<&Kernel>, Vec<&Kernel>) = (base.iter().collect(), candidate.iter().collect());
        let (b, c) = share_element_sizes(&b, &c);
        let (b, c): (Vec<&Kernel>, Vec<&Kernel>) = (b.iter().map(|k| &**k).collect(), c.iter().map(|k| &**k).collect());
        let assumed = crate::features::expr::ASSUMED_SIZE;
        let (pb, pc) = (self.program_profile(&b, assumed, assumed)?, self.program_profile(&c, assumed, assumed)?);
        let Some((elements, each)) = training_size(&pb, &pc) else { return Some((pb, pc)) };
        Some((self.program_profile(&b, each, elements)?, self.program_profile(&c, each, elements)?))
    }
}

/// The prior's (elements, value of each unknown size) a pair is read at for training;
/// None when both versions give every size.
fn training_size(b: &Profile, c: &Profile) -> Option<(f64, f64)> {
    let names: BTreeSet<&String> = b.assumed.iter().chain(&c.assumed).collect();
    if names.is_empty() {
        return None;
    }
    let names: Vec<&String> = names.into_iter().collect();
    size_prior(&names).get(TRAINING_SIZE).copied()
}

/// The kernels a run of the program launches: a file's backward-pass kernels (named or
/// launched as `backward`, `bwd`) are left out where it has others, since a run (and a
/// measurement) calls the forward pass (unless the file's entry points run them), and so
/// are device helpers other kernels call.
fn forward_run<'k>(ks: &[&'k Kernel]) -> Vec<&'k Kernel> {
    let backward = |k: &Kernel| {
        // A backward pass the file's entry points run (`extern "C" void backward(…)`) is part
        // of what a run measures.
        if k.launches.iter().any(|l| l.reached) {
            return false;
        }
        let host = k.launches.first().map_or("", |l| l.host_name.as_str());
        [k.name.as_str(), host].iter().any(|n| {
            let n = n.to_ascii_lowercase();
            n.contains("backward") || n.contains("bwd")
        })
    };
    // A `@triton.jit` function no launch names that another kernel calls (`silu(x)`) is a
    // device helper, run inside that kernel, not a launch of its own; one nothing calls or
    // launches where the program launches others (a helper left unused) never runs, nor
    // does a kernel launched only from functions the program's entry points do not reach.
    // Where the file's entry points are known to launch a kernel (a `main`, an `extern "C"`
    // entry), a CUDA kernel launched nowhere in it is one the program does not run either (a
    // testbench's other kernels, chosen by `#define`).
    let launching = ks.iter().any(|k| k.runs());
    let entered = ks.iter().any(|k| k.launches.iter().any(|l| l.reached));
    let helper = |k: &Kernel| {
        !k.runs()
            && (ks.iter().any(|o| o.name != k.name && crate::extract::words(&o.source).any(|w| w == k.name))
                || (launching && k.language == crate::kernel::Language::Triton && !k.torch_program)
                || (launching && !k.launches.is_empty())
                || (entered && k.language == crate::kernel::Language::Cuda && !k.torch_program))
    };
    let forward: Vec<&Kernel> = ks.iter().copied().filter(|k| !backward(k) && !helper(k)).collect();
    if forward.is_empty() {
        ks.to_vec()
    } else {
        forward
    }
}

/// Two versions of one program compute the same problem on the same inputs: where one
/// version's tensors have an element size (`generate_input(…, dtype=torch.float16)`, a
/// Triton kernel that casts to `tl.float16`) and the other's nothing gives (a submission
/// without the task's input maker, a cast to `out_ptr.dtype.element_ty`), the other's
/// kernels take it, so a width read on one side only is no difference between them.
pub fn share_element_sizes<'k>(
    base: &[&'k Kernel],
    candidate: &[&'k Kernel],
) -> (Vec<Cow<'k, Kernel>>, Vec<Cow<'k, Kernel>>) {
    let fill = |ks: &[&'k Kernel], bytes: Option<f64>| -> Vec<Cow<'k, Kernel>> {
        match bytes.filter(|_| stated_width(ks).is_none()) {
            Some(bytes) => ks.iter().map(|k| Cow::Owned(with_element_size(k, bytes))).collect(),
            None => ks.iter().map(|k| Cow::Borrowed(*k)).collect(),
        }
    };
    (fill(base, stated_width(candidate)), fill(candidate, stated_width(base)))
}

/// [`share_element_sizes`] for one kernel against one.
pub(crate) fn share_element_size<'k>(
    base: Cow<'k, Kernel>,
    candidate: Cow<'k, Kernel>,
) -> (Cow<'k, Kernel>, Cow<'k, Kernel>) {
    match (stated_width(&[&base]), stated_width(&[&candidate])) {
        (None, Some(bytes)) => (Cow::Owned(with_element_size(&base, bytes)), candidate),
        (Some(bytes), None) => (base, Cow::Owned(with_element_size(&candidate, bytes))),
        _ => (base, candidate),
    }
}

/// The element size a version's kernels state: their wrappers' tensors' where they agree,
/// else 2 bytes for Triton kernels whose text names a 16-bit type (as the reader takes it).
fn stated_width(ks: &[&Kernel]) -> Option<f64> {
    let launched =
        crate::extract::agreed_element_size(ks.iter().filter_map(|k| k.launches.first()).filter_map(element_size));
    launched.or_else(|| {
        let triton = ks.iter().all(|k| k.language == crate::kernel::Language::Triton);
        (triton && ks.iter().any(|k| crate::features::names_half(&k.source))).then_some(2.0)
    })
}

/// `k` with its launch's tensors of `bytes` elements.
fn with_element_size(k: &Kernel, bytes: f64) -> Kernel {
    let mut k = Kernel::clone(k);
    if let Some(site) = k.launches.first_mut() {
        site.locals.insert("(input).element_size()".into(), bytes.to_string());
        k.identity = k.compute_identity();
    }
    k
}

/// A kernel alone, without the other kernels its wrapper launches (a program counts each
/// launch once).
pub(crate) fn solo(k: &Kernel) -> Cow<'_, Kernel> {
    if k.companions.is_empty() {
        Cow::Borrowed(k)
    } else {
        let mut k = k.clone();
        k.companions.clear();
        k.identity = k.compute_identity();
        Cow::Owned(k)
    }
}

#[cfg(test)]
mod tests {
    use crate::extract::extract_text;
    use crate::forecast::EmbeddedForecaster;
    use crate::kernel::{Kernel, Language};

    fn kernels(src: &str) -> Vec<Kernel> {
        extract_text(Language::Cuda, src).kernels
    }

    const TWO: &str = "__global__ void scale(const float* a, float* t, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) t[i] = 2.0f * a[i]; }\n\
        __global__ void shift(const float* t, float* b, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) b[i] = t[i] + 1.0f; }\n\
        void run(const float* a, float* t, float* b, int n) { scale<<<(n + 255) / 256, 256>>>(a, t, n); shift<<<(n + 255) / 256, 256>>>(t, b, n); }\n";
    const FUSED: &str = "__global__ void fused(const float* a, float* b, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) b[i] = 2.0f * a[i] + 1.0f; }\n\
        void run(const float* a, float* t, float* b, int n) { fused<<<(n + 255) / 256, 256>>>(a, b, n); }\n";

    #[test]
    fn a_renamed_kernel_is_learned_from_as_the_kernel_it_is() {
        let p = EmbeddedForecaster::new();
        let base = kernels(FUSED);
        let cand = kernels(&FUSED.replace("fused", "fused_v2").replace("2.0f * a[i]", "a[i] * 2.0f"));
        let (b, c) = p.program_pair_profiles(&base, &cand).expect("a pair");
        assert_eq!(b.cost.memory, c.cost.memory);
        assert!(!b.assumed.is_empty(), "`n` is known only at run time");
        assert!(p.program_pair_profiles(&base, &base).is_none(), "the same kernel twice is nothing to learn");
    }

    #[test]
    fn a_kernel_the_entry_never_launches_is_not_part_of_the_program() {
        // A testbench keeps the fused kernel beside the two its entry launches.
        let p = EmbeddedForecaster::new();
        let entry = TWO.replace("void run(", "extern \"C\" void run(");
        let unused = FUSED.split_once("void run(").map_or("", |(kernel, _)| kernel);
        let bench = format!("{unused}{entry}");
        let (with, without) = (kernels(&bench), kernels(&entry));
        let profile =
            |ks: &[Kernel]| p.program_profile(&ks.iter().collect::<Vec<_>>(), 4096.0, 4096.0).expect("profile");
        assert_eq!(profile(&with).cost.total, profile(&without).cost.total);
    }

    #[test]
    fn two_kernels_against_one_fused_are_learned_from_as_programs() {
        let p = EmbeddedForecaster::new();
        let (two, fused) = p.program_pair_profiles(&kernels(TWO), &kernels(FUSED)).expect("a pair");
        assert!(two.cost.memory > 1.5 * fused.cost.memory, "{} vs {}", two.cost.memory, fused.cost.memory);
    }

    /// A gated activation whose result is cast to a type before its store; the wrapper
    /// makes no tensor, so nothing else gives the element size.
    fn gated(cast: &str) -> Vec<Kernel> {
        extract_text(Language::Triton, &gated_source(cast)).kernels
    }

    fn gated_source(cast: &str) -> String {
        format!(
            "import torch\nimport triton\nimport triton.language as tl\n\n\n@triton.jit\n\
             def gate_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):\n    \
             offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    \
             g = tl.load(x_ptr + offs, mask=offs < n).to(tl.float32)\n    \
             u = tl.load(x_ptr + n + offs, mask=offs < n)\n    \
             g = (g / (1 + tl.exp(-g))).to({cast})\n    \
             tl.store(out_ptr + offs, g * u, mask=offs < n)\n\n\n\
             def gate(x, out):\n    n = out.numel()\n    \
             gate_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)\n"
        )
    }

    #[test]
    fn a_jit_helper_nothing_calls_is_not_a_launch_of_the_program() {
        // A version that keeps an unused `@triton.jit` helper beside its launched kernel runs
        // one kernel, as the version without it does.
        let p = EmbeddedForecaster::new();
        let with_unused = |src: &str| {
            let unused = "@triton.jit\ndef next_multiple_of(a, b):\n    return tl.cdiv(a, b) * b\n\n\n";
            let src = src.replacen("@triton.jit\n", &format!("{unused}@triton.jit\n"), 1);
            extract_text(Language::Triton, &src).kernels
        };
        let own = gated("tl.float16");
        let kept = with_unused(&gated_source("tl.float16"));
        assert_eq!(kept.len(), 2, "both jit functions are read");
        let (b, c) = p.program_pair_profiles(&own, &kept).expect("a pair");
        assert_eq!((b.features.launches, b.cost.total), (c.features.launches, c.cost.total));
    }

    #[test]
    fn a_cast_to_the_output_type_is_the_width_the_other_version_names() {
        use crate::forecast::Forecaster;
        let (named, own) = (gated("tl.float16"), gated("out_ptr.dtype.element_ty"));
        let f = crate::forecast::TrainedForecaster::shipped().expect("model");
        let hint = f.forecast(&named[0], &own[0]);
        assert!(hint.speedup.log2().abs() < 0.2, "{hint:?}");
        let p = EmbeddedForecaster::new();
        let (b, c) = p.program_pair_profiles(&named, &own).expect("a pair");
        assert_eq!(b.features.load_bytes, c.features.load_bytes);
    }
}
