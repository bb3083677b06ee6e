//! Bagged boosters compiled once into a layout that predicts fast and bit-identically
//! to [`Booster::predict`].
//!
//! Each tree becomes a complete binary tree of the model's depth D, stored as arrays:
//! the `2^D − 1` splits (feature, threshold) in breadth-first order, children implicit
//! (`2i + 1`, `2i + 2`), and the `2^D` leaf values. A leaf that the original tree
//! reaches above depth D fills every leaf below its position, so whatever the padding
//! splits answer, the walk ends on the same value. The walk has no data-dependent
//! branch: D steps of `i = 2i + 2 − (x[f] ≤ t)`, right unless "≤", as in the
//! plain walk (a NaN goes right), and no bounds checks (indices are masked to the
//! tree's slots). The walks for `x` and for its swapped twin run in the same pass, four
//! trees side by side (eight independent chains for the CPU to overlap), and each
//! member's trees are summed in the plain order from the same starting value, so the
//! sums are the same `f64`s.
//!
//! A model the layout cannot hold (a tree deeper than [`MAX_DEPTH`] as the plain walk
//! reads it, or more than 256 features) keeps the plain walk.

use super::gbt::{Booster, Tree};

/// The deepest tree compiled (2^10 leaves each); deeper models keep the plain walk.
pub const MAX_DEPTH: usize = 10;

/// Trees walked side by side (each for `x` and its swapped twin).
const SIDE_BY_SIDE: usize = 4;

/// Features are indexed by a byte.
const WIDTH: usize = 256;

/// Members held for prediction.
#[derive(Clone, Debug)]
pub enum CompiledMembers {
    Complete(Complete),
    Plain(Vec<Booster>),
}

/// Every tree of every member as a complete binary tree of one depth D.
#[derive(Clone, Debug)]
pub struct Complete {
    /// Per tree, `2^D` slots: the `2^D − 1` splits' features (breadth-first) and one unused …
    features: Vec<u8>,
    /// … and their thresholds.
    thresholds: Vec<f64>,
    /// Per tree, `2^D` leaf values.
    leaves: Vec<f64>,
    /// Per member, its base and how many trees it has (in order).
    members: Vec<(f64, usize)>,
    /// The walk for trees of this depth.
    walk: Walk,
}

type Walk = fn(&Complete, &[f64; WIDTH], &[f64; WIDTH], &mut [(f64, f64)]);

/// The walk for trees of `depth`, if compiled.
fn walk_for(depth: usize) -> Option<Walk> {
    let walks: [Walk; MAX_DEPTH + 1] = [
        Complete::predict_n::<1>,
        Complete::predict_n::<2>,
        Complete::predict_n::<4>,
        Complete::predict_n::<8>,
        Complete::predict_n::<16>,
        Complete::predict_n::<32>,
        Complete::predict_n::<64>,
        Complete::predict_n::<128>,
        Complete::predict_n::<256>,
        Complete::predict_n::<512>,
        Complete::predict_n::<1024>,
    ];
    walks.get(depth).copied()
}

/// What the plain walk reaches from node `at` on its `step`-th visit: a split or a
/// value (a leaf's, or 0 for a malformed tree).
enum Reached<'a> {
    Split(&'a super::gbt::Node),
    Value(f64),
}

fn reached(tree: &Tree, at: usize, step: usize) -> Reached<'_> {
    if step > tree.nodes.len() {
        return Reached::Value(0.0);
    }
    match tree.nodes.get(at) {
        None => Reached::Value(0.0),
        Some(n) if n.feature < 0 => Reached::Value(n.value),
        Some(n) => Reached::Split(n),
    }
}

/// Levels of splits the plain walk can pass from node `at`, or `None` past `limit`.
fn depth(tree: &Tree, at: usize, step: usize, limit: usize) -> Option<usize> {
    match reached(tree, at, step) {
        Reached::Value(_) => Some(0),
        Reached::Split(_) if limit == 0 => None,
        Reached::Split(n) => {
            let left = depth(tree, n.left as usize, step + 1, limit - 1)?;
            let right = depth(tree, n.right as usize, step + 1, limit - 1)?;
            Some(1 + left.max(right))
        }
    }
}

