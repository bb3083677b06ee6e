//! `kforecast profile FILE`: what the embedded forecaster sees in each kernel, as text
//! with units (the default) or JSON (`--json`, one object per kernel).

use super::output::{bytes, count};
use super::{line_col, load_program};
use clap::Args;
use kforecast_core::features::{self, Profile};
use kforecast_core::forecast::EmbeddedForecaster;
use kforecast_core::kernel::{Kernel, Language};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub struct ProfileArgs {
    /// A CUDA or Triton source file.
    file: PathBuf,
    /// Only this kernel.
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,
    /// One JSON object per kernel (unit-less numbers, as the forecaster reads them).
    #[arg(long)]
    json: bool,
}

/// DRAM bandwidth the cost's byte-equivalents are turned into time with (an H100's,
/// the device the profile's rates are for).
const H100_BYTES_PER_SECOND: f64 = 3.0e12;

pub fn run(args: ProfileArgs) -> anyhow::Result<ExitCode> {
    // What `forecast` reads: a Python file with no kernel of its own may be a torch program.
    let file = load_program(&args.file)?;
    let mut found = false;
    for k in &file.kernels {
        if args.kernel.as_ref().is_some_and(|n| n != &k.name) {
            continue;
        }
        found = true;
        let p = if k.torch_program {
            // Its torch operations, costed from their shapes, as a forecast adds them up.
            let assumed = features::expr::ASSUMED_SIZE;
            EmbeddedForecaster::new().program_profile(&[k], assumed, assumed).unwrap_or_else(|| features::profile(k))
        } else {
            features::profile(k)
        };
        if args.json {
            let v = serde_json::json!({
                "kernel": k.name,
                "identity": k.identity().to_string(),
                "launches": k.launches,
                "launch_bounds": k.launch_bounds,
                "helpers": k.helpers.iter().map(|h| (h.name.clone(), h.text.clone())).collect::<Vec<_>>(),
                "guesses": p.guesses,
                "assumed": p.assumed,
                "cost": p.cost,
                "features": p.features,
            });
            super::out(serde_json::to_string_pretty(&v)?);
        } else {
            let (line, col) = line_col(&file.text, k.name_range.start);
            // The launch shown is the one the profile costs: of several, the one that runs.
            let running = features::running_site_first(k, features::expr::ASSUMED_SIZE);
            super::out(text(&args.file, (line, col), running.as_ref().unwrap_or(k), &p));
        }
    }
    if !found {
        anyhow::bail!("{}: no kernel named `{}`", args.file.display(), args.kernel.unwrap_or_default());
    }
    Ok(ExitCode::SUCCESS)
}

