//! Kernels handed to a launcher as arguments: a ladder's driver
//! `solve_impl<256, 2>(in, out, n, reduce3, reduce3_final)` whose body launches
//! `reduce_kernel<<<blocks, 256>>>(…)` through its parameter. Each such call is a launch
//! of the kernel it passes, made where the call is (so the entry points reach it only where
//! they reach the calling function: `solve3`, not every `solveN` beside it), with the
//! launcher's parameters and template parameters bound from that call. A launch through a
//! parameter that no call binds launches nothing the reader knows.

use super::callers::{written_out, Callers};
use super::{ItemFacts, LaunchDraft};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Launches made through parameters, kept per file (a generated ladder passes a few
/// dozen kernels at most).
const MAX_PASSED: usize = 256;

/// The launches the file's calls make by passing a kernel to a function that launches its
/// parameter, each as a launch draft of that kernel with the template launch's item offset,
/// item place and index (what the assembly caches it under).
pub(super) fn launches(
    placed: &[(usize, Arc<ItemFacts>)],
    callers: &Callers,
) -> Vec<(LaunchDraft, usize, usize, usize)> {
    let kernels: BTreeSet<&str> = placed.iter().flat_map(|(_, f)| f.kernels.iter().map(|k| k.name.as_str())).collect();
    let mut out = Vec::new();
    for (at, (base, facts)) in placed.iter().enumerate() {
        for (i, l) in facts.launches.iter().enumerate() {
            if kernels.contains(l.callee.as_str()) {
                continue;
            }
            let Some(slot) = l.host_fn_params.iter().position(|p| *p == l.callee) else { continue };
            let calls = callers
                .calls_of(&l.site.host_name)
                .filter(|c| c.function != l.site.host_name && c.args.len() == l.host_fn_params.len());
            for c in calls {
                let Some((kernel, template_args)) = c.args.get(slot).and_then(|a| super::cuda::kernel_pointer(a))
                else {
                    continue;
                };
                if !kernels.contains(kernel.as_str()) || out.len() >= MAX_PASSED {
                    continue;
                }
                let texts = c.known_locals();
                let mut d = l.clone();
                // The launcher's own names: a caller's value that uses one (its unbound
                // parameter `blocks` where the launcher has a local `blocks`) means something
                // else there, and is left out, as `callers::bind` leaves it.
                let own: BTreeSet<&str> = l
                    .host_template
                    .iter()
                    .chain(&l.host_fn_params)
                    .chain(l.site.locals.keys())
                    .map(String::as_str)
                    .collect();
                let bound = l.host_template.iter().zip(&c.template_args).chain(l.host_fn_params.iter().zip(&c.args));
                for (param, arg) in bound {
                    // Another kernel passed beside it (the final stage) is no size.
                    let kernel_arg =
                        super::cuda::kernel_pointer(arg).is_some_and(|(k, _)| kernels.contains(k.as_str()));
                    if param == arg.trim() || kernel_arg {
                        continue;
                    }
                    let value = written_out(arg, &texts).filter(|v| !super::words(v).any(|w| own.contains(w)));
                    if let Some(value) = value {
                        d.site.locals.entry(param.clone()).or_insert(value);
                    }
                }
                d.callee = kernel;
                d.template_args = template_args;
                // Bound here, from this call: not again from the launcher's first call.
                d.host_template = Vec::new();
                d.host_fn_params.clone_from(&c.function_params);
                d.site.host_name.clone_from(&c.function);
                out.push((d, *base, at, i));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::extract::extract_text;
    use crate::features::expr::Env;
    use crate::kernel::Language;

    /// The launch's names as the profile reads them: defaults, then what the call binds.
    fn environment(site: &crate::kernel::LaunchSite) -> Env {
        let mut env = Env::of_texts(&site.host_defaults);
        for (k, v) in &site.locals {
            env.define(k, v);
        }
        env
    }

    const LADDER: &str = r#"
__global__ void reduce0(const float* in, float* out) { out[blockIdx.x] = in[threadIdx.x]; }
__global__ void reduce1(const float* in, float* out) { out[blockIdx.x] = in[threadIdx.x]; }
template <int Threads = 256, int Stride = 1, typename Kernel>
static void solve_impl(const float* in, float* out, int N, Kernel reduce_kernel) {
  const int blocks = N / (Stride * Threads);
  reduce_kernel<<<blocks, Threads>>>(in, out);
}
extern "C" void solve0(const float* in, float* out, int N) { solve_impl<256>(in, out, N, reduce0); }
extern "C" void solve1(const float* in, float* out, int N) { solve_impl<128, 2>(in, out, N, reduce1); }
"#;

    #[test]
    fn a_kernel_passed_to_a_launcher_is_launched_by_the_call_that_passes_it() {
        let src =
            format!("{LADDER}extern \"C\" void kf_run(const float* in, float* out) {{ solve1(in, out, 1 << 20); }}\n");
        let ex = extract_text(Language::Cuda, &src);
        let step = ex.kernel("reduce1").expect("kernel");
        assert_eq!(step.launches.len(), 1, "solve1's call launches it");
        let site = &step.launches[0];
        assert!(site.reached && !site.unreached, "kf_run reaches solve1");
        // The launch shape of this call: 2^20 / (2 × 128) blocks of 128 threads.
        let env = environment(site);
        let blocks = env.eval_quiet(site.grid.as_deref().unwrap_or_default()).map(|e| e.value);
        assert_eq!(blocks, Some(4096.0));
        assert_eq!(env.eval_quiet(site.block.as_deref().unwrap_or_default()).map(|e| e.value), Some(128.0));
        // The step beside it is passed only by a function kf_run does not call.
        let other = ex.kernel("reduce0").expect("kernel");
        assert_eq!(other.launches.len(), 1);
        assert!(other.launches[0].unreached, "solve0 is not run");
    }

    #[test]
    fn a_caller_s_name_the_launcher_uses_for_something_else_is_not_bound() {
        // `solve0(…, n)` passes its own unbound `n`; the launcher's `n` is its local, so the
        // size stays the launcher's to size, not `n`'s (which there is `N / 2`).
        let src = LADDER.replace("int N, Kernel", "int M, Kernel").replace(
            "const int blocks = N / (Stride * Threads);",
            "const int n = M / 2;\n  const int blocks = n / (Stride * Threads);",
        ) + "extern \"C\" void kf_run(const float* in, float* out, int n) { solve_impl<256>(in, out, n, reduce0); }\n";
        let ex = extract_text(Language::Cuda, &src);
        let launches = &ex.kernel("reduce0").expect("kernel").launches;
        let site = launches.iter().find(|l| l.host_name == "kf_run").expect("kf_run's launch");
        assert_eq!(site.locals.get("M"), None, "the call's `n` is not the launcher's `n`");
        // solve0's `N` means nothing else in the launcher.
        let solve0 = launches.iter().find(|l| l.host_name == "solve0").expect("solve0's launch");
        assert_eq!(solve0.locals.get("M").map(String::as_str), Some("N"));
    }

    #[test]
    fn a_call_that_leaves_a_template_parameter_out_takes_its_default() {
        let src =
            format!("{LADDER}extern \"C\" void kf_run(const float* in, float* out) {{ solve0(in, out, 1 << 20); }}\n");
        let ex = extract_text(Language::Cuda, &src);
        let site = &ex.kernel("reduce0").expect("kernel").launches[0];
        let env = environment(site);
        let blocks = env.eval_quiet(site.grid.as_deref().unwrap_or_default()).map(|e| e.value);
        assert_eq!(blocks, Some(4096.0), "Stride is 1, Threads 256");
    }
}
