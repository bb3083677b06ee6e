//! Human-readable reasons for a forecast, from the two profiles.

use crate::features::Profile;

/// Reasons, most important first (at most six).
pub fn reasons(base: &Profile, cand: &Profile) -> Vec<String> {
    let (b, c) = (&base.features, &cand.features);
    let mut out: Vec<(f64, String)> = Vec::new();
    let mut push = |weight: f64, text: String| out.push((weight, text));

    // Cost terms that moved, as a share of the base's total (a base with no modelled time,
    // a torch program of operations not read, has no share to give).
    let nothing_modelled = base.cost.terms().iter().all(|(_, t)| *t <= 0.0);
    for ((name, before), (_, after)) in base.cost.terms().iter().zip(cand.cost.terms().iter()) {
        let change = if *before > 0.0 { format!("{:+.0}%", (after / before - 1.0) * 100.0) } else { "new".to_string() };
        if nothing_modelled {
            if *after > 0.0 && *before <= 0.0 {
                push(1.0, format!("{name}: {change}"));
            }
            continue;
        }
        let delta = (after - before) / base.cost.total;
        if delta.abs() >= 0.05 {
            push(delta.abs(), format!("{name}: {change} ({:+.0}% of the kernel's modelled time)", delta * 100.0));
        }
    }
    let frac = |x: f64, total: f64| if total > 0.0 { x / total } else { 0.0 };
    let unco_b = frac(b.uncoalesced_bytes, b.load_bytes + b.store_bytes);
    let unco_c = frac(c.uncoalesced_bytes, c.load_bytes + c.store_bytes);
    if (unco_b - unco_c).abs() > 0.1 {
        if unco_c < unco_b {
            push(
                unco_b - unco_c + 0.5,
                format!(
                    "global accesses become coalesced ({:.0}% → {:.0}% of traffic strided)",
                    unco_b * 100.0,
                    unco_c * 100.0
                ),
            );
        } else {
            push(
                unco_c - unco_b + 0.5,
                format!(
                    "global accesses become strided/uncoalesced ({:.0}% → {:.0}% of traffic)",
                    unco_b * 100.0,
                    unco_c * 100.0
                ),
            );
        }
    }
    if c.global_passes != b.global_passes && (b.global_passes + c.global_passes) > 0.0 {
        let dir = if c.global_passes > b.global_passes { "more" } else { "fewer" };
        push(0.45, format!("{dir} passes over global memory ({} → {})", num(b.global_passes), num(c.global_passes)));
    }
    if c.launches != b.launches && b.launches > 0.0 && c.launches > 0.0 {
        let what = if c.launches < b.launches { "fused" } else { "split" };
        push(0.55, format!("{what}: kernels launched per run {} → {}", num(b.launches), num(c.launches)));
    }
    if num(c.vector_width) != num(b.vector_width) {
        push(0.2, format!("vector width {} → {} words per access", num(b.vector_width), num(c.vector_width)));
    }
    if c.contended_atomics < b.contended_atomics * 0.5 {
        push(0.6, "fewer same-address atomics (contention at L2 removed)".to_string());
    } else if c.contended_atomics > b.contended_atomics * 2.0 + 1e-9 {
        push(0.6, "more same-address atomics (threads serialise at L2)".to_string());
    }
    if c.shared_padded > b.shared_padded {
        push(0.25, "shared tile padded against bank conflicts".to_string());
    }
    if c.bank_conflicts > b.bank_conflicts * 1.5 + 1e-9 {
        push(0.3, "shared-memory accesses likely bank-conflicted".to_string());
    }
    if c.shared_arrays > 0.0 && b.shared_arrays == 0.0 {
        push(0.3, "stages data through shared memory".to_string());
    }
    if c.shuffles > 0.0 && b.shuffles == 0.0 {
        push(0.2, "uses warp shuffles".to_string());
    }
    if (c.tensor_flops > 0.0) != (b.tensor_flops > 0.0) {
        let what = if c.tensor_flops > 0.0 { "starts" } else { "stops" };
        push(0.5, format!("{what} using tensor cores"));
    }
    if c.block_threads != b.block_threads {
        push(0.15, format!("threads per block {} → {}", num(b.block_threads), num(c.block_threads)));
    }
    if (c.occupancy - b.occupancy).abs() > 0.1 {
        push(0.15, format!("modelled occupancy {:.0}% → {:.0}%", b.occupancy * 100.0, c.occupancy * 100.0));
    }
    if c.tile_elems != b.tile_elems && (b.tile_elems > 0.0 || c.tile_elems > 0.0) {
        push(0.15, format!("largest tile {} → {} elements", num(b.tile_elems), num(c.tile_elems)));
    }
    if c.num_stages != b.num_stages && base.language == crate::Language::Triton {
        push(0.1, format!("num_stages {} → {}", num(b.num_stages), num(c.num_stages)));
    }
    if c.group_swizzle != b.group_swizzle {
        let what = if c.group_swizzle > 0.0 { "adds" } else { "drops" };
        push(0.2, format!("{what} grouped program ordering (L2 reuse)"));
    }
    if c.autotune_configs != b.autotune_configs {
        push(0.1, format!("autotune configurations {} → {}", num(b.autotune_configs), num(c.autotune_configs)));
    }
    if c.unrolled_loops > b.unrolled_loops {
        push(0.05, "more loops unrolled".to_string());
    }
    if cand.guesses > 0 || base.guesses > 0 {
        push(0.01, format!("assumed {} unknown size(s) or launch parameters", base.guesses.max(cand.guesses)));
    }
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut reasons: Vec<String> = out.into_iter().map(|(_, t)| t).collect();
    reasons.dedup();
    reasons.truncate(6);
    if reasons.is_empty() {
        reasons.push("no change the model can see in memory traffic, arithmetic or launch shape".to_string());
    }
    reasons
}

/// A feature's value as a reader wants it: a whole number where it is one to within a
/// hundredth (a bytes-weighted mean width of 3.9999992 is 4), else one decimal.
fn num(v: f64) -> String {
    if (v - v.round()).abs() < 0.01 {
        format!("{}", v.round())
    } else {
        format!("{v:.1}")
    }
}

#[cfg(test)]
mod tests {
    use crate::features::{Cost, Features, Profile};
    use crate::kernel::Language;

    #[test]
    fn a_base_with_no_modelled_time_gives_no_share_of_it() {
        // A torch program whose operations are not read has no time to take a share of.
        let profile = |memory: f64| Profile {
            language: Language::Triton,
            features: Features::default(),
            cost: Cost { memory, efficiency: 0.9, ..Cost::default() }.combine(),
            guesses: 0,
            assumed: Vec::new(),
        };
        let reasons = super::reasons(&profile(0.0), &profile(3.0e4));
        assert!(reasons.iter().any(|r| r.contains("new")), "{reasons:?}");
        assert!(reasons.iter().all(|r| !r.contains("% of the kernel's modelled time")), "{reasons:?}");
    }

    #[test]
    fn a_feature_is_shown_rounded() {
        assert_eq!(super::num(3.9999992847444332), "4");
        assert_eq!(super::num(2.0), "2");
        assert_eq!(super::num(1.26), "1.3");
    }
}
