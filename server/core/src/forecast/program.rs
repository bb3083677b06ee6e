//! Forecasts for a whole program (a file's kernels, a wrapper's launches) against another
//! version of it, whatever the kernels are called: kernels are paired by name or by role
//! ([`crate::pairing`]); pairs matched by a guess are forecast less surely; kernels that do
//! not pair (a fused kernel against the two it replaces) are forecast as whole programs.

use super::combine::{combine, forecast_unit, Part};
use super::read_doubts::{read_doubts, with_costs, UNREAD};
use super::{Doubt, Forecast, Forecaster};
use crate::features::torch_ops::TorchOp;
use crate::kernel::{Kernel, Language};
use crate::pairing::{pair, Match, Pairing};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// How much a forecast is widened for what the pairing had to guess. Fitted on code of
/// other styles than the training corpus (`kforecast eval --set … --fit-doubt`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairingDoubt {
    /// σ added (log2 S) for a match of strength 0, scaled by (1 − strength).
    pub sigma: f64,
    /// Weight of the wide "no idea" normal for a match of strength 0, likewise scaled.
    pub lost: f64,
    /// σ and weight added when kernels are left unmatched (forecast as whole programs).
    pub program_sigma: f64,
    pub program_lost: f64,
    /// The confidence a guessed pairing may reach at most.
    pub cap: f64,
    /// σ and weight added, on top of the whole-program doubt, when one version is a
    /// PyTorch-only program (its torch operations costed from their shapes, not read as
    /// kernels).
    #[serde(default)]
    pub torch_sigma: f64,
    #[serde(default)]
    pub torch_lost: f64,
}

impl Default for PairingDoubt {
    fn default() -> Self {
        Self {
            sigma: 1.0,
            lost: 0.5,
            program_sigma: 0.8,
            program_lost: 0.35,
            cap: 0.9,
            torch_sigma: 0.0,
            torch_lost: 0.0,
        }
    }
}

/// The doubt shipped with the model (`server/core/model/doubt.json`).
pub const SHIPPED_DOUBT: &str = include_str!("../../model/doubt.json");

impl PairingDoubt {
    /// The shipped doubt, read once per process; the defaults if the file does not parse
    /// (a test catches that).
    pub fn shipped() -> Self {
        static SHIPPED: std::sync::OnceLock<PairingDoubt> = std::sync::OnceLock::new();
        *SHIPPED.get_or_init(|| serde_json::from_str(SHIPPED_DOUBT).unwrap_or_default())
    }

    /// The doubt a pair matched this way deserves.
    pub fn for_match(&self, how: &Match) -> Doubt {
        if !how.guessed() {
            return Doubt::NONE;
        }
        let miss = 1.0 - how.strength();
        Doubt { sigma: self.sigma * miss, lost: self.lost * miss, cap: self.cap }
    }

    fn for_program(&self, torch: bool) -> Doubt {
        let program = Doubt { sigma: self.program_sigma, lost: self.program_lost, cap: self.cap };
        if torch {
            program.and(Doubt { sigma: self.torch_sigma, lost: self.torch_lost, cap: 1.0 })
        } else {
            program
        }
    }
}

/// A program's forecast and how its kernels were paired.
#[derive(Clone, Debug)]
pub struct ProgramForecast {
    pub forecast: Forecast,
    pub pairing: Pairing,
}

