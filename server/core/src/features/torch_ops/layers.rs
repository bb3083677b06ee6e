//! `torch.nn` layers a module makes in `__init__` (`self.conv = nn.Conv2d(64, 64, 3,
//! groups=64)`) and calls in `forward` (`self.conv(x)`): each the torch operation it runs,
//! its work from the constructor's arguments where they have values (a KernelBench
//! problem's module constants).

use super::cost::Work;
use crate::features::expr::Env;
use std::collections::BTreeMap;

/// What calling the layer `self.{attr}` runs, where `locals` hold its constructor
/// (`self.{attr}` = `nn.Conv2d(…)`): its operation's name and work, and the elements of the
/// parameters it reads besides its input (a `Linear`'s weight matrix, where its sizes are
/// known). `None`: no `nn` layer.
pub(super) fn layer(locals: &BTreeMap<String, String>, attr: &str) -> Option<(String, Option<Work>, Option<f64>)> {
    let text = locals.get(&format!("self.{attr}"))?.trim();
    if !text.ends_with(')') {
        return None;
    }
    let (callee, items) = crate::declaration::call(text);
    let class = callee.strip_prefix("torch.").unwrap_or(&callee).strip_prefix("nn.")?;
    let (keywords, positional): (Vec<&String>, Vec<&String>) = items.iter().partition(|a| keyword(a).is_some());
    let keywords: BTreeMap<&str, &str> = keywords.into_iter().filter_map(|a| keyword(a)).collect();
    let positional: Vec<&str> = positional.into_iter().map(String::as_str).collect();
    let env = Env::of_texts(locals.iter());
    let value = |t: &str| env.eval_quiet(t).filter(|e| e.guesses == 0).map(|e| e.value);
    let arg = |i: usize, key: &str| keywords.get(key).copied().or_else(|| positional.get(i).copied());
    // The parameters it reads besides its input, where known.
    let mut weights = None;
    let dims = class.chars().rev().nth(1).and_then(|c| c.to_digit(10)).filter(|_| class.ends_with('d'));
    let work = if class.starts_with("Conv") {
        // 2·(C_out / groups)·kᵈ flops per input element (stride 1: as many outputs).
        let d = f64::from(dims?);
        let out = arg(1, "out_channels").and_then(value);
        let groups = arg(6, "groups").map_or(Some(1.0), value);
        let window = arg(2, "kernel_size").and_then(|k| window(k, d, &value));
        // A depthwise convolution (one input channel a group) has no product for the tensor
        // cores to take: cuDNN runs it on the fp32 pipes, at the rate it streams.
        let depthwise = arg(0, "in_channels").and_then(value).zip(groups).is_some_and(|(c, g)| c <= g);
        match (out, groups, window) {
            (Some(out), Some(g), Some(w)) if g >= 1.0 && depthwise => Some(Work::PerElement(2.0 * out / g * w)),
            (Some(out), Some(g), Some(w)) if g >= 1.0 => Some(Work::Conv(2.0 * out / g * w)),
            _ => None,
        }
    } else if class == "Linear" {
        // 2·out_features flops per input element, its in × out weights read; where the
        // constructor's sizes are left to run time (a config's `hidden_dim`), a product of
        // unknown work.
        let out = arg(1, "out_features").and_then(value);
        weights = out.zip(arg(0, "in_features").and_then(value)).map(|(o, i)| o * i);
        out.map(|o| Work::Dense(2.0 * o))
    } else if class.contains("Pool") {
        let d = f64::from(dims.unwrap_or(2));
        arg(0, "kernel_size").and_then(|k| window(k, d, &value)).map(Work::PerElement)
    } else {
        match class.to_ascii_lowercase().as_str() {
            "relu" | "gelu" | "silu" | "sigmoid" | "tanh" | "leakyrelu" | "hardtanh" | "elu" | "selu" | "mish"
            | "softplus" | "hardswish" | "hardsigmoid" | "relu6" => Some(Work::PerElement(2.0)),
            c if c.contains("norm") || c.contains("softmax") => Some(Work::PerElement(8.0)),
            _ => return None,
        }
    };
    Some((format!("self.{attr} = nn.{class}"), work, weights))
}

/// A window's elements: `k` of `d` dimensions (`3` → 3ᵈ, `(3, 5)` → 15).
fn window(k: &str, d: f64, value: &dyn Fn(&str) -> Option<f64>) -> Option<f64> {
    let k = k.trim();
    match k.strip_prefix('(').and_then(|k| k.strip_suffix(')')) {
        Some(items) => items.split(',').filter(|s| !s.trim().is_empty()).map(|s| value(s.trim())).product(),
        None => value(k).map(|v| v.powf(d)),
    }
}

/// `name=value`'s name and value (not `a == b`).
fn keyword(arg: &str) -> Option<(&str, &str)> {
    arg.split_once('=')
        .filter(|(k, v)| !v.starts_with('=') && k.trim().chars().all(|c| c.is_alphanumeric() || c == '_'))
        .map(|(k, v)| (k.trim(), v.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locals(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn a_linear_layer_is_a_matrix_product_of_its_output_features() {
        let l = locals(&[("hidden", "4096"), ("self.up", "nn.Linear(1024, hidden, bias=False)")]);
        assert_eq!(
            layer(&l, "up"),
            Some(("self.up = nn.Linear".into(), Some(Work::Dense(2.0 * 4096.0)), Some(1024.0 * 4096.0)))
        );
        // Sizes a config gives at run time: a layer, of work nothing here knows.
        let open = locals(&[("self.up", "nn.Linear(dim, hidden_dim)")]);
        assert_eq!(layer(&open, "up"), Some(("self.up = nn.Linear".into(), None, None)));
    }

    #[test]
    fn a_depthwise_convolution_s_work_comes_from_its_constructor() {
        let l = locals(&[
            ("self.conv2d", "nn.Conv2d(in_channels, in_channels, kernel_size, stride=stride, padding=padding, groups=in_channels, bias=bias)"),
            ("in_channels", "64"),
            ("kernel_size", "3"),
        ]);
        // One input channel a group: no product for the tensor cores, 18 flops an element.
        assert_eq!(layer(&l, "conv2d"), Some(("self.conv2d = nn.Conv2d".into(), Some(Work::PerElement(18.0)), None)));
        let dense = locals(&[("self.c", "nn.Conv3d(32, 16, (3, 3, 3))")]);
        assert_eq!(layer(&dense, "c").map(|l| l.1), Some(Some(Work::Conv(2.0 * 16.0 * 27.0))));
        let pool = locals(&[("self.p", "nn.MaxPool3d(kernel_size=2, stride=2)")]);
        assert_eq!(layer(&pool, "p").map(|l| l.1), Some(Some(Work::PerElement(8.0))));
        // A layer whose sizes have no value is read, its work not; anything else is no layer.
        let open = locals(&[("self.c", "nn.Conv2d(c_in, c_out, k)")]);
        assert_eq!(layer(&open, "c").map(|l| l.1), Some(None));
        assert_eq!(layer(&locals(&[("self.w", "nn.Parameter(torch.randn(4))")]), "w").map(|l| l.1), None);
    }
}