/// Writes the subtree of node `at` at position `pos` (breadth-first) of level `level`.
fn fill(tree: &Tree, at: usize, step: usize, pos: usize, level: usize, out: &mut CompiledTree) {
    let splits = out.leaves.len() - 1;
    if level == out.depth {
        // `depth` was measured first, so the walk has reached a value by here.
        if let Reached::Value(v) = reached(tree, at, step) {
            out.leaves[pos - splits] = v;
        }
        return;
    }
    match reached(tree, at, step) {
        Reached::Value(v) => {
            // Padding: every leaf below `pos` holds the value.
            let (mut first, mut count) = (pos, 1);
            for _ in level..out.depth {
                first = 2 * first + 1;
                count *= 2;
            }
            out.leaves[first - splits..first - splits + count].fill(v);
        }
        Reached::Split(n) => {
            out.features[pos] = n.feature as u8;
            out.thresholds[pos] = n.threshold;
            fill(tree, n.left as usize, step + 1, 2 * pos + 1, level + 1, out);
            fill(tree, n.right as usize, step + 1, 2 * pos + 2, level + 1, out);
        }
    }
}

struct CompiledTree {
    depth: usize,
    features: Vec<u8>,
    thresholds: Vec<f64>,
    leaves: Vec<f64>,
}

impl CompiledMembers {
    /// Compiles the members (once, when the model loads).
    pub fn new(members: &[Booster]) -> Self {
        let trees = || members.iter().flat_map(|b| b.trees.iter());
        let fits = trees().all(|t| t.nodes.iter().all(|n| n.feature < WIDTH as i32));
        let depth = trees().try_fold(0, |d: usize, t| depth(t, 0, 0, MAX_DEPTH).map(|e| d.max(e)));
        let depth_walk = depth.filter(|_| fits).and_then(|d| Some((d, walk_for(d)?)));
        let Some((depth, walk)) = depth_walk else { return Self::Plain(members.to_vec()) };
        let (slots, count) = (1 << depth, trees().count());
        let mut all = Complete {
            features: Vec::with_capacity(count * slots),
            thresholds: Vec::with_capacity(count * slots),
            leaves: Vec::with_capacity(count * slots),
            members: members.iter().map(|b| (b.base, b.trees.len())).collect(),
            walk,
        };
        for tree in trees() {
            let mut one = CompiledTree {
                depth,
                features: vec![0; slots],
                thresholds: vec![0.0; slots],
                leaves: vec![0.0; slots],
            };
            fill(tree, 0, 0, 0, 0, &mut one);
            all.features.extend(one.features);
            all.thresholds.extend(one.thresholds);
            all.leaves.extend(one.leaves);
        }
        Self::Complete(all)
    }