/// Forecasts two versions of a program (`base` and `candidate` are their kernels, in file
/// order); `forecast` forecasts one pair (through a cache, say). The pairing is of the
/// kernels a run launches (see [`launched`]).
pub fn forecast_program(
    forecast: impl Fn(&Kernel, &Kernel) -> Forecast,
    forecaster: &dyn Forecaster,
    doubt: &PairingDoubt,
    base: &[Kernel],
    candidate: &[Kernel],
) -> ProgramForecast {
    let (base, candidate) = (launched(base), launched(candidate));
    let (base, candidate) = (&base[..], &candidate[..]);
    let pairing = pair(base, candidate);
    // The same program (only comments, whitespace or local names changed): no forecast to make.
    let same = !base.is_empty()
        && base.len() == candidate.len()
        && base.iter().zip(candidate).all(|(b, c)| b.identity() == c.identity());
    if same {
        return ProgramForecast { forecast: Forecast::same_kernel(forecaster.id()), pairing };
    }
    // A PyTorch-only program is its torch operations: always forecast as a whole program.
    let torch_program = base.iter().chain(candidate).any(|k| k.torch_program);
    let (base_ops, candidate_ops) = (torch_ops(base), torch_ops(candidate));
    let torch_differs = torch_program || names(&base_ops) != names(&candidate_ops);
    let one_to_one = pairing.base_only.is_empty() && pairing.candidate_only.is_empty();
    let f = if pairing.all_by_name() && !torch_differs {
        forecast_unit(&forecast, forecaster, base, candidate)
    } else if one_to_one && !torch_differs {
        // Every kernel has a counterpart: each pair forecast, the guessed ones less surely.
        let forecasts: Vec<Forecast> = pairing
            .pairs
            .iter()
            .map(|p| {
                let (b, c) = (&base[p.base], &candidate[p.candidate]);
                let note = p.how.guessed().then(|| format!("{} → {}: {}", b.name, c.name, p.how.describe()));
                forecast(b, c).widened(doubt.for_match(&p.how), note)
            })
            .collect();
        let parts: Vec<Part> = pairing
            .pairs
            .iter()
            .zip(forecasts)
            .map(|(p, f)| Part {
                name: &candidate[p.candidate].name,
                forecast: Some(f),
                base_weight: forecaster.weight(&base[p.base]),
                candidate_weight: forecaster.weight(&candidate[p.candidate]),
            })
            .collect();
        let mut f = combine(&parts, forecaster.id());
        if parts.len() > 1 {
            // The combination is a plain normal: it keeps the weakest match's cap.
            let cap = pairing.pairs.iter().map(|p| doubt.for_match(&p.how).cap).fold(1.0, f64::min);
            f.confidence = f.confidence.min(cap);
        }
        f
    } else {
        let (b, c): (Vec<&Kernel>, Vec<&Kernel>) = (base.iter().collect(), candidate.iter().collect());
        let names = |ks: &[&Kernel]| ks.iter().map(|k| k.name.as_str()).collect::<Vec<_>>().join(" + ");
        let library = b.iter().chain(&c).any(|k| k.torch_program && k.language == Language::Cuda);
        let why = if library {
            "a library-only program runs GPU library calls (cuBLAS, Thrust, CUB), no kernel of its own"
        } else if torch_program {
            "a PyTorch-only program runs torch operations, no kernel"
        } else if one_to_one {
            "the torch operations around the kernels differ"
        } else {
            "the kernels do not pair one to one"
        };
        let note = format!("forecast as whole programs ({} against {}): {why}", names(&b), names(&c));
        let f = match forecaster.forecast_programs(&b, &c) {
            Some(f) => f.widened(doubt.for_program(torch_program), Some(note)),
            None => forecast_unit(forecast, forecaster, base, candidate)
                .widened(doubt.for_program(torch_program), Some(note)),
        };
        let looped = b.iter().chain(&c).find(|k| k.torch_loops).map(|k| {
            format!(
                "not sure: `{}` runs torch operations in a Python loop, read once and not per iteration; \
                 measure it on the GPU",
                k.name
            )
        });
        let unknown = unknown_torch_op(&base_ops, &candidate_ops).map(|(op, torch)| {
            let what = if torch { "a torch operation" } else { "a library call" };
            format!("not sure: `{op}` is {what} whose cost kforecast does not know; measure it on the GPU")
        });
        // A torch program none of whose statements is read as a torch operation is costed
        // at nothing: whatever it runs was missed.
        let empty =
            b.iter().chain(&c).find(|k| k.torch_program && torch_ops(std::slice::from_ref(*k)).is_empty()).map(|k| {
                format!("not sure: kforecast reads no torch operation in `{}`; measure it on the GPU", k.name)
            });
        match looped.or(unknown).or(empty) {
            Some(why) => f.widened(UNREAD, Some(why)),
            None => f,
        }
    };
    // Combined forecasts keep no part's cap: the reading's doubts again, on the program.
    let cost = |k: &Kernel| forecaster.weight(k);
    let f = read_doubts(f, &with_costs(base, cost), &with_costs(candidate, cost));
    let f = match launched_elsewhere(base, candidate) {
        Some(why) => f.widened(UNREAD, Some(why)),
        None => f,
    };
    ProgramForecast { forecast: f, pairing }
}