fn time(byte_equivalents: f64) -> String {
    let s = byte_equivalents / H100_BYTES_PER_SECOND;
    if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

/// The branches of its launching function the launch lies in, and whether it runs at the
/// sizes read (of exclusive launches, only the branch the program's sizes select runs).
fn branch(k: &Kernel, p: &Profile) -> Option<String> {
    let site = k.launches.first().filter(|s| !s.taken.is_empty())?;
    let conditions: Vec<String> = site
        .taken
        .iter()
        .map(|b| {
            let bare = bare_operands(b.condition.trim());
            let c = unparenthesized(&bare);
            if b.holds {
                format!("`{c}`")
            } else {
                format!("not `{c}`")
            }
        })
        .collect();
    let runs = if p.features.launches > 0.0 {
        "runs at the sizes read"
    } else {
        "does not run at the sizes read (another branch's launch does): costs nothing"
    };
    Some(format!("where {}: {runs}", conditions.join(" and ")))
}

/// `text` with the parentheses around single names and numbers dropped (`((n)) == (1)` →
/// `n == 1`); a call's parentheses (`f(n)`) stay.
fn bare_operands(text: &str) -> String {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.';
    let mut out = text.to_string();
    loop {
        let chars: Vec<char> = out.chars().collect();
        let found = (0..chars.len()).find_map(|i| {
            if chars[i] != '(' || (i > 0 && word(chars[i - 1])) {
                return None;
            }
            let len = chars[i + 1..].iter().take_while(|c| word(**c)).count();
            (len > 0 && chars.get(i + 1 + len) == Some(&')')).then_some((i, len))
        });
        let Some((i, len)) = found else { return out };
        let inner: String = chars[i + 1..i + 1 + len].iter().collect();
        out = chars[..i].iter().collect::<String>() + &inner + &chars[i + 2 + len..].iter().collect::<String>();
    }
}

/// `text` without the parentheses around all of it (`(n < 1024)`), kept where they close
/// earlier (`(a) == (1)`).
fn unparenthesized(text: &str) -> &str {
    let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) else { return text };
    let mut depth = 0i32;
    for ch in inner.chars() {
        depth += match ch {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if depth < 0 {
            return text;
        }
    }
    inner
}

/// One kernel's profile as labelled lines with units.
fn text(path: &Path, (line, col): (usize, usize), k: &Kernel, p: &Profile) -> String {
    let f = &p.features;
    let c = &p.cost;
    let mut rows: Vec<(&str, String)> = Vec::new();
    let launch = k.launches.first().map(|l| match (&l.grid, &l.block) {
        (Some(g), Some(b)) => format!("{}<<<{g}, {b}>>> as written (evaluated below)", k.name),
        (Some(g), None) => format!("{}[{g}] as written (evaluated below)", k.name),
        _ => "as written in the file".to_string(),
    });
    let launch = if k.torch_program {
        let ops: Vec<String> = k
            .launches
            .first()
            .map(features::torch_ops::torch_ops)
            .unwrap_or_default()
            .into_iter()
            .map(|op| op.name)
            .collect();
        Some(match k.language {
            Language::Cuda => format!("a library program: its GPU library calls, each a launch ({})", ops.join(", ")),
            Language::Triton => format!("a PyTorch program: its torch operations, each a launch ({})", ops.join(", ")),
        })
    } else {
        launch
    };
    rows.push(("launch", launch.unwrap_or_else(|| "no launch site in the file (shape assumed)".to_string())));
    if let Some(branch) = branch(k, p) {
        rows.push(("branch", branch));
    }
    rows.push((
        "shape",
        format!(
            "{} blocks × {} threads · {} waves · {} of the SMs busy · occupancy {}",
            count(f.blocks),
            count(f.block_threads),
            format_args!("{:.2}", f.waves),
            pct(f.sm_fill),
            pct(f.occupancy)
        ),
    ));
    rows.push((
        "global memory",
        format!(
            "{} loaded · {} stored · {} wasted by uncoalesced access · widest vector {} B · {} streaming loop(s)",
            bytes(f.load_bytes),
            bytes(f.store_bytes),
            bytes(f.uncoalesced_bytes),
            count(f.vector_width * 4.0),
            count(f.global_passes)
        ),
    ));
    rows.push((
        "shared memory",
        format!(
            "{} array(s), {} padded · {} accesses/thread · {} likely bank conflicts/thread",
            count(f.shared_arrays),
            count(f.shared_padded),
            count(f.shared_accesses),
            count(f.bank_conflicts)
        ),
    ));
    rows.push((
        "sync",
        format!(
            "{} barriers/thread · {} atomics/thread ({} contended, {} on shared) · {} shuffles/thread",
            count(f.syncs),
            count(f.atomics),
            count(f.contended_atomics),
            count(f.shared_atomics),
            count(f.shuffles)
        ),
    ));
    rows.push((
        "compute",
        format!("{} arithmetic ops · {} tensor-core flops", count(f.scalar_ops), count(f.tensor_flops)),
    ));
    rows.push((
        "modelled time",
        format!(
            "{} on an H100 ({} byte-equivalents at 3.0 TB/s; bandwidth efficiency {})",
            time(c.total),
            bytes(c.total),
            pct(c.efficiency)
        ),
    ));
    rows.push((
        "  of which",
        format!(
            "memory {} · shared {} · sync {} · atomics {} · compute {} · launch overhead {}",
            time(c.memory),
            time(c.shared),
            time(c.sync),
            time(c.atomics),
            time(c.compute),
            time(c.overhead)
        ),
    ));
    if p.guesses > 0 {
        rows.push((
            "assumed",
            format!(
                "{} quantit{} not known from the file (declare sizes with `kforecast:`)",
                p.guesses,
                if p.guesses == 1 { "y" } else { "ies" }
            ),
        ));
    }
    if !p.assumed.is_empty() {
        let names: Vec<String> = p.assumed.iter().map(|n| format!("`{n}`")).collect();
        rows.push((
            "run-time sizes",
            format!(
                "{} known only at run time (each taken as {})",
                names.join(", "),
                count(features::expr::assumed_each(&p.assumed))
            ),
        ));
    }
    let what = match (k.torch_program, k.language) {
        (true, Language::Cuda) => "library program",
        (true, Language::Triton) => "torch program",
        (false, _) => "kernel",
    };
    let mut s = format!("{}:{line}:{col}: {what} `{}`\n", path.display(), k.name);
    for (label, value) in rows {
        s += &format!("  {label:<14} {value}\n");
    }
    s.trim_end().to_string()
}