    /// How many members.
    pub fn len(&self) -> usize {
        match self {
            Self::Complete(c) => c.members.len(),
            Self::Plain(members) => members.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each member's prediction for `x` and for `x` with its first `antisymmetric`
    /// entries negated (the pair swapped), in member order, handed to `then`; the same
    /// values as `(b.predict(x), b.predict(&swapped))` for each booster `b`.
    pub fn with_predictions<R>(&self, x: &[f64], antisymmetric: usize, then: impl FnOnce(&[(f64, f64)]) -> R) -> R {
        const ON_STACK: usize = 16;
        let n = self.len();
        let mut stack = [(0.0, 0.0); ON_STACK];
        let mut heap = Vec::new();
        let out = if n <= ON_STACK {
            &mut stack[..n]
        } else {
            heap.resize(n, (0.0, 0.0));
            &mut heap[..]
        };
        match self {
            Self::Complete(c) => c.predict(x, antisymmetric, out),
            Self::Plain(members) => {
                let k = antisymmetric.min(x.len());
                let y: Vec<f64> = x[..k].iter().map(|v| -v).chain(x[k..].iter().copied()).collect();
                for (o, b) in out.iter_mut().zip(members) {
                    *o = (b.predict(x), b.predict(&y));
                }
            }
        }
        then(out)
    }
}

impl Complete {
    fn predict(&self, x: &[f64], antisymmetric: usize, out: &mut [(f64, f64)]) {
        // A feature past the end of `x` reads 0, as in the plain walk; every index a
        // byte can hold is in range, so the walk checks no bounds on `x`.
        let (mut xs, mut ys) = ([0.0; WIDTH], [0.0; WIDTH]);
        for (i, v) in x.iter().take(WIDTH).enumerate() {
            xs[i] = *v;
            ys[i] = if i < antisymmetric { -v } else { *v };
        }
        (self.walk)(self, &xs, &ys, out);
    }

    /// [`Complete::predict`] for trees of `N = 2^D` slots.
    fn predict_n<const N: usize>(&self, xs: &[f64; WIDTH], ys: &[f64; WIDTH], out: &mut [(f64, f64)]) {
        let mut first = 0;
        for (o, &(base, trees)) in out.iter_mut().zip(&self.members) {
            let span = first * N..(first + trees) * N;
            first += trees;
            let (Some(f), Some(t), Some(v)) =
                (self.features.get(span.clone()), self.thresholds.get(span.clone()), self.leaves.get(span))
            else {
                break;
            };
            // `Sum for f64` starts from −0.0; so does this sum, over the trees in order.
            let (mut sx, mut sy) = (-0.0, -0.0);
            let mut k = 0;
            while let (Some(f), Some(t), Some(v)) =
                (side_by_side::<_, N>(f, k), side_by_side::<_, N>(t, k), side_by_side::<_, N>(v, k))
            {
                let (mut ix, mut iy) = ([0; SIDE_BY_SIDE], [0; SIDE_BY_SIDE]);
                for _ in 0..N.trailing_zeros() {
                    for g in 0..SIDE_BY_SIDE {
                        ix[g] = step_in::<N>(f, t, g, xs, ix[g]);
                        iy[g] = step_in::<N>(f, t, g, ys, iy[g]);
                    }
                }
                for g in 0..SIDE_BY_SIDE {
                    sx += v[g * N + ((ix[g] + 1) & (N - 1))];
                    sy += v[g * N + ((iy[g] + 1) & (N - 1))];
                }
                k += SIDE_BY_SIDE;
            }
            while let (Some(f), Some(t), Some(v)) = (tree::<_, N>(f, k), tree::<_, N>(t, k), tree::<_, N>(v, k)) {
                let (mut ix, mut iy) = (0, 0);
                for _ in 0..N.trailing_zeros() {
                    ix = step(f, t, xs, ix);
                    iy = step(f, t, ys, iy);
                }
                sx += leaf(v, ix);
                sy += leaf(v, iy);
                k += 1;
            }
            *o = (base + sx, base + sy);
        }
    }
}

/// Tree `k`'s `N` slots.
#[inline(always)]
fn tree<T, const N: usize>(slots: &[T], k: usize) -> Option<&[T; N]> {
    slots.get(k * N..)?.first_chunk::<N>()
}

/// The slots of trees `k..k + SIDE_BY_SIDE`, one after the other.
#[inline(always)]
fn side_by_side<T, const N: usize>(slots: &[T], k: usize) -> Option<&[T]> {
    slots.get(k * N..)?.get(..SIDE_BY_SIDE * N)
}

/// [`step`] in tree `g` of [`side_by_side`]'s trees.
#[inline(always)]
fn step_in<const N: usize>(features: &[u8], thresholds: &[f64], g: usize, x: &[f64; WIDTH], i: usize) -> usize {
    let at = g * N + (i & (N - 1));
    2 * i + 2 - usize::from(x[usize::from(features[at])] <= thresholds[at])
}

/// One level down from split `i`: right unless "≤" (so a NaN goes right).
#[inline(always)]
fn step<const N: usize>(features: &[u8; N], thresholds: &[f64; N], x: &[f64; WIDTH], i: usize) -> usize {
    // Above the last level `i < N − 1`, so the mask changes nothing but the bounds check.
    let at = i & (N - 1);
    2 * i + 2 - usize::from(x[usize::from(features[at])] <= thresholds[at])
}

/// The value of the leaf the walk ended on (`N − 1 ≤ i < 2N − 1`).
#[inline(always)]
fn leaf<const N: usize>(leaves: &[f64; N], i: usize) -> f64 {
    leaves[(i + 1) & (N - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forecast::gbt::{fit, BoostParams, Node};
    use crate::forecast::trained::{estimate, estimate_compiled};
    use crate::forecast::Model;
    use crate::rng::Rng;

    fn plain(members: &[Booster], x: &[f64], k: usize) -> Vec<(f64, f64)> {
        let y: Vec<f64> = x.iter().enumerate().map(|(i, v)| if i < k { -v } else { *v }).collect();
        members.iter().map(|b| (b.predict(x), b.predict(&y))).collect()
    }

    fn bits(p: &[(f64, f64)]) -> Vec<(u64, u64)> {
        p.iter().map(|(a, b)| (a.to_bits(), b.to_bits())).collect()
    }

    /// Random inputs near the thresholds the trees split on, with some exact
    /// thresholds, zeros, NaNs and infinities among them.
    fn inputs(rng: &mut Rng, members: &[Booster], width: usize, count: usize) -> Vec<Vec<f64>> {
        let thresholds: Vec<f64> =
            members.iter().flat_map(|b| &b.trees).flat_map(|t| &t.nodes).map(|n| n.threshold).collect();
        (0..count)
            .map(|_| {
                (0..width)
                    .map(|_| match rng.below(10) {
                        0 => thresholds[rng.below(thresholds.len())],
                        1 => -thresholds[rng.below(thresholds.len())],
                        2 => [0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY][rng.below(5)],
                        _ => thresholds[rng.below(thresholds.len())] + (rng.below(2001) as f64 - 1000.0) / 997.0,
                    })
                    .collect()
            })
            .collect()
    }

    fn agree(members: &[Booster], xs: &[Vec<f64>], k: usize) {
        let compiled = CompiledMembers::new(members);
        for x in xs {
            let fast = compiled.with_predictions(x, k, |p| p.to_vec());
            assert_eq!(bits(&fast), bits(&plain(members, x, k)), "x = {x:?}");
        }
    }

    #[test]
    fn the_shipped_trees_compiled_predict_the_same_bits_as_the_plain_walk() {
        let model = Model::shipped().expect("loads");
        let compiled = CompiledMembers::new(&model.members);
        assert!(matches!(compiled, CompiledMembers::Complete(_)), "the shipped model fits the fast layout");
        let k = crate::forecast::trained::antisymmetric_len();
        let mut rng = Rng::with_state(20);
        agree(&model.members, &inputs(&mut rng, &model.members, model.features.len(), 3000), k);
        // Shorter and longer vectors than the model reads.
        agree(&model.members, &inputs(&mut rng, &model.members, 10, 200), k);
        agree(&model.members, &inputs(&mut rng, &model.members, 300, 50), k);
        // And so the same estimates.
        for x in inputs(&mut rng, &model.members, model.features.len(), 200) {
            let (plain, fast) = (estimate(&model.members, &x), estimate_compiled(&compiled, &x));
            assert_eq!(
                (plain.mu.to_bits(), plain.disagreement.to_bits()),
                (fast.mu.to_bits(), fast.disagreement.to_bits())
            );
        }
    }

    #[test]
    fn fitted_and_malformed_trees_compiled_predict_the_same_bits() {
        let mut rng = Rng::with_state(7);
        let x: Vec<Vec<f64>> =
            (0..300).map(|_| (0..5).map(|_| rng.below(1000) as f64 / 37.0 - 10.0).collect()).collect();
        let y: Vec<f64> = x.iter().map(|r| (r[0] * r[1]).sin() + r[2]).collect();
        let members: Vec<Booster> = (0..3)
            .map(|s| fit(&x, &y, &BoostParams { rounds: 30, depth: 4 + s as usize, ..BoostParams::default() }, s))
            .collect();
        agree(&members, &inputs(&mut rng, &members, 5, 2000), 3);

        let split = |f: i32, t: f64, l: u32, r: u32| Node { feature: f, threshold: t, left: l, right: r, value: 0.0 };
        let leaf = |v: f64| Node { feature: -1, threshold: 0.0, left: 0, right: 0, value: v };
        let odd = Booster {
            base: 0.25,
            trees: vec![
                // A cycle, a dangling child, a lone leaf, −0.0 leaves, an empty tree.
                Tree { nodes: vec![split(0, 1.0, 0, 1), leaf(2.0)] },
                Tree { nodes: vec![split(1, 0.5, 9, 1), leaf(-3.0)] },
                Tree { nodes: vec![leaf(0.125)] },
                Tree { nodes: vec![split(2, 0.0, 1, 2), leaf(-0.0), leaf(-0.0)] },
                Tree { nodes: Vec::new() },
                Tree { nodes: vec![split(4, -1.0, 1, 2), split(3, 2.0, 3, 4), leaf(1.5), leaf(-1.5), leaf(0.5)] },
            ],
        };
        let zero = Booster { base: -0.0, trees: vec![Tree { nodes: vec![leaf(-0.0)] }] };
        let members = vec![odd, zero, Booster { base: 1.0, trees: Vec::new() }];
        assert!(matches!(CompiledMembers::new(&members), CompiledMembers::Complete(_)));
        agree(&members, &inputs(&mut rng, &members, 5, 2000), 2);

        // A long cycle is deeper than the layout holds: the plain walk, same answers.
        let long = Tree { nodes: (0..20).map(|i| split(0, 0.0, (i + 1) % 20, (i + 1) % 20)).collect() };
        let members = vec![Booster { base: 0.0, trees: vec![long] }];
        assert!(matches!(CompiledMembers::new(&members), CompiledMembers::Plain(_)));
        agree(&members, &inputs(&mut rng, &members, 2, 50), 1);
    }
}