/// Why two versions whose kernels are all the same, but launched from other places (a
/// chapter's launcher that switches over its steps, run for another step), cannot be told
/// apart by their kernels: which of them run may differ. `None` where a kernel's text
/// changed, or each is launched from as many places (an edit of a launch's configuration).
fn launched_elsewhere(base: &[Kernel], candidate: &[Kernel]) -> Option<String> {
    if base.len() < 2 || bodies(base) != bodies(candidate) {
        return None;
    }
    let sites = |ks: &[Kernel]| {
        let mut v: Vec<(String, usize)> = ks.iter().map(|k| (k.name.clone(), k.launches.len())).collect();
        v.sort();
        v
    };
    let moved: Vec<String> = sites(base)
        .into_iter()
        .zip(sites(candidate))
        .filter(|(b, c)| b.1 != c.1)
        .map(|(b, _)| format!("`{}`", b.0))
        .take(3)
        .collect();
    (!moved.is_empty()).then(|| {
        format!(
            "not sure: the kernels are unchanged but launched from other places ({}), so which of them \
             run may differ; measure it on the GPU",
            moved.join(", ")
        )
    })
}

/// Each kernel's name, normalised code and helpers, by name: what two versions share where
/// only the code around their kernels changed. Empty for no kernel.
fn bodies(ks: &[Kernel]) -> Vec<(String, crate::hash::ContentHash, Vec<crate::hash::ContentHash>)> {
    let mut v: Vec<_> =
        ks.iter().map(|k| (k.name.clone(), k.normalized_hash, k.helpers.iter().map(|h| h.hash).collect())).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// The kernels a run of a program launches: where it launches some of its kernels itself,
/// the others (a chapter's other steps, an older version kept beside, a `@triton.jit`
/// helper, a step whose branch the caller's arguments do not take) do not run as launches
/// of their own; where it launches none (a file of kernels launched elsewhere), all of them.
fn launched(kernels: &[Kernel]) -> Vec<Kernel> {
    let runs = |k: &Kernel| (k.runs() && !crate::features::decided_not_to_run(k)) || k.torch_program;
    if kernels.iter().any(runs) {
        kernels.iter().filter(|k| runs(k)).cloned().collect()
    } else {
        kernels.to_vec()
    }
}

/// `pf`, forecast from the kernels of two program texts in `language` (each with its
/// kernels): where it found them the same, or claims the same speed of several kernels whose
/// code is unchanged (of those the program runs), but the code around them differs (the line choosing which function runs, what
/// it is passed), what runs may differ too, so it is no longer claimed surely the same. (A
/// torch extension binding every step's launcher, whose entry runs one: every kernel may
/// run in both versions, read the same.)
pub fn with_code_around(
    mut pf: ProgramForecast,
    language: Language,
    (base, base_kernels): (&str, &[Kernel]),
    (candidate, candidate_kernels): (&str, &[Kernel]),
) -> ProgramForecast {
    let normalized = |text| crate::search::rewrite::normalized(text, language);
    // Which kernels each version runs (branch conditions evaluated) matters only for a
    // claim of the same speed.
    let same_bodies = pf.forecast.claim == super::Claim::Same && {
        let (base_run, candidate_run) = (launched(base_kernels), launched(candidate_kernels));
        base_run.len() > 1 && bodies(&base_run) == bodies(&candidate_run)
    };
    if !(pf.forecast.identical || same_bodies) || normalized(base) == normalized(candidate) {
        return pf;
    }
    let mut f = Forecast::from_log2_normal(0.0, 1.0, &pf.forecast.forecaster, Vec::new());
    f.confidence = f.confidence.min(super::trained::FLIP_CAP);
    f.reasons = vec!["not sure: the kernels are unchanged but the code around them is not (which of them run, or on \
         what, may differ); measure it on the GPU"
        .to_string()];
    pf.forecast = f;
    pf
}

/// A torch operation one version runs and the other does not, whose work is not known.
/// With whether it is a torch operation, named for its assignment (`y = torch.fft.fft`),
/// or a library call, named for itself (`cufftExecC2C`, `thrust::set_union`).
fn unknown_torch_op(base: &[TorchOp], candidate: &[TorchOp]) -> Option<(String, bool)> {
    let unknown = |ops: &[TorchOp]| -> BTreeSet<(String, bool)> {
        ops.iter()
            .filter(|op| op.work == crate::features::torch_ops::Work::Unknown)
            .map(|op| match op.name.rsplit_once(" = ") {
                Some((_, what)) => (what.to_string(), true),
                None => (op.name.clone(), false),
            })
            .collect()
    };
    unknown(base).symmetric_difference(&unknown(candidate)).next().cloned()
}

/// The torch operations the launching functions of a version's kernels run.
fn torch_ops(kernels: &[Kernel]) -> Vec<TorchOp> {
    kernels.iter().filter_map(|k| k.launches.first()).flat_map(crate::features::torch_ops::torch_ops).collect()
}

fn names(ops: &[TorchOp]) -> BTreeSet<String> {
    ops.iter().map(|op| op.name.clone()).collect()
}

/// The names of the torch operations the launching functions of a version's kernels run.
pub(crate) fn torch_ops_of(kernels: &[Kernel]) -> BTreeSet<String> {
    names(&torch_ops(kernels))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::extract_text;
    use crate::forecast::read_doubts::CROSS_LANGUAGE;
    use crate::forecast::TrainedForecaster;
    use crate::kernel::Language;

    fn kernels(src: &str) -> Vec<Kernel> {
        extract_text(Language::Cuda, src).kernels
    }

    const COPY: &str = "__global__ void copy_v1(const float* a, float* b, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; \
        if (i < n) b[i] = a[i * 32 % n]; }\nvoid run(const float* a, float* b) { copy_v1<<<16384, 256>>>(a, b, 1 << 22); }\n";

    #[test]
    fn the_same_kernels_launched_for_another_step_are_not_claimed_surely() {
        // A chapter's file: every step's kernel, a launcher switching over them, and an entry
        // running one step; the versions run different steps.
        let f = TrainedForecaster::shipped().expect("model");
        let chapter = |step: &str| {
            format!(
                "__global__ void naive(const float* a, float* b, int n) {{ int i = blockIdx.x * blockDim.x + threadIdx.x; \
                 if (i < n) b[i] = a[(i * 33) % n]; }}\n\
                 __global__ void tiled(const float* a, float* b, int n) {{ int i = blockIdx.x * blockDim.x + threadIdx.x; \
                 if (i < n) b[i] = 2.0f * a[i]; }}\n\
                 void launch(int kind, const float* a, float* b, int n) {{ switch (kind) {{ \
                 case 0: naive<<<(n + 255) / 256, 256>>>(a, b, n); break; \
                 case 1: tiled<<<(n + 255) / 256, 256>>>(a, b, n); break; }} }}\n\
                 void kf_run(const float* a, float* b) {{ int n = 1 << 24; {step}<<<(n + 255) / 256, 256>>>(a, b, n); }}\n"
            )
        };
        let (naive, tiled) = (kernels(&chapter("naive")), kernels(&chapter("tiled")));
        let p = forecast_program(|x, y| f.forecast(x, y), &f, &PairingDoubt::shipped(), &naive, &tiled);
        assert!(p.forecast.confidence <= crate::forecast::trained::FLIP_CAP, "{:?}", p.forecast);
        assert!(
            p.forecast.reasons.iter().any(|r| r.contains("launched from other places")),
            "{:?}",
            p.forecast.reasons
        );
        // An edit of one launch's configuration is forecast as such.
        let wider = kernels(
            &chapter("naive").replace("(n + 255) / 256, 256>>>(a, b, n); }\n", "(n + 511) / 512, 512>>>(a, b, n); }\n"),
        );
        let p = forecast_program(|x, y| f.forecast(x, y), &f, &PairingDoubt::shipped(), &naive, &wider);
        assert!(
            !p.forecast.reasons.iter().any(|r| r.contains("launched from other places")),
            "{:?}",
            p.forecast.reasons
        );
    }

    #[test]
    fn a_torch_extension_whose_entry_runs_another_step_is_not_claimed_the_same() {
        // Every step's launcher bound for Python (so each may run), the entry running one
        // step through a switch on a number Python passes: the kernels read the same in both
        // versions.
        let f = TrainedForecaster::shipped().expect("model");
        let module = |ver: u32| {
            format!(
                "__global__ void row(const float* a, float* b, int n) {{ int i = blockIdx.x * 256 + threadIdx.x; \
                 if (i < n) b[i] = a[(i * 33) % n]; }}\n\
                 __global__ void tile(const float* a, float* b, int n) {{ int i = blockIdx.x * 256 + threadIdx.x; \
                 if (i < n) b[i] = 2.0f * a[i]; }}\n\
                 void launch_row(const float* a, float* b, int n) {{ row<<<(n + 255) / 256, 256>>>(a, b, n); }}\n\
                 void launch(const float* a, float* b, int n, int ver) {{ switch (ver) {{ \
                 case 0: tile<<<(n + 255) / 256, 256>>>(a, b, n); break; \
                 case 1: row<<<(n + 255) / 256, 256>>>(a, b, n); break; }} }}\n\
                 torch::Tensor run(torch::Tensor x, torch::Tensor y, int64_t step) {{ \
                 launch(x.data_ptr<float>(), y.data_ptr<float>(), 1 << 24, step + {ver}); return y; }}\n"
            )
        };
        let (b, c) = (module(0), module(1));
        let (kb, kc) = (kernels(&b), kernels(&c));
        let pf = forecast_program(|x, y| f.forecast(x, y), &f, &PairingDoubt::shipped(), &kb, &kc);
        // Every kernel may run in both: read alike, they are claimed the same speed.
        assert_eq!(pf.forecast.claim, crate::forecast::Claim::Same, "{:?}", pf.forecast);
        let after = with_code_around(pf, Language::Cuda, (&b, &kb), (&c, &kc)).forecast;
        assert!(after.confidence <= crate::forecast::trained::FLIP_CAP, "{after:?}");
        assert!(after.reasons[0].contains("code around them"), "{:?}", after.reasons);
        // One kernel whose launcher changed is forecast as such (a launch configuration).
        let one = |block: u32| {
            format!(
                "__global__ void row(const float* a, float* b, int n) {{ int i = blockIdx.x * blockDim.x + threadIdx.x; \
                 if (i < n) b[i] = a[i]; }}\n\
                 void run(const float* a, float* b) {{ int n = 1 << 24; row<<<n / {block}, {block}>>>(a, b, n); }}\n"
            )
        };
        let (b, c) = (one(256), one(512));
        let (kb, kc) = (kernels(&b), kernels(&c));
        let pf = forecast_program(|x, y| f.forecast(x, y), &f, &PairingDoubt::shipped(), &kb, &kc);
        let before = pf.forecast.confidence;
        assert_eq!(with_code_around(pf, Language::Cuda, (&b, &kb), (&c, &kc)).forecast.confidence, before);
    }

    #[test]
    fn a_host_picking_its_kernel_by_the_callers_number_runs_that_kernel_alone() {
        // Every version keeps every step's kernel; its host `reduce(x, method)` launches one
        // under `if (method == k)`, and the entry passes another number.
        let f = TrainedForecaster::shipped().expect("model");
        let program = |method: u32| {
            format!(
                "#define N (1 << 26)\n\
                 __global__ void gather(const float* a, float* b, int n) {{ int i = blockIdx.x * 256 + threadIdx.x; \
                 if (i < n) b[i] = a[(i * 33) % n]; }}\n\
                 __global__ void twice(const float* a, float* b, int n) {{ int i = blockIdx.x * 256 + threadIdx.x; \
                 if (i < n) b[i] = 2.0f * a[i]; }}\n\
                 void reduce(const float* a, float* b, const int method) {{ int grid = (N + 255) / 256;\n\
                 if (method == 0) twice<<<grid, 256>>>(a, b, N);\n\
                 else if (method == 1) gather<<<grid, 256>>>(a, b, N); }}\n\
                 int main(int argc, char** argv) {{ reduce(0, 0, atoi(argv[1])); }}\n\
                 extern \"C\" void kf_run(const float* a, float* b) {{ reduce(a, b, {method}); }}\n"
            )
        };
        let (b, c) = (program(0), program(1));
        let (kb, kc) = (kernels(&b), kernels(&c));
        let pf = forecast_program(|x, y| f.forecast(x, y), &f, &PairingDoubt::shipped(), &kb, &kc);
        let out = with_code_around(pf, Language::Cuda, (&b, &kb), (&c, &kc)).forecast;
        // The gather the second version runs is slower, said as such: not "the kernels are
        // unchanged" (the caller's number decides which one runs).
        assert!(!out.reasons.iter().any(|r| r.contains("code around them")), "{:?}", out.reasons);
        assert_eq!(out.claim, crate::forecast::Claim::Slower, "{out:?}");
    }

    #[test]
    fn the_same_kernels_run_by_other_code_are_not_claimed_the_same() {
        // A module keeping two ways to run, the line choosing one changed.
        let f = TrainedForecaster::shipped().expect("model");
        let module = |entry: &str| {
            format!(
                "import triton\nimport triton.language as tl\n\n@triton.jit\ndef scale(x_ptr, n, BLOCK: tl.constexpr):\n    \
                 o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    tl.store(x_ptr + o, tl.load(x_ptr + o, mask=o < n) * 2, mask=o < n)\n\n\
                 def fast(x):\n    scale[(triton.cdiv(x.numel(), 1024),)](x, x.numel(), BLOCK=1024)\n\n\
                 def slow(x):\n    x.mul_(2)\n\n# which one runs\nrun = {entry}\n"
            )
        };
        let forecast = |b: &str, c: &str| {
            let (kb, kc) = (extract_text(Language::Triton, b).kernels, extract_text(Language::Triton, c).kernels);
            let pf = forecast_program(|x, y| f.forecast(x, y), &f, &PairingDoubt::shipped(), &kb, &kc);
            with_code_around(pf, Language::Triton, (b, &kb), (c, &kc)).forecast
        };
        let (fast, slow) = (module("fast"), module("slow"));
        let other = forecast(&slow, &fast);
        assert!(!other.identical && other.confidence <= crate::forecast::trained::FLIP_CAP, "{other:?}");
        assert!(other.reasons[0].contains("code around them"), "{:?}", other.reasons);
        // Comments and layout only: still the same program.
        let same =
            forecast(&fast, &fast.replace("# which one runs", "# the fast one").replace("run = fast", "run  =  fast"));
        assert!(same.identical, "{same:?}");
    }

    #[test]
    fn a_testbench_choosing_its_kernel_compares_the_kernels_it_launches() {
        // Every version keeps both kernels; its entry launches one (a `#define` chose it).
        let f = TrainedForecaster::shipped().expect("model");
        let bench = |launched: &str| {
            format!(
                "__global__ void twice(const float* x, float* y, int n) {{\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  \
                 if (i < n) y[i] = x[i] * 2.0f;\n}}\n\
                 __global__ void thrice(const float* x, float* y, int n) {{\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  \
                 if (i < n) y[i] = x[i] * 3.0f;\n}}\n\
                 extern \"C\" void kf_run(const float* x, float* y) {{\n  int n = 1 << 26;\n  \
                 {launched}<<<(n + 255) / 256, 256>>>(x, y, n);\n}}\n"
            )
        };
        let (b, c) = (bench("twice"), bench("thrice"));
        let (kb, kc) = (extract_text(Language::Cuda, &b).kernels, extract_text(Language::Cuda, &c).kernels);
        let pf = forecast_program(|x, y| f.forecast(x, y), &f, &PairingDoubt::shipped(), &kb, &kc);
        assert_eq!(pf.pairing.pairs.len(), 1, "only the launched kernels are compared: {:?}", pf.pairing);
        let out = with_code_around(pf, Language::Cuda, (&b, &kb), (&c, &kc)).forecast;
        // The same speed, said as surely as of any two such kernels: not "the kernels are
        // unchanged" (of the kernels that run, one was swapped for another).
        assert_eq!(out.claim, crate::forecast::Claim::Same, "{out:?}");
        assert!(!out.reasons.iter().any(|r| r.contains("code around them")), "{:?}", out.reasons);
    }

    #[test]
    fn a_torch_program_looping_over_operations_is_never_claimed_surely() {
        let f = TrainedForecaster::shipped().expect("model");
        let program = |body: &str| {
            let text = format!(
                "import torch\n\ndef generate_input(n: int = 4096, seed: int = 0):\n    \
                 return torch.randn(8, n, n, device='cuda')\n\ndef custom_kernel(data):\n{body}"
            );
            vec![crate::extract::torch_program(&text).expect("a torch program")]
        };
        let whole = program("    return torch.exp(data) * 2.0\n");
        let blocked = program(
            "    out = data.clone()\n    for start in range(0, data.shape[1], 256):\n        \
             out[:, start:start + 256] = torch.exp(out[:, start:start + 256]) * 2.0\n    return out\n",
        );
        let shipped = PairingDoubt::shipped();
        let looped = forecast_program(|x, y| f.forecast(x, y), &f, &shipped, &whole, &blocked).forecast;
        assert!(looped.confidence <= crate::forecast::trained::FLIP_CAP, "{looped:?}");
        assert!(looped.reasons.iter().any(|r| r.contains("Python loop")), "{:?}", looped.reasons);
        // The same program again: the same program, not an unsure "same speed".
        let again = program("    return torch.exp(data) * 2.0\n");
        let same = forecast_program(|x, y| f.forecast(x, y), &f, &shipped, &whole, &again).forecast;
        assert!(same.identical, "{same:?}");
        let plain =
            forecast_program(|x, y| f.forecast(x, y), &f, &shipped, &whole, &program("    return data * 3.0\n"));
        assert!(!plain.forecast.reasons.iter().any(|r| r.contains("Python loop")), "{:?}", plain.forecast.reasons);
    }

    #[test]
    fn a_torch_operation_nothing_costs_is_never_claimed_surely() {
        let f = TrainedForecaster::shipped().expect("model");
        let program = |body: &str| {
            let text = format!(
                "import torch\nimport torch.nn.functional as F\n\ndef generate_input(n: int = 4096, seed: int = 0):\n    \
                 return torch.randn(8, n, 64, device='cuda')\n\ndef custom_kernel(data):\n    return {body}\n"
            );
            vec![crate::extract::torch_program(&text).expect("a torch program")]
        };
        let (attention, scaled) = (program("F.grid_sample(data, data)"), program("data * 3.0"));
        let shipped = PairingDoubt::shipped();
        let unknown = forecast_program(|x, y| f.forecast(x, y), &f, &shipped, &attention, &scaled).forecast;
        assert!(unknown.confidence <= crate::forecast::trained::FLIP_CAP, "{unknown:?}");
        assert!(
            unknown.reasons.iter().any(|r| r.contains("grid_sample") && r.contains("does not know")),
            "{:?}",
            unknown.reasons
        );
    }

    #[test]
    fn versions_in_different_languages_are_forecast_but_never_surely() {
        let f = TrainedForecaster::shipped().expect("model");
        let cuda = kernels(COPY);
        let triton = crate::extract::extract_text(
            Language::Triton,
            "import triton\nimport triton.language as tl\n\n@triton.jit\ndef copy_kernel(a, b, n, BLOCK: tl.constexpr):\n    \
             offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    tl.store(b + offs, tl.load(a + offs, mask=offs < n), mask=offs < n)\n\n\
             def run(a, b):\n    n = a.numel()\n    copy_kernel[(triton.cdiv(n, 1024),)](a, b, n, BLOCK=1024)\n",
        )
        .kernels;
        assert_eq!(triton.len(), 1);
        let p = forecast_program(|x, y| f.forecast(x, y), &f, &PairingDoubt::shipped(), &cuda, &triton);
        assert!(p.forecast.confidence <= CROSS_LANGUAGE.cap, "{:?}", p.forecast);
        assert!(p.forecast.reasons.iter().any(|r| r.contains("different languages")), "{:?}", p.forecast.reasons);
    }

    /// The shipped forecaster, with every kernel modelled at `cost`.
    struct Costed(TrainedForecaster, f64);

    impl Forecaster for Costed {
        fn id(&self) -> &str {
            self.0.id()
        }
        fn forecast(&self, base: &Kernel, candidate: &Kernel) -> Forecast {
            self.0.forecast(base, candidate)
        }
        fn weight(&self, _kernel: &Kernel) -> f64 {
            self.1
        }
    }

    #[test]
    fn a_kernel_modelled_past_any_real_run_is_never_claimed_surely() {
        let base = kernels(COPY);
        let cand = kernels(&COPY.replace("a[i * 32 % n]", "a[i]"));
        let sure = Costed(TrainedForecaster::shipped().expect("model"), 1e9);
        let p = forecast_program(|x, y| sure.forecast(x, y), &sure, &PairingDoubt::shipped(), &base, &cand);
        assert!(!p.forecast.reasons.iter().any(|r| r.contains("over 10 s a run")), "{:?}", p.forecast.reasons);
        // Sizes misread into a grid of unknown sizes multiplied: hours a launch.
        let misread = Costed(TrainedForecaster::shipped().expect("model"), 1e16);
        let p = forecast_program(|x, y| misread.forecast(x, y), &misread, &PairingDoubt::shipped(), &base, &cand);
        assert!(p.forecast.confidence <= crate::forecast::trained::FLIP_CAP, "{:?}", p.forecast);
        assert!(p.forecast.reasons.iter().any(|r| r.contains("over 10 s a run")), "{:?}", p.forecast.reasons);
    }

    #[test]
    fn a_torch_program_none_of_whose_statements_is_read_is_never_claimed_surely() {
        let f = TrainedForecaster::shipped().expect("model");
        let py = |src: &str| crate::extract::extract_text(Language::Triton, src).kernels;
        let unread = vec![crate::extract::torch_program(
            "import torch\n\ndef step(a, b):\n    a = a.contiguous()\n    torch.cuda.synchronize()\n",
        )
        .expect("a torch program")];
        let kernel = py("import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n\
             def k(a, b, n, BLOCK: tl.constexpr):\n    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    \
             tl.store(a + o, tl.load(b + o, mask=o < n) + 1, mask=o < n)\n\n\
             def step(a, b):\n    n = a.numel()\n    k[(triton.cdiv(n, 1024),)](a, b, n, BLOCK=1024)\n");
        let p = forecast_program(|x, y| f.forecast(x, y), &f, &PairingDoubt::shipped(), &unread, &kernel);
        assert!(p.forecast.confidence <= crate::forecast::trained::FLIP_CAP, "{:?}", p.forecast);
        assert!(p.forecast.reasons.iter().any(|r| r.contains("reads no torch operation")), "{:?}", p.forecast.reasons);
    }

    #[test]
    fn the_shipped_doubt_parses() {
        assert!(serde_json::from_str::<PairingDoubt>(SHIPPED_DOUBT).is_ok());
    }

    #[test]
    fn a_renamed_kernel_is_forecast_and_no_surer_than_its_pairing() {
        let f = TrainedForecaster::shipped().expect("model");
        let base = kernels(COPY);
        let cand = kernels(&COPY.replace("copy_v1", "copy_coalesced").replace("a[i * 32 % n]", "a[i]"));
        let by_name = kernels(&COPY.replace("a[i * 32 % n]", "a[i]"));
        let renamed = forecast_program(|x, y| f.forecast(x, y), &f, &PairingDoubt::default(), &base, &cand);
        let named = forecast_program(|x, y| f.forecast(x, y), &f, &PairingDoubt::default(), &base, &by_name);
        assert_eq!(renamed.pairing.pairs.len(), 1);
        assert_eq!(renamed.pairing.pairs[0].how, Match::Sole);
        assert_eq!(renamed.forecast.claim, named.forecast.claim);
        assert!(renamed.forecast.confidence < named.forecast.confidence);
        assert!(renamed.forecast.confidence <= PairingDoubt::default().cap);
        assert!(
            renamed.forecast.reasons.iter().any(|r| r.contains("copy_v1 → copy_coalesced")),
            "{:?}",
            renamed.forecast.reasons
        );
    }

    #[test]
    fn a_fused_kernel_is_forecast_against_the_program_it_replaces() {
        let f = TrainedForecaster::shipped().expect("model");
        let base = kernels(
            "__global__ void scale(const float* a, float* t, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) t[i] = 2.0f * a[i]; }\n\
             __global__ void shift(const float* t, float* b, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) b[i] = t[i] + 1.0f; }\n\
             void run(const float* a, float* t, float* b) { int n = 1 << 24; scale<<<n / 256, 256>>>(a, t, n); shift<<<n / 256, 256>>>(t, b, n); }\n",
        );
        let cand = kernels(
            "__global__ void fused(const float* a, float* b, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) b[i] = 2.0f * a[i] + 1.0f; }\n\
             void run(const float* a, float* t, float* b) { int n = 1 << 24; fused<<<n / 256, 256>>>(a, b, n); }\n",
        );
        let p = forecast_program(|x, y| f.forecast(x, y), &f, &PairingDoubt::default(), &base, &cand);
        assert!(!p.pairing.base_only.is_empty() || !p.pairing.candidate_only.is_empty() || p.pairing.pairs.len() == 1);
        assert!(p.forecast.speedup > 1.0, "{:?}", p.forecast);
        assert!(p.forecast.confidence <= PairingDoubt::default().cap);
    }
}
