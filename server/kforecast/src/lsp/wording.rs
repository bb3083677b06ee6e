//! The words an editor shows for a forecast: the hint's text, a comparison with the
//! baseline, what the confidence means, and the bins (slowest first, as the CLI and
//! JSON list them). Plain text and markdown that VS Code and Neovim both render.

use kforecast_core::bins::{NAMES, NUM_BINS, RANGES};
use kforecast_core::forecast::{Claim, Forecast, SAME_BAND};

/// The hint: `≈1.8× faster · 82%`, `≈1.3× slower · 79%`, `same speed · 74%`, or
/// `same kernel` (only comments, layout or local names changed: nothing to forecast).
pub fn hint_text(f: &Forecast) -> String {
    match f.claim {
        Claim::Same if f.identical => "same kernel".to_string(),
        Claim::Same => format!("same speed · {:.0}%", f.confidence * 100.0),
        _ => format!("{} · {:.0}%", f.headline(), f.confidence * 100.0),
    }
}

/// The speed range the no-change band covers: `0.87–1.15×`.
fn same_band() -> String {
    format!("{:.2}–{:.2}×", (-SAME_BAND).exp2(), SAME_BAND.exp2())
}

/// The hover's first line, saying what the hint's percentage is: the probability that
/// the claim holds (`Forecast::confidence`), and the most likely bin.
pub fn confidence_line(f: &Forecast, baseline: &str) -> String {
    let pct = f.confidence * 100.0;
    let (top, p_top) =
        f.bins.0.iter().enumerate().fold((0, 0.0), |best, (i, &p)| if p > best.1 { (i, p) } else { best });
    let likely = format!("most likely {} ({}, {:.0}%)", RANGES[top], NAMES[top], p_top * 100.0);
    match f.claim {
        Claim::Same if f.identical => {
            format!("**Same kernel as {baseline}**: only comments, layout or local names changed, so its speed has not.")
        }
        Claim::Faster => format!(
            "**{pct:.0}% likely faster** than {baseline}: the chance the new version takes less time (S > 1) is {pct:.0}%; {likely}."
        ),
        Claim::Slower => format!(
            "**{pct:.0}% likely slower** than {baseline}: the chance the new version takes more time (S < 1) is {pct:.0}%; {likely}."
        ),
        Claim::Same => format!(
            "**{pct:.0}% likely the same speed** as {baseline}: the chance S is within ±15% ({}) is {pct:.0}%; P(faster) {:.0}%.",
            same_band(),
            f.p_faster * 100.0
        ),
    }
}

/// The bins as an aligned text block, slowest first (a fenced block renders the same in
/// VS Code's hover and Neovim's floating window; a markdown table does not).
pub fn bin_table(f: &Forecast) -> String {
    let mut s = String::from("```text\nS = t_before / t_after        probability\n");
    for i in 0..NUM_BINS {
        let p = f.bins.0[i];
        let bar = "█".repeat((p * 20.0).round() as usize);
        s += &format!("{:<10} {:<20} {:>3.0}% {bar}\n", RANGES[i], NAMES[i], p * 100.0);
    }
    s + "```\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_name_the_claim_and_what_its_percentage_is() {
        let faster = Forecast::from_log2_normal(0.8, 0.4, "t", vec![]);
        assert_eq!(hint_text(&faster), format!("≈1.7× faster · {:.0}%", faster.confidence * 100.0));
        assert_eq!(faster.versus("HEAD"), "≈1.7× faster than HEAD");
        let line = confidence_line(&faster, "HEAD");
        assert!(line.starts_with(&format!("**{:.0}% likely faster** than HEAD", faster.p_faster * 100.0)), "{line}");
        assert!(line.contains("most likely 1.41–2× (significant speedup"), "{line}");

        let same = Forecast::from_log2_normal(0.02, 0.1, "t", vec![]);
        assert_eq!(same.claim, Claim::Same);
        assert!(hint_text(&same).starts_with("same speed · "), "{}", hint_text(&same));
        assert!(same.versus("HEAD").starts_with("same speed as HEAD (≈1.01×)"));
        assert!(confidence_line(&same, "HEAD").contains("within ±15% (0.87–1.15×)"));

        let identical = Forecast::same_kernel("t");
        assert_eq!(hint_text(&identical), "same kernel");
        assert_eq!(identical.versus("HEAD"), "the same kernel as HEAD");
    }

    #[test]
    fn the_bins_go_from_slowest_to_fastest_in_a_block_both_editors_render() {
        let t = bin_table(&Forecast::from_log2_normal(0.8, 0.4, "t", vec![]));
        assert!(t.starts_with("```text\n") && t.ends_with("```\n"), "{t}");
        let slow = t.find("severe slowdown").expect("slowest bin");
        let fast = t.find("extreme speedup").expect("fastest bin");
        assert!(slow < fast, "{t}");
        assert!(!t.contains('|'), "no markdown table: {t}");
    }
}
