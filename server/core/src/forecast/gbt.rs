//! Gradient-boosted regression trees with the absolute-error loss, small enough to run
//! in-process in microseconds and to train in seconds, deterministic under a seed.
//!
//! Each round fits a least-squares tree to the sign of the residuals on a random
//! subsample, then sets each leaf to the median residual of its samples (the
//! least-absolute-deviation update), so a few wild pairs do not drag the model.

use crate::rng::Rng;
use serde::{Deserialize, Serialize};

/// One node of a tree: a split (`feature` ≥ 0) or a leaf (`feature` < 0, `value`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Node {
    #[serde(rename = "f")]
    pub feature: i32,
    #[serde(rename = "t", default)]
    pub threshold: f64,
    #[serde(rename = "l", default)]
    pub left: u32,
    #[serde(rename = "r", default)]
    pub right: u32,
    #[serde(rename = "v", default)]
    pub value: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tree {
    pub nodes: Vec<Node>,
}

impl Tree {
    /// The leaf value for `x`. A malformed tree (a child index out of range, a cycle)
    /// answers 0 rather than looping or panicking.
    pub fn predict(&self, x: &[f64]) -> f64 {
        let mut at = 0usize;
        for _ in 0..=self.nodes.len() {
            let Some(n) = self.nodes.get(at) else { return 0.0 };
            if n.feature < 0 {
                return n.value;
            }
            let v = x.get(n.feature as usize).copied().unwrap_or(0.0);
            at = if v <= n.threshold { n.left } else { n.right } as usize;
        }
        0.0
    }
}

/// Training settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoostParams {
    pub rounds: usize,
    pub depth: usize,
    pub rate: f64,
    pub subsample: f64,
    pub min_leaf: usize,
}

impl Default for BoostParams {
    fn default() -> Self {
        Self { rounds: 100, depth: 6, rate: 0.05, subsample: 0.7, min_leaf: 5 }
    }
}

/// A boosted ensemble: `base + Σ rate · tree(x)` (the rate is folded into the leaves).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Booster {
    pub base: f64,
    pub trees: Vec<Tree>,
}

impl Booster {
    pub fn predict(&self, x: &[f64]) -> f64 {
        self.base + self.trees.iter().map(|t| t.predict(x)).sum::<f64>()
    }
}

fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        0.5 * (values[n / 2 - 1] + values[n / 2])
    }
}

/// The training rows by column, with each column's row order sorted once (ties by row),
/// so a node's best split is a walk over its rows in order instead of a sort.
struct Columns {
    values: Vec<Vec<f64>>,
    order: Vec<Vec<u32>>,
}

impl Columns {
    fn new(x: &[Vec<f64>], n: usize) -> Self {
        let width = x.first().map_or(0, Vec::len);
        let values: Vec<Vec<f64>> =
            (0..width).map(|f| x[..n].iter().map(|row| row.get(f).copied().unwrap_or(0.0)).collect()).collect();
        let order = values
            .iter()
            .map(|column| {
                let mut order: Vec<u32> = (0..n as u32).collect();
                order.sort_by(|&a, &b| column[a as usize].total_cmp(&column[b as usize]));
                order
            })
            .collect();
        Self { values, order }
    }

    /// Each column's order restricted to the rows `member` marks.
    fn restrict(&self, member: &[bool]) -> Vec<Vec<u32>> {
        self.order.iter().map(|o| o.iter().copied().filter(|&i| member[i as usize]).collect()).collect()
    }
}

/// Fits a booster to rows `x` (all the same length) and targets `y`.
pub fn fit(x: &[Vec<f64>], y: &[f64], params: &BoostParams, seed: u64) -> Booster {
    let n = x.len().min(y.len());
    let mut base_values = y[..n].to_vec();
    let base = median(&mut base_values);
    let mut fitted = vec![base; n];
    let mut rng = Rng::with_state(seed);
    let mut trees = Vec::with_capacity(params.rounds);
    let take = ((n as f64 * params.subsample).round() as usize).clamp(1.min(n), n);
    let columns = Columns::new(x, n);
    for _ in 0..params.rounds {
        if n == 0 {
            break;
        }
        // Partial Fisher–Yates: the first `take` indices are the subsample.
        let mut order: Vec<usize> = (0..n).collect();
        for i in 0..take {
            let j = i + rng.below(n - i);
            order.swap(i, j);
        }
        let mut member = vec![false; n];
        for &i in &order[..take] {
            member[i] = true;
        }
        let residual: Vec<f64> = (0..n).map(|i| y[i] - fitted[i]).collect();
        let sign: Vec<f64> = residual
            .iter()
            .map(|r| {
                if *r > 0.0 {
                    1.0
                } else if *r < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            })
            .collect();
        let mut tree = Tree { nodes: Vec::new() };
        let all = (0..n as u32).filter(|&i| member[i as usize]).collect();
        let node = Rows { sorted: columns.restrict(&member), all };
        grow(&mut tree, &Fit { columns: &columns, target: &sign, residual: &residual, params }, node, 0);
        for node in tree.nodes.iter_mut().filter(|n| n.feature < 0) {
            node.value *= params.rate;
        }
        for (i, f) in fitted.iter_mut().enumerate() {
            *f += tree.predict(&x[i]);
        }
        trees.push(tree);
    }
    Booster { base, trees }
}

/// What every node of one tree is fitted to.
struct Fit<'a> {
    columns: &'a Columns,
    /// The least-squares target of the splits (the residuals' signs).
    target: &'a [f64],
    /// The leaves' values are the median residual.
    residual: &'a [f64],
    params: &'a BoostParams,
}

/// A node's rows, in each column's order and by index.
struct Rows {
    sorted: Vec<Vec<u32>>,
    all: Vec<u32>,
}

/// Grows the subtree for `rows` and returns its index in `tree.nodes`.
fn grow(tree: &mut Tree, fit: &Fit, rows: Rows, depth: usize) -> u32 {
    let at = tree.nodes.len() as u32;
    let params = fit.params;
    let split = if depth < params.depth && rows.all.len() >= 2 * params.min_leaf.max(1) {
        best_split(fit, &rows, params.min_leaf.max(1))
    } else {
        None
    };
    let Some((feature, threshold)) = split else {
        let mut r: Vec<f64> = rows.all.iter().map(|&i| fit.residual[i as usize]).collect();
        tree.nodes.push(Node { feature: -1, threshold: 0.0, left: 0, right: 0, value: median(&mut r) });
        return at;
    };
    tree.nodes.push(Node { feature: feature as i32, threshold, left: 0, right: 0, value: 0.0 });
    let column = &fit.columns.values[feature];
    let goes_left = |i: &u32| column[*i as usize] <= threshold;
    let (lo, hi): (Vec<Vec<u32>>, Vec<Vec<u32>>) =
        rows.sorted.iter().map(|o| o.iter().partition::<Vec<u32>, _>(|i| goes_left(i))).unzip();
    let (lo_all, hi_all) = rows.all.iter().partition(|i| goes_left(i));
    drop(rows);
    let (lo, hi) = (Rows { sorted: lo, all: lo_all }, Rows { sorted: hi, all: hi_all });
    let left = grow(tree, fit, lo, depth + 1);
    let right = grow(tree, fit, hi, depth + 1);
    tree.nodes[at as usize].left = left;
    tree.nodes[at as usize].right = right;
    at
}

/// The split of `rows` that most reduces the squared error of the target. The target is
/// the residuals' signs, so every sum here is of small integers and exact: the order rows
/// are summed in cannot change the split.
fn best_split(fit: &Fit, rows: &Rows, min_leaf: usize) -> Option<(usize, f64)> {
    let target = fit.target;
    let total: f64 = rows.all.iter().map(|&i| target[i as usize]).sum();
    let n = rows.all.len() as f64;
    let parent = total * total / n;
    let mut best: Option<(f64, usize, f64)> = None;
    for (f, sorted) in rows.sorted.iter().enumerate() {
        let column = &fit.columns.values[f];
        let mut left = 0.0;
        for (k, pair) in sorted.windows(2).enumerate() {
            left += target[pair[0] as usize];
            let (a, b) = (column[pair[0] as usize], column[pair[1] as usize]);
            let nl = k + 1;
            if a == b || nl < min_leaf || sorted.len() - nl < min_leaf {
                continue;
            }
            let right = total - left;
            let gain = left * left / nl as f64 + right * right / (n - nl as f64) - parent;
            if gain > 1e-12 && best.is_none_or(|(g, _, _)| gain > g) {
                best = Some((gain, f, 0.5 * (a + b)));
            }
        }
    }
    best.map(|(_, f, t)| (f, t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_a_step_and_ignores_an_outlier() {
        let x: Vec<Vec<f64>> = (0..200).map(|i| vec![i as f64, (i % 7) as f64]).collect();
        let mut y: Vec<f64> = (0..200).map(|i| if i < 100 { -1.0 } else { 1.0 }).collect();
        y[10] = 500.0;
        let b = fit(&x, &y, &BoostParams { rounds: 200, rate: 0.1, ..BoostParams::default() }, 7);
        assert!((b.predict(&[20.0, 0.0]) + 1.0).abs() < 0.1, "{}", b.predict(&[20.0, 0.0]));
        assert!((b.predict(&[150.0, 0.0]) - 1.0).abs() < 0.1);
        // Same seed, same model.
        assert_eq!(b, fit(&x, &y, &BoostParams { rounds: 200, rate: 0.1, ..BoostParams::default() }, 7));
    }

    #[test]
    fn a_malformed_tree_answers_zero() {
        let looped = Tree { nodes: vec![Node { feature: 0, threshold: 1.0, left: 0, right: 0, value: 3.0 }] };
        assert_eq!(looped.predict(&[0.0]), 0.0);
        let dangling = Tree { nodes: vec![Node { feature: 5, threshold: 1.0, left: 9, right: 9, value: 0.0 }] };
        assert_eq!(dangling.predict(&[]), 0.0);
    }
}
